import { randomBytes } from 'node:crypto';
import { Socket, connect, createServer, type Server } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import {
  IoTDBConnectionError,
  IoTDBError,
  IoTDBServerError,
  IoTDBSessionClosedError,
  IoTDBTimeoutError,
  IoTDBValidationError,
  Session,
  StatusCode,
  TableSession,
  type SessionOptions,
  type Tablet,
} from '../index.js';
import { useTreeDatabase } from '../testing/tree-database.js';

const { host, port } = inject('iotdb');
const DB = `root.it_errors_${randomBytes(4).toString('hex')}`;

let session: Session;

useTreeDatabase({ host, port }, DB, (s) => (session = s));

afterEach(() => {
  vi.restoreAllMocks();
});

async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

async function countRows(device: string, s: Session = session): Promise<number> {
  const c = await (await s.executeQueryStatement(`SELECT * FROM ${device}`)).toColumnar();
  return c.rowCount;
}

const good = (device: string, t: number): Tablet => ({
  deviceId: device,
  measurements: ['i', 's'],
  dataTypes: ['INT32', 'TEXT'],
  timestamps: [t],
  values: [[t, `v${t}`]],
});

describe('server errors', () => {
  it('rejects a statement with a SQL syntax error as IoTDBServerError 700 carrying the server message', async () => {
    const e = await failure(session.executeNonQueryStatement(`CREATE TIMESERIE ${DB}.d.s WITH DATATYPE=INT32`));
    expect(e).toBeInstanceOf(IoTDBServerError);
    expect(e).toBeInstanceOf(IoTDBError);
    const se = e as IoTDBServerError;
    expect(se.statusCode).toBe(700);
    expect(se.serverMessage.length).toBeGreaterThan(0);
    expect(se.serverMessage).toMatch(/TIMESERIE|parsing|mismatched|input/i);
    expect(se.message).toContain(se.serverMessage);
    expect(se.message).toContain('[700]');
    expect(se.name).toBe('IoTDBServerError');
  });

  it('rejects a query with a SQL syntax error as IoTDBServerError 700', async () => {
    const e = await failure(session.executeQueryStatement('SELEC * FROM root.**'));
    expect(e).toBeInstanceOf(IoTDBServerError);
    expect((e as IoTDBServerError).statusCode).toBe(700);
    expect((e as IoTDBServerError).serverMessage).toContain('SELEC');
  });

  it('keeps the session usable after a server error', async () => {
    await failure(session.executeQueryStatement('SELEC 1'));
    expect(session.isOpen).toBe(true);
    const device = `${DB}.after_sql_error`;
    await session.insertTablet(good(device, 1));
    expect(await countRows(device)).toBe(1);
  });

  it('rejects a write whose data type conflicts with the existing series as IoTDBServerError with a code', async () => {
    const device = `${DB}.typeclash`;
    await session.insertTablet({
      deviceId: device,
      measurements: ['v'],
      dataTypes: ['INT32'],
      timestamps: [1],
      values: [[1]],
    });
    const e = await failure(
      session.insertTablet({
        deviceId: device,
        measurements: ['v'],
        dataTypes: ['BOOLEAN'],
        timestamps: [2],
        values: [[true]],
      }),
    );
    expect(e).toBeInstanceOf(IoTDBServerError);
    const code = (e as IoTDBServerError).statusCode;
    expect(Number.isInteger(code)).toBe(true);
    expect(code).not.toBe(StatusCode.SUCCESS);
    expect(code).not.toBe(StatusCode.REDIRECTION_RECOMMEND);
    // nothing of the failed write is there, and the session goes on
    expect(await countRows(device)).toBe(1);
    await session.insertTablet({
      deviceId: device,
      measurements: ['v'],
      dataTypes: ['INT32'],
      timestamps: [3],
      values: [[3]],
    });
    expect(await countRows(device)).toBe(2);
  });

  it('rejects a record whose data type conflicts with the existing series as IoTDBServerError', async () => {
    const device = `${DB}.typeclashrec`;
    await session.insertRecord({
      deviceId: device,
      timestamp: 1,
      measurements: ['v'],
      dataTypes: ['TEXT'],
      values: ['x'],
    });
    const e = await failure(
      session.insertRecords([
        { deviceId: device, timestamp: 2, measurements: ['v'], dataTypes: ['DOUBLE'], values: [1.5] },
      ]),
    );
    expect(e).toBeInstanceOf(IoTDBServerError);
    expect((e as IoTDBServerError).statusCode).toBeTypeOf('number');
  });
});

