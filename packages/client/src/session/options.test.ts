import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BufferPool, IoTDBValidationError, globalBufferPool } from '@iotdb/fast-serializer';
import { IoTDBSessionClosedError } from '../errors.js';
import { Session } from './session.js';
import { TableSession } from './table-session.js';
import { SessionPool } from '../pool/session-pool.js';
import { SESSION_DEFAULTS, passwordOf, resolveSessionOptions, type SessionOptions } from './options.js';

function validationErrorOf(o: SessionOptions): IoTDBValidationError {
  try {
    resolveSessionOptions(o);
  } catch (e) {
    expect(e).toBeInstanceOf(IoTDBValidationError);
    return e as IoTDBValidationError;
  }
  throw new Error(`resolveSessionOptions(${JSON.stringify(o)}) did not throw`);
}

describe('resolveSessionOptions defaults', () => {
  it('fills every option with its documented default', () => {
    const r = resolveSessionOptions();
    expect(r.host).toBe('127.0.0.1');
    expect(r.port).toBe(6667);
    expect(r.username).toBe('root');
    expect(passwordOf(r)).toBe('root');
    expect(r.fetchSize).toBe(5000);
    expect(r.connectTimeoutMs).toBe(10_000);
    expect(r.requestTimeoutMs).toBe(60_000);
    expect(r.maxFrameBytes).toBe(512 * 1024 * 1024);
    expect(r.enableFastSerialization).toBe(true);
    expect(r.int64As).toBe('bigint');
    expect(r.bufferPool).toBe(globalBufferPool);
    expect(r.timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('exports the defaults it fills in (SESSION_DEFAULTS), frozen and without a password', () => {
    const r = resolveSessionOptions();
    for (const [k, v] of Object.entries(SESSION_DEFAULTS)) expect(r[k as keyof typeof r], k).toBe(v);
    expect(Object.isFrozen(SESSION_DEFAULTS)).toBe(true);
    expect(Object.keys(SESSION_DEFAULTS)).not.toContain('password');
  });

  it('treats an empty object like no options', () => {
    const a = resolveSessionOptions({});
    const b = resolveSessionOptions();
    expect({ ...a, password: passwordOf(a) }).toEqual({ ...b, password: passwordOf(b) });
  });

  it('keeps every option given', () => {
    const pool = new BufferPool();
    const r = resolveSessionOptions({
      host: 'db.example',
      port: 1,
      username: 'u',
      password: 'secret',
      fetchSize: 1,
      timeZone: '+08:00',
      connectTimeoutMs: 5,
      requestTimeoutMs: 0,
      maxFrameBytes: 1024,
      enableFastSerialization: false,
      int64As: 'number',
      bufferPool: pool,
    });
    expect(r).toMatchObject({
      host: 'db.example',
      port: 1,
      username: 'u',
      fetchSize: 1,
      timeZone: '+08:00',
      connectTimeoutMs: 5,
      requestTimeoutMs: 0,
      maxFrameBytes: 1024,
      enableFastSerialization: false,
      int64As: 'number',
    });
    expect(passwordOf(r)).toBe('secret');
    expect(r.bufferPool).toBe(pool);
  });

  it('accepts port 65535, the highest valid port', () => {
    expect(resolveSessionOptions({ port: 65535 }).port).toBe(65535);
  });
});

describe('resolveSessionOptions validation', () => {
  it.each([
    ['port 0', { port: 0 }, 'port'],
    ['port 70000', { port: 70000 }, 'port'],
    ['port 65536', { port: 65536 }, 'port'],
    ['port -1', { port: -1 }, 'port'],
    ['port 1.5', { port: 1.5 }, 'port'],
    ['port NaN', { port: NaN }, 'port'],
    ['fetchSize -1', { fetchSize: -1 }, 'fetchSize'],
    ['fetchSize 0', { fetchSize: 0 }, 'fetchSize'],
    ['connectTimeoutMs 0', { connectTimeoutMs: 0 }, 'connectTimeoutMs'],
    ['requestTimeoutMs -1', { requestTimeoutMs: -1 }, 'requestTimeoutMs'],
    ['maxFrameBytes 0', { maxFrameBytes: 0 }, 'maxFrameBytes'],
    ["int64As 'x'", { int64As: 'x' as 'bigint' }, 'int64As'],
    ['empty host', { host: '' }, 'host'],
  ] satisfies [string, SessionOptions, string][])(
    'refuses %s with IoTDBValidationError naming the field',
    (_label, o, field) => {
      const e = validationErrorOf(o);
      expect(e.field).toBe(field);
      expect(e.message.startsWith(`${field}:`)).toBe(true);
    },
  );

  it('quotes the bad value in the message', () => {
    expect(validationErrorOf({ port: 70000 }).message).toContain('70000');
    expect(validationErrorOf({ fetchSize: -1 }).message).toContain('-1');
    expect(validationErrorOf({ int64As: 'x' as 'bigint' }).message).toContain('x');
  });

  it('allows requestTimeoutMs 0 (no limit)', () => {
    expect(resolveSessionOptions({ requestTimeoutMs: 0 }).requestTimeoutMs).toBe(0);
  });

  it('validates in the Session and TableSession constructors, before any connection', () => {
    expect(() => new Session({ port: 0 })).toThrow(IoTDBValidationError);
    expect(() => new TableSession({ fetchSize: -1 })).toThrow(IoTDBValidationError);
    expect(() => new Session({ int64As: 'x' as 'bigint' })).toThrow(IoTDBValidationError);
  });
});

describe('password handling', () => {
  it('keeps the password off the resolved options altogether (no property, no JSON, no inspect)', () => {
    const r = resolveSessionOptions({ password: 'hunter2-secret' });
    expect(passwordOf(r)).toBe('hunter2-secret');
    expect(Object.getOwnPropertyNames(r)).not.toContain('password');
    expect(JSON.stringify(r)).not.toContain('hunter2-secret');
    expect(inspect(r, { showHidden: true, depth: 5 })).not.toContain('hunter2-secret');
  });

  it('shows the password nowhere on a session or a pool, even to util.inspect with hidden properties', () => {
    const s = new Session({ password: 'hunter2-secret' });
    const p = new SessionPool({ password: 'hunter2-secret' });
    for (const o of [s, p]) {
      expect(inspect(o, { showHidden: true, depth: 10 })).not.toContain('hunter2-secret');
      expect(JSON.stringify(Object.entries(o))).not.toContain('hunter2-secret');
    }
    void p.close();
  });

  it('defaults to root and refuses a password that is not a string', () => {
    expect(passwordOf(resolveSessionOptions())).toBe('root');
    expect(() => resolveSessionOptions({ password: 42 as unknown as string })).toThrow(IoTDBValidationError);
  });

  it('resolved options cannot be changed', () => {
    const r = resolveSessionOptions({ username: 'a' });
    expect(() => {
      (r as { username: string }).username = 'b';
    }).toThrow(TypeError); // ESM test files run in strict mode
  });
});

describe('a session that was never opened', () => {
  it('is not open and refuses calls with IoTDBSessionClosedError', async () => {
    const s = new Session({ port: 1 });
    expect(s.isOpen).toBe(false);
    await expect(s.executeQueryStatement('SHOW DATABASES')).rejects.toBeInstanceOf(IoTDBSessionClosedError);
    await expect(s.executeNonQueryStatement('FLUSH')).rejects.toBeInstanceOf(IoTDBSessionClosedError);
    await expect(s.close()).resolves.toBeUndefined();
  });

  it('starts with millisecond timestamp precision', () => {
    expect(new Session().timestampPrecision).toBe('ms');
  });

  it('keeps the TableSession database it was given', () => {
    expect(new TableSession({ database: 'db1' }).database).toBe('db1');
    expect(new TableSession().database).toBeUndefined();
  });
});
