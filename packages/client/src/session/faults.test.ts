import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BufferPool,
  ByteReader,
  ByteWriter,
  TSDataType,
  TSInsertTabletsReqSchema,
  prepareTablet,
  readStruct,
  writeInsertTabletsReq,
  type TSStatus,
  type Tablet,
} from '@iotdb/fast-serializer';
import {
  IoTDBAbortError,
  IoTDBBatchError,
  IoTDBConnectionError,
  IoTDBServerError,
  IoTDBSessionClosedError,
  IoTDBTimeoutError,
} from '../errors.js';
import { IoTDBValidationError } from '@iotdb/fast-serializer';
import { SessionPool, TableSessionPool } from '../pool/session-pool.js';
import {
  FakeTransport,
  defaultReply,
  type FakeAction,
  type FakeCall,
  type FakeScript,
} from '../transport/fake-transport.js';
import type { SessionOptions } from './options.js';
import { Session } from './session.js';
import { TableSession } from './table-session.js';
import { tsBlock } from '../testing/tsblock.js';

// Sessions and pools driven through a scripted fake transport: no server, no sockets.

const A = '10.0.0.1:6667';
const B = '10.0.0.2:6667';
const FAST = { initialDelayMs: 1, maxDelayMs: 5, maxElapsedMs: 2_000 };

/** A query's first reply: no rows yet, more to fetch (the query stays open on the server). */
const openQuery = (queryId = 3n): FakeAction => ({
  reply: { status: { code: 200 }, queryId, columns: [], dataTypeList: [], queryResult: [], moreData: true },
});

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c().catch(() => undefined);
});

/** A session over `fake`; its scripts answer every query as the one under test (discovery: query-routing.test). */
function session(fake: FakeTransport, o: SessionOptions = {}): Session {
  const s = new Session({ nodeUrls: [A], transport: fake, retry: FAST, discoverNodes: false, ...o });
  closers.push(() => s.close());
  return s;
}

const tablet = (deviceId: string, t0 = 1): Tablet => ({
  deviceId,
  measurements: ['s'],
  dataTypes: [TSDataType.INT64],
  timestamps: [t0, t0 + 1],
  values: [[1n], [2n]],
});

const status = (code: number, extra: Partial<TSStatus> = {}): FakeAction => ({
  reply: { code, message: `m${code}`, ...extra },
});
/** A query's reply carrying only a status. */
const queryStatus = (code: number, message: string): FakeAction => ({ reply: { status: { code, message } } });
const redirect = (to: string): Partial<TSStatus> => {
  const [ip, port] = to.split(':');
  return { redirectNode: { ip, port: Number(port) } };
};

/** A script that answers `method` with `actions` in turn (then the default). */
function sequence(method: string, actions: FakeAction[]): FakeScript {
  let n = 0;
  return (c) => (c.method === method && n < actions.length ? actions[n++] : undefined);
}

/** The insertTablets request one call of `tablets` makes, encoded directly and decoded as the fake decodes it. */
function tabletsReq(sessionId: bigint, tablets: readonly Tablet[]): unknown {
  const w = new ByteWriter(256);
  writeInsertTabletsReq(
    w,
    sessionId,
    tablets.map((t) => prepareTablet(t)),
  );
  return readStruct(new ByteReader(w.view()), TSInsertTabletsReqSchema);
}

const sentTo = (fake: FakeTransport, method: FakeCall['method']) => fake.callsOf(method).map((c) => c.node);

describe('writes retry through faults', () => {
  it('waits out a node that refuses connections, then writes once it is back', async () => {
    const fake = new FakeTransport();
    const s = session(fake);
    await s.open();
    fake.setNode(A, 'refuse');
    setTimeout(() => fake.setNode(A, 'up'), 50);
    await s.insertTablet(tablet('root.sg.d1'));
    expect(fake.callsOf('insertTablet')).toHaveLength(1);
    expect(fake.connects).toBe(2);
  });

  it.each([301, 600, 602, 1012])('sends again after status %i until it is accepted', async (code) => {
    const fake = new FakeTransport(sequence('insertTablet', [status(code), status(code)]));
    const s = session(fake);
    await s.open();
    await s.insertTablet(tablet('root.sg.d1'));
    expect(fake.callsOf('insertTablet')).toHaveLength(3);
  });

  it('sends again after any status the server marks needRetry', async () => {
    const fake = new FakeTransport(sequence('insertRecord', [status(555, { needRetry: true })]));
    const s = session(fake);
    await s.open();
    await s.insertRecord({
      deviceId: 'root.sg.d1',
      timestamp: 1,
      measurements: ['s'],
      dataTypes: ['INT32'],
      values: [1],
    });
    expect(fake.callsOf('insertRecord')).toHaveLength(2);
  });

  it('sends again on a new connection after a reset in the middle of the reply', async () => {
    const fake = new FakeTransport(sequence('insertTablet', [{ reset: true, resetAfter: 7 }]));
    const s = session(fake);
    await s.open();
    await s.insertTablet(tablet('root.sg.d1'));
    expect(fake.callsOf('insertTablet').map((c) => c.connection)).toEqual([1, 2]);
  });

  it('sends again after a reply timeout (writes are idempotent)', async () => {
    const fake = new FakeTransport(sequence('insertTablet', [{ hang: true }]));
    const s = session(fake, { requestTimeoutMs: 30 });
    await s.open();
    await s.insertTablet(tablet('root.sg.d1'));
    expect(fake.callsOf('insertTablet')).toHaveLength(2);
  });

  it('does not retry a final status, and surfaces its code and message', async () => {
    const fake = new FakeTransport(sequence('insertTablet', [status(507)]));
    const s = session(fake);
    await s.open();
    const e = await s.insertTablet(tablet('root.sg.d1')).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBServerError);
    expect((e as IoTDBServerError).statusCode).toBe(507);
    expect((e as IoTDBServerError).message).toContain('m507');
    expect(fake.callsOf('insertTablet')).toHaveLength(1);
  });

  it('gives up when the retry budget is spent, with the last error', async () => {
    const fake = new FakeTransport();
    const s = session(fake, { retry: { initialDelayMs: 5, maxDelayMs: 20, maxElapsedMs: 150 } });
    await s.open();
    fake.setNode(A, 'refuse');
    const started = Date.now();
    const e = await s.insertTablet(tablet('root.sg.d1')).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBConnectionError);
    expect((e as IoTDBConnectionError).reason).toBe('refused');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('fails over to the next of nodeUrls when the default node goes down', async () => {
    const fake = new FakeTransport();
    const s = session(fake, { nodeUrls: [A, B] });
    await s.open();
    fake.setNode(A, 'refuse');
    await s.insertTablet(tablet('root.sg.d1'));
    expect(sentTo(fake, 'insertTablet')).toEqual([B]);
    expect(s.currentEndpoint).toBe(B);
  });
});

