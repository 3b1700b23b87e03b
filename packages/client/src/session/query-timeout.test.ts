import { afterEach, describe, expect, it } from 'vitest';
import { IoTDBValidationError, TSDataType, type Tablet } from '@iotdb/fast-serializer';
import { IoTDBQueryTimeoutError } from '../errors.js';
import { SessionPool } from '../pool/session-pool.js';
import { FakeTransport, type FakeCall, type FakeScript } from '../transport/fake-transport.js';
import type { SessionOptions } from './options.js';
import { Session } from './session.js';
import { TableSession } from './table-session.js';

// A query's timeout on the wire and on the client, through a scripted fake transport: no server.

const A = '10.0.0.1:6667';
/** What a query asking for no limit sends: IoTDB reads 0 or less as its own query_timeout_threshold (60 s). */
const NO_LIMIT = BigInt(Number.MAX_SAFE_INTEGER);
/** The longest a Node timer waits; a longer delay fires at once. */
const TIMER_MAX = 2 ** 31 - 1;

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c().catch(() => undefined);
});

/** A query (or raw data query) answered with no rows and more announced; each fetch with no result set. */
const answers: FakeScript = (c) => {
  if (c.method === 'executeQueryStatementV2' || c.method === 'executeRawDataQueryV2') {
    const reply = { status: { code: 200 }, queryId: 3n, columns: ['root.sg.d.s'], dataTypeList: ['INT32'] };
    return { reply: { ...reply, queryResult: [], moreData: true } };
  }
  if (c.method === 'fetchResultsV2')
    return { reply: { status: { code: 200 }, hasResultSet: false, isAlign: true, moreData: false } };
  return undefined;
};

function server(): FakeTransport {
  return new FakeTransport(answers);
}

/** `answers`, but `method` is never answered. */
function hangs(method: string): FakeTransport {
  return new FakeTransport((c) => (c.method === method ? { hang: true } : answers(c)));
}

async function session(fake: FakeTransport, o: SessionOptions = {}): Promise<Session> {
  // one scripted node, every query the one under test (node discovery has tests of its own: query-routing.test)
  const s = new Session({ nodeUrls: [A], transport: fake, readAhead: 0, discoverNodes: false, ...o });
  closers.push(() => s.close());
  await s.open();
  return s;
}

const timeoutOf = (calls: FakeCall[]) => calls.map((c) => (c.args as { timeout?: bigint }).timeout);

/** Reads a query to its end, `pauseMs` before the fetch; how the read ended. */
async function readAfter(s: Session, pauseMs: number, opts = {}): Promise<unknown> {
  const ds = await s.executeQueryStatement('SELECT s FROM root.sg.d', opts);
  await new Promise((r) => setTimeout(r, pauseMs));
  return ds.toColumnar().then(
    () => 'ended',
    (e: unknown) => e,
  );
}