describe('writes the server refuses for good', () => {
  // IoTDB 2.0.1-beta answers both 301 EXECUTE_STATEMENT_ERROR, the code it also gives while a DataNode restarts:
  // such a write would otherwise be sent again for the whole retry budget (60 s by default) before failing.
  it('fails at once, sent once, when the user may write the data but not create its series (301 "No permissions")', async () => {
    const user = `it_user_${randomBytes(3).toString('hex')}`;
    await session.executeNonQueryStatement(`CREATE USER ${user} 'pw-${user}'`);
    const writer = new Session({ host, port, username: user, password: `pw-${user}` });
    try {
      await session.executeNonQueryStatement(`GRANT WRITE_DATA ON ${DB}.** TO USER ${user}`);
      await writer.open();
      const e = await failure(writer.insertTablet(good(`${DB}.no_schema_privilege`, 1)));
      expect(e).toBeInstanceOf(IoTDBServerError);
      expect((e as IoTDBServerError).statusCode).toBe(301);
      expect((e as IoTDBServerError).serverMessage).toContain('No permissions');
      expect((e as IoTDBServerError).attempts).toBeUndefined(); // sent once
      expect(writer.stats().retries).toBe(0);
    } finally {
      await writer.close();
      await session.executeNonQueryStatement(`DROP USER ${user}`);
    }
  });

  it('fails at once, sent once, for a device above a database (301 "Failed to get database Map")', async () => {
    const above = `root.it_above_${randomBytes(3).toString('hex')}`;
    await session.createDatabase(`${above}.db`);
    try {
      const e = await failure(session.insertTablet(good(above, 1)));
      expect(e).toBeInstanceOf(IoTDBServerError);
      expect((e as IoTDBServerError).statusCode).toBe(301);
      expect((e as IoTDBServerError).attempts).toBeUndefined();
    } finally {
      await session.deleteDatabase(`${above}.db`);
    }
  });
});

describe('open() failures', () => {
  it('rejects a wrong password with IoTDBServerError 801 and leaves the session closed', async () => {
    const s = new Session({ host, port, password: 'definitely-wrong' });
    const e = await failure(s.open());
    expect(e).toBeInstanceOf(IoTDBServerError);
    expect((e as IoTDBServerError).statusCode).toBe(801);
    expect((e as IoTDBServerError).statusCode).toBe(StatusCode.WRONG_LOGIN_PASSWORD);
    expect(s.isOpen).toBe(false);
    await expect(s.executeQueryStatement('SHOW DATABASES')).rejects.toBeInstanceOf(IoTDBSessionClosedError);
    await s.close();
  });

  it('does not show the password in the error', async () => {
    const s = new Session({ host, port, password: 'pw-that-must-not-leak' });
    const e = await failure(s.open());
    expect(String((e as Error).message)).not.toContain('pw-that-must-not-leak');
    expect(JSON.stringify(e)).not.toContain('pw-that-must-not-leak');
  });

  it("rejects a connection to a closed port with IoTDBConnectionError reason 'refused'", async () => {
    const s = new Session({ host: '127.0.0.1', port: 1, connectTimeoutMs: 2000 });
    const t0 = performance.now();
    const e = await failure(s.open());
    expect(e).toBeInstanceOf(IoTDBConnectionError);
    expect(e).not.toBeInstanceOf(IoTDBTimeoutError);
    expect((e as IoTDBConnectionError).reason).toBe('refused');
    expect((e as IoTDBConnectionError).endpoint).toBe('127.0.0.1:1');
    expect(performance.now() - t0).toBeLessThan(1500);
    expect(s.isOpen).toBe(false);
  });

  it('shares one connection attempt between concurrent open() calls', async () => {
    const s = new Session({ host, port });
    try {
      await Promise.all([s.open(), s.open(), s.open()]);
      expect(s.isOpen).toBe(true);
      await s.executeNonQueryStatement('FLUSH');
    } finally {
      await s.close();
    }
  });

  it('reports a table-session database that does not exist as IoTDBServerError on the first statement', async () => {
    const s = new TableSession({ host, port, database: `it_errors_missing_${randomBytes(4).toString('hex')}` });
    try {
      // IoTDB 2.0 accepts the login and refuses the database when it is used
      await s.open();
      const e = await failure(s.executeQueryStatement('SHOW TABLES'));
      expect(e).toBeInstanceOf(IoTDBServerError);
      expect((e as IoTDBServerError).serverMessage).toMatch(/it_errors_missing_/);
    } finally {
      await s.close();
    }
  });
});