describe('an error after retries says how long its call was tried', () => {
  const triedNote = / \(after (\d+) attempts over \d+\.\d s\)$/;

  it('a write answered "read-only" until its budget was spent: the status, and the attempts in its message', async () => {
    const fake = new FakeTransport((c) => (c.method === 'insertTablet' ? status(600) : undefined));
    const s = session(fake, { retry: { initialDelayMs: 5, maxDelayMs: 20, maxElapsedMs: 150 } });
    await s.open();
    const e = await s.insertTablet(tablet('root.sg.d1')).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBServerError);
    const sent = fake.callsOf('insertTablet').length;
    expect(sent).toBeGreaterThan(1);
    expect(e).toMatchObject({ statusCode: 600, serverMessage: 'm600', attempts: sent });
    const { message, stack } = e as IoTDBServerError;
    expect(message).toMatch(/^insertTablet root\.sg\.d1: \[600\] m600 \(after \d+ attempts over \d+\.\d s\)$/);
    expect(Number(triedNote.exec(message)?.[1])).toBe(sent);
    expect(stack?.split('\n')[0]).toBe(`IoTDBServerError: ${message}`);
  });

  it('a read sent again after a reset and then refused: its final status, after 2 attempts', async () => {
    const fake = new FakeTransport(
      sequence('executeQueryStatementV2', [{ reset: true }, queryStatus(701, 'no such function')]),
    );
    const s = session(fake);
    await s.open();
    const e = await s.executeQueryStatement('SELECT s FROM root.sg.d1').catch((x: unknown) => x);
    expect(e).toMatchObject({ statusCode: 701, attempts: 2 });
    expect((e as Error).message).toMatch(triedNote);
  });

  it('an error on the first attempt is as the server gave it: no note, no attempts', async () => {
    const fake = new FakeTransport(sequence('insertTablet', [status(507)]));
    const s = session(fake);
    await s.open();
    const e = await s.insertTablet(tablet('root.sg.d1')).catch((x: unknown) => x);
    expect((e as Error).message).toBe('insertTablet root.sg.d1: [507] m507');
    expect(e).not.toHaveProperty('attempts');
  });

  it('two writes whose replies time out together: each says its own attempts, once', async () => {
    const fake = new FakeTransport((c) => (c.method === 'insertTablet' ? { hang: true } : undefined));
    const s = session(fake, { requestTimeoutMs: 30, retry: { initialDelayMs: 5, maxDelayMs: 20, maxElapsedMs: 150 } });
    await s.open();
    const [a, b] = await Promise.all([
      s.insertTablet(tablet('root.sg.d1')).catch((x: unknown) => x),
      s.insertTablet(tablet('root.sg.d2')).catch((x: unknown) => x),
    ]);
    for (const e of [a, b]) {
      expect(e).toBeInstanceOf(IoTDBConnectionError); // the timeout, or the connection it closed
      const { message, attempts } = e as IoTDBConnectionError;
      expect(message.split('(after ')).toHaveLength(2); // one note, not one per call that saw the error
      expect(Number(triedNote.exec(message)?.[1])).toBe(attempts);
    }
  });
});

describe('a node that does not answer costs no connect timeout', () => {
  it('opens on the next of nodeUrls while the first still does not answer its connect, and closes nothing open', async () => {
    const fake = new FakeTransport();
    fake.setNode(A, 'blackhole');
    const s = session(fake, { nodeUrls: [A, B], connectTimeoutMs: 60_000 });
    const started = performance.now();
    await s.open();
    expect(performance.now() - started).toBeLessThan(5_000); // about the stagger, not connectTimeoutMs
    expect(s.currentEndpoint).toBe(B);
    expect(s.stats()).toMatchObject({ connects: 1, connectFailures: 0 }); // A given up on, not failed
    expect(fake.openConnections).toBe(1);
  });

  it('fails over past a node that stopped answering within about the stagger', async () => {
    const fake = new FakeTransport();
    const s = session(fake, { nodeUrls: [A, B], connectTimeoutMs: 60_000 });
    await s.open();
    fake.setNode(A, 'blackhole'); // its connection reset, its connects never complete
    const started = performance.now();
    await s.insertTablet(tablet('root.sg.d1'));
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(sentTo(fake, 'insertTablet')).toEqual([B]);
  });

  /** A cluster whose node A answers a login after `ms`. */
  const loginAtATakes = (ms: number) =>
    new FakeTransport((c) =>
      c.method === 'openSession' && c.node === A ? { delayMs: ms, then: { reply: defaultReply(c) } } : undefined,
    );

  it('keeps the first of nodeUrls when it answers within the stagger, even after a slower login', async () => {
    const fake = loginAtATakes(100);
    const s = session(fake, { nodeUrls: [A, B] });
    await s.open();
    expect(s.currentEndpoint).toBe(A);
    expect(fake.callsOf('openSession').map((c) => c.node)).toEqual([A]); // B never tried
  });

  it('gives up on a node still logging in once another won: its connection is closed', async () => {
    const fake = loginAtATakes(2_500);
    const s = session(fake, { nodeUrls: [A, B] });
    await s.open();
    expect(s.currentEndpoint).toBe(B);
    await vi.waitFor(() => expect(fake.openConnections).toBe(1));
    expect(s.stats()).toMatchObject({ connects: 1, connectFailures: 0 });
  });

  it('a login that never answers times out naming connectTimeoutMs, the option that bounds it', async () => {
    const fake = new FakeTransport((c) => (c.method === 'openSession' ? { hang: true } : undefined));
    const s = session(fake, { connectTimeoutMs: 50 });
    const e = await s.open().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBTimeoutError);
    expect((e as Error).message).toMatch(/openSession: no reply within connectTimeoutMs=50$/);
  });

  it('a refused login ends the attempt at once: the next node would refuse it too', async () => {
    const fake = new FakeTransport((c) =>
      c.method === 'openSession' ? { reply: { ...(defaultReply(c) as object), status: { code: 801 } } } : undefined,
    );
    const s = session(fake, { nodeUrls: [A, B] });
    const e = await s.open().catch((x: unknown) => x);
    expect(e).toMatchObject({ statusCode: 801 });
    expect(fake.callsOf('openSession').map((c) => c.node)).toEqual([A]);
  });

  it('a refused login names the user it was for (never the password): which of several users was refused', async () => {
    const fake = new FakeTransport((c) =>
      c.method === 'openSession'
        ? { reply: { ...(defaultReply(c) as object), status: { code: 801, message: 'Authentication failed.' } } }
        : undefined,
    );
    const s = session(fake, { username: 'ingest', password: 'not-this-one' });
    const e = (await s.open().catch((x: unknown) => x)) as Error;
    expect(e.message).toBe('openSession as user "ingest": [801] Authentication failed.');
    expect(e.message).not.toContain('not-this-one');
  });
});

