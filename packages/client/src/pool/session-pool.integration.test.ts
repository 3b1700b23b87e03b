import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import {
  IoTDBBatchError,
  IoTDBPoolTimeoutError,
  IoTDBServerError,
  IoTDBSessionClosedError,
  IoTDBValidationError,
  Session,
  SessionPool,
  TableSessionPool,
  type PoolOptions,
  type SessionOptions,
  type TableTablet,
  type Tablet,
} from '../index.js';
import type { RpcConnection } from '../connection/rpc-connection.js';
import type { PreparedTablet } from '@iotdb/fast-serializer';
import { spyRpc } from '../testing/rpc-spy.js';
import { useTreeDatabase } from '../testing/tree-database.js';

const { host, port, nodeUrls } = inject('iotdb');
const DB = `root.it_pool_${randomBytes(4).toString('hex')}`;

let session: Session;
useTreeDatabase({ host, port }, DB, (s) => (session = s));

const pools: { close(): Promise<void> }[] = [];
function newPool(o: SessionOptions & PoolOptions = {}): SessionPool {
  const p = new SessionPool({ nodeUrls, ...o });
  pools.push(p);
  return p;
}

afterEach(async () => {
  vi.restoreAllMocks();
  for (const p of pools.splice(0)) await p.close().catch(() => undefined);
});

async function rejectionOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Points under `pattern` (sum of `count(*)` over its series). */
async function countPoints(pattern: string): Promise<number> {
  const ds = await session.executeQueryStatement(`SELECT count(*) FROM ${pattern}`);
  let n = 0;
  for await (const r of ds) for (const v of r.values) n += Number(v ?? 0);
  return n;
}

/** `rows` rows for `device`, timestamps from `t0`, INT32 value = timestamp. */
function tablet(device: string, t0: number, rows = 10, measurement = 'v'): Tablet {
  const ts = Array.from({ length: rows }, (_, r) => t0 + r);
  return {
    deviceId: device,
    measurements: [measurement],
    dataTypes: ['INT32'],
    timestamps: ts,
    values: ts.map((t) => [t]),
  };
}

describe('SessionPool under load', () => {
  it('serves 32 concurrent writers with at most 4 sessions; every tablet lands and the pool is idle afterwards', async () => {
    const pool = newPool({ maxSize: 4 });
    const opens = vi.spyOn(Session.prototype, 'open');
    let maxInUse = 0;
    let maxSize = 0;
    const sampler = setInterval(() => {
      const s = pool.stats();
      maxInUse = Math.max(maxInUse, s.inUse);
      maxSize = Math.max(maxSize, s.size);
    }, 1);
    const ROWS = 50;
    try {
      await Promise.all(
        Array.from({ length: 32 }, (_, i) => {
          const t = tablet(`${DB}.load.d${i % 8}`, i * 1_000, ROWS);
          // half through the pool's own insertTablet (device bound), half through execute (any session)
          return i % 2 === 0
            ? pool.insertTablet(t)
            : pool.execute(async (s) => {
                const st = pool.stats();
                maxInUse = Math.max(maxInUse, st.inUse);
                await s.insertTablet(t);
              });
        }),
      );
    } finally {
      clearInterval(sampler);
    }
    expect(maxInUse).toBeGreaterThan(1); // the premise: callers really ran in parallel
    expect(maxInUse).toBeLessThanOrEqual(4);
    expect(maxSize).toBeLessThanOrEqual(4);
    expect(opens.mock.calls.length).toBeLessThanOrEqual(4);
    const st = pool.stats();
    expect(st.inUse).toBe(0);
    expect(st.waiting).toBe(0);
    expect(st.opening).toBe(0);
    expect(st.size).toBeLessThanOrEqual(4);
    expect(st.idle).toBe(st.size);
    expect(await countPoints(`${DB}.load.**`)).toBe(32 * ROWS);
  });

  it('rejects with IoTDBPoolTimeoutError after waitTimeoutMs when every session is held, and works again once they are back', async () => {
    const pool = newPool({ maxSize: 2, waitTimeoutMs: 300 });
    const hold = deferred();
    const holders = [0, 1].map(() =>
      pool.execute(async (s) => {
        await s.executeNonQueryStatement('FLUSH'); // a real session, really opened
        await hold.promise;
      }),
    );
    await vi.waitFor(() => expect(pool.stats()).toMatchObject({ size: 2, inUse: 2, opening: 0 }));
    const insert = spyRpc('insertTablet');
    const t0 = performance.now();
    const e = await rejectionOf(pool.insertTablet(tablet(`${DB}.timeout.d`, 1)));
    const waited = performance.now() - t0;
    expect(e).toBeInstanceOf(IoTDBPoolTimeoutError);
    expect(waited).toBeGreaterThanOrEqual(290);
    expect(waited).toBeLessThan(2_000);
    expect(insert.mock.calls).toHaveLength(0);
    expect(pool.stats()).toMatchObject({ inUse: 2, waiting: 0 });
    hold.resolve();
    await Promise.all(holders);
    await pool.insertTablet(tablet(`${DB}.timeout.d`, 1, 3));
    expect(pool.stats()).toMatchObject({ inUse: 0, waiting: 0 });
    expect(await countPoints(`${DB}.timeout.d`)).toBe(3);
  });
});