describe('calls after close()', () => {
  it('reject with IoTDBSessionClosedError without writing to the network', async () => {
    const s = new Session({ host, port });
    await s.open();
    expect(s.isOpen).toBe(true);
    await s.close();
    expect(s.isOpen).toBe(false);
    const write = vi.spyOn(Socket.prototype, 'write');
    const device = `${DB}.closed`;
    const calls: [string, () => Promise<unknown>][] = [
      ['executeQueryStatement', () => s.executeQueryStatement('SHOW DATABASES')],
      ['executeNonQueryStatement', () => s.executeNonQueryStatement('FLUSH')],
      ['insertTablet', () => s.insertTablet(good(device, 1))],
      ['insertAlignedTablet', () => s.insertAlignedTablet(good(device, 1))],
      ['insertTablets', () => s.insertTablets([good(device, 1)])],
      [
        'insertRecord',
        () =>
          s.insertRecord({ deviceId: device, timestamp: 1, measurements: ['i'], dataTypes: ['INT32'], values: [1] }),
      ],
      [
        'insertRecords',
        () =>
          s.insertRecords([{ deviceId: device, timestamp: 1, measurements: ['i'], dataTypes: ['INT32'], values: [1] }]),
      ],
      // even invalid input: the closed session is reported first
      ['insertTablet (bad input)', () => s.insertTablet({ ...good(device, 1), values: [['x', 'y']] })],
    ];
    for (const [name, call] of calls) {
      const e = await failure(call());
      expect(e, name).toBeInstanceOf(IoTDBSessionClosedError);
    }
    expect(write).not.toHaveBeenCalled();
  });

  it('close() a second time is harmless', async () => {
    const s = new Session({ host, port });
    await s.open();
    await s.close();
    await expect(s.close()).resolves.toBeUndefined();
  });

  it('a closed session can be opened again', async () => {
    const s = new Session({ host, port });
    await s.open();
    await s.close();
    await s.open();
    try {
      const device = `${DB}.reopened`;
      await s.insertTablet(good(device, 5));
      expect(await countRows(device, s)).toBe(1);
    } finally {
      await s.close();
    }
  });

  it('a data set whose session was closed fails with an IoTDBError instead of ending early', async () => {
    const s = new Session({ host, port });
    await s.open();
    // ALIGN BY DEVICE over many devices answers a TsBlock per device: with fetchSize 10 most rows stay on the server
    const prefix = `${DB}.dsclosed`;
    await s.insertTablets(
      Array.from({ length: 10 }, (_, d) => ({
        deviceId: `${prefix}.d${d}`,
        measurements: ['i'],
        dataTypes: ['INT32' as const],
        timestamps: Array.from({ length: 20 }, (_, i) => i + 1),
        columns: [Array.from({ length: 20 }, (_, i) => i)],
      })),
    );
    const ds = await s.executeQueryStatement(`SELECT i FROM ${prefix}.* ALIGN BY DEVICE`, { fetchSize: 10 });
    await ds.next();
    await s.close();
    let read = 1;
    const e = await failure(
      (async () => {
        while (await ds.hasNext()) {
          await ds.next();
          read++;
        }
      })(),
    );
    expect(e).toBeInstanceOf(IoTDBError);
    expect(read).toBeLessThan(200);
    await expect(ds.close()).resolves.toBeUndefined();
  });
});

