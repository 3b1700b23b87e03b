import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BufferPool, IoTDBValidationError } from '@iotdb/fast-serializer';
import { Session } from '../session/session.js';
import { TableSession } from '../session/table-session.js';
import { SessionPool, TableSessionPool } from '../pool/session-pool.js';
import { FakeTransport } from '../transport/fake-transport.js';
import { tlsTransport } from '../transport/tls-transport.js';
import { resolveSessionOptions, type SessionOptions } from '../session/options.js';

function errorOf(fn: () => unknown): IoTDBValidationError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(IoTDBValidationError);
    return e as IoTDBValidationError;
  }
  throw new Error('did not throw');
}

/** Options as a user's untyped config file might hold them. */
const untyped = (o: Record<string, unknown>) => o as SessionOptions;

beforeEach(() => {
  for (const v of ['IOTDB_HOST', 'IOTDB_PORT', 'IOTDB_USER', 'IOTDB_PASSWORD', 'IOTDB_NODE_URLS'])
    vi.stubEnv(v, undefined);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('validation at construction: one error listing every problem', () => {
  it('lists every unknown and invalid option at once, each in `issues` and on its own line', () => {
    const e = errorOf(() => new Session(untyped({ fetchsize: 10, port: 0, int64As: 'x', retry: { maxElapsed: 1 } })));
    expect(e.code).toBe('IOTDB_INVALID_ARG');
    expect(e.field).toBe('options');
    expect(e.issues).toEqual([
      { field: 'fetchsize', message: "unknown option (did you mean 'fetchSize'?)" },
      { field: 'retry.maxElapsed', message: "unknown option (did you mean 'maxElapsedMs'?)" },
      { field: 'port', message: 'needs 1-65535, got 0' },
      { field: 'int64As', message: "needs 'bigint' or 'number', got 'x'" },
    ]);
    expect(e.message).toBe(
      'options: 4 problems' +
        "\n  - fetchsize: unknown option (did you mean 'fetchSize'?)" +
        "\n  - retry.maxElapsed: unknown option (did you mean 'maxElapsedMs'?)" +
        '\n  - port: needs 1-65535, got 0' +
        "\n  - int64As: needs 'bigint' or 'number', got 'x'",
    );
  });

  it('keeps the one-problem error as it was: the field and its message', () => {
    const e = errorOf(() => new Session({ fetchSize: -1 }));
    expect(e.field).toBe('fetchSize');
    expect(e.message).toBe('fetchSize: needs a positive integer, got -1');
    expect(e.issues).toEqual([{ field: 'fetchSize', message: 'needs a positive integer, got -1' }]);
  });

  it('suggests nothing for a name far from every option', () => {
    expect(errorOf(() => new Session(untyped({ colour: 'blue' }))).message).toBe('colour: unknown option');
  });

  it('names the option a name of the Java Session or of a Node pool is here', () => {
    const issues = (make: () => unknown) => errorOf(make).issues.map((i) => `${i.field}: ${i.message}`);
    expect(
      issues(
        () =>
          new SessionPool(
            untyped({ zoneId: 'UTC', enableAutoFetch: false, waitToGetSessionTimeoutInMs: 5, useSSL: true, max: 4 }),
          ),
      ),
    ).toEqual([
      "zoneId: unknown option (did you mean 'timeZone'? zoneId is the Java Session's name)",
      "enableAutoFetch: unknown option (did you mean 'spreadQueries'? enableAutoFetch is the Java Session's name)",
      "waitToGetSessionTimeoutInMs: unknown option (did you mean 'waitTimeoutMs'? waitToGetSessionTimeoutInMs is the Java SessionPool's name)",
      "useSSL: unknown option (did you mean 'tls'? useSSL is the Java Session's name)",
      "max: unknown option (did you mean 'maxSize'? max is node-postgres's name)",
    ]);
    expect(issues(() => new Session(untyped({ maxRetryCount: 3, connectionTimeoutInMs: 9 })))).toEqual([
      "maxRetryCount: unknown option (did you mean 'retry'? maxRetryCount is the Java Session's name; retries here are bounded by time: retry.maxElapsedMs)",
      "connectionTimeoutInMs: unknown option (did you mean 'connectTimeoutMs'? connectionTimeoutInMs is the Java Session's name)",
    ]);
    // a pool's name on a session is refused as any unknown one: the hint would name an option it does not take
    expect(issues(() => new Session(untyped({ max: 4 })))).toEqual(['max: unknown option']);
    expect(issues(() => new Session('iotdb://h?zoneId=UTC'))).toEqual([
      "zoneId: unknown connection string parameter (did you mean 'timeZone'? zoneId is the Java Session's name)",
    ]);
  });

  it('checks problems of the URL and of the options together', () => {
    const e = errorOf(() => new Session({ url: 'iotdb://h:0?fetchSize=x', requestTimeoutMs: -1 }));
    expect(e.issues.map((i) => i.field)).toEqual(['url', 'fetchSize', 'requestTimeoutMs']);
  });

  it('refuses the table options on tree sessions and pool options on sessions', () => {
    expect(errorOf(() => new Session(untyped({ database: 'db' }))).field).toBe('database');
    expect(errorOf(() => new TableSession(untyped({ maxSize: 2 }))).field).toBe('maxSize');
  });

  it('pools check session and pool options at construction, all together', async () => {
    const e = errorOf(() => new SessionPool(untyped({ maxSize: 0, fetchSize: 0, minSize: -1, typo: 1 })));
    expect(e.issues.map((i) => i.field).sort()).toEqual(['fetchSize', 'maxSize', 'minSize', 'typo']);
    expect(errorOf(() => new TableSessionPool(untyped({ databse: 'db' }))).message).toContain(
      "did you mean 'database'",
    );
    expect(errorOf(() => new SessionPool({ minSize: 3, maxSize: 2 })).field).toBe('minSize');
    expect(errorOf(() => new SessionPool({ deviceBinding: 'yes' as unknown as boolean })).field).toBe('deviceBinding');
    const fine = new TableSessionPool({ database: 'db', maxSize: 2, transport: new FakeTransport() });
    await fine.close();
  });

  it('refuses a pool larger than a DataNode takes connections (65535), before it allocates anything', () => {
    // maxSize 1e7 took 0.9 s and 690 MB before, 2e8 a RangeError from Array.from
    const e = errorOf(() => new SessionPool({ maxSize: 10_000_000 }));
    expect(e.field).toBe('maxSize');
    expect(e.message).toContain('at most 65535');
    expect(errorOf(() => new SessionPool('iotdb://h:6667?maxSize=200000000')).field).toBe('maxSize');
    expect(errorOf(() => new SessionPool({ minSize: 70_000, maxSize: 80_000 })).issues.map((i) => i.field)).toEqual([
      'maxSize',
      'minSize',
    ]);
  });

  it('refuses what is not an options object or a connection string', () => {
    expect(errorOf(() => new Session(null as unknown as SessionOptions)).field).toBe('options');
    expect(errorOf(() => new SessionPool(42 as unknown as SessionOptions)).field).toBe('options');
    expect(errorOf(() => new Session({ url: 42 as unknown as string })).field).toBe('url');
  });
});

describe('validation of nested options', () => {
  it('retry: its own keys, each one checked', () => {
    const e = errorOf(() => new Session({ retry: { maxElapsedMs: -1, initialDelayMs: 1.5 } }));
    expect(e.issues.map((i) => i.field)).toEqual(['retry.maxElapsedMs', 'retry.initialDelayMs']);
    expect(errorOf(() => new Session({ retry: { initialDelayMs: 10, maxDelayMs: 5 } })).field).toBe('retry.maxDelayMs');
    expect(errorOf(() => new Session(untyped({ retry: 3 }))).field).toBe('retry');
  });

  it("tls: true, or Node's tls.ConnectionOptions whatever their keys", () => {
    expect(() => new Session({ tls: true })).not.toThrow();
    expect(
      () => new Session({ tls: { ca: 'x', rejectUnauthorized: false, servername: 'db', minVersion: 'TLSv1.3' } }),
    ).not.toThrow();
    expect(errorOf(() => new Session(untyped({ tls: 'yes' }))).field).toBe('tls');
    // a Node option this client does not know of (a later Node's) is Node's to take
    expect(() => new Session(untyped({ tls: { ca: 'x', family: 4, someFutureOption: true } }))).not.toThrow();
  });

  it("tls: a misspelt option Node would ignore is refused, naming Node's (a typo of minVersion let TLS 1.2 in)", () => {
    const misspelt = [
      [{ rejectUnauthorised: false }, 'tls.rejectUnauthorised', 'rejectUnauthorized'],
      [{ serverName: 'db' }, 'tls.serverName', 'servername'],
      [{ minversion: 'TLSv1.3' }, 'tls.minversion', 'minVersion'],
      [{ CA: 'x' }, 'tls.CA', 'ca'],
      [{ certs: 'x' }, 'tls.certs', 'cert'],
    ] as const;
    for (const [tls, field, near] of misspelt) {
      const e = errorOf(() => new Session(untyped({ tls })));
      expect(e.field).toBe(field);
      expect(e.message).toContain(`did you mean ${near}?`);
      expect(errorOf(() => tlsTransport(tls as never)).field).toBe(field);
    }
    expect(errorOf(() => tlsTransport(null as never)).message).toBe('tls: needs tls.ConnectionOptions, got null');
  });

  it('tls: where to connect is not a TLS option (host, port, path and socket would be overridden or reach one node)', () => {
    for (const key of ['host', 'port', 'path', 'socket']) {
      const e = errorOf(() => new Session(untyped({ tls: { ca: 'x', [key]: 'db.example' } })));
      expect(e.field).toBe(`tls.${key}`);
      expect(e.message).toContain('servername');
    }
    // @ts-expect-error where to connect is not in the options' type either
    expect(errorOf(() => new Session({ tls: { host: 'db.example' } })).field).toBe('tls.host');
  });

  it('transport, bufferPool and logger: objects checked by their methods', () => {
    expect(() => new Session({ transport: new FakeTransport(), bufferPool: new BufferPool() })).not.toThrow();
    const logger = { debug() {}, info() {}, warn() {}, error() {} };
    expect(() => new SessionPool({ logger })).not.toThrow();
    const e = errorOf(
      () => new Session(untyped({ transport: {}, bufferPool: { acquire() {} }, logger: { info() {} } })),
    );
    expect(e.issues.map((i) => i.field)).toEqual(['bufferPool', 'transport', 'logger']);
    expect(e.issues[0].message).toBe('needs an object with acquire() and release(), got an object');
  });

  it('checks the types of scalar options', () => {
    const e = errorOf(
      () => new Session(untyped({ host: 5, username: '', timeZone: 3, rpcCompression: 'no', enableRedirection: 1 })),
    );
    expect(e.issues.map((i) => i.field)).toEqual([
      'host',
      'username',
      'timeZone',
      'rpcCompression',
      'enableRedirection',
    ]);
  });

  it('refuses nodeUrls given as one string, as IOTDB_NODE_URLS takes them, saying it needs an array', () => {
    const e = errorOf(() => new Session({ nodeUrls: 'a:1,b:2' as never }));
    expect(e.message).toBe(
      `nodeUrls: needs an array of 'host:port' (comma-separated in IOTDB_NODE_URLS or a connection string: iotdb://h1:6667,h2:6667), got 'a:1,b:2'`,
    );
    expect(errorOf(() => new Session({ nodeUrls: [] })).message).toBe("nodeUrls: needs at least one 'host:port'");
  });

  it('refuses host or port beside nodeUrls in the options, which would not be used (the Java Session refuses both)', () => {
    const both = /^nodeUrls: give nodeUrls or host and port, not both: host '10\.9\.9\.9' would not be used/;
    expect(errorOf(() => new Session({ host: '10.9.9.9', nodeUrls: ['127.0.0.1:6667'] })).message).toMatch(both);
    expect(errorOf(() => new SessionPool({ host: '10.9.9.9', nodeUrls: ['127.0.0.1:6667'] })).message).toMatch(both);
    expect(errorOf(() => new TableSession({ port: 6668, nodeUrls: ['a:6667'] })).message).toMatch(
      /^nodeUrls: give nodeUrls or host and port, not both: port 6668 would not be used \(each of nodeUrls names a node and its port\)/,
    );
    // host and port of other places (a connection string, the environment) still give way to the option
    expect(() => new Session({ url: 'iotdb://u1:7001', nodeUrls: ['o1:1'] })).not.toThrow();
    expect(() => new Session({ host: undefined, port: undefined, nodeUrls: ['o1:1'] })).not.toThrow();
  });

  it('refuses a port in the options where every node comes with its own (IOTDB_NODE_URLS, a URL of several hosts)', () => {
    vi.stubEnv('IOTDB_NODE_URLS', '127.0.0.1:6667,127.0.0.2:6668');
    expect(errorOf(() => new Session({ port: 7000 })).message).toBe(
      'port: 7000 would not be used: the nodes come from IOTDB_NODE_URLS, each with its port (127.0.0.1:6667,127.0.0.2:6668); give host beside port, or leave port out',
    );
    expect(() => new Session({ host: '10.0.0.1', port: 7000 })).not.toThrow(); // host and port: IOTDB_NODE_URLS unused
    vi.stubEnv('IOTDB_NODE_URLS', undefined);
    expect(errorOf(() => new SessionPool({ url: 'iotdb://u1:7001,u2:7002', port: 7000 })).message).toBe(
      'port: 7000 would not be used: the nodes come from the connection string, each with its port (u1:7001,u2:7002); give host beside port, or leave port out',
    );
    // a host of the URL without a port takes the option's
    expect(resolveSessionOptions({ url: 'iotdb://u1:7001,u2', port: 7000 }).endpoints).toEqual([
      { host: 'u1', port: 7001 },
      { host: 'u2', port: 7000 },
    ]);
  });

  it('refuses a time zone the server cannot take (its login failed with "Internal error processing openSession")', () => {
    const e = errorOf(() => new Session({ timeZone: 'nope' }));
    expect(e.field).toBe('timeZone');
    expect(e.message).toMatch(/^timeZone: needs a zone the server knows: .*got 'nope'/);
    for (const zone of ['+25:00', '+19', '+18:30', '+8:00', '+08:3015', 'UTC+abc', 'GMTx', 'EST', 'ROC'])
      expect(errorOf(() => new Session({ timeZone: zone })).field, zone).toBe('timeZone');
    const accepted = ['Asia/Shanghai', 'UTC', 'Z', 'GMT', 'UT', 'GMT+8', 'UTC+05:30', '+0800', '+08:00', '-3', '-18'];
    // Zulu: a region Java 17's ZoneId.of takes (a link to Etc/UTC), not Z with 'ulu' after it
    for (const zone of [...accepted, 'Etc/GMT-3', '+08:30:15', '+083015', 'GMT-0930', 'Zulu', 'UCT', 'GMT0', 'PRC'])
      expect(() => new Session({ timeZone: zone }), zone).not.toThrow();
    for (const zone of ['Zx', 'Z+8', 'UTC0'])
      expect(errorOf(() => new Session({ timeZone: zone })).field, zone).toBe('timeZone');
  });

  it('lists every bad node of nodeUrls', () => {
    const e = errorOf(() => new Session({ nodeUrls: ['a:1', 'b', 'c:0'] }));
    expect(e.issues.map((i) => i.field)).toEqual(['nodeUrls[1]', 'nodeUrls[2]']);
  });
});

describe("validation against the protocol's field sizes", () => {
  it("fetchSize beyond its 32-bit field: the session option and a query's, before anything is sent", async () => {
    expect(errorOf(() => new Session({ fetchSize: 2 ** 31 })).message).toBe(
      'fetchSize: needs at most 2147483647 (a 32-bit field of the protocol), got 2147483648',
    );
    const fake = new FakeTransport();
    const s = new Session({ nodeUrls: ['10.0.0.1:6667'], transport: fake });
    await s.open();
    try {
      const e = await s.executeQueryStatement('SELECT 1', { fetchSize: 5e9 }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(IoTDBValidationError); // it was Node's RangeError, thrown by the encoder
      expect(fake.callsOf('executeQueryStatementV2')).toHaveLength(0);
      await s.executeQueryStatement('SELECT 1', { fetchSize: 2 ** 31 - 1 }).then((ds) => ds.close());
    } finally {
      await s.close();
    }
  });
});

describe("validation against the protocol's frame length", () => {
  it('maxFrameBytes beyond the 32-bit length of a frame: refused, not a RangeError when a request gets that big', () => {
    expect(errorOf(() => new Session({ maxFrameBytes: 2 ** 31 })).message).toBe(
      'maxFrameBytes: needs at most 2147483647 (a 32-bit field of the protocol), got 2147483648',
    );
    expect(() => new Session({ maxFrameBytes: 2 ** 31 - 1 })).not.toThrow();
  });
});

describe('passwords stay out of errors and objects', () => {
  const secret = 'Zs9-hunter2';

  it('no error message, issue or JSON of an error shows the password of the options or the URL', () => {
    const errors = [
      errorOf(() => new Session(untyped({ password: secret, fetchSize: 0, bogus: secret }))),
      errorOf(() => new Session(`iotdb://root:${secret}@h:0?fetchSize=x`)),
      errorOf(() => new SessionPool({ url: `iotdb://root:${secret}@h:6667`, maxSize: 0 })),
      errorOf(() => new Session(`iotdb://root:${secret}/x@h:6667`)),
      errorOf(() => new Session(`iotdb://root:${secret}@h:6667/db`)),
      errorOf(() => new Session(untyped({ password: 42 }))),
    ];
    for (const e of errors) {
      expect(e.message).not.toContain(secret);
      expect(JSON.stringify(e.issues)).not.toContain(secret);
      expect(inspect(e, { depth: 10, showHidden: true })).not.toContain(secret);
    }
  });

  it('no session or pool built from a URL shows its password or the URL (inspect, JSON)', async () => {
    const url = `iotdb://root:${secret}@h:6667`;
    const objects = [new Session(url), new TableSession({ url }), new SessionPool(url), new TableSessionPool(url)];
    for (const o of objects) {
      expect(inspect(o, { showHidden: true, depth: 10 })).not.toContain(secret);
      expect(JSON.stringify(Object.entries(o))).not.toContain(secret);
    }
    await Promise.all(objects.map((o) => o.close()));
  });
});

describe("the user's guide example", () => {
  it('prints the three problems as the guide shows them', () => {
    const e = errorOf(() => new SessionPool(untyped({ fetchsize: 100, maxSize: 0, retry: { maxElapsed: 5 } })));
    expect(e.message).toBe(
      'options: 3 problems\n' +
        "  - fetchsize: unknown option (did you mean 'fetchSize'?)\n" +
        "  - retry.maxElapsed: unknown option (did you mean 'maxElapsedMs'?)\n" +
        '  - maxSize: needs at least 1',
    );
  });
});