describe('statements, and queries that may write, are never sent twice; no query after its reply timed out', () => {
  it('a query whose reply never comes: sent once, IoTDBTimeoutError naming it within the timeout', async () => {
    const fake = new FakeTransport((c) => (c.method === 'executeQueryStatementV2' ? { hang: true } : undefined));
    const s = session(fake, { requestTimeoutMs: 100 });
    await s.open();
    const started = Date.now();
    const e = await s.executeQueryStatement('SELECT * FROM root.sg.d1').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBTimeoutError);
    expect((e as IoTDBTimeoutError).operation).toContain('SELECT * FROM root.sg.d1');
    expect(Date.now() - started).toBeLessThan(1_100);
    expect(fake.callsOf('executeQueryStatementV2')).toHaveLength(1);
    // the query also carried the timeout to the server, which stops it there
    expect(fake.callsOf('executeQueryStatementV2')[0].args.timeout).toBe(100n);
  });

  it('a statement whose reply never comes: sent once, IoTDBTimeoutError', async () => {
    const fake = new FakeTransport(sequence('executeUpdateStatementV2', [{ hang: true }]));
    const s = session(fake);
    await s.open();
    const e = await s.executeNonQueryStatement('DELETE FROM root.sg.d1.s', { timeoutMs: 50 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBTimeoutError);
    expect(fake.callsOf('executeUpdateStatementV2')).toHaveLength(1);
    // the session reconnects for the next call
    await s.executeNonQueryStatement('FLUSH');
    expect(fake.callsOf('executeUpdateStatementV2')).toHaveLength(2);
  });

  it('a statement reset mid-reply is not sent again', async () => {
    const fake = new FakeTransport(sequence('executeUpdateStatementV2', [{ reset: true }]));
    const s = session(fake);
    await s.open();
    await expect(s.executeNonQueryStatement('CREATE DATABASE root.x')).rejects.toThrow(IoTDBConnectionError);
    expect(fake.callsOf('executeUpdateStatementV2')).toHaveLength(1);
  });

  it('a statement that never left the client (node down) is sent on the next node, once', async () => {
    const fake = new FakeTransport();
    const s = session(fake, { nodeUrls: [A, B] });
    await s.open();
    fake.setNode(A, 'refuse');
    await s.executeNonQueryStatement('CREATE DATABASE root.x');
    expect(sentTo(fake, 'executeUpdateStatementV2')).toEqual([B]);
  });

  it('a query that may write is not retried on a status, even with needRetry', async () => {
    const fake = new FakeTransport(
      sequence('executeQueryStatementV2', [{ reply: { status: { code: 600, needRetry: true } } }]),
    );
    const s = session(fake);
    await s.open();
    await expect(s.executeQueryStatement('SELECT s INTO root.sg.copy(s) FROM root.sg.d1')).rejects.toThrow(
      IoTDBServerError,
    );
    expect(fake.callsOf('executeQueryStatementV2')).toHaveLength(1);
  });
});

describe('reads are sent again after a broken connection, as the Java Session sends its queries', () => {
  /** An open session on A and B whose first executeQueryStatement is reset mid-reply. */
  async function firstQueryReset(): Promise<{ fake: FakeTransport; s: Session }> {
    const fake = new FakeTransport(sequence('executeQueryStatementV2', [{ reset: true }]));
    const s = session(fake, { nodeUrls: [A, B] });
    await s.open();
    return { fake, s };
  }

  it('a SELECT reset mid-reply is sent again, and answered', async () => {
    const { fake, s } = await firstQueryReset();
    await s.executeQueryStatement('SELECT s FROM root.sg.d1');
    expect(fake.callsOf('executeQueryStatementV2')).toHaveLength(2);
    expect(s.stats().retries).toBe(1);
  });

  it.each([
    ['SHOW DATABASES'],
    ['  /* comment */ describe t'],
    ['-- a line\nselect count(*) from root.**'],
    ['COUNT TIMESERIES root.**'],
  ])('a read statement (%j) too', async (sql) => {
    const { fake, s } = await firstQueryReset();
    await s.executeQueryStatement(sql);
    expect(fake.callsOf('executeQueryStatementV2')).toHaveLength(2);
  });

  it('the structured queries: raw data, last, aggregation', async () => {
    const seen = new Set<string>();
    // each query's first call is reset
    const fake = new FakeTransport((c) =>
      c.method.endsWith('QueryV2') && !seen.has(c.method) && seen.add(c.method) ? { reset: true } : undefined,
    );
    const s = session(fake, { nodeUrls: [A, B] });
    await s.open();
    await s.executeRawDataQuery(['root.sg.d1.s'], 0, 10);
    await s.executeLastDataQuery(['root.sg.d1.s']);
    await s.executeAggregationQuery(['root.sg.d1.s'], ['COUNT']);
    expect(fake.callsOf('executeRawDataQueryV2')).toHaveLength(2);
    expect(fake.callsOf('executeLastDataQueryV2')).toHaveLength(2);
    expect(fake.callsOf('executeAggregationQueryV2')).toHaveLength(2);
  });

  it('a SELECT the server could not run for a node it could not reach ([301] Connection refused) is sent again', async () => {
    const refused = queryStatus(301, 'Connection refused');
    const fake = new FakeTransport(sequence('executeQueryStatementV2', [refused, refused]));
    const s = session(fake, { nodeUrls: [A, B] });
    await s.open();
    await s.executeQueryStatement('SELECT s FROM root.sg.d1');
    expect(fake.callsOf('executeQueryStatementV2')).toHaveLength(3);
    expect(s.stats().retries).toBe(2);
  });

  it('a SELECT whose data on another node was lost as that node died ([301] Source handle is aborted.) is sent again', async () => {
    const aborted = queryStatus(301, 'Source handle is aborted.');
    const fake = new FakeTransport(sequence('executeQueryStatementV2', [aborted]));
    const s = session(fake, { nodeUrls: [A, B] });
    await s.open();
    await s.executeQueryStatement('SELECT last s FROM root.sg.**');
    expect(fake.callsOf('executeQueryStatementV2')).toHaveLength(2);
  });

  it('a SELECT whose DataNode could not reach the ConfigNode ([305] Fail to connect to any config node) is sent again', async () => {
    const noConfigNode = queryStatus(
      305,
      'executeStatement failed. ... Fail to connect to any config node. Please check',
    );
    const fake = new FakeTransport(sequence('executeQueryStatementV2', [noConfigNode, noConfigNode]));
    const s = session(fake, { nodeUrls: [A, B] });
    await s.open();
    await s.executeQueryStatement('SELECT count(*) FROM root.sg.**');
    expect(fake.callsOf('executeQueryStatementV2')).toHaveLength(3);
  });

  it.each([
    ['SELECT s FROM root.sg.d1', queryStatus(301, 'Unknown function foo')],
    ['SELECT s FROM root.sg.d1', queryStatus(305, 'Connection refused')],
    // a query the server timed out, marked needRetry by IoTDB 2.0.1: as slow again
    [
      'SELECT s FROM root.sg.d1',
      { reply: { status: { code: 712, message: 'Current query is time out', needRetry: true } } },
    ],
    ['INSERT INTO root.sg.d1(time, s) VALUES (1, 1)', queryStatus(301, 'Connection refused')],
  ])('%j answered %j is not', async (sql, answer) => {
    const fake = new FakeTransport(sequence('executeQueryStatementV2', [answer]));
    const s = session(fake, { nodeUrls: [A, B] });
    await s.open();
    const e = await s.executeQueryStatement(sql).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBServerError);
    expect(fake.callsOf('executeQueryStatementV2')).toHaveLength(1);
  });

  it.each([
    ['SELECT s INTO root.sg.copy(s) FROM root.sg.d1'],
    ['INSERT INTO root.sg.d1(time, s) VALUES (1, 1)'],
    ['CREATE DATABASE root.x'],
  ])('a statement that may write (%j), run as a query, is not', async (sql) => {
    const { fake, s } = await firstQueryReset();
    const e = await s.executeQueryStatement(sql).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBConnectionError);
    expect((e as IoTDBConnectionError).requestSent).toBe(true);
    expect(fake.callsOf('executeQueryStatementV2')).toHaveLength(1);
  });
});