describe('bad tablet input', () => {
  const device = `${DB}.validation`;
  let t = 100;

  async function expectStillWorks(s: Session = session): Promise<void> {
    const before = await countRows(device, s).catch(() => 0);
    await s.insertTablet(good(device, ++t));
    expect(await countRows(device, s)).toBe(before + 1);
  }

  it('refuses values with fewer rows than timestamps (IoTDBValidationError), and the next insert succeeds', async () => {
    const e = await failure(session.insertTablet({ ...good(device, 1), timestamps: [1, 2, 3] }));
    expect(e).toBeInstanceOf(IoTDBValidationError);
    expect((e as IoTDBValidationError).field).toBe('values');
    await expectStillWorks();
  });

  it('refuses a column shorter than the timestamps (IoTDBValidationError)', async () => {
    const e = await failure(
      session.insertTablet({
        deviceId: device,
        measurements: ['i', 's'],
        dataTypes: ['INT32', 'TEXT'],
        timestamps: [1, 2],
        columns: [[1, 2], ['a']],
      }),
    );
    expect(e).toBeInstanceOf(IoTDBValidationError);
    expect((e as IoTDBValidationError).field).toBe('columns[1]');
    await expectStillWorks();
  });

  it('refuses a row with a missing cell (IoTDBValidationError)', async () => {
    const e = await failure(session.insertTablet({ ...good(device, 1), timestamps: [1, 2], values: [[1, 'a'], [2]] }));
    expect(e).toBeInstanceOf(IoTDBValidationError);
    expect((e as IoTDBValidationError).field).toBe('values[1]');
    await expectStillWorks();
  });

  it('refuses a string in an INT32 column (IoTDBValidationError naming the column), and the next insert succeeds', async () => {
    const e = await failure(
      session.insertTablet({
        ...good(device, 1),
        timestamps: [1, 2],
        values: [
          [1, 'a'],
          ['2', 'b'],
        ],
      }),
    );
    expect(e).toBeInstanceOf(IoTDBValidationError);
    expect((e as IoTDBValidationError).field).toMatch(/^values\[1\]\[0\]/); // row 1, column 0
    expect((e as Error).message).toContain('"i"');
    expect((e as Error).message).toContain('INT32');
    expect(session.isOpen).toBe(true);
    await expectStillWorks();
  });

  it('refuses a number in a TEXT column (IoTDBValidationError)', async () => {
    const e = await failure(session.insertTablet({ ...good(device, 1), values: [[1, 5]] }));
    expect(e).toBeInstanceOf(IoTDBValidationError);
    await expectStillWorks();
  });

  it('refuses an unknown data type (IoTDBValidationError)', async () => {
    const e = await failure(session.insertTablet({ ...good(device, 1), dataTypes: ['INT32', 'VARCHAR' as 'TEXT'] }));
    expect(e).toBeInstanceOf(IoTDBValidationError);
    expect((e as IoTDBValidationError).field).toBe('dataTypes[1]');
    await expectStillWorks();
  });

  it('refuses an unsafe integer timestamp (IoTDBValidationError)', async () => {
    const e = await failure(session.insertTablet({ ...good(device, 1), timestamps: [2 ** 60] }));
    expect(e).toBeInstanceOf(IoTDBValidationError);
    expect((e as IoTDBValidationError).field).toBe('timestamps[0]');
    await expectStillWorks();
  });

  it('names the tablet in insertTablets for a shape error, writes none of them, and the session goes on', async () => {
    const other = `${DB}.validation_multi`;
    const e = await failure(session.insertTablets([good(other, 1), { ...good(other, 2), timestamps: [2, 3] }]));
    expect(e).toBeInstanceOf(IoTDBValidationError);
    expect((e as IoTDBValidationError).field).toBe('tablets[1].values');
    expect(await countRows(other).catch(() => 0)).toBe(0);
    await expectStillWorks();
  });

  it('refuses a bad cell in the second tablet of insertTablets, writes none of them, and the session goes on', async () => {
    const other = `${DB}.validation_multi_cell`;
    const e = await failure(session.insertTablets([good(other, 1), { ...good(other, 2), values: [['x', 'y']] }]));
    expect(e).toBeInstanceOf(IoTDBValidationError);
    expect(await countRows(other).catch(() => 0)).toBe(0);
    await expectStillWorks();
  });

  it('names the tablet in insertTablets for a bad cell too (field starts with tablets[1].)', async () => {
    const e = await failure(
      session.insertTablets([
        good(`${DB}.validation_multi_cell2`, 1),
        { ...good(`${DB}.validation_multi_cell2`, 2), values: [['x', 'y']] },
      ]),
    );
    expect(e).toBeInstanceOf(IoTDBValidationError);
    expect((e as IoTDBValidationError).field).toMatch(/^tablets\[1\]\./);
  });

  it('refuses an empty insertTablets call (IoTDBValidationError)', async () => {
    const e = await failure(session.insertTablets([]));
    expect(e).toBeInstanceOf(IoTDBValidationError);
    expect((e as IoTDBValidationError).field).toBe('tablets');
  });

  it('refuses a mix of aligned and not aligned tablets in one insertTablets call', async () => {
    const e = await failure(
      session.insertTablets([good(`${DB}.mix1`, 1), { ...good(`${DB}.mix2`, 1), isAligned: true }]),
    );
    expect(e).toBeInstanceOf(IoTDBValidationError);
    expect((e as IoTDBValidationError).field).toBe('tablets[1].isAligned');
    await expectStillWorks();
  });

  it('refuses bad records (IoTDBValidationError) naming the record, and the session goes on', async () => {
    const e1 = await failure(
      session.insertRecord({
        deviceId: device,
        timestamp: 1,
        measurements: ['i'],
        dataTypes: ['INT32'],
        values: ['1'],
      }),
    );
    expect(e1).toBeInstanceOf(IoTDBValidationError);
    const e2 = await failure(
      session.insertRecords([
        { deviceId: device, timestamp: 1, measurements: ['i'], dataTypes: ['INT32'], values: [1] },
        { deviceId: device, timestamp: 2, measurements: ['i', 's'], dataTypes: ['INT32'], values: [1, 'a'] },
      ]),
    );
    expect(e2).toBeInstanceOf(IoTDBValidationError);
    expect((e2 as IoTDBValidationError).field).toBe('records[1].dataTypes');
    // a record whose values are all null has nothing to write: resolved without a request, as Java skips it
    await session.insertRecord({
      deviceId: device,
      timestamp: 1,
      measurements: ['i'],
      dataTypes: ['INT32'],
      values: [null],
    });
    await expectStillWorks();
  });

  it('refuses the same bad input on the plain path (enableFastSerialization: false), and that session goes on', async () => {
    const plain = new Session({ host, port, enableFastSerialization: false });
    await plain.open();
    try {
      const e = await failure(
        plain.insertTablet({
          ...good(device, 1),
          timestamps: [1, 2],
          values: [
            [1, 'a'],
            ['2', 'b'],
          ],
        }),
      );
      expect(e).toBeInstanceOf(IoTDBValidationError);
      const e2 = await failure(plain.insertTablet({ ...good(device, 1), values: [[1, 5]] }));
      expect(e2).toBeInstanceOf(IoTDBValidationError);
      await expectStillWorks(plain);
    } finally {
      await plain.close();
    }
  });
});