describe('SessionPool.insertTabletsParallel', () => {
  it('writes the good tablets and names exactly the failed ones (server rejections and invalid input) in IoTDBBatchError', async () => {
    const pool = newPool({ maxSize: 3 });
    const base = `${DB}.mix`;
    await session.insertTablet(tablet(`${base}.typed`, 1, 1)); // typed.v is INT32 now
    const tablets: Tablet[] = [
      tablet(`${base}.g0`, 100), // 0 good
      {
        deviceId: `${base}.typed`,
        measurements: ['v'],
        dataTypes: ['TEXT'],
        timestamps: [2],
        values: [['text into INT32']],
      }, // 1 type conflict
      tablet(`${base}.g1`, 100), // 2 good
      tablet(`${base}.**`, 100), // 3 illegal path (refused before sending)
      { deviceId: `${base}.g2`, measurements: ['v'], dataTypes: ['INT32'], timestamps: [1, 2], values: [[1, 2]] }, // 4 row too long, rows != timestamps
      tablet(`${base}.g2`, 100), // 5 good
      tablet(`${base}.g0`, 200), // 6 good, same device as 0
      { deviceId: `${base}.g3`, measurements: ['v'], dataTypes: ['NOPE' as 'INT32'], timestamps: [1], values: [[1]] }, // 7 unknown type
    ];
    const e = await rejectionOf(pool.insertTabletsParallel(tablets, { concurrency: 3 }));
    expect(e).toBeInstanceOf(IoTDBBatchError);
    const b = e as IoTDBBatchError;
    expect(b.failures.map((f) => f.index)).toEqual([1, 3, 4, 7]);
    expect(b.succeeded).toEqual([0, 2, 5, 6]);
    const [conflict, path, shape, type] = b.failures.map((f) => f.error);
    expect(conflict).toBeInstanceOf(IoTDBServerError);
    expect((conflict as IoTDBServerError).statusCode).toBe(507);
    expect(conflict.message).toMatch(/not consistent|data type/i);
    expect(path).toBeInstanceOf(IoTDBValidationError); // refused before sending, as the server would ([509])
    expect(path.message).toMatch(/^deviceId: needs a legal path, and its level \d+ "\*\*" is not a legal name/);
    expect(shape).toBeInstanceOf(IoTDBValidationError);
    expect(type).toBeInstanceOf(IoTDBValidationError);
    expect(b.message).toMatch(/^insertTabletsParallel: 4 of 8 failed/);
    // the good ones are in, the rejected write did not change the typed series
    expect(await countPoints(`${base}.g0`)).toBe(20);
    expect(await countPoints(`${base}.g1`)).toBe(10);
    expect(await countPoints(`${base}.g2`)).toBe(10);
    expect(await countPoints(`${base}.typed`)).toBe(1);
    expect(pool.stats()).toMatchObject({ inUse: 0, waiting: 0 });
  });

  it('resolves when every tablet is written', async () => {
    const pool = newPool({ maxSize: 2 });
    await pool.insertTabletsParallel(
      Array.from({ length: 12 }, (_, i) => tablet(`${DB}.allgood.d${i % 5}`, i * 100, 5)),
    );
    expect(await countPoints(`${DB}.allgood.**`)).toBe(60);
  });

  it('rejects a tablet without deviceId with IoTDBValidationError, like Session.insertTablet, and reports it by index', async () => {
    const pool = newPool({ maxSize: 2 });
    const noDevice = { measurements: ['v'], dataTypes: ['INT32'], timestamps: [1], values: [[1]] } as unknown as Tablet;
    let call: Promise<void> | undefined;
    expect(() => (call = pool.insertTablet(noDevice))).not.toThrow();
    expect(await rejectionOf(call!)).toBeInstanceOf(IoTDBValidationError);
    const e = (await rejectionOf(
      pool.insertTabletsParallel([tablet(`${DB}.nodev.d`, 1), noDevice]),
    )) as IoTDBBatchError;
    expect(e.failures.map((f) => f.index)).toEqual([1]);
    expect(e.failures[0].error).toBeInstanceOf(IoTDBValidationError);
  });
});