describe('redirects', () => {
  it('follows a redirect, falls back to the default node while the target is down, and returns to it once it is back', async () => {
    const fake = new FakeTransport((c) =>
      c.method === 'insertTablet' && c.node === A ? status(400, redirect(B)) : undefined,
    );
    const s = session(fake, { nodeUrls: [A] });
    await s.open();
    await s.insertTablet(tablet('root.sg.d1')); // to A, which names B
    await s.insertTablet(tablet('root.sg.d1', 10)); // to B
    fake.setNode(B, 'refuse');
    await s.insertTablet(tablet('root.sg.d1', 20)); // B refused: A
    expect(sentTo(fake, 'insertTablet')).toEqual([A, B, A]);
    fake.setNode(B, 'up');
    await new Promise((r) => setTimeout(r, 1_100)); // the first quarantine is 1 s
    await s.insertTablet(tablet('root.sg.d1', 30)); // A redirects to B again
    await s.insertTablet(tablet('root.sg.d1', 40));
    expect(sentTo(fake, 'insertTablet')).toEqual([A, B, A, A, B]);
  });

  it('after a failover, sends the devices routed to the new default node and those without a route in one request', async () => {
    // A redirects d1 to B
    const fake = new FakeTransport((c) => {
      if (c.method !== 'insertTablets' || c.node !== A) return undefined;
      const paths = (c.args as { prefixPaths: string[] }).prefixPaths;
      return status(400, { subStatus: paths.map((p) => ({ code: 200, ...(p === 'root.sg.d1' ? redirect(B) : {}) })) });
    });
    const s = session(fake, { nodeUrls: [A, B] });
    await s.open();
    const both = (t: number) => [tablet('root.sg.d0', t), tablet('root.sg.d1', t)];
    await s.insertTablets(both(1)); // to A, which names B for d1
    fake.setNode(A, 'refuse');
    await s.insertTablets(both(10)); // d0 fails over to B, d1 goes to B by its route
    const before = fake.callsOf('insertTablets').length;
    await s.insertTablets(both(20)); // B is the default node now, and d1's node
    const last = fake.callsOf('insertTablets').slice(before);
    expect(last.map((c) => [c.node, (c.args as { prefixPaths: string[] }).prefixPaths])).toEqual([
      [B, ['root.sg.d0', 'root.sg.d1']],
    ]);
  });
});

