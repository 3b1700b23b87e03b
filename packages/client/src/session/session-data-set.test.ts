import { afterEach, describe, expect, it, vi } from 'vitest';
import { IoTDBProtocolError, IoTDBValidationError } from '@iotdb/fast-serializer';
import { IoTDBAbortError, IoTDBQueryTimeoutError, IoTDBServerError } from '../errors.js';
import { FakeTransport, type FakeAction } from '../transport/fake-transport.js';
import { SessionDataSet, type RowBatch } from './session-data-set.js';
import type { RowRecord } from './row-record.js';
import { Session } from './session.js';
import { SessionPool } from '../pool/session-pool.js';
import { tsBlock } from '../testing/tsblock.js';
import { FRAME_POOL } from '../connection/frame-pool.js';
import { RELEASE_EVERY } from './statement-ids.js';

// The sessions here talk to one scripted node whose every query is the one under test: discoverNodes off (node
// discovery and query routing: query-routing.test).

/** A TsBlock of one INT32 column with times from firstTime. */
const block = (values: number[], firstTime: number) =>
  tsBlock(
    values.map((_, i) => firstTime + i),
    [{ type: 'INT32', values }],
  );

/** A TsBlock of one INT64 column with times 0..n-1. */
const int64Block = (values: bigint[]) =>
  tsBlock(
    values.map((_, i) => i),
    [{ type: 'INT64', values }],
  );

/** A TsBlock of one TEXT column (nulls where a value is null) with times from firstTime. */
const textBlock = (values: (string | null)[], firstTime: number) =>
  tsBlock(
    values.map((_, i) => firstTime + i),
    [{ type: 'TEXT', values }],
  );

/** The context of a data set that sends nothing to any server (its reply has no query id). */
function context(int64As: 'bigint' | 'number' = 'bigint', timestampAs: 'bigint' | 'number' = 'bigint') {
  return {
    connection: undefined as never,
    sessionId: 0n,
    statementId: 0n,
    sql: '',
    fetchSize: 10,
    timeoutMs: 0,
    timeoutOption: 'requestTimeoutMs',
    queryTimeoutMs: 0,
    int64As,
    timestampAs,
    precision: 'ms',
    timeZone: 'UTC',
    settled: () => undefined,
  } as const;
}

/** A data set over given blocks with no query id: nothing is sent to any server. */
function dataSet(
  blocks: Buffer[],
  type: 'INT32' | 'INT64' | 'TEXT' = 'INT32',
  int64As: 'bigint' | 'number' = 'bigint',
  timestampAs: 'bigint' | 'number' = 'bigint',
): SessionDataSet {
  return new SessionDataSet(context(int64As, timestampAs), {
    status: { code: 200 },
    columns: ['root.sg.d.s'],
    dataTypeList: [type],
    queryResult: blocks,
    moreData: false,
  });
}

/**
 * A scripted server of one query whose rows come in `batches` (INT32, times from 0): the first with the query's
 * reply, the others one per fetch, each fetch's reply as `fetchReply` makes it of the plain one (`delayMs` later);
 * a fetch after the last batch is answered with no result set.
 */
function queryInBatches(
  batches: readonly number[][],
  {
    delayMs = 0,
    fetchReply = (_n: number, reply: FakeAction): FakeAction | undefined => reply,
    other = (_c: { method: string }): FakeAction | undefined => undefined,
    chunkBytes = Infinity,
  } = {},
): FakeTransport {
  let fetches = 0;
  let time = 0;
  const next = (values: number[]) => block(values, (time += values.length) - values.length);
  return new FakeTransport(
    (c) => {
      if (c.method === 'executeQueryStatementV2') {
        const reply = { status: { code: 200 }, queryId: 3n, columns: ['root.sg.d.s'], dataTypeList: ['INT32'] };
        return { reply: { ...reply, queryResult: [next(batches[0])], moreData: batches.length > 1 } };
      }
      if (c.method !== 'fetchResultsV2') return other(c);
      const n = ++fetches;
      const reply =
        n < batches.length
          ? {
              status: { code: 200 },
              hasResultSet: true,
              isAlign: true,
              queryResult: [next(batches[n])],
              moreData: n < batches.length - 1,
            }
          : { status: { code: 200 }, hasResultSet: false, isAlign: true, moreData: false };
      const action = fetchReply(n, { reply });
      return action === undefined || delayMs === 0 ? action : { delayMs, then: action };
    },
    { chunkBytes },
  );
}