describe('SessionPool device binding', () => {
  /** device -> the connections its insertTablet requests went out on, and the first timestamps in the order sent */
  function recordRequests(spy: {
    mock: { calls: unknown[][] };
  }): Map<string, { connections: Set<RpcConnection>; starts: number[] }> {
    const byDevice = new Map<string, { connections: Set<RpcConnection>; starts: number[] }>();
    for (const [c, , p] of spy.mock.calls as [RpcConnection, bigint, PreparedTablet][]) {
      const d = byDevice.get(p.prefixPath) ?? { connections: new Set(), starts: [] };
      d.connections.add(c);
      d.starts.push(Number((p.timestamps as ArrayLike<number>)[0]));
      byDevice.set(p.prefixPath, d);
    }
    return byDevice;
  }

  const DEVICES = 16;
  const PER_DEVICE = 5;
  /** tablet k is for device k % DEVICES; its timestamps start at k * 10 */
  const interleaved = (prefix: string) =>
    Array.from({ length: DEVICES * PER_DEVICE }, (_, k) => tablet(`${prefix}.d${k % DEVICES}`, k * 10, 3));

  it('sends all tablets of a device over one session connection, in the order given (redirection off)', async () => {
    const pool = newPool({ maxSize: 4, enableRedirection: false });
    const spy = spyRpc('insertTablet');
    const prefix = `${DB}.bind`;
    await pool.insertTabletsParallel(interleaved(prefix), { concurrency: 8 });
    const byDevice = recordRequests(spy);
    expect(byDevice.size).toBe(DEVICES);
    const all = new Set<RpcConnection>();
    for (const [device, { connections, starts }] of byDevice) {
      expect(connections.size, device).toBe(1);
      for (const c of connections) all.add(c);
      const d = Number(device.slice(device.lastIndexOf('.d') + 2));
      expect(starts, device).toEqual(Array.from({ length: PER_DEVICE }, (_, j) => (j * DEVICES + d) * 10));
    }
    expect(all.size).toBeGreaterThan(1); // devices were spread over several sessions
    expect(all.size).toBeLessThanOrEqual(4);
    expect(await countPoints(`${prefix}.**`)).toBe(DEVICES * PER_DEVICE * 3);
  });

  it('keeps a device on one Session with redirection on, even when its requests go to another node', async () => {
    const pool = newPool({ maxSize: 4 });
    const spy = vi.spyOn(Session.prototype, 'insertTablet');
    const prefix = `${DB}.bindr`;
    await pool.insertTabletsParallel(interleaved(prefix), { concurrency: 8 });
    const sessionsOf = new Map<string, Set<unknown>>();
    spy.mock.calls.forEach(([t], i) => {
      const set = sessionsOf.get(t.deviceId) ?? new Set();
      set.add(spy.mock.contexts[i]);
      sessionsOf.set(t.deviceId, set);
    });
    expect(sessionsOf.size).toBe(DEVICES);
    for (const [device, set] of sessionsOf) expect(set.size, device).toBe(1);
    expect(new Set([...sessionsOf.values()].flatMap((s) => [...s])).size).toBeGreaterThan(1);
    expect(await countPoints(`${prefix}.**`)).toBe(DEVICES * PER_DEVICE * 3);
  });
});