describe('partial failures name the caller’s items', () => {
  it('insertTablets split over two nodes: the failed tablet by its index in the input, with device and code', async () => {
    // A redirects d1 to B; B rejects every tablet with 507 except... it only gets d1
    const fake = new FakeTransport((c) => {
      if (c.method !== 'insertTablets') return undefined;
      const paths = (c.args as { prefixPaths: string[] }).prefixPaths;
      if (c.node === A)
        return status(400, {
          subStatus: paths.map((p) => (p === 'root.sg.d1' ? { code: 200, ...redirect(B) } : { code: 200 })),
        });
      return status(302, { subStatus: paths.map(() => ({ code: 507, message: 'type mismatch' })) });
    });
    const s = session(fake);
    await s.open();
    const input = [tablet('root.sg.d0'), tablet('root.sg.d1'), tablet('root.sg.d2')];
    await s.insertTablets(input); // learns d1 -> B
    const e = await s.insertTablets(input).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBBatchError);
    const b = e as IoTDBBatchError;
    expect(b.failures.map((f) => [f.index, f.device, f.statusCode])).toEqual([[1, 'root.sg.d1', 507]]);
    expect(b.succeeded).toEqual([0, 2]);
  });

  it('insertTablets split over two nodes: a refused cell sends nothing and names the tablet by its index in the input', async () => {
    const fake = new FakeTransport((c) => {
      if (c.method !== 'insertTablets' || c.node !== A) return undefined;
      const paths = (c.args as { prefixPaths: string[] }).prefixPaths;
      return status(400, { subStatus: paths.map((p) => ({ code: 200, ...(p === 'root.sg.d1' ? redirect(B) : {}) })) });
    });
    const s = session(fake);
    await s.open();
    await s.insertTablets([tablet('root.sg.d0'), tablet('root.sg.d1')]); // learns d1 -> B
    const sent = fake.callsOf('insertTablets').length;
    const bad = { ...tablet('root.sg.d1'), values: [[1n], ['x' as unknown as bigint]] };
    const e = await s.insertTablets([tablet('root.sg.d0'), bad]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBValidationError);
    expect((e as IoTDBValidationError).field).toBe('tablets[1].values[1][0] ("s")');
    expect(fake.callsOf('insertTablets')).toHaveLength(sent); // d0's tablet was sent to A before
  });

  /**
   * A fake where A redirects d1 to B, and each node opens sessions with its own id (A 11, B 22); B answers
   * insertTablets `bDelayMs` late.
   */
  function splitFake(bDelayMs = 0): FakeTransport {
    const sessionIds: Record<string, bigint> = { [A]: 11n, [B]: 22n };
    return new FakeTransport((c) => {
      if (c.method === 'openSession')
        return { reply: { ...(defaultReply(c) as object), sessionId: sessionIds[c.node] } };
      if (c.method === 'insertTablets' && c.node === B && bDelayMs > 0)
        return { delayMs: bDelayMs, then: { reply: defaultReply(c) } };
      if (c.method !== 'insertTablets' || c.node !== A) return undefined;
      const paths = (c.args as { prefixPaths: string[] }).prefixPaths;
      return status(400, { subStatus: paths.map((p) => ({ code: 200, ...(p === 'root.sg.d1' ? redirect(B) : {}) })) });
    });
  }
  const splitInput = [tablet('root.sg.d0', 1), tablet('root.sg.d1', 5), tablet('root.sg.d2', 9)];

  it.each([false, true])(
    'insertTablets split over two nodes: each node gets its tablets as one request would carry them, with its own session id (rpcCompression: %s)',
    async (rpcCompression) => {
      const fake = splitFake();
      const bufferPool = new BufferPool();
      const s = session(fake, { bufferPool, rpcCompression });
      await s.open();
      await s.insertTablets(splitInput); // learns d1 -> B
      await s.insertTablets(splitInput);
      const [toA, toB] = fake
        .callsOf('insertTablets')
        .slice(-2)
        .sort((x, y) => x.node.localeCompare(y.node));
      expect([toA.node, toB.node]).toEqual([A, B]);
      expect(toA.args).toEqual(tabletsReq(11n, [splitInput[0], splitInput[2]]));
      expect(toB.args).toEqual(tabletsReq(22n, [splitInput[1]]));
      expect(bufferPool.getStats().outstanding).toBe(0); // the requests encoded ahead went back to the pool
    },
  );

  it('insertTablets split over two nodes: a part encoded ahead goes back to the pool once copied into its request, before the reply', async () => {
    const fake = splitFake(300);
    const bufferPool = new BufferPool();
    const s = session(fake, { bufferPool });
    await s.open();
    await s.insertTablets(splitInput); // learns d1 -> B (B's reply 300 ms late)
    const sent = fake.callsOf('insertTablets').length;
    let answered = false;
    const call = s.insertTablets(splitInput).then(() => void (answered = true));
    while (fake.callsOf('insertTablets').length < sent + 2) await new Promise((r) => setTimeout(r, 1));
    await new Promise((r) => setTimeout(r, 20)); // the request frames' socket writes done
    expect(answered).toBe(false); // B has not answered yet
    expect(bufferPool.getStats().outstanding).toBe(0);
    await call;
  });

  it('insertTablets split over two nodes, one slow to connect: the other part goes out at once, not after it', async () => {
    const fake = splitFake();
    fake.setNode(B, 'blackhole'); // connects to B complete only by timing out
    const s = session(fake, { connectTimeoutMs: 2_000, retry: { ...FAST, maxElapsedMs: 10_000 } });
    await s.open();
    await s.insertTablets(splitInput); // all to A, which redirects d1 to B: no connection to B yet
    const sent = fake.callsOf('insertTablets').length;
    const t0 = performance.now();
    const call = s.insertTablets(splitInput);
    while (fake.callsOf('insertTablets').length === sent) await new Promise((r) => setTimeout(r, 1));
    expect(performance.now() - t0).toBeLessThan(1_000); // not held back by B's connect (2 s before it gives up)
    await call;
    const calls = fake.callsOf('insertTablets').slice(sent);
    expect(calls.map((c) => [c.node, (c.args as { prefixPaths: string[] }).prefixPaths])).toEqual([
      [A, ['root.sg.d0', 'root.sg.d2']],
      [A, ['root.sg.d1']], // B never answered the connect: sent again, to the default node
    ]);
  });

  it('insertTablets split over two nodes, one down: its part is checked all the same, then sent to the node that is up', async () => {
    /** A session that learnt d1 -> B, B down since. */
    const opened = async (bufferPool: BufferPool) => {
      const fake = splitFake();
      const s = session(fake, { bufferPool });
      await s.open();
      await s.insertTablets(splitInput);
      fake.setNode(B, 'refuse');
      return { fake, s, sent: fake.callsOf('insertTablets').length };
    };
    const bufferPool = new BufferPool();
    const bad = { ...tablet('root.sg.d1'), values: [[1n], ['x' as unknown as bigint]] };
    const one = await opened(bufferPool);
    const e = await one.s.insertTablets([splitInput[0], bad]).catch((x: unknown) => x);
    expect((e as IoTDBValidationError).field).toBe('tablets[1].values[1][0] ("s")');
    expect(one.fake.callsOf('insertTablets')).toHaveLength(one.sent); // not d0's tablet to A either

    const two = await opened(bufferPool);
    await two.s.insertTablets(splitInput);
    const calls = two.fake.callsOf('insertTablets').slice(two.sent);
    expect(calls.map((c) => [c.node, (c.args as { prefixPaths: string[] }).prefixPaths])).toEqual([
      [A, ['root.sg.d0', 'root.sg.d2']],
      [A, ['root.sg.d1']], // B refused the connection: sent again, to the default node
    ]);
    expect(bufferPool.getStats().outstanding).toBe(0);
  });

  it('insertRecords: only the entries that failed transiently are sent again', async () => {
    const fake = new FakeTransport(
      sequence('insertRecords', [status(302, { subStatus: [{ code: 200 }, { code: 600 }, { code: 200 }] })]),
    );
    const s = session(fake);
    await s.open();
    const rec = (d: string) => ({
      deviceId: d,
      timestamp: 1,
      measurements: ['s'],
      dataTypes: ['INT32' as const],
      values: [1],
    });
    await s.insertRecords([rec('root.sg.a'), rec('root.sg.b'), rec('root.sg.c')]);
    const calls = fake.callsOf('insertRecords');
    expect(calls.map((c) => (c.args as { prefixPaths: string[] }).prefixPaths)).toEqual([
      ['root.sg.a', 'root.sg.b', 'root.sg.c'],
      ['root.sg.b'],
    ]);
  });

  /** A table session over `fake`, open, in database db. */
  async function tableSession(fake: FakeTransport): Promise<TableSession> {
    const s = new TableSession({ nodeUrls: [A], transport: fake, retry: FAST, database: 'db' });
    closers.push(() => s.close());
    await s.open();
    return s;
  }
  /** Table t's rows (a TAG and an INT32 FIELD each) at `timestamps`. */
  const tableRows = (timestamps: number[], values: [string, number][]) => ({
    tableName: 't',
    columnNames: ['tag', 'v'],
    dataTypes: ['STRING' as const, 'INT32' as const],
    columnCategories: ['TAG' as const, 'FIELD' as const],
    timestamps,
    values,
  });

  it('table insert: failed rows by their index in the caller’s rows (rows given out of time order)', async () => {
    const fake = new FakeTransport((c) =>
      c.method === 'insertTablet'
        ? status(302, { subStatus: [{ code: 200 }, { code: 614, message: 'bad' }, { code: 200 }] })
        : undefined,
    );
    const s = await tableSession(fake);
    const e = await s
      .insert(
        tableRows(
          [30, 10, 20],
          [
            ['x', 1],
            ['y', 2],
            ['z', 3],
          ],
        ),
      )
      .catch((x: unknown) => x);
    // sorted by time: rows 1 (t=10), 2 (t=20), 0 (t=30); the second sent (t=20) is caller row 2
    expect((e as IoTDBBatchError).failures.map((f) => [f.index, f.statusCode])).toEqual([[2, 614]]);
    expect((e as IoTDBBatchError).succeeded).toEqual([0, 1]);
  });

  it('table insert split over two nodes: a refused cell sends nothing and names the row by its index in the input', async () => {
    // A redirects the rows of tag y to B
    const fake = new FakeTransport((c) => {
      if (c.method !== 'insertTablet' || c.node !== A) return undefined;
      return status(400, { subStatus: [{ code: 200 }, { code: 200, ...redirect(B) }] });
    });
    const s = await tableSession(fake);
    const rows = (y: number) =>
      tableRows(
        [1, 2],
        [
          ['x', 1],
          ['y', y],
        ],
      );
    await s.insert(rows(2)); // learns y -> B
    const sent = fake.callsOf('insertTablet').length;
    const e = await s.insert(rows(2 ** 40)).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBValidationError);
    expect((e as IoTDBValidationError).field).toBe('values[1][1] ("v")');
    expect(fake.callsOf('insertTablet')).toHaveLength(sent); // x's row was sent to A before
  });

  it('a tree write to a device outside root. is refused before anything is sent (the server would answer 301)', async () => {
    const fake = new FakeTransport();
    const s = session(fake);
    await s.open();
    await expect(s.insertTablet(tablet('sg.d1'))).rejects.toMatchObject({
      name: 'IoTDBValidationError',
      field: 'deviceId',
    });
    await expect(
      s.insertRecord({ deviceId: 'root', timestamp: 1, measurements: ['s'], dataTypes: ['INT32'], values: [1] }),
    ).rejects.toMatchObject({ name: 'IoTDBValidationError', field: 'record.deviceId' });
    expect(fake.calls.filter((c) => c.method.startsWith('insert'))).toEqual([]);
  });

  it('table insert into a database that does not exist: fails at once, naming the operation and the table once, with the status code', async () => {
    const fake = new FakeTransport((c) =>
      c.method === 'insertTablet' ? status(301, { message: 'Unknown database db' }) : undefined,
    );
    const s = await tableSession(fake);
    const e = await s.insert(tableRows([1], [['x', 1]])).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBServerError);
    expect((e as IoTDBServerError).statusCode).toBe(301);
    expect((e as Error).message).toBe('insert t: [301] Unknown database db');
    expect(fake.callsOf('insertTablet')).toHaveLength(1); // not tried again for the whole retry budget
    const two = await s
      .insert(
        tableRows(
          [1, 2],
          [
            ['x', 1],
            ['y', 2],
          ],
        ),
      )
      .catch((x: unknown) => x);
    expect((two as Error).message).toBe('insert t (2 items): [301] Unknown database db');
  });
});