describe('SessionDataSet without a server', () => {
  it('streams one columnar batch per block, rows in order', async () => {
    const ds = dataSet([block([1, 2, 3], 0), block([4, 5], 3)]);
    const got: number[][] = [];
    for await (const b of ds.batches()) got.push(Array.from(b.values[0] as Int32Array));
    expect(got).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    expect(ds.isClosed).toBe(true);
  });

  it('gives in batches only the rows the iterator has not read yet', async () => {
    const ds = dataSet([block([1, 2, 3], 0), block([4, 5], 3)]);
    expect((await ds.next()).values).toEqual([1]);
    const batches = [];
    for await (const b of ds.batches())
      batches.push({ times: Array.from(b.timestamps!), values: Array.from(b.values[0] as Int32Array) });
    expect(batches).toEqual([
      { times: [1n, 2n], values: [2, 3] },
      { times: [3n, 4n], values: [4, 5] },
    ]);
  });

  it('gives the rows a block at a time through rowBatches(), only those not read yet', async () => {
    const ds = dataSet([block([1, 2, 3], 0), block([4, 5], 3)]);
    expect((await ds.next()).values).toEqual([1]);
    const got = [];
    const lengths = [];
    for await (const rows of ds.rowBatches()) {
      got.push(Array.from(rows, (r) => [r.timestamp, ...r.values]));
      lengths.push(rows.length);
    }
    expect(lengths).toEqual([2, 2]);
    expect(got).toEqual([
      [
        [1n, 2],
        [2n, 3],
      ],
      [
        [3n, 4],
        [4n, 5],
      ],
    ]);
  });

  it("rowBatches() gives the rows before an unsafe INT64 (int64As 'number') and throws at that row", async () => {
    const unsafe = 2n ** 53n + 1n;
    const ds = dataSet([int64Block([1n, 2n, unsafe, 4n])], 'INT64', 'number');
    const got: unknown[] = [];
    const reading = (async () => {
      for await (const rows of ds.rowBatches()) for (const row of rows) got.push(row.values[0]);
    })();
    await expect(reading).rejects.toBeInstanceOf(IoTDBValidationError);
    expect(got).toEqual([1, 2]);
  });

  it("a time beyond 2^53 with timestampAs 'number' (a nanosecond server) is refused naming timestampAs, not int64As", async () => {
    const late = 1714979289123456789n; // 2024 in nanoseconds
    const ds = dataSet([tsBlock([1n, late], [{ type: 'INT32', values: [1, 2] }])], 'INT32', 'bigint', 'number');
    expect((await ds.next()).timestamp).toBe(1);
    const next = ds.next();
    await expect(next).rejects.toBeInstanceOf(IoTDBValidationError);
    await expect(next).rejects.toThrow(
      /^timestampAs: time 1714979289123456789 is beyond Number.MAX_SAFE_INTEGER; use timestampAs: 'bigint' or 'Date'$/,
    );
  });

  it('a batch iterator does not skip the row that threw: the next call throws again', async () => {
    const ds = dataSet([int64Block([1n, 2n ** 53n + 1n, 3n])], 'INT64', 'number');
    const batches = ds.rowBatches();
    const rows = (await batches.next()).value as RowBatch;
    const it = rows[Symbol.iterator]() as Iterator<RowRecord, undefined>;
    expect(it.next().value?.values).toEqual([1]);
    for (let attempt = 0; attempt < 2; attempt++) expect(() => it.next()).toThrow(/beyond Number.MAX_SAFE_INTEGER/);
    await batches.return();
  });

  it('joins every block into one columnar result', async () => {
    const c = await dataSet([block([1, 2], 0), block([3], 2)]).toColumnar();
    expect(c.rowCount).toBe(3);
    expect(Array.from(c.values[0] as Int32Array)).toEqual([1, 2, 3]);
    expect(Array.from(c.timestamps!)).toEqual([0n, 1n, 2n]);
  });

  it('joins thousands of small blocks (a wide result) as it joins two: nulls, text and a block begun by rows', async () => {
    // the server sends a wide result in blocks of a few dozen rows: toColumnar joins them as they come
    const BLOCKS = 3000;
    const cell = (b: number, r: number) => b * 7 + r;
    // made for each data set: a data set owns the buffers it is given (it may decode them in place)
    const blocks = () =>
      Array.from({ length: BLOCKS }, (_, b) => {
        const rows = 1 + ((b + 2) % 5); // the first of 3 rows
        const n = Array.from({ length: rows }, (_, r) => cell(b, r));
        return tsBlock(
          n.map((v) => v * 10),
          [
            { type: 'INT32', values: n.map((v) => (v % 3 === 0 ? null : v)) },
            { type: 'INT64', values: n.map((v) => BigInt(v) * 2n ** 40n) },
            { type: 'TEXT', values: n.map((v) => (v % 4 === 0 ? null : `t${v % 9}`)) },
          ],
        );
      });
    const columns = ['root.sg.d.a', 'root.sg.d.b', 'root.sg.d.c'];
    const open = () =>
      new SessionDataSet(context(), {
        status: { code: 200 },
        columns,
        dataTypeList: ['INT32', 'INT64', 'TEXT'],
        queryResult: blocks(),
        moreData: false,
      });
    const rows: unknown[][] = [];
    for await (const row of open()) rows.push([row.timestamp, ...row.values]);
    const ds = open();
    const first = (await ds[Symbol.asyncIterator]().next()).value as RowRecord; // its block's other rows: toColumnar's
    const c = await ds.toColumnar();
    const joined = Array.from({ length: c.rowCount }, (_, i) => [
      c.timestamps![i],
      ...c.values.map((v, k) => (c.nulls[k]?.[i] === 1 ? null : v[i])),
    ]);
    expect([[first.timestamp, ...first.values], ...joined]).toEqual(rows);
    expect(c.rowCount).toBe(rows.length - 1);
    expect(c.values.map((v) => v.constructor.name)).toEqual(['Int32Array', 'BigInt64Array', 'Array']);
  });

  it('gives text as every other reader does, values repeated within and across blocks among them', async () => {
    // repeated short ASCII values (toColumnar shares them), others longer, non-ASCII, unique, null
    const columns = [
      ['ok', 'warn', 'ok', null, 'abc\0', 'abc', 'ok'],
      ['warn', 'a-value-longer-than-12', 'ok', 'é', null, 'abc\0'],
      Array.from({ length: 300 }, (_, i) => (i % 2 === 0 ? `id-${i}` : 'ok')),
    ];
    const blocks = () => columns.map((v, k) => textBlock(v, k * 1000));
    const c = await dataSet(blocks(), 'TEXT').toColumnar();
    const rows: (string | null)[] = [];
    for await (const row of dataSet(blocks(), 'TEXT')) rows.push(row.getString(2));
    expect(c.values[0]).toEqual(columns.flat());
    expect(rows).toEqual(columns.flat());
  });
});

