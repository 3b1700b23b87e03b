import { afterEach, describe, expect, it } from 'vitest';
import { IoTDBValidationError } from '@iotdb/fast-serializer';
import { SessionPool, TableSessionPool } from '../pool/session-pool.js';
import { FakeTransport } from '../transport/fake-transport.js';
import { Session } from './session.js';

// A call's own options (its last argument: a query's, a statement's, a write's, a read's, a pool's), through a
// scripted fake transport.

const A = '10.0.0.1:6667';
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c().catch(() => undefined);
});

/** A session on one scripted node. */
async function openSession(): Promise<{ fake: FakeTransport; s: Session }> {
  const fake = new FakeTransport();
  const s = new Session({ nodeUrls: [A], transport: fake, discoverNodes: false });
  closers.push(() => s.close());
  await s.open();
  return { fake, s };
}

/** Options as a JavaScript caller may pass them: names the types do not know. */
const untyped = (o: Record<string, unknown>) => o as never;

describe("a call's options", () => {
  it('refuse a name they do not know before anything is sent, naming the one meant: a typo is not a setting', async () => {
    const { fake, s } = await openSession();
    const sent = () => fake.calls.filter((c) => c.method.startsWith('execute')).length;
    const query = s.executeQueryStatement('SELECT s FROM root.sg.d', untyped({ fetchsize: 10 }));
    await expect(query).rejects.toThrow(IoTDBValidationError);
    await expect(query).rejects.toThrow("fetchsize: unknown option (did you mean 'fetchSize'?)");
    const statement = s.executeNonQueryStatement('FLUSH', untyped({ timeout: 5 }));
    await expect(statement).rejects.toThrow("timeout: unknown option (did you mean 'timeoutMs'?)");
    expect(sent()).toBe(0);
    // the names they know go through
    await s.executeNonQueryStatement('FLUSH', { timeoutMs: 1000, signal: new AbortController().signal });
    await s.executeQueryStatement('SELECT s FROM root.sg.d', { fetchSize: 10, readAhead: 0, queryTimeoutMs: 0 });
    expect(sent()).toBe(2);
  });

  it('refuse options that are no object (a call ported from Java), naming the ones the call takes', async () => {
    const { s } = await openSession();
    const paths = ['root.sg.d.s'];
    await expect(s.executeLastDataQuery(paths, 15 as never)).rejects.toThrow(IoTDBValidationError);
    await expect(s.executeLastDataQuery(paths, 15 as never)).rejects.toThrow(
      /^options: needs an object \(\{ .*lastTime.* \}\), got number 15$/,
    );
    await expect(s.executeQueryStatement('SELECT s FROM root.sg.d', 1000 as never)).rejects.toThrow(
      /^options: needs an object \(\{ .*fetchSize.* \}\), got number 1000$/,
    );
  });

  it("the structured queries' alike, each knowing its own (lastTime, startTime, interval, ...)", async () => {
    const { fake, s } = await openSession();
    const paths = ['root.sg.d.s'];
    await expect(s.executeRawDataQuery(paths, 0, 10, untyped({ fetchsize: 1 }))).rejects.toThrow(
      "fetchsize: unknown option (did you mean 'fetchSize'?)",
    );
    await expect(s.executeLastDataQuery(paths, untyped({ lasttime: 5 }))).rejects.toThrow(
      "lasttime: unknown option (did you mean 'lastTime'?)",
    );
    await expect(s.executeAggregationQuery(paths, ['COUNT'], untyped({ start: 0 }))).rejects.toThrow(
      'start: unknown option',
    );
    await expect(
      s.executeLastDataQueryForOneDevice('root.sg', 'root.sg.d', ['s'], untyped({ lastTime: 1 })),
    ).rejects.toThrow('lastTime: unknown option');
    // a step with no window to slide: the server would ignore it
    await expect(s.executeAggregationQuery(paths, ['COUNT'], { slidingStep: 5 })).rejects.toThrow(
      'slidingStep: needs interval (the window it slides by)',
    );
    expect(fake.calls.filter((c) => c.method.startsWith('execute'))).toHaveLength(0);
    await s.executeLastDataQuery(paths, { lastTime: 5, fetchSize: 10 });
    await s.executeAggregationQuery(paths, ['COUNT'], { startTime: 0, endTime: 10, interval: 5, slidingStep: 5 });
    expect(fake.calls.filter((c) => c.method.startsWith('execute'))).toHaveLength(2);
  });

  it("a pool's calls alike", async () => {
    const fake = new FakeTransport();
    const pool = new SessionPool({ nodeUrls: [A], transport: fake, discoverNodes: false, maxSize: 1 });
    closers.push(() => pool.close());
    await expect(pool.executeQueryStatement('SELECT s FROM root.sg.d', untyped({ fetch_size: 1 }))).rejects.toThrow(
      "fetch_size: unknown option (did you mean 'fetchSize'?)",
    );
  });
});