describe('lifecycle', () => {
  it('close() aborts an open() whose connect never completes', async () => {
    const fake = new FakeTransport();
    fake.setNode(A, 'blackhole');
    const s = session(fake, { connectTimeoutMs: 60_000 });
    const opening = s.open().catch((x: unknown) => x);
    await new Promise((r) => setTimeout(r, 10));
    await s.close();
    expect(await opening).toBeInstanceOf(IoTDBSessionClosedError);
    expect(fake.openConnections).toBe(0);
  });

  it('close() aborts an open() waiting for its login reply, and closes the connection', async () => {
    const fake = new FakeTransport((c) => (c.method === 'openSession' ? { hang: true } : undefined));
    const s = session(fake);
    const opening = s.open().catch((x: unknown) => x);
    await new Promise((r) => setTimeout(r, 10));
    await s.close();
    expect(await opening).toBeInstanceOf(IoTDBSessionClosedError);
    expect(fake.openConnections).toBe(0);
  });

  it('close() ends a write waiting between retries', async () => {
    const fake = new FakeTransport();
    const s = session(fake, { retry: { initialDelayMs: 10_000, maxDelayMs: 10_000, maxElapsedMs: 60_000 } });
    await s.open();
    fake.setNode(A, 'refuse');
    const writing = s.insertTablet(tablet('root.sg.d1')).catch((x: unknown) => x);
    await new Promise((r) => setTimeout(r, 20));
    const t0 = Date.now();
    await s.close();
    expect(await writing).toBeInstanceOf(IoTDBSessionClosedError);
    expect(Date.now() - t0).toBeLessThan(500);
  });

  it('a caller’s AbortSignal ends a write waiting between retries with IoTDBAbortError', async () => {
    const fake = new FakeTransport();
    const s = session(fake, { retry: { initialDelayMs: 10_000, maxDelayMs: 10_000, maxElapsedMs: 60_000 } });
    await s.open();
    fake.setNode(A, 'refuse');
    const ac = new AbortController();
    const writing = s.insertTablet(tablet('root.sg.d1'), { signal: ac.signal }).catch((x: unknown) => x);
    await new Promise((r) => setTimeout(r, 20));
    ac.abort(new Error('user gave up'));
    const e = await writing;
    expect(e).toBeInstanceOf(IoTDBAbortError);
    expect((e as Error).cause).toEqual(new Error('user gave up'));
  });

  it('an already aborted signal sends nothing', async () => {
    const fake = new FakeTransport();
    const s = session(fake);
    await s.open();
    await expect(s.executeQueryStatement('SELECT 1', { signal: AbortSignal.abort() })).rejects.toThrow(IoTDBAbortError);
    expect(fake.callsOf('executeQueryStatementV2')).toHaveLength(0);
  });

  it('pool.close() closes a data set still open and resolves', async () => {
    const fake = new FakeTransport((c) => (c.method === 'executeQueryStatementV2' ? openQuery(7n) : undefined));
    const pool = new SessionPool({ nodeUrls: [A], transport: fake, retry: FAST, maxSize: 1 });
    const ds = await pool.executeQueryStatement('SELECT * FROM root.sg.**');
    await pool.close();
    expect(ds.isClosed).toBe(true);
    expect(fake.callsOf('closeOperation').map((c) => (c.args as { queryId: bigint }).queryId)).toEqual([7n]);
    expect(fake.openConnections).toBe(0);
  });

  it('a pool opens its sessions through a restart (within the retry budget)', async () => {
    const fake = new FakeTransport();
    fake.setNode(A, 'refuse');
    const pool = new SessionPool({ nodeUrls: [A], transport: fake, retry: FAST, maxSize: 2 });
    closers.push(() => pool.close());
    setTimeout(() => fake.setNode(A, 'up'), 50);
    await pool.insertTablet(tablet('root.sg.d1'));
    expect(fake.callsOf('insertTablet')).toHaveLength(1);
  });

  it('TableSessionPool hands the next borrower a session in the pool’s database, not one a borrower moved with USE', async () => {
    const fake = new FakeTransport((c) =>
      c.method === 'executeUpdateStatementV2' && /^use /i.test(String((c.args as { statement: string }).statement))
        ? { reply: { status: { code: 200 }, database: 'other' } }
        : undefined,
    );
    const pool = new TableSessionPool({ nodeUrls: [A], transport: fake, retry: FAST, maxSize: 1, database: 'home' });
    closers.push(() => pool.close());
    await pool.execute((s) => s.executeNonQueryStatement('USE other'));
    const db = await pool.execute(async (s) => s.database);
    expect(db).toBe('home');
    const logins = fake
      .callsOf('openSession')
      .map((c) => (c.args as { configuration: Map<string, string> }).configuration.get('db'));
    expect(logins).toEqual(['home', 'home']);
  });
});