describe('text bytes that are not UTF-8, read as columns', () => {
  const ff41 = Buffer.from([0xff, 0x41]);
  const c3 = Buffer.from([0xc3]);
  /** A data set over TEXT blocks whose cells may be bytes that are not UTF-8. */
  const bytesDataSet = (blocks: (string | Buffer | null)[][]) => {
    let time = 0;
    const raw = blocks.map((values) => {
      time += values.length;
      return tsBlock(
        values.map((_, i) => time - values.length + i),
        [{ type: 'TEXT', values }],
      );
    });
    return new SessionDataSet(context(), {
      status: { code: 200 },
      columns: ['root.sg.d.s'],
      dataTypeList: ['TEXT'],
      queryResult: raw,
      moreData: false,
    });
  };

  it('toColumnar() keeps their exact bytes in rawText, by row across blocks; the strings hold U+FFFD', async () => {
    const ds = bytesDataSet([
      ['a', ff41],
      [null, 'b', c3],
    ]);
    const r = await ds.toColumnar();
    expect(r.values[0]).toEqual(['a', '\uFFFDA', null, 'b', '\uFFFD']);
    expect([...(r.rawText[0] ?? [])]).toEqual([
      [1, ff41],
      [4, c3],
    ]);
  });

  it('toColumnar() after rows were read numbers rawText from the first row it gives', async () => {
    const ds = bytesDataSet([['a', ff41, 'b', c3]]);
    await ds.next();
    const r = await ds.toColumnar();
    expect([...(r.rawText[0] ?? [])]).toEqual([
      [0, ff41],
      [2, c3],
    ]);
  });

  it('batches() give each block its own rawText; null for a column whose text is all UTF-8', async () => {
    const ds = bytesDataSet([['a', 'b'], [c3]]);
    const got = [];
    for await (const b of ds.batches()) got.push(b.rawText[0] === null ? null : [...b.rawText[0]]);
    expect(got).toEqual([null, [[0, c3]]]);
  });
});