describe('SessionPool.executeParallel', () => {
  it('returns every task result by index', async () => {
    const pool = newPool({ maxSize: 3 });
    const tasks = Array.from({ length: 7 }, (_, i) => async (s: Session) => {
      await s.insertTablet(tablet(`${DB}.par.d${i}`, 1, i + 1));
      return i * i;
    });
    expect(await pool.executeParallel(tasks)).toEqual([0, 1, 4, 9, 16, 25, 36]);
    expect(await countPoints(`${DB}.par.**`)).toBe(28);
  });

  it('runs every task and reports the failed ones (server error, thrown error) with their index, the others with their results', async () => {
    const pool = newPool({ maxSize: 2 });
    const ran: number[] = [];
    const tasks: ((s: Session) => Promise<string>)[] = [
      async (s) => (ran.push(0), await s.executeNonQueryStatement('FLUSH'), 'flushed'),
      async (s) => (ran.push(1), await s.executeNonQueryStatement('SELEC nonsense'), 'never'),
      async () => (ran.push(2), 'plain'),
      async () => {
        ran.push(3);
        throw new RangeError('task 3 failed');
      },
      async (s) => {
        ran.push(4);
        const ds = await s.executeQueryStatement('SHOW DATABASES');
        await ds.close();
        return ds.columnNames[0];
      },
    ];
    const e = await rejectionOf(pool.executeParallel(tasks, { concurrency: 5 }));
    expect(e).toBeInstanceOf(IoTDBBatchError);
    const b = e as IoTDBBatchError<string>;
    expect(ran.sort()).toEqual([0, 1, 2, 3, 4]);
    expect(b.failures.map((f) => f.index)).toEqual([1, 3]);
    expect(b.failures[0].error).toBeInstanceOf(IoTDBServerError);
    expect((b.failures[0].error as IoTDBServerError).statusCode).toBe(700);
    expect(b.failures[1].error).toBeInstanceOf(RangeError);
    expect(b.succeeded).toEqual([0, 2, 4]);
    expect(b.results[0]).toBe('flushed');
    expect(b.results[1]).toBeUndefined();
    expect(b.results[2]).toBe('plain');
    expect(b.results[3]).toBeUndefined();
    expect(typeof b.results[4]).toBe('string');
    expect(pool.stats()).toMatchObject({ inUse: 0, waiting: 0 });
  });
});