describe('data sets closed by their session', () => {
  it('give the rows already received, then IoTDBSessionClosedError instead of a silent end', async () => {
    const fake = new FakeTransport((c) => (c.method === 'executeQueryStatementV2' ? openQuery() : undefined));
    const s = session(fake);
    await s.open();
    const ds = await s.executeQueryStatement('SELECT * FROM root.sg.**');
    await s.close();
    await expect(ds.hasNext()).rejects.toThrow(IoTDBSessionClosedError);
    expect(fake.callsOf('fetchResultsV2')).toHaveLength(0);
  });

  it('a data set its reader closed early gives the rows already received, then IoTDBSessionClosedError: no silent end', async () => {
    const fake = new FakeTransport((c) =>
      c.method === 'executeQueryStatementV2'
        ? {
            reply: {
              status: { code: 200 },
              queryId: 3n,
              columns: ['root.sg.d.s'],
              dataTypeList: ['INT32'],
              queryResult: [tsBlock([1, 2], [{ type: 'INT32', values: [10, 20] }])],
              moreData: true,
            },
          }
        : undefined,
    );
    const s = session(fake);
    await s.open();
    const ds = await s.executeQueryStatement('SELECT * FROM root.sg.**');
    expect((await ds.next()).values).toEqual([10]);
    await ds.close();
    const fetched = fake.callsOf('fetchResultsV2').length; // one may have gone ahead before the close
    expect((await ds.next()).values).toEqual([20]); // received before the close
    // as the Java and Python clients' fetch on a closed data set ('This DataSet is already closed')
    await expect(ds.hasNext()).rejects.toThrow(IoTDBSessionClosedError);
    await expect(ds.hasNext()).rejects.toThrow(
      /closed by its reader \(close\(\), a loop left early, an abort\) before all its rows were read/,
    );
    await expect(ds.toColumnar()).rejects.toThrow(IoTDBSessionClosedError);
    expect(fake.callsOf('fetchResultsV2')).toHaveLength(fetched);
  });
});

describe('errors', () => {
  it('carry a stable code, and the caller’s own call site in their stack even when made in a socket event', async function callerOwnFunction() {
    const fake = new FakeTransport((c) => (c.method === 'executeQueryStatementV2' ? { reset: true } : undefined));
    const s = session(fake);
    await s.open();
    const e = (await s.executeQueryStatement('SELECT 1').catch((x: unknown) => x)) as IoTDBConnectionError;
    expect(e.code).toBe('IOTDB_CONNECTION_RESET');
    expect(e.stack).toContain('callerOwnFunction');
  });

  it.each([
    [new IoTDBServerError({ code: 700 }, 'x'), 'IOTDB_SERVER_ERROR'],
    [new IoTDBTimeoutError('n', 'op', 'm', true), 'IOTDB_TIMEOUT'],
    [new IoTDBConnectionError('refused', 'n', 'm', false), 'IOTDB_CONNECTION_REFUSED'],
    [new IoTDBSessionClosedError(), 'IOTDB_SESSION_CLOSED'],
    [new IoTDBAbortError('w', null), 'IOTDB_ABORTED'],
    [new IoTDBBatchError('w', [], []), 'IOTDB_BATCH_PARTIAL'],
  ])('%s has code %s', (e, code) => {
    expect(e.code).toBe(code);
  });
});

describe('the password', () => {
  it('is zeroed in the request buffer before the buffer goes back to the pool', async () => {
    const { BufferPool } = await import('@iotdb/fast-serializer');
    const pool = new BufferPool();
    const released: Buffer[] = [];
    const release = pool.release.bind(pool);
    pool.release = (b: Buffer) => {
      released.push(Buffer.from(b));
      release(b);
    };
    const fake = new FakeTransport();
    const s = session(fake, { password: 'hunter2-secret', bufferPool: pool });
    await s.open();
    expect(fake.callsOf('openSession')[0].args.password).toBe('hunter2-secret'); // it was sent
    expect(released.length).toBeGreaterThan(0);
    for (const b of released) expect(b.includes('hunter2-secret')).toBe(false);
  });

  it('never shows in an error message, even a failed login', async () => {
    const fake = new FakeTransport(
      sequence('openSession', [
        { reply: { status: { code: 801, message: 'Authentication failed.' }, serverProtocolVersion: 2 } },
      ]),
    );
    const s = session(fake, { password: 'hunter2-secret' });
    const e = (await s.open().catch((x: unknown) => x)) as Error;
    expect(e.message).not.toContain('hunter2-secret');
    expect(String(e.stack)).not.toContain('hunter2-secret');
  });
});