// ---------- connection failures, through a local TCP proxy in front of the server ----------

/**
 * A proxy on 127.0.0.1 that forwards to the IoTDB under test. `delayMs` holds the server's bytes back
 * (order kept); `drop()` resets every connection through it. Loopback only.
 */
async function startProxy() {
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  const state = { delayMs: 0 };
  const server: Server = createServer((client) => {
    const upstream = connect({ host, port });
    const pair = { client, upstream };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.on('data', (d) => upstream.write(d));
    upstream.on('data', (d) => {
      if (state.delayMs > 0) setTimeout(() => client.destroyed || client.write(d), state.delayMs);
      else client.write(d);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    state,
    drop(): void {
      for (const { client, upstream } of pairs) {
        client.resetAndDestroy();
        upstream.destroy();
      }
      pairs.clear();
    },
    close(): Promise<void> {
      this.drop();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
type Proxy = Awaited<ReturnType<typeof startProxy>>;

describe('connection failures (through a local proxy)', () => {
  let proxy: Proxy;
  const opened: Session[] = [];

  beforeAll(async () => {
    proxy = await startProxy();
  });

  afterEach(async () => {
    proxy.state.delayMs = 0;
    for (const s of opened.splice(0)) await s.close().catch(() => {});
  });

  afterAll(async () => {
    await proxy?.close();
  });

  async function viaProxy(over: SessionOptions = {}): Promise<Session> {
    const s = new Session({ host: '127.0.0.1', port: proxy.port, ...over });
    opened.push(s);
    await s.open();
    return s;
  }

  it('fails a call in flight with IoTDBConnectionError when the connection drops and retries are off; the next call reconnects', async () => {
    const s = await viaProxy({ retry: { maxElapsedMs: 0 } });
    proxy.state.delayMs = 1_000; // hold the reply back so that the call is in flight
    const call = s.executeQueryStatement('SHOW DATABASES');
    await new Promise((r) => setTimeout(r, 100));
    proxy.drop();
    const e = await failure(call);
    expect(e).toBeInstanceOf(IoTDBConnectionError);
    expect(e).not.toBeInstanceOf(IoTDBTimeoutError);
    expect(['closed', 'reset']).toContain((e as IoTDBConnectionError).reason);
    expect(s.isOpen).toBe(true);
    proxy.state.delayMs = 0;
    await s.executeNonQueryStatement('FLUSH');
  });

  it('sends a read whose connection dropped in flight again on a new connection, and answers it', async () => {
    const s = await viaProxy();
    proxy.state.delayMs = 1_000;
    const call = s.executeQueryStatement('SHOW DATABASES');
    await new Promise((r) => setTimeout(r, 100));
    proxy.drop();
    proxy.state.delayMs = 0;
    const names: unknown[] = [];
    for await (const row of await call) names.push(row.values[0]);
    expect(names).toContain(DB);
    expect(s.stats().retries).toBe(1);
  });

  it('sends a write whose connection dropped in flight again on a new connection; it is stored once', async () => {
    const s = await viaProxy();
    const device = `${DB}.proxy_retry`;
    proxy.state.delayMs = 1_000;
    const call = s.insertTablet({
      deviceId: device,
      measurements: ['v'],
      dataTypes: ['INT32'],
      timestamps: [1, 2],
      values: [[1], [2]],
    });
    await new Promise((r) => setTimeout(r, 100));
    proxy.drop();
    proxy.state.delayMs = 0;
    await call;
    const ds = await session.executeQueryStatement(`SELECT count(v) FROM ${device}`);
    expect((await ds.next()).values[0]).toBe(2n);
    await ds.close();
  });

  it('times out a slow reply with IoTDBTimeoutError after requestTimeoutMs; the session stays open', async () => {
    const s = await viaProxy({ requestTimeoutMs: 300 });
    proxy.state.delayMs = 1_500;
    const t0 = performance.now();
    const e = await failure(s.executeQueryStatement('SHOW DATABASES'));
    const elapsed = performance.now() - t0;
    expect(e).toBeInstanceOf(IoTDBTimeoutError);
    expect((e as IoTDBTimeoutError).reason).toBe('timeout');
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(1_400);
    expect(s.isOpen).toBe(true);
    proxy.state.delayMs = 0;
    await s.executeNonQueryStatement('FLUSH');
  });

  it('reconnects by itself after its connection broke, and can still be closed and opened again', async () => {
    const s = await viaProxy();
    proxy.drop();
    await new Promise((r) => setTimeout(r, 50));
    expect(s.isOpen).toBe(true);
    await s.executeNonQueryStatement('FLUSH');
    await s.close();
    expect(s.isOpen).toBe(false);
    await expect(s.executeNonQueryStatement('FLUSH')).rejects.toBeInstanceOf(IoTDBSessionClosedError);
    await s.open();
    await s.executeNonQueryStatement('FLUSH');
  });

  it('waits for a query reply up to QueryOptions.timeoutMs even past the session requestTimeoutMs', async () => {
    const s = await viaProxy({ requestTimeoutMs: 300 });
    proxy.state.delayMs = 700;
    const ds = await s.executeQueryStatement('SHOW DATABASES', { timeoutMs: 5_000 });
    expect(ds.columnNames.length).toBeGreaterThan(0);
  });
});