describe("a query's timeout", () => {
  it('0 asks the server for no limit: IoTDB would apply its own 60 s to a 0 and drop the query there', async () => {
    const fake = server();
    const s = await session(fake, { requestTimeoutMs: 0 });
    expect(await readAfter(s, 0)).toBe('ended');
    await s.executeRawDataQuery(['root.sg.d.s'], 0, 10).then((ds) => ds.close());
    expect(timeoutOf(fake.callsOf('executeQueryStatementV2'))).toEqual([NO_LIMIT]);
    expect(timeoutOf(fake.callsOf('fetchResultsV2'))).toEqual([NO_LIMIT]);
    expect(timeoutOf(fake.callsOf('executeRawDataQueryV2'))).toEqual([NO_LIMIT]);
  });

  it('is the reply wait unless queryTimeoutMs is given', async () => {
    const fake = server();
    const s = await session(fake, { requestTimeoutMs: 30_000 });
    await readAfter(s, 0);
    await readAfter(s, 0, { timeoutMs: 20_000 });
    expect(timeoutOf(fake.callsOf('executeQueryStatementV2'))).toEqual([30_000n, 20_000n]);
  });

  it("queryTimeoutMs, the session's or the call's, is what the server is sent; the reply wait stays", async () => {
    const fake = server();
    const s = await session(fake, { requestTimeoutMs: 30_000, queryTimeoutMs: 3_600_000 });
    await readAfter(s, 0);
    await readAfter(s, 0, { timeoutMs: 20_000 });
    await readAfter(s, 0, { queryTimeoutMs: 0 });
    await readAfter(s, 0, { queryTimeoutMs: 5_000, timeoutMs: 1_000 });
    expect(timeoutOf(fake.callsOf('executeQueryStatementV2'))).toEqual([3_600_000n, 3_600_000n, NO_LIMIT, 5_000n]);
    expect(timeoutOf(fake.callsOf('fetchResultsV2'))).toEqual([3_600_000n, 3_600_000n, NO_LIMIT, 5_000n]);
  });

  it('an end past queryTimeoutMs fails the read; past the reply wait alone it is the end', async () => {
    const s = await session(server(), { requestTimeoutMs: 40, queryTimeoutMs: 60_000 });
    expect(await readAfter(s, 80)).toBe('ended');
    const e = await readAfter(s, 80, { queryTimeoutMs: 40, timeoutMs: 60_000 });
    expect(e).toBeInstanceOf(IoTDBQueryTimeoutError);
    expect(e).toMatchObject({ timeoutMs: 40 });
    expect((e as Error).message).toMatch(/past its timeout of 40 ms.*a longer queryTimeoutMs/);
  });

  it('with no limit, an end is the end however late it comes', async () => {
    const s = await session(server(), { requestTimeoutMs: 40, queryTimeoutMs: 0 });
    expect(await readAfter(s, 80)).toBe('ended');
  });

  it('queryTimeoutMs is checked as the other options: a table session, a pool and a call', async () => {
    expect(() => new TableSession({ nodeUrls: [A], queryTimeoutMs: -1 })).toThrow(/queryTimeoutMs/);
    expect(() => new SessionPool({ nodeUrls: [A], queryTimeoutMs: 1.5 })).toThrow(/queryTimeoutMs/);
    const fake = server();
    const s = await session(fake);
    const e = await s.executeQueryStatement('SELECT 1', { queryTimeoutMs: -5 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBValidationError);
    expect(fake.callsOf('executeQueryStatementV2')).toHaveLength(0);
  });

  it('a reply that never comes names the option the wait came from: the session’s requestTimeoutMs or the call’s timeoutMs', async () => {
    const s = await session(hangs('executeQueryStatementV2'), { requestTimeoutMs: 30 });
    const call = await session(hangs('executeQueryStatementV2'));
    const fetching = await session(hangs('fetchResultsV2'), { requestTimeoutMs: 30 });
    const message = (p: Promise<unknown>) =>
      p.then(
        () => 'answered',
        (e: unknown) => (e as Error).message,
      );
    expect(await message(s.executeQueryStatement('SELECT s FROM root.sg.d'))).toMatch(
      /no reply within requestTimeoutMs=30$/,
    );
    expect(await message(call.executeQueryStatement('SELECT s FROM root.sg.d', { timeoutMs: 30 }))).toMatch(
      /no reply within timeoutMs=30$/,
    );
    expect(((await readAfter(fetching, 0)) as Error).message).toMatch(
      /fetchResults .*no reply within requestTimeoutMs=30$/,
    );
  });
});

describe('timeouts past what a Node timer can wait', () => {
  const tablet: Tablet = {
    deviceId: 'root.sg.d',
    measurements: ['s'],
    dataTypes: [TSDataType.INT32],
    timestamps: [1],
    values: [[1]],
  };

  it('are refused as options, naming each, before anything connects', () => {
    const e = (() => {
      try {
        new Session({
          nodeUrls: [A],
          connectTimeoutMs: TIMER_MAX + 1,
          requestTimeoutMs: 3_000_000_000,
          retry: { initialDelayMs: 2 ** 40, maxDelayMs: 2 ** 40 },
        });
      } catch (x) {
        return x;
      }
    })();
    expect(e).toBeInstanceOf(IoTDBValidationError);
    expect((e as IoTDBValidationError).issues.map((i) => i.field)).toEqual([
      'connectTimeoutMs',
      'requestTimeoutMs',
      'retry.initialDelayMs',
      'retry.maxDelayMs',
    ]);
    expect((e as Error).message).toMatch(/at most 2147483647 \(about 24\.8 days/);
    expect(() => new SessionPool({ nodeUrls: [A], waitTimeoutMs: 2 ** 31 })).toThrow(/waitTimeoutMs/);
    expect(() => new SessionPool({ nodeUrls: [A], healthCheckIntervalMs: 2 ** 31 })).toThrow(/healthCheckIntervalMs/);
    expect(() => new Session({ nodeUrls: [A] }).writer({ flushIntervalMs: 2 ** 31 })).toThrow(
      /^flushIntervalMs: needs/,
    );
  });

  it("a call's timeoutMs is refused before it is sent (a timer would fire at once: 'no reply within')", async () => {
    const fake = server();
    const s = await session(fake);
    const query = await s.executeQueryStatement('SELECT 1', { timeoutMs: 3_000_000_000 }).catch((x: unknown) => x);
    const statement = await s.executeNonQueryStatement('FLUSH', { timeoutMs: 2 ** 31 }).catch((x: unknown) => x);
    expect(query).toBeInstanceOf(IoTDBValidationError);
    expect(statement).toBeInstanceOf(IoTDBValidationError);
    expect((query as Error).message).toMatch(/^timeoutMs: needs at most 2147483647/);
    expect(fake.callsOf('executeQueryStatementV2')).toHaveLength(0);
    expect(fake.callsOf('executeUpdateStatementV2')).toHaveLength(0);
  });

  it('the longest a timer waits is taken: a query and a write within it are answered', async () => {
    const fake = server();
    const s = await session(fake, { requestTimeoutMs: TIMER_MAX, connectTimeoutMs: TIMER_MAX });
    expect(await readAfter(s, 0, { timeoutMs: TIMER_MAX })).toBe('ended');
    await s.insertTablet(tablet);
    expect(fake.callsOf('insertTablet')).toHaveLength(1);
  });

  it('a query timeout longer than a timer is sent as it is: the client arms no timer for it', async () => {
    const fake = server();
    const s = await session(fake, { queryTimeoutMs: 30 * 86_400_000 });
    expect(await readAfter(s, 0)).toBe('ended');
    expect(timeoutOf(fake.callsOf('executeQueryStatementV2'))).toEqual([2_592_000_000n]);
  });
});
