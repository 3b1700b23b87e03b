import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IoTDBValidationError } from '@iotdb/fast-serializer';
import { passwordOf, resolveSessionOptions } from '../session/options.js';
import { Session } from '../session/session.js';
import { SessionPool, TableSessionPool } from '../pool/session-pool.js';
import { TableSession } from '../session/table-session.js';

const VARIABLES = ['IOTDB_HOST', 'IOTDB_PORT', 'IOTDB_USER', 'IOTDB_PASSWORD', 'IOTDB_NODE_URLS'];

function errorOf(fn: () => unknown): IoTDBValidationError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(IoTDBValidationError);
    return e as IoTDBValidationError;
  }
  throw new Error('did not throw');
}

beforeEach(() => {
  for (const v of VARIABLES) vi.stubEnv(v, undefined);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('environment variables', () => {
  it('give host, port, user and password when neither options nor a URL do', () => {
    vi.stubEnv('IOTDB_HOST', 'db.env');
    vi.stubEnv('IOTDB_PORT', '6700');
    vi.stubEnv('IOTDB_USER', 'envuser');
    vi.stubEnv('IOTDB_PASSWORD', 'env-secret');
    const r = resolveSessionOptions();
    expect(r).toMatchObject({ host: 'db.env', port: 6700, username: 'envuser' });
    expect(r.endpoints).toEqual([{ host: 'db.env', port: 6700 }]);
    expect(passwordOf(r)).toBe('env-secret');
  });

  it('IOTDB_NODE_URLS gives the nodes (comma-separated, IPv6 in brackets) and wins over IOTDB_HOST', () => {
    vi.stubEnv('IOTDB_HOST', 'ignored');
    vi.stubEnv('IOTDB_NODE_URLS', 'n1:6667, n2:6668,[::1]:6669');
    expect(resolveSessionOptions().endpoints).toEqual([
      { host: 'n1', port: 6667 },
      { host: 'n2', port: 6668 },
      { host: '::1', port: 6669 },
    ]);
  });

  it('are read by every constructor: Session, TableSession, SessionPool, TableSessionPool', async () => {
    vi.stubEnv('IOTDB_PORT', 'abc');
    for (const make of [
      () => new Session(),
      () => new TableSession(),
      () => new SessionPool(),
      () => new TableSessionPool(),
    ]) {
      expect(errorOf(make).field).toBe('IOTDB_PORT');
    }
    vi.stubEnv('IOTDB_PORT', '6701');
    const pool = new SessionPool();
    await pool.close();
  });

  it('a bad value is an error naming the variable, with the value', () => {
    vi.stubEnv('IOTDB_PORT', 'abc');
    const e = errorOf(() => resolveSessionOptions());
    expect(e.field).toBe('IOTDB_PORT');
    expect(e.message).toBe("IOTDB_PORT: needs a port 1-65535, got 'abc'");
    vi.stubEnv('IOTDB_PORT', '70000');
    expect(errorOf(() => resolveSessionOptions()).field).toBe('IOTDB_PORT');
    vi.stubEnv('IOTDB_NODE_URLS', 'n1:6667,n2');
    const urls = errorOf(() => resolveSessionOptions({ port: 1 }));
    expect(urls.field).toBe('IOTDB_NODE_URLS');
    expect(urls.message).toContain("'n2'");
  });

  it('a bad value that nothing uses is no error (Kubernetes sets IOTDB_PORT=tcp://... for a service "iotdb")', () => {
    vi.stubEnv('IOTDB_PORT', 'tcp://10.0.0.1:6667');
    expect(resolveSessionOptions({ port: 6667 }).port).toBe(6667);
    expect(resolveSessionOptions('iotdb://h:6668').port).toBe(6668);
    expect(resolveSessionOptions({ nodeUrls: ['a:1'] }).endpoints).toEqual([{ host: 'a', port: 1 }]);
  });

  it('an empty variable counts as unset', () => {
    vi.stubEnv('IOTDB_HOST', '');
    vi.stubEnv('IOTDB_PORT', ' ');
    expect(resolveSessionOptions()).toMatchObject({ host: '127.0.0.1', port: 6667 });
  });

  it('never shows IOTDB_PASSWORD in errors or on the resolved options', () => {
    vi.stubEnv('IOTDB_PASSWORD', 'env-hunter2');
    vi.stubEnv('IOTDB_PORT', 'abc');
    expect(errorOf(() => new Session({ fetchSize: -1 })).message).not.toContain('env-hunter2');
    vi.stubEnv('IOTDB_PORT', '6667');
    expect(JSON.stringify(resolveSessionOptions())).not.toContain('env-hunter2');
  });
});
