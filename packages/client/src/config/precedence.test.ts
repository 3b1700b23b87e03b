import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { passwordOf, resolveSessionOptions } from '../session/options.js';
import { resolvePoolConfig } from './pool-config.js';
import { TableSession } from '../session/table-session.js';

// options > URL > environment > defaults, option by option
beforeEach(() => {
  vi.stubEnv('IOTDB_HOST', 'env-host');
  vi.stubEnv('IOTDB_PORT', '6001');
  vi.stubEnv('IOTDB_USER', 'env-user');
  vi.stubEnv('IOTDB_PASSWORD', 'env-pw');
  vi.stubEnv('IOTDB_NODE_URLS', undefined);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('precedence: options > URL > environment > defaults', () => {
  it('environment over defaults', () => {
    const r = resolveSessionOptions({});
    expect(r).toMatchObject({ host: 'env-host', port: 6001, username: 'env-user', fetchSize: 5000 });
    expect(passwordOf(r)).toBe('env-pw');
  });

  it('URL over environment', () => {
    const r = resolveSessionOptions('iotdb://url-user:url-pw@url-host:6002?fetchSize=7');
    expect(r).toMatchObject({ host: 'url-host', port: 6002, username: 'url-user', fetchSize: 7 });
    expect(passwordOf(r)).toBe('url-pw');
  });

  it('options over URL', () => {
    const r = resolveSessionOptions({
      url: 'iotdb://url-user:url-pw@url-host:6002?fetchSize=7',
      host: 'opt-host',
      port: 6003,
      username: 'opt-user',
      password: 'opt-pw',
      fetchSize: 8,
    });
    expect(r).toMatchObject({ host: 'opt-host', port: 6003, username: 'opt-user', fetchSize: 8 });
    expect(passwordOf(r)).toBe('opt-pw');
  });

  it('per option: the URL gives the host, the options the port, the environment the user', () => {
    const r = resolveSessionOptions({ url: 'iotdb://url-host', port: 6003 });
    expect(r).toMatchObject({ host: 'url-host', port: 6003, username: 'env-user' });
    expect(r.endpoints).toEqual([{ host: 'url-host', port: 6003 }]);
  });

  it('per option: a URL without a port takes the environment port; options host takes it too', () => {
    expect(resolveSessionOptions('iotdb://url-host').endpoints).toEqual([{ host: 'url-host', port: 6001 }]);
    expect(resolveSessionOptions({ host: 'opt-host' }).endpoints).toEqual([{ host: 'opt-host', port: 6001 }]);
  });

  it('the URL user without a password keeps the password of the environment', () => {
    expect(passwordOf(resolveSessionOptions('iotdb://url-user@h'))).toBe('env-pw');
  });

  it('the first layer that names a host gives the address: URL hosts over IOTDB_NODE_URLS', () => {
    vi.stubEnv('IOTDB_NODE_URLS', 'e1:1,e2:2');
    expect(resolveSessionOptions().endpoints).toEqual([
      { host: 'e1', port: 1 },
      { host: 'e2', port: 2 },
    ]);
    expect(resolveSessionOptions('iotdb://u1:7001,u2').endpoints).toEqual([
      { host: 'u1', port: 7001 },
      { host: 'u2', port: 6001 }, // a host without a port: the port from below (here IOTDB_PORT)
    ]);
    expect(resolveSessionOptions({ url: 'iotdb://u1:7001,u2', host: 'opt-host' }).endpoints).toEqual([
      { host: 'opt-host', port: 6001 },
    ]);
    expect(resolveSessionOptions({ url: 'iotdb://u1:7001', nodeUrls: ['o1:1'] }).endpoints).toEqual([
      { host: 'o1', port: 1 },
    ]);
  });

  it('retry merges per key: options over URL over defaults', () => {
    const r = resolveSessionOptions({
      url: 'iotdb://h?retry.maxElapsedMs=5&retry.maxDelayMs=900',
      retry: { maxDelayMs: 1000 },
    });
    expect(r.retry).toEqual({ maxElapsedMs: 5, initialDelayMs: 100, maxDelayMs: 1000 });
  });

  it('a table database: options over the URL path', () => {
    expect(new TableSession('iotdb://h/url_db').database).toBe('url_db');
    expect(new TableSession({ url: 'iotdb://h/url_db', database: 'opt_db' }).database).toBe('opt_db');
    expect(new TableSession({ url: 'iotdb://h?database=param_db' }).database).toBe('param_db');
  });

  it('pools: pool options from the URL, overridden by the options', () => {
    const c = resolvePoolConfig({ url: 'iotdb://h:1?maxSize=3&minSize=1&fetchSize=9', minSize: 2 }, 'tree');
    expect(c.pool).toMatchObject({ maxSize: 3, minSize: 2 });
    expect(c.session).toMatchObject({ host: 'h', port: 1, fetchSize: 9 });
  });

  it('undefined in the options counts as not given', () => {
    expect(resolveSessionOptions({ url: 'iotdb://url-host:6002', host: undefined, port: undefined }).port).toBe(6002);
  });
});