describe('SessionPool.executeQueryStatement', () => {
  const device = `${DB}.q.d`;
  const ROWS = 300;

  it('keeps the session borrowed while the data set is open and gives it back when it is read to the end or closed', async () => {
    await session.insertTablet(tablet(device, 1, ROWS));
    const pool = newPool({ maxSize: 2, waitTimeoutMs: 300 });
    const first = await pool.executeQueryStatement(`SELECT v FROM ${device}`, { fetchSize: 20 });
    expect(pool.stats().inUse).toBe(1);
    const second = await pool.executeQueryStatement(`SELECT v FROM ${device}`, { fetchSize: 20 });
    expect(pool.stats().inUse).toBe(2);
    // both sessions are held by open data sets: a third caller times out
    expect(await rejectionOf(pool.execute(async () => 'x'))).toBeInstanceOf(IoTDBPoolTimeoutError);

    let n = 0;
    for await (const r of first) {
      expect(r.values[0]).toBe(Number(r.timestamp));
      n++;
      expect(pool.stats().inUse).toBe(2); // still borrowed while reading
    }
    expect(n).toBe(ROWS);
    expect(pool.stats().inUse).toBe(1); // given back as the loop ends

    expect((await second.next()).values[0]).toBe(1);
    await second.close();
    expect(pool.stats()).toMatchObject({ inUse: 0, waiting: 0 });
    expect(await pool.execute(async () => 'free again')).toBe('free again');
  });

  it('gives the session back when the query fails', async () => {
    const pool = newPool({ maxSize: 1 });
    const e = await rejectionOf(pool.executeQueryStatement(`SELECT nope FROM`));
    expect(e).toBeInstanceOf(IoTDBServerError);
    expect(pool.stats()).toMatchObject({ inUse: 0, waiting: 0 });
    const ds = await pool.executeQueryStatement('SHOW DATABASES');
    await ds.close();
    expect(pool.stats().inUse).toBe(0);
  });
});

describe('SessionPool.close()', () => {
  it('waits for a borrowed session, closes every session, then rejects every call with IoTDBSessionClosedError', async () => {
    const pool = newPool({ maxSize: 2 });
    await pool.insertTablet(tablet(`${DB}.closing.d`, 1, 1));
    const hold = deferred();
    let borrowed: Session | undefined;
    const holder = pool.execute(async (s) => {
      borrowed = s;
      await hold.promise;
      await s.insertTablet(tablet(`${DB}.closing.d`, 100, 1)); // still usable until given back
      return 'done';
    });
    await vi.waitFor(() => expect(borrowed).toBeDefined());
    let closed = false;
    const closing = pool.close().then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 100));
    expect(closed).toBe(false);
    expect(borrowed!.isOpen).toBe(true);
    hold.resolve();
    expect(await holder).toBe('done');
    await closing;
    expect(borrowed!.isOpen).toBe(false);
    expect(pool.stats().size).toBe(0);

    const calls: Promise<unknown>[] = [
      pool.insertTablet(tablet(`${DB}.closing.d`, 200, 1)),
      pool.insertTablets([tablet(`${DB}.closing.d`, 200, 1)]),
      pool.insertRecord({
        deviceId: `${DB}.closing.d`,
        timestamp: 200,
        measurements: ['v'],
        dataTypes: ['INT32'],
        values: [1],
      }),
      pool.executeNonQueryStatement('FLUSH'),
      pool.executeQueryStatement('SHOW DATABASES'),
      pool.execute(async () => 'x'),
    ];
    for (const c of calls) expect(await rejectionOf(c)).toBeInstanceOf(IoTDBSessionClosedError);
    const batch = (await rejectionOf(
      pool.insertTabletsParallel([tablet(`${DB}.closing.d`, 300, 1)]),
    )) as IoTDBBatchError;
    expect(batch.failures.map((f) => f.error)).toEqual([expect.any(IoTDBSessionClosedError)]);
    expect(await countPoints(`${DB}.closing.d`)).toBe(2);
  });
});