describe('bad input is refused before the wire', () => {
  it('refuses SQL that is not a string, sending nothing', async () => {
    const fake = new FakeTransport();
    const s = session(fake);
    await s.open();
    for (const sql of [42, null, undefined, { sql: 'x' }, '  ']) {
      await expect(s.executeNonQueryStatement(sql as unknown as string)).rejects.toMatchObject({
        code: 'IOTDB_INVALID_ARG',
        field: 'sql',
      });
      await expect(s.executeQueryStatement(sql as unknown as string)).rejects.toMatchObject({
        code: 'IOTDB_INVALID_ARG',
        field: 'sql',
      });
    }
    expect(fake.callsOf('executeUpdateStatementV2')).toHaveLength(0);
    expect(fake.callsOf('executeQueryStatementV2')).toHaveLength(0);
  });

  it('skips records whose values are all null, as Java does, and writes the others; indexes stay the caller’s', async () => {
    const fake = new FakeTransport(
      sequence('insertRecords', [status(302, { subStatus: [{ code: 200 }, { code: 507, message: 'bad' }] })]),
    );
    const s = session(fake);
    await s.open();
    const rec = (d: string, v: number | null) => ({
      deviceId: d,
      timestamp: 1,
      measurements: ['s'],
      dataTypes: ['INT32' as const],
      values: [v],
    });
    await s.insertRecord(rec('root.sg.x', null)); // nothing to write: nothing sent
    expect(fake.callsOf('insertRecord')).toHaveLength(0);
    const e = (await s
      .insertRecords([rec('root.sg.a', null), rec('root.sg.b', 1), rec('root.sg.c', null), rec('root.sg.d', 2)])
      .catch((x: unknown) => x)) as IoTDBBatchError;
    expect(fake.callsOf('insertRecords').map((c) => (c.args as { prefixPaths: string[] }).prefixPaths)).toEqual([
      ['root.sg.b', 'root.sg.d'],
    ]);
    expect(e.failures.map((f) => f.index)).toEqual([3]);
    expect(e.succeeded).toEqual([0, 1, 2]); // 0 and 2 had nothing to write
  });
});

describe('closing against a server that stops answering', () => {
  it('close() gives up on the logout after 2 s instead of waiting requestTimeoutMs', async () => {
    const fake = new FakeTransport((c) => (c.method === 'closeSession' ? { hang: true } : undefined));
    const s = session(fake, { requestTimeoutMs: 60_000 });
    await s.open();
    const t0 = Date.now();
    await s.close();
    expect(Date.now() - t0).toBeLessThan(3_000);
    expect(fake.openConnections).toBe(0);
  });

  it("a data set's release gives up after 2 s, and its error names that wait, not an option the caller never gave", async () => {
    const fake = new FakeTransport((c) =>
      c.method === 'executeQueryStatementV2' ? openQuery() : c.method === 'closeOperation' ? { hang: true } : undefined,
    );
    const s = session(fake, { requestTimeoutMs: 60_000 });
    await s.open();
    const ds = await s.executeQueryStatement('SELECT 1');
    const t0 = Date.now();
    const e = (await ds.close().catch((x: unknown) => x)) as IoTDBTimeoutError;
    expect(Date.now() - t0).toBeLessThan(3_000);
    expect(e).toBeInstanceOf(IoTDBTimeoutError);
    expect(e.message).toContain(
      'closeOperation: no reply within 2000 ms (a release waits as long as a reply, 2000 ms at most)',
    );
  });

  it('a fetch takes its own signal', async () => {
    const fake = new FakeTransport((c) =>
      c.method === 'executeQueryStatementV2' ? openQuery() : c.method === 'fetchResultsV2' ? { hang: true } : undefined,
    );
    const s = session(fake);
    await s.open();
    const ds = await s.executeQueryStatement('SELECT 1');
    const ac = new AbortController();
    const reading = ds.toColumnar({ signal: ac.signal }).catch((x: unknown) => x);
    setTimeout(() => ac.abort(new Error('enough')), 20);
    const e = await reading;
    expect(e).toBeInstanceOf(IoTDBAbortError);
    expect((e as Error).cause).toEqual(new Error('enough'));
  });
});

describe('string records and records of one device', () => {
  it('insertStringRecord sends strings for the server to type, leaving nulls out', async () => {
    const fake = new FakeTransport();
    const s = session(fake);
    await s.open();
    await s.insertStringRecord({
      deviceId: 'root.sg.d',
      timestamp: 5,
      measurements: ['a', 'b', 'c'],
      values: ['1.5', null, 'x'],
    });
    expect(fake.callsOf('insertStringRecord')[0].args).toMatchObject({
      prefixPath: 'root.sg.d',
      measurements: ['a', 'c'],
      values: ['1.5', 'x'],
      timestamp: 5n,
    });
    await expect(
      s.insertStringRecord({ deviceId: 'root.sg.d', timestamp: 5, measurements: ['a'], values: [1 as never] }),
    ).rejects.toMatchObject({ code: 'IOTDB_INVALID_ARG' });
  });

  it('insertRecordsOfOneDevice sorts rows by time (values travel with them) and reports failures by the caller’s row', async () => {
    const fake = new FakeTransport(
      sequence('insertRecordsOfOneDevice', [
        status(302, { subStatus: [{ code: 200 }, { code: 614, message: 'bad' }, { code: 200 }] }),
      ]),
    );
    const s = session(fake);
    await s.open();
    const row = (t: number, v: number | null) => ({
      timestamp: t,
      measurements: ['v'],
      dataTypes: ['INT32' as const],
      values: [v],
    });
    const e = (await s
      .insertRecordsOfOneDevice('root.sg.d', [row(30, 3), row(10, 1), row(40, null), row(20, 2)])
      .catch((x: unknown) => x)) as IoTDBBatchError;
    const sent = fake.callsOf('insertRecordsOfOneDevice')[0].args as { timestamps: bigint[]; isAligned: boolean };
    expect(sent.timestamps).toEqual([10n, 20n, 30n]);
    expect(sent.isAligned).toBe(false);
    expect(e.failures.map((f) => f.index)).toEqual([3]); // the second sent (t=20) is the caller's row 3
    expect(e.succeeded).toEqual([0, 1, 2]); // row 2 had nothing to write
  });

  it('sorted: true sends the rows as given; the aligned variant says so', async () => {
    const fake = new FakeTransport();
    const s = session(fake);
    await s.open();
    const row = (t: number) => ({ timestamp: t, measurements: ['v'], dataTypes: ['INT32' as const], values: [t] });
    await s.insertAlignedRecordsOfOneDevice('root.sg.d', [row(2), row(1)], { sorted: true });
    expect(fake.callsOf('insertRecordsOfOneDevice')[0].args).toMatchObject({ timestamps: [2n, 1n], isAligned: true });
  });
});