describe("a write's, a data set's and a pool's own options", () => {
  const tablet = {
    deviceId: 'root.sg.d',
    measurements: ['s'],
    dataTypes: ['INT32' as const],
    timestamps: [1],
    values: [[1]],
  };
  const writes = (fake: FakeTransport) => fake.calls.filter((c) => c.method.startsWith('insert')).length;

  it('a write refuses a name it does not know before anything is sent; each write knows its own', async () => {
    const { fake, s } = await openSession();
    await expect(s.insertTablet(tablet, untyped({ signl: null }))).rejects.toThrow(
      "signl: unknown option (did you mean 'signal'?)",
    );
    await expect(
      s.insertRecord(
        { deviceId: 'root.sg.d', timestamp: 1, measurements: ['s'], dataTypes: ['INT32'], values: [1] },
        untyped({ timeoutMs: 5 }),
      ),
    ).rejects.toThrow('timeoutMs: unknown option');
    // `sorted` is the one-device calls' alone
    await expect(s.insertTablet(tablet, untyped({ sorted: true }))).rejects.toThrow('sorted: unknown option');
    await expect(
      s.insertRecordsOfOneDevice(
        'root.sg.d',
        [{ timestamp: 1, measurements: ['s'], dataTypes: ['INT32'], values: [1] }],
        untyped({ sort: true }),
      ),
    ).rejects.toThrow("sort: unknown option (did you mean 'sorted'?)");
    await expect(s.setTimeZone('+08:00', untyped({ timeout: 5 }))).rejects.toThrow('timeout: unknown option');
    expect(writes(fake)).toBe(0);
    expect(fake.callsOf('setTimeZone')).toHaveLength(0);
    await s.insertTablet(tablet, { signal: new AbortController().signal });
    await s.insertRecordsOfOneDevice(
      'root.sg.d',
      [{ timestamp: 1, measurements: ['s'], dataTypes: ['INT32'], values: [1] }],
      { sorted: true },
    );
    expect(writes(fake)).toBe(2);
  });

  it("a data set's reads alike (hasNext, next, toColumnar, batches, rowBatches)", async () => {
    const { s } = await openSession();
    const reads: [string, (ds: Awaited<ReturnType<Session['executeQueryStatement']>>) => Promise<unknown>][] = [
      ['hasNext', (ds) => ds.hasNext(untyped({ signl: 1 }))],
      ['next', (ds) => ds.next(untyped({ signl: 1 }))],
      ['toColumnar', (ds) => ds.toColumnar(untyped({ signl: 1 }))],
      ['batches', (ds) => ds.batches(untyped({ signl: 1 })).next()],
      ['rowBatches', (ds) => ds.rowBatches(untyped({ signl: 1 })).next()],
    ];
    for (const [name, read] of reads) {
      const ds = await s.executeQueryStatement('SELECT s FROM root.sg.d');
      const outcome = await read(ds).then(
        () => 'resolved',
        (e: unknown) => (e instanceof IoTDBValidationError ? e.message : e),
      );
      expect([name, outcome]).toEqual([name, "signl: unknown option (did you mean 'signal'?)"]);
      await ds.close();
    }
  });

  it("a pool's calls refuse null for their options as a session's do (they threw a TypeError reading its signal)", async () => {
    const fake = new FakeTransport();
    const pool = new SessionPool({ nodeUrls: [A], transport: fake, discoverNodes: false, maxSize: 1 });
    const tables = new TableSessionPool({ nodeUrls: [A], transport: fake, database: 'db', maxSize: 1 });
    closers.push(
      () => pool.close(),
      () => tables.close(),
    );
    const record = {
      deviceId: 'root.sg.d',
      timestamp: 1,
      measurements: ['s'],
      dataTypes: ['INT32' as const],
      values: [1],
    };
    const row = {
      tableName: 't',
      columnNames: ['id'],
      dataTypes: ['STRING' as const],
      timestamps: [1],
      values: [['a']],
    };
    const calls = [
      () => pool.executeQueryStatement('SELECT s FROM root.sg.d', null as never),
      () => pool.executeNonQueryStatement('FLUSH', null as never),
      () => pool.insertTablet(tablet, null as never),
      () => pool.insertTablets([tablet], null as never),
      () => pool.insertRecord(record, null as never),
      () => pool.createDatabase('root.sg', null as never),
      () => pool.deleteData('root.sg.d.s', { endTime: 1 }, null as never),
      () => tables.insert({ ...row, columnCategories: ['TAG' as const] }, null as never),
    ];
    for (const call of calls) await expect(call()).rejects.toThrow(/^options: needs an object/);
    expect(fake.calls.filter((c) => c.method.startsWith('insert') || c.method.startsWith('execute'))).toEqual([]);
  });

  it("a pool's execute and parallel calls alike; their own names (concurrency) are not passed on as a write's", async () => {
    const fake = new FakeTransport();
    const pool = new SessionPool({ nodeUrls: [A], transport: fake, discoverNodes: false, maxSize: 2 });
    closers.push(() => pool.close());
    await expect(pool.execute(() => Promise.resolve(1), untyped({ concurrency: 2 }))).rejects.toThrow(
      'concurrency: unknown option',
    );
    await expect(pool.insertTablet(tablet, untyped({ signl: 1 }))).rejects.toThrow(
      "signl: unknown option (did you mean 'signal'?)",
    );
    await expect(pool.insertTabletsParallel([tablet], untyped({ concurency: 2 }))).rejects.toThrow(
      "concurency: unknown option (did you mean 'concurrency'?)",
    );
    expect(writes(fake)).toBe(0);
    await pool.insertTabletsParallel([tablet, tablet], { concurrency: 2 });
    expect(await pool.executeParallel([() => Promise.resolve(1)], { concurrency: 1 })).toEqual([1]);
    expect(writes(fake)).toBe(2);
  });
});