describe('reading ahead (a session over a scripted transport)', () => {
  const BATCHES = [[1, 2, 3], [4, 5], [6], [7, 8]];
  /** A query whose rows come in BATCHES: the first with the query's reply, the others one per fetch. */
  function server(
    fetchReply: (n: number, reply: FakeAction) => FakeAction | undefined = () => undefined,
  ): FakeTransport {
    return queryInBatches(BATCHES, { fetchReply: (n, reply) => fetchReply(n, reply) ?? reply });
  }
  const sessions: Session[] = [];
  afterEach(async () => {
    for (const s of sessions.splice(0)) await s.close();
  });
  async function query(fake: FakeTransport, readAhead?: number): Promise<SessionDataSet> {
    const s = new Session({ nodeUrls: ['10.0.0.1:6667'], discoverNodes: false, transport: fake, readAhead });
    sessions.push(s);
    await s.open();
    return s.executeQueryStatement('SELECT s FROM root.sg.d');
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

  it('fetches the next batch while the reader is still on the first, one batch ahead by default', async () => {
    const fake = server();
    const ds = await query(fake);
    expect((await ds.next()).values).toEqual([1]);
    await settle();
    expect(fake.callsOf('fetchResultsV2')).toHaveLength(1); // batch 2 is here before the reader needs it
    const rest = [];
    for await (const row of ds) rest.push(row.values[0]);
    expect(rest).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(fake.callsOf('fetchResultsV2')).toHaveLength(3);
    await ds.closed; // the server sent its last rows: nothing to release there but the query's id (StatementIds)
    expect(fake.callsOf('closeOperation')).toHaveLength(0);
  });

  it('counts what reading cost: blocks, fetches, decode time and the time the reader waited for slow fetches', async () => {
    const fake = server((n, reply) => (n === 2 ? { delayMs: 60, then: reply } : undefined));
    const ds = await query(fake, 0);
    for await (const _row of ds) void _row;
    const stats = ds.readStats();
    expect([stats.blocks, stats.fetches]).toEqual([4, 3]);
    expect(stats.decodeMs).toBeGreaterThan(0);
    expect(stats.fetchWaitMs).toBeGreaterThanOrEqual(55); // the slow second fetch
    expect(stats.fetchWaitMs).toBeLessThan(1000);
  });

  it('reads replies of megabytes, each spread over many chunks, into reused memory and every value as sent', async () => {
    // each reply ~3.6 MB in 64 KiB chunks: a frame is copied into a pooled buffer, given back once every block of it
    // is decoded; a buffer given back too early would be overwritten by the reply read ahead
    const batches = Array.from({ length: 6 }, (_, b) => Array.from({ length: 300_000 }, (_, i) => b * 1_000_003 + i));
    const hits = FRAME_POOL.getStats().hits;
    for (const readAhead of [0, 1, 2]) {
      const s = new Session({
        nodeUrls: ['10.0.0.1:6667'],
        discoverNodes: false,
        readAhead,
        transport: queryInBatches(batches, { chunkBytes: 65_536 }),
      });
      sessions.push(s);
      await s.open();
      const read: number[] = [];
      for await (const batch of (await s.executeQueryStatement('SELECT s FROM root.sg.d')).batches())
        for (const v of batch.values[0] as Int32Array) read.push(v);
      const sent = batches.flat();
      const wrong = sent.findIndex((v, i) => read[i] !== v); // not toEqual: its diff of 1.8 M values takes minutes
      expect({ readAhead, rows: read.length, wrong }).toEqual({ readAhead, rows: sent.length, wrong: -1 });
    }
    expect(FRAME_POOL.getStats().hits).toBeGreaterThan(hits);
  }, 20_000); // 2 s alone, CPU-bound: a loaded machine must not time it out

  it('keeps as many batches waiting as readAhead says, and none with 0', async () => {
    for (const [readAhead, fetched] of [
      [0, 0],
      [2, 2],
    ]) {
      const fake = server();
      const ds = await query(fake, readAhead);
      await ds.next();
      await settle();
      expect(fake.callsOf('fetchResultsV2')).toHaveLength(fetched);
      expect(Array.from((await ds.toColumnar()).values[0] as Int32Array)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    }
  });

  it('rowBatches() gives each reply as rows, fetching as it goes, and closes with the last (nothing to release)', async () => {
    const fake = server();
    const got = [];
    const ds = await query(fake);
    for await (const rows of ds.rowBatches()) got.push(Array.from(rows, (r) => r.values[0]));
    expect(got).toEqual(BATCHES);
    expect(fake.callsOf('fetchResultsV2')).toHaveLength(3);
    await ds.closed;
    expect(fake.callsOf('closeOperation')).toHaveLength(0);
  });

  it('leaving rowBatches() early releases the query and fetches nothing more', async () => {
    const fake = server();
    const ds = await query(fake, 0);
    for await (const rows of ds.rowBatches()) if (rows.length > 0) break;
    expect(ds.isClosed).toBe(true);
    expect(fake.callsOf('closeOperation')).toHaveLength(1);
    expect(fake.callsOf('fetchResultsV2')).toHaveLength(0);
  });

  it('close() drops what was read ahead, fetches nothing more and releases the query once', async () => {
    const fake = server();
    const ds = await query(fake);
    await ds.next();
    await settle();
    await ds.close();
    await settle();
    expect(fake.callsOf('fetchResultsV2')).toHaveLength(1);
    expect(fake.callsOf('closeOperation')).toHaveLength(1);
    expect(await ds.hasNext()).toBe(true); // rows already decoded can still be read
  });

  it.each([
    ['landed', 0],
    ['still in flight', 60],
  ])(
    'close() with a batch read ahead %s: the rows decoded are read, then the reader is told, not given that batch',
    async (_, delayMs) => {
      const fake = server((n, reply) => (n === 1 ? { delayMs, then: reply } : undefined));
      const ds = await query(fake);
      const rows = [(await ds.next()).values[0]];
      if (delayMs === 0) await settle();
      await ds.close(); // the release goes after the fetch in flight: one call at a time on the connection
      for (let i = 0; i < 2; i++) rows.push((await ds.next()).values[0]);
      expect(rows).toEqual([1, 2, 3]);
      await expect(ds.hasNext()).rejects.toThrow(/closed by its reader .* before all its rows were read/);
      expect([fake.callsOf('fetchResultsV2').length, fake.callsOf('closeOperation').length]).toEqual([1, 1]);
    },
  );

  it('a failed fetch ahead surfaces when the reader gets there, with the rows before it intact', async () => {
    const fake = server((n) =>
      n === 1 ? { reply: { status: { code: 301, message: 'no' }, hasResultSet: false, isAlign: true } } : undefined,
    );
    const ds = await query(fake);
    const rows: number[] = [];
    await ds.next().then((r) => rows.push(r.values[0] as number));
    await settle();
    for (let i = 0; i < 2; i++) rows.push((await ds.next()).values[0] as number);
    expect(rows).toEqual([1, 2, 3]);
    await expect(ds.hasNext()).rejects.toBeInstanceOf(IoTDBServerError);
  });

  it('a block that does not decode fails the data set: every read after it fails alike, none gives rows past it', async () => {
    const broken = Buffer.from([0, 0, 0, 1, 1, 0x7f, 0xff, 0xff, 0xff, 4, 4]); // 2^31-1 rows announced, none there
    const [queryResult, moreData] = [[broken, block([4, 5], 3)], true];
    const fake = server((n) =>
      n === 1
        ? { reply: { status: { code: 200 }, hasResultSet: true, isAlign: true, queryResult, moreData } }
        : undefined,
    );
    const ds = await query(fake);
    const rows = [];
    const failures = [];
    for (let i = 0; i < 6; i++) {
      try {
        rows.push((await ds.next()).values[0]);
      } catch (e) {
        failures.push(e);
      }
    }
    expect(rows).toEqual([1, 2, 3]);
    expect(failures).toHaveLength(3);
    for (const e of failures) expect(e).toBeInstanceOf(IoTDBProtocolError);
    await expect(ds.toColumnar()).rejects.toBeInstanceOf(IoTDBProtocolError);
    expect(ds.isClosed).toBe(true);
    expect(fake.callsOf('fetchResultsV2')).toHaveLength(1); // nothing fetched after it
  });

  it('refuses a negative readAhead at construction', () => {
    expect(() => new Session({ readAhead: -1 })).toThrow(IoTDBValidationError);
  });
});

describe('after the last row (a session over a scripted transport)', () => {
  /**
   * One block of rows 1, 2, 3, and no more unless `moreData`; statement ids 1, 2, ... on request; closeOperation
   * answered as `close` says.
   */
  function server(close: FakeAction = { reply: { code: 200 } }, moreData = false): FakeTransport {
    let statementIds = 0n;
    return new FakeTransport((c) => {
      if (c.method === 'requestStatementId') return { reply: ++statementIds };
      if (c.method === 'executeQueryStatementV2') {
        const reply = { status: { code: 200 }, queryId: 3n, columns: ['root.sg.d.s'], dataTypeList: ['INT32'] };
        return { reply: { ...reply, queryResult: [block([1, 2, 3], 0)], moreData } };
      }
      return c.method === 'closeOperation' ? close : undefined;
    });
  }
  const sessions: Session[] = [];
  afterEach(async () => {
    for (const s of sessions.splice(0)) await s.close();
  });
  async function session(fake: FakeTransport, logged: unknown[][] = []): Promise<Session> {
    const line = (level: string) => (obj: unknown, msg: string) => void logged.push([level, obj, msg]);
    const logger = { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
    const s = new Session({ nodeUrls: ['10.0.0.1:6667'], discoverNodes: false, transport: fake, logger });
    sessions.push(s);
    await s.open();
    return s;
  }
  const methods = (fake: FakeTransport) => fake.calls.map((c) => c.method);
  const statementOf = (c: { args: unknown }) => (c.args as { statementId: bigint }).statementId;

  it('sends nothing after the last row (the server sent it and dropped the query): the next call goes at once', async () => {
    const fake = server();
    const s = await session(fake);
    const ds = await s.executeQueryStatement('SELECT s FROM root.sg.d');
    const rows = [];
    for await (const row of ds) rows.push(row.values[0]);
    expect(rows).toEqual([1, 2, 3]);
    expect(ds.isClosed).toBe(true);
    await ds.closed;
    await s.executeNonQueryStatement('FLUSH');
    expect(methods(fake).slice(-2)).toEqual(['executeQueryStatementV2', 'executeUpdateStatementV2']);
  });

  it("releases a statement's finished queries in one closeOperation every RELEASE_EVERY, then goes on under a new id", async () => {
    const fake = server();
    const s = await session(fake);
    const read = async () => (await s.executeQueryStatement('SELECT s FROM root.sg.d')).toColumnar();
    for (let i = 0; i < RELEASE_EVERY - 1; i++) await read();
    await new Promise((r) => setTimeout(r, 20));
    expect(fake.callsOf('requestStatementId')).toHaveLength(1); // the login's
    await read(); // the statement's RELEASE_EVERY-th: a new id asked for, then the old statement released
    await vi.waitFor(() => expect(fake.callsOf('closeOperation')).toHaveLength(1));
    expect(fake.callsOf('closeOperation')[0].args).toEqual({ sessionId: 1n, statementId: 1n }); // no query id: all
    expect(methods(fake).slice(-2)).toEqual(['requestStatementId', 'closeOperation']);
    expect(fake.callsOf('executeQueryStatementV2').map(statementOf)).toEqual(Array(RELEASE_EVERY).fill(1n));
    await read();
    expect(statementOf(fake.callsOf('executeQueryStatementV2').at(-1)!)).toBe(2n);
    await s.executeNonQueryStatement('FLUSH');
    expect(statementOf(fake.callsOf('executeUpdateStatementV2')[0])).toBe(2n);
  });

  it("counts statements that return no rows too (IoTDB holds each one's id alike): released with the queries'", async () => {
    const fake = server();
    const s = await session(fake);
    for (let i = 0; i < RELEASE_EVERY - 1; i++) await s.executeNonQueryStatement('FLUSH');
    await (await s.executeQueryStatement('SELECT s FROM root.sg.d')).toColumnar(); // the statement's RELEASE_EVERY-th
    await vi.waitFor(() =>
      expect(fake.callsOf('closeOperation').map((c) => c.args)).toEqual([{ sessionId: 1n, statementId: 1n }]),
    );
    await s.executeNonQueryStatement('FLUSH');
    expect(statementOf(fake.callsOf('executeUpdateStatementV2').at(-1)!)).toBe(2n);
  });

  it('keeps the old statement until no result of it is open, and sends its release then', async () => {
    const fake = server();
    const s = await session(fake);
    const open = await s.executeQueryStatement('SELECT s FROM root.sg.d'); // not read yet
    for (let i = 0; i < RELEASE_EVERY; i++)
      await (await s.executeQueryStatement('SELECT s FROM root.sg.d')).toColumnar();
    await (await s.executeQueryStatement('SELECT s FROM root.sg.d')).toColumnar(); // under statement 2
    await new Promise((r) => setTimeout(r, 20));
    expect(fake.callsOf('closeOperation')).toHaveLength(0);
    expect(Array.from((await open.toColumnar()).values[0] as Int32Array)).toEqual([1, 2, 3]);
    await vi.waitFor(() =>
      expect(fake.callsOf('closeOperation').map((c) => c.args)).toEqual([{ sessionId: 1n, statementId: 1n }]),
    );
  });

  it("lends a pooled session again as its data set's last row is read", async () => {
    const fake = server();
    const pool = new SessionPool({ nodeUrls: ['10.0.0.1:6667'], discoverNodes: false, transport: fake, maxSize: 1 });
    try {
      const ds = await pool.executeQueryStatement('SELECT s FROM root.sg.d');
      for await (const _row of ds) void _row;
      // no reply waited for: the pool has the session back as the loop ends
      expect(pool.stats()).toMatchObject({ inUse: 0, waiting: 0 });
      await pool.executeNonQueryStatement('FLUSH'); // the pool's one session
      expect(methods(fake).slice(-2)).toEqual(['executeQueryStatementV2', 'executeUpdateStatementV2']);
    } finally {
      await pool.close();
    }
  });

  it('ends rowBatches(), batches() and toColumnar() alike, with nothing to release', async () => {
    const reads = [
      async (ds: SessionDataSet) => {
        for await (const _ of ds.rowBatches()) void _;
      },
      async (ds: SessionDataSet) => {
        for await (const _ of ds.batches()) void _;
      },
      (ds: SessionDataSet) => ds.toColumnar(),
    ];
    for (const read of reads) {
      const fake = server();
      const ds = await (await session(fake)).executeQueryStatement('SELECT s FROM root.sg.d');
      await read(ds);
      await ds.close();
      expect([ds.isClosed, fake.callsOf('closeOperation').length]).toEqual([true, 0]);
    }
  });

  it('close() with rows left on the server waits for their release, and throws its failure', async () => {
    const s = await session(
      server({ delayMs: 50, then: { reply: { code: 710, message: 'no such statement' } } }, true),
    );
    const ds = await s.executeQueryStatement('SELECT s FROM root.sg.d', { readAhead: 0 });
    await ds.next();
    await expect(ds.close()).rejects.toMatchObject({ statusCode: 710 });
    await expect(ds.close()).rejects.toMatchObject({ statusCode: 710 }); // the one release, however often asked
  });

  it("logs a statement's release that failed (release-failed); the queries go on", async () => {
    const logged: unknown[][] = [];
    const s = await session(server({ reply: { code: 710, message: 'no such statement' } }), logged);
    for (let i = 0; i <= RELEASE_EVERY; i++)
      await (await s.executeQueryStatement('SELECT s FROM root.sg.d')).toColumnar();
    const failed = () => logged.filter(([, obj]) => (obj as { event?: string }).event === 'release-failed');
    await vi.waitFor(() => expect(failed()).toHaveLength(1));
    expect(failed()[0][0]).toBe('warn');
    expect(failed()[0][1]).toMatchObject({ operation: 'closeOperation of statement 1', statusCode: 710 });
    expect(failed()[0][2]).toMatch(/^iotdb: closeOperation of statement 1 failed: the finished queries' ids stay/);
    const c = await (await s.executeQueryStatement('SELECT s FROM root.sg.d')).toColumnar();
    expect(c.rowCount).toBe(3);
  });
});

describe("a query's release (closeOperation): one request in flight", () => {
  // two replies back to back (the release's, then the next call's) stalled on a hop that holds small writes (Nagle's
  // algorithm, a proxy without TCP_NODELAY): 44 ms a query, where one request at a time took 1 ms
  const sessions: Session[] = [];
  afterEach(async () => {
    for (const s of sessions.splice(0)) await s.close();
  });
  async function session(fake: FakeTransport): Promise<Session> {
    const s = new Session({ nodeUrls: ['10.0.0.1:6667'], discoverNodes: false, transport: fake });
    sessions.push(s);
    await s.open();
    return s;
  }
  /** closeOperation answered 100 ms late */
  const slowClose = (c: { method: string }): FakeAction | undefined =>
    c.method === 'closeOperation' ? { delayMs: 100, then: { reply: { code: 200 } } } : undefined;

  it("goes out alone, however the data set is closed with rows left; the session's next request once it is answered", async () => {
    const reads: ((ds: SessionDataSet) => Promise<unknown>)[] = [
      async (ds) => {
        for await (const _row of ds) break; // closed before the last rows
      },
      async (ds) => {
        for await (const _rows of ds.rowBatches()) break;
      },
      (ds) => ds.next().then(() => void ds.close()), // closed while a fetch may be ahead
    ];
    for (const read of reads) {
      const fake = queryInBatches([[1, 2], [3, 4], [5]], { other: slowClose });
      const s = await session(fake);
      const ds = await s.executeQueryStatement('SELECT s FROM root.sg.d');
      let answered = false;
      void ds.closed.then(() => (answered = true));
      await read(ds);
      const flushed = s.executeNonQueryStatement('FLUSH');
      await new Promise((r) => setTimeout(r, 50));
      // the server is still on the release (unless the read waited for it: leaving a loop early does)
      if (!answered) expect(fake.calls.map((c) => c.method).at(-1)).toBe('closeOperation');
      await flushed;
      expect(fake.calls.map((c) => c.method).slice(-2)).toEqual(['closeOperation', 'executeUpdateStatementV2']);
    }
  });
});

describe("a result the server ends with no rows (IoTDB's answer for a query it no longer has)", () => {
  /** One batch with the query's reply, more announced; every fetch answered with no result set and no more data. */
  function server(): FakeTransport {
    return new FakeTransport((c) => {
      if (c.method === 'executeQueryStatementV2') {
        const reply = { status: { code: 200 }, queryId: 3n, columns: ['root.sg.d.s'], dataTypeList: ['INT32'] };
        return { reply: { ...reply, queryResult: [block([1, 2, 3], 0)], moreData: true } };
      }
      if (c.method === 'fetchResultsV2')
        return { reply: { status: { code: 200 }, hasResultSet: false, isAlign: true, moreData: false } };
      return undefined;
    });
  }
  const sessions: Session[] = [];
  afterEach(async () => {
    for (const s of sessions.splice(0)) await s.close();
  });
  /** Reads every row, `pauseMs` after each (a slow consumer); the rows read and how the read ended. */
  async function readSlowly(requestTimeoutMs: number, pauseMs: number): Promise<{ rows: unknown[]; error?: unknown }> {
    const s = new Session({
      nodeUrls: ['10.0.0.1:6667'],
      discoverNodes: false,
      transport: server(),
      readAhead: 0,
      requestTimeoutMs,
    });
    sessions.push(s);
    await s.open();
    const rows: unknown[] = [];
    try {
      for await (const row of await s.executeQueryStatement('SELECT s FROM root.sg.d')) {
        rows.push(row.values[0]);
        await new Promise((r) => setTimeout(r, pauseMs));
      }
      return { rows };
    } catch (error) {
      return { rows, error };
    }
  }

  it('fails the read past the query timeout (the server may have dropped it), rather than end it as if complete', async () => {
    const { rows, error } = await readSlowly(50, 30);
    expect(rows).toEqual([1, 2, 3]);
    expect(error).toBeInstanceOf(IoTDBQueryTimeoutError);
    expect(error).toMatchObject({ code: 'IOTDB_QUERY_TIMEOUT', timeoutMs: 50 });
    expect((error as Error).message).toMatch(/SELECT s FROM root\.sg\.d.*past its timeout of 50 ms/);
  });

  it('ends the rows so within the timeout: the server had none left after the last batch', async () => {
    expect(await readSlowly(60_000, 1)).toEqual({ rows: [1, 2, 3] });
  });
});

describe("a query's signal, once it fires", () => {
  const server = () =>
    queryInBatches([
      [1, 2, 3],
      [4, 5, 6],
      [7, 8],
    ]);
  const sessions: Session[] = [];
  afterEach(async () => {
    for (const s of sessions.splice(0)) await s.close();
  });
  async function query(fake: FakeTransport, signal: AbortSignal) {
    const s = new Session({ nodeUrls: ['10.0.0.1:6667'], discoverNodes: false, transport: fake, readAhead: 0 });
    sessions.push(s);
    await s.open();
    return { s, ds: await s.executeQueryStatement('SELECT s FROM root.sg.d', { signal }) };
  }

  it('ends the rows at the next one, received or not: IoTDBAbortError, the query released', async () => {
    const fake = server();
    const ac = new AbortController();
    const { s, ds } = await query(fake, ac.signal);
    const rows: unknown[] = [];
    const error = await (async () => {
      for await (const row of ds) {
        rows.push(row.values[0]);
        if (rows.length === 2) ac.abort(new Error('enough'));
      }
    })().catch((x: unknown) => x);
    expect(rows).toEqual([1, 2]);
    expect(error).toBeInstanceOf(IoTDBAbortError);
    expect((error as Error).cause).toEqual(new Error('enough'));
    expect((error as Error).message).toMatch(/SELECT s FROM root\.sg\.d.*aborted/);
    expect(ds.isClosed).toBe(true);
    await s.executeNonQueryStatement('FLUSH'); // the session goes on; the release went out before it
    expect(fake.callsOf('closeOperation')).toHaveLength(1);
  });

  it('ends rowBatches(), batches() and toColumnar() at their next block', async () => {
    for (const read of [(ds: SessionDataSet) => ds.rowBatches(), (ds: SessionDataSet) => ds.batches()] as const) {
      const ac = new AbortController();
      const { ds } = await query(server(), ac.signal);
      let batches = 0;
      const error = await (async () => {
        for await (const _ of read(ds)) if (++batches === 1) ac.abort();
      })().catch((x: unknown) => x);
      expect(batches).toBe(1);
      expect(error).toBeInstanceOf(IoTDBAbortError);
    }
    const ac = new AbortController();
    const { ds } = await query(server(), ac.signal);
    ac.abort();
    await expect(ds.toColumnar()).rejects.toThrow(IoTDBAbortError);
  });

  it("a read's own signal ends that read the same way", async () => {
    const { ds } = await query(server(), new AbortController().signal);
    expect((await ds.next()).values).toEqual([1]);
    await expect(ds.hasNext({ signal: AbortSignal.abort() })).rejects.toThrow(IoTDBAbortError);
  });
});

describe('a pool whose sessions are held by data sets', () => {
  it('says so when a caller times out waiting, and counts them in stats()', async () => {
    const fake = queryInBatches([[1, 2, 3], [4]]);
    const pool = new SessionPool({
      nodeUrls: ['10.0.0.1:6667'],
      discoverNodes: false,
      transport: fake,
      maxSize: 1,
      waitTimeoutMs: 50,
    });
    try {
      const ds = await pool.executeQueryStatement('SELECT s FROM root.sg.d', { readAhead: 0 });
      await ds.next(); // and then forgotten: neither read to its end nor closed
      expect(pool.stats()).toMatchObject({ inUse: 1, openDataSets: 1 });
      const e = await pool.executeNonQueryStatement('FLUSH').catch((x: unknown) => x);
      expect((e as Error).message).toMatch(
        /\(size 1, in use 1 \(1 by a data set not read to its end nor closed\), waiting 1\)/,
      );
      await ds.close();
      expect(pool.stats()).toMatchObject({ inUse: 0, openDataSets: 0 });
      await pool.executeNonQueryStatement('FLUSH');
    } finally {
      await pool.close();
    }
  });
});

describe('a data set read from several places at once', () => {
  /** 0..32: three rows with the query's reply, then ten fetches of three, each answered 2 ms later. */
  const server = () =>
    queryInBatches(
      Array.from({ length: 11 }, (_, k) => [3 * k, 3 * k + 1, 3 * k + 2]),
      { delayMs: 2 },
    );
  const ALL = Array.from({ length: 33 }, (_, i) => i);
  const sessions: Session[] = [];
  afterEach(async () => {
    for (const s of sessions.splice(0)) await s.close();
  });
  async function query(readAhead: number): Promise<SessionDataSet> {
    const s = new Session({ nodeUrls: ['10.0.0.1:6667'], discoverNodes: false, transport: server(), readAhead });
    sessions.push(s);
    await s.open();
    return s.executeQueryStatement('SELECT s FROM root.sg.d');
  }
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

  it.each([0, 1, 3])(
    'gives each row once to readers taking turns with hasNext()/next() (readAhead %i)',
    async (readAhead) => {
      const ds = await query(readAhead);
      const got: number[] = [];
      const reader = async () => {
        while (await ds.hasNext()) {
          const row = await ds.next().catch(() => null); // another reader may have taken the last row meanwhile
          if (row !== null) got.push(row.values[0] as number);
        }
      };
      await Promise.all([reader(), reader(), reader()]);
      expect(sorted(got)).toEqual(ALL);
    },
  );

  it.each([0, 1, 3])(
    'gives each row once to next() calls made together, and each iterator its own rows (readAhead %i)',
    async (readAhead) => {
      const ds = await query(readAhead);
      const rows = await Promise.all(ALL.map(() => ds.next()));
      expect(rows.map((r) => r.values[0])).toEqual(ALL);
      const again = await query(readAhead);
      const got: number[] = [];
      const iterate = async () => {
        for await (const row of again) got.push(row.values[0] as number);
      };
      const batches = async () => {
        for await (const rows of again.rowBatches()) for (const row of rows) got.push(row.values[0] as number);
      };
      await Promise.all([iterate(), iterate(), batches()]);
      expect(sorted(got)).toEqual(ALL);
    },
  );
});