describe('TableSessionPool', () => {
  it('creates a table, writes tablets in parallel through pooled sessions and reads them back', async () => {
    const tdb = `it_pool_table_${randomBytes(4).toString('hex')}`;
    const admin = new TableSessionPool({ nodeUrls, maxSize: 1 });
    pools.push(admin);
    await admin.executeNonQueryStatement(`CREATE DATABASE ${tdb}`);
    try {
      const pool = new TableSessionPool({ nodeUrls, maxSize: 3, database: tdb });
      pools.push(pool);
      await pool.executeNonQueryStatement(
        'CREATE TABLE readings (device_id STRING TAG, temp DOUBLE FIELD, ok BOOLEAN FIELD)',
      );
      const t = (devices: string[], t0: number): TableTablet => ({
        tableName: 'readings',
        columnNames: ['device_id', 'temp', 'ok'],
        columnCategories: ['TAG', 'FIELD', 'FIELD'],
        dataTypes: ['STRING', 'DOUBLE', 'BOOLEAN'],
        timestamps: devices.map((_, i) => t0 + i),
        values: devices.map((d, i) => [d, t0 + i + 0.5, i % 2 === 0]),
      });
      await pool.insert(t(['a', 'b'], 1_000));
      await pool.insertParallel([t(['a', 'c'], 2_000), t(['b', 'd', 'e'], 3_000), t(['f'], 4_000)], { concurrency: 3 });
      const ds = await pool.executeQueryStatement('SELECT time, device_id, temp, ok FROM readings ORDER BY time');
      const rows = [];
      for await (const r of ds) rows.push(r.toObject());
      expect(rows).toEqual([
        { time: 1_000n, device_id: 'a', temp: 1_000.5, ok: true },
        { time: 1_001n, device_id: 'b', temp: 1_001.5, ok: false },
        { time: 2_000n, device_id: 'a', temp: 2_000.5, ok: true },
        { time: 2_001n, device_id: 'c', temp: 2_001.5, ok: false },
        { time: 3_000n, device_id: 'b', temp: 3_000.5, ok: true },
        { time: 3_001n, device_id: 'd', temp: 3_001.5, ok: false },
        { time: 3_002n, device_id: 'e', temp: 3_002.5, ok: true },
        { time: 4_000n, device_id: 'f', temp: 4_000.5, ok: true },
      ]);
      await vi.waitFor(() => expect(pool.stats()).toMatchObject({ inUse: 0, waiting: 0 }));
      // a FIELD written with a type that conflicts with the table's: reported by index
      const conflicting: TableTablet = {
        ...t(['h'], 6_000),
        dataTypes: ['STRING', 'STRING', 'BOOLEAN'],
        values: [['h', 'warm', true]],
      };
      const e = (await rejectionOf(pool.insertParallel([t(['g'], 5_000), conflicting]))) as IoTDBBatchError;
      expect(e).toBeInstanceOf(IoTDBBatchError);
      expect(e.succeeded).toEqual([0]);
      expect(e.failures.map((f) => f.index)).toEqual([1]);
      expect(e.failures[0].error).toBeInstanceOf(IoTDBServerError);
    } finally {
      await admin.executeNonQueryStatement(`DROP DATABASE ${tdb}`);
    }
  });

  it("refuses a USE through a session kept past execute(): the next borrower's database stays the pool's", async () => {
    const [home, other] = ['home', 'other'].map((n) => `it_pool_lease_${n}_${randomBytes(4).toString('hex')}`);
    const admin = new TableSessionPool({ nodeUrls, maxSize: 1 });
    pools.push(admin);
    for (const db of [home, other]) await admin.executeNonQueryStatement(`CREATE DATABASE ${db}`);
    try {
      const pool = new TableSessionPool({ nodeUrls, maxSize: 1, database: home });
      pools.push(pool);
      const kept = await pool.execute(async (s) => s);
      const refused = await rejectionOf(kept.executeNonQueryStatement(`USE ${other}`));
      expect(refused).toBeInstanceOf(IoTDBSessionClosedError);
      expect((refused as Error).message).toMatch(/executeNonQueryStatement\(\) .*inside/);
      const ds = await pool.executeQueryStatement('SHOW CURRENT_DATABASE');
      const databases = [];
      for await (const r of ds) databases.push(r.values[0]);
      expect(databases).toEqual([home]);
      expect(pool.stats()).toMatchObject({ sessionsCreated: 1, sessionsClosed: 0 });
    } finally {
      for (const db of [home, other]) await admin.executeNonQueryStatement(`DROP DATABASE ${db}`);
    }
  });
});