describe('a signal that is no AbortSignal', () => {
  const notSignals = ['x', 5000, { aborted: false }, null];

  it("is refused before anything is sent, as any bad option (it threw Node's TypeError, or went unheeded)", async () => {
    const { fake, s } = await openSession();
    for (const signal of notSignals) {
      const opts = untyped({ signal });
      for (const call of [
        () => s.executeQueryStatement('SELECT s FROM root.sg.d', opts),
        () => s.executeNonQueryStatement('FLUSH', opts),
        () =>
          s.insertTablet(
            { deviceId: 'root.sg.d', measurements: ['s'], dataTypes: ['INT32'], timestamps: [1], values: [[1]] },
            opts,
          ),
      ]) {
        const e = await call().then(
          () => undefined,
          (err: unknown) => err,
        );
        expect(e, JSON.stringify(signal)).toBeInstanceOf(IoTDBValidationError);
        expect((e as Error).message).toMatch(
          /^signal: needs an AbortSignal \(an AbortController's signal, or AbortSignal.timeout\(ms\)\), got /,
        );
      }
    }
    expect(fake.calls.filter((c) => c.method.startsWith('execute') || c.method.startsWith('insert'))).toHaveLength(0);
  });

  it("is refused by a data set's reads, where it went unheeded", async () => {
    const { s } = await openSession();
    const ds = await s.executeQueryStatement('SELECT s FROM root.sg.d');
    for (const read of [() => ds.hasNext(untyped({ signal: 'x' })), () => ds.toColumnar(untyped({ signal: 'x' }))])
      await expect(read()).rejects.toThrow(/^signal: needs an AbortSignal/);
    await ds.close();
  });

  it("is refused by a pool's calls alike", async () => {
    const fake = new FakeTransport();
    const pool = new SessionPool({ nodeUrls: [A], transport: fake, discoverNodes: false, maxSize: 1 });
    closers.push(() => pool.close());
    await expect(pool.executeQueryStatement('SELECT s FROM root.sg.d', untyped({ signal: 'x' }))).rejects.toThrow(
      /^signal: needs an AbortSignal/,
    );
    await expect(pool.execute(() => Promise.resolve(1), untyped({ signal: 'x' }))).rejects.toThrow(
      /^signal: needs an AbortSignal/,
    );
  });
});

describe('bad arguments', () => {
  it('reject the promise a call returns, never throw from the call: a .catch() on it sees them', async () => {
    const { fake, s } = await openSession();
    const calls: [string, () => Promise<unknown>][] = [
      ['createDatabase', () => s.createDatabase('bad name')],
      ['deleteDatabase', () => s.deleteDatabase('')],
      ['createTimeseries', () => s.createTimeseries({ path: 'x', dataType: 'INT32' })],
      ['createAlignedTimeseries', () => s.createAlignedTimeseries({ deviceId: 'x', measurements: [], dataTypes: [] })],
      ['deleteTimeseries', () => s.deleteTimeseries('x')],
      ['deleteData', () => s.deleteData('x', { endTime: 1 })],
      ['createSchemaTemplate', () => s.createSchemaTemplate({ name: '', measurements: [], dataTypes: [] })],
      ['setSchemaTemplate', () => s.setSchemaTemplate('', 'x')],
      ['unsetSchemaTemplate', () => s.unsetSchemaTemplate('x', '')],
      ['dropSchemaTemplate', () => s.dropSchemaTemplate('')],
      ['createTimeseriesUsingSchemaTemplate', () => s.createTimeseriesUsingSchemaTemplate(['x'])],
      ['executeRawDataQuery', () => s.executeRawDataQuery([], 0, 1)],
      ['executeAggregationQuery', () => s.executeAggregationQuery(['root.sg.d.s'], [])],
    ];
    for (const [name, call] of calls) {
      let outcome: unknown;
      try {
        outcome = await call().then(
          () => 'resolved',
          (e: unknown) => (e instanceof IoTDBValidationError ? 'rejected' : e),
        );
      } catch (e) {
        outcome = `threw ${(e as Error).name}`;
      }
      expect([name, outcome]).toEqual([name, 'rejected']);
    }
    expect(fake.calls.filter((c) => c.method.startsWith('execute'))).toHaveLength(0);
  });
});

describe('setTimeZone', () => {
  it('refuses a zone the server would refuse before anything is sent, as the timeZone option does', async () => {
    const { fake, s } = await openSession();
    for (const zone of ['Mars/Olympus', '+8:00', '+19:00', 'nope'])
      await expect(s.setTimeZone(zone)).rejects.toThrow(
        new IoTDBValidationError(
          'zone',
          `needs a zone the server knows: a region (Asia/Shanghai), UTC or GMT, or an offset (+08:00, UTC+8); got '${zone}'`,
        ),
      );
    expect(fake.callsOf('setTimeZone')).toHaveLength(0);
    expect(s.getTimeZone()).not.toBe('nope');
    // the zones Java's ZoneId takes go through, as given
    for (const zone of ['Asia/Tokyo', '+05:30', 'UTC+8', 'GMT', 'Z']) {
      await s.setTimeZone(zone);
      expect(s.getTimeZone()).toBe(zone);
    }
    expect(fake.callsOf('setTimeZone')).toHaveLength(5);
  });
});
