import { subscribe, tracingChannel, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TSDataType, type TSStatus, type Tablet } from '@iotdb/fast-serializer';
import { IoTDBServerError, IoTDBValidationError } from '../errors.js';
import { SessionPool } from '../pool/session-pool.js';
import type { SessionOptions } from '../session/options.js';
import { Session } from '../session/session.js';
import { FakeTransport, type FakeAction, type FakeScript } from '../transport/fake-transport.js';
import {
  CHANNELS,
  connectChannel,
  insertChannel,
  queryChannel,
  type InsertTraceContext,
  type QueryTraceContext,
  type TraceContext,
} from './channels.js';
import type { Logger } from './logger.js';

// Logger, tracing channels and stats, driven through the scripted fake transport.

const A = '10.0.0.1:6667';
const B = '10.0.0.2:6667';
const FAST = { initialDelayMs: 1, maxDelayMs: 5, maxElapsedMs: 2_000 };

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c().catch(() => undefined);
});

function session(fake: FakeTransport, o: SessionOptions = {}): Session {
  const s = new Session({ nodeUrls: [A], transport: fake, retry: FAST, ...o });
  closers.push(() => s.close());
  return s;
}

/** A logger that remembers every line: [level, obj, msg]. */
function recordingLogger(): Logger & { lines: [string, Record<string, unknown>, string | undefined][] } {
  const lines: [string, Record<string, unknown>, string | undefined][] = [];
  const at = (level: string) => (obj: object, msg?: string) =>
    void lines.push([level, obj as Record<string, unknown>, msg]);
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
const events = (log: ReturnType<typeof recordingLogger>) =>
  log.lines.map(([level, o]) => `${level}:${String(o.event)}`);

const tablet = (deviceId: string): Tablet => ({
  deviceId,
  measurements: ['s1', 's2'],
  dataTypes: [TSDataType.INT64, TSDataType.INT64],
  timestamps: [1, 2, 3],
  values: [
    [1n, 2n],
    [3n, 4n],
    [5n, null],
  ],
});
const status = (code: number, extra: Partial<TSStatus> = {}): FakeAction => ({
  reply: { code, message: `m${code}`, ...extra },
});
function sequence(method: string, actions: FakeAction[]): FakeScript {
  let n = 0;
  return (c) => (c.method === method && n < actions.length ? actions[n++] : undefined);
}

/** Subscribes to a channel's five events for one test; `seen` holds [event, context]. */
function trace<C extends TraceContext>(name: string): { seen: [string, C][]; contexts: () => C[] } {
  const seen: [string, C][] = [];
  const on = (event: string) => (ctx: C) => void seen.push([event, { ...ctx }]);
  const handlers = {
    start: on('start'),
    end: on('end'),
    asyncStart: on('asyncStart'),
    asyncEnd: on('asyncEnd'),
    error: on('error'),
  };
  const channel = tracingChannel<unknown, C>(name);
  channel.subscribe(handlers);
  closers.push(() => Promise.resolve(channel.unsubscribe(handlers)));
  return { seen, contexts: () => seen.filter(([e]) => e === 'asyncEnd').map(([, c]) => c) };
}

describe('logger', () => {
  it('logs the connect at info, without the password', async () => {
    const log = recordingLogger();
    const s = session(new FakeTransport(), { logger: log, password: 'hunter2' });
    await s.open();
    expect(events(log)).toEqual(['info:connect']);
    expect(log.lines[0][1]).toMatchObject({ endpoint: A });
    expect(JSON.stringify(log.lines)).not.toContain('hunter2');
  });

  it('logs a failed connect at warn and the failover to the next node at info', async () => {
    const log = recordingLogger();
    const fake = new FakeTransport();
    fake.setNode(A, 'refuse');
    const s = session(fake, { logger: log, nodeUrls: [A, B] });
    await s.open();
    expect(events(log)).toEqual(['warn:connect-failed', 'info:connect', 'info:failover']);
    expect(log.lines[0][1]).toMatchObject({ endpoint: A, code: 'IOTDB_CONNECTION_REFUSED' });
    expect(log.lines[2][1]).toMatchObject({ from: A, to: B });
    expect(s.stats()).toMatchObject({ connects: 1, connectFailures: 1, failovers: 1 });
  });

  it('logs each retry at warn with the attempt, delay and status code, and the final failure at error', async () => {
    const log = recordingLogger();
    const fake = new FakeTransport(sequence('insertTablet', [status(301), status(301)]));
    const s = session(fake, { logger: log });
    await s.open();
    await s.insertTablet(tablet('root.sg.d1'));
    const retries = log.lines.filter(([, o]) => o.event === 'retry');
    expect(retries.map(([level, o]) => [level, o.operation, o.attempt, o.statusCode])).toEqual([
      ['warn', 'insertTablet', 1, 301],
      ['warn', 'insertTablet', 2, 301],
    ]);
    expect(typeof retries[0][1].delayMs).toBe('number');
    expect(s.stats().retries).toBe(2);
  });

  it('logs a write that failed after retries at error', async () => {
    const log = recordingLogger();
    const fake = new FakeTransport((c) => (c.method === 'insertTablet' ? status(301) : undefined));
    const s = session(fake, { logger: log, retry: { initialDelayMs: 1, maxDelayMs: 2, maxElapsedMs: 30 } });
    await s.open();
    await expect(s.insertTablet(tablet('root.sg.d1'))).rejects.toBeInstanceOf(IoTDBServerError);
    const last = log.lines.at(-1)!;
    expect(last[0]).toBe('error');
    expect(last[1]).toMatchObject({ event: 'gave-up', operation: 'insertTablet', statusCode: 301 });
    expect(s.stats().errors).toBe(1);
  });

  it('logs a redirect at debug once per device and node, and counts it', async () => {
    const log = recordingLogger();
    const to = { redirectNode: { ip: '10.0.0.2', port: 6667 } };
    const fake = new FakeTransport((c) => (c.method === 'insertTablet' && c.node === A ? status(200, to) : undefined));
    const s = session(fake, { logger: log });
    await s.open();
    await s.insertTablet(tablet('root.sg.d1'));
    await s.insertTablet(tablet('root.sg.d1'));
    await s.insertTablet(tablet('root.sg.d1'));
    const redirects = log.lines.filter(([, o]) => o.event === 'redirect');
    expect(redirects).toEqual([
      ['debug', { event: 'redirect', device: 'root.sg.d1', endpoint: B }, expect.any(String)],
    ]);
    expect(s.stats().redirects).toBe(1);
  });

  it('logs a call slower than slowCallMs at warn, and none below it', async () => {
    const log = recordingLogger();
    const fake = new FakeTransport(sequence('insertTablet', [{ delayMs: 400, then: status(200) }]));
    const s = session(fake, { logger: log, slowCallMs: 150 });
    await s.open();
    await s.insertTablet(tablet('root.sg.d1'));
    await s.insertTablet(tablet('root.sg.d1'));
    const slow = log.lines.filter(([, o]) => o.event === 'slow-call');
    expect(slow).toHaveLength(1);
    expect(slow[0][0]).toBe('warn');
    expect(slow[0][1]).toMatchObject({ operation: 'insertTablet', endpoint: A, slowCallMs: 150 });
    expect(slow[0][1].durationMs).toBeGreaterThanOrEqual(20);
  });

  it('logs pool growth and shrinking, and passes the logger to its sessions', async () => {
    const log = recordingLogger();
    const pool = new SessionPool({
      nodeUrls: [A],
      transport: new FakeTransport(),
      retry: FAST,
      logger: log,
      maxSize: 2,
    });
    await pool.executeNonQueryStatement('FLUSH');
    await pool.close();
    expect(events(log)).toEqual(['info:connect', 'info:pool-grow', 'info:pool-shrink']);
    expect(log.lines[1][1]).toMatchObject({ size: 1, maxSize: 2 });
    expect(log.lines[2][1]).toMatchObject({ reason: 'pool-closed', size: 0 });
  });

  it('is refused at construction unless it has the four methods', () => {
    const bad = { info: () => undefined } as unknown as Logger;
    expect(() => new Session({ logger: bad })).toThrow(IoTDBValidationError);
    expect(() => new Session({ logger: bad })).toThrow(/debug, warn, error/);
    expect(() => new Session({ slowCallMs: -1 })).toThrow(IoTDBValidationError);
  });
});

describe('tracing channels', () => {
  it('traces an insert: start, end, asyncStart, asyncEnd with operation, endpoint, rows, points, bytes, duration', async () => {
    const fake = new FakeTransport();
    const s = session(fake);
    await s.open();
    const t = trace<InsertTraceContext>(CHANNELS.insert);
    await s.insertTablet(tablet('root.sg.d1'));
    expect(t.seen.map(([e]) => e)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    const [ctx] = t.contexts();
    expect(ctx).toMatchObject({ operation: 'insertTablet', endpoint: A, rows: 3, points: 6, attempts: 1 });
    expect(ctx.bytesOut).toBeGreaterThan(50);
    expect(ctx.bytesIn).toBeGreaterThan(4);
    expect(ctx.durationMs).toBeGreaterThan(0);
    expect(ctx.error).toBeUndefined();
  });

  it("breaks an insert's time into serialize, network + server and decode; a slow server shows in network", async () => {
    const fake = new FakeTransport(sequence('insertTablet', [{ delayMs: 40, then: status(200) }]));
    const s = session(fake);
    await s.open();
    const t = trace<InsertTraceContext>(CHANNELS.insert);
    await s.insertTablet(tablet('root.sg.d1'));
    const [ctx] = t.contexts();
    expect(ctx.networkMs).toBeGreaterThanOrEqual(39);
    expect(ctx.serializeMs).toBeGreaterThan(0);
    expect(ctx.decodeMs).toBeGreaterThan(0);
    expect(ctx.serializeMs + ctx.networkMs + ctx.decodeMs).toBeLessThanOrEqual(ctx.durationMs);
    expect(ctx.poolWaitMs).toBe(0); // not from a pool
  });

  it("reports a pooled borrower's wait for its session as poolWaitMs of its first call", async () => {
    const fake = new FakeTransport(sequence('insertTablet', [status(200), { delayMs: 60, then: status(200) }]));
    const pool = new SessionPool({ nodeUrls: [A], transport: fake, retry: FAST, maxSize: 1 });
    closers.push(() => pool.close());
    await pool.insertTablet(tablet('root.sg.d0')); // opens the one session
    const t = trace<InsertTraceContext>(CHANNELS.insert);
    // the second waits for the first's 60 ms
    await Promise.all([pool.insertTablet(tablet('root.sg.d1')), pool.insertTablet(tablet('root.sg.d2'))]);
    const [first, second] = t.contexts();
    expect(first.poolWaitMs).toBeLessThan(20);
    expect(second.poolWaitMs).toBeGreaterThanOrEqual(50);
    expect(second.durationMs).toBeLessThan(second.poolWaitMs); // the wait was before the call, not in it
  });

  it('counts records as rows and their values as points, over every node a write went to', async () => {
    const s = session(new FakeTransport());
    await s.open();
    const t = trace<InsertTraceContext>(CHANNELS.insert);
    const record = (deviceId: string, n: number) => ({
      deviceId,
      timestamp: 1,
      measurements: Array.from({ length: n }, (_, i) => `s${i}`),
      dataTypes: Array.from({ length: n }, () => 'INT32' as const),
      values: Array.from({ length: n }, (_, i) => i),
    });
    await s.insertRecords([record('root.sg.d1', 2), record('root.sg.d2', 3)]);
    expect(t.contexts()[0]).toMatchObject({ operation: 'insertRecords', rows: 2, points: 5 });
  });

  it('traces an insertTablets split over two nodes: the bytes of both requests, and its phases', async () => {
    // A names B for d1; B answers late
    const fake = new FakeTransport((c) => {
      if (c.method !== 'insertTablets') return undefined;
      if (c.node === B) return { delayMs: 30, then: status(200) };
      const paths = (c.args as { prefixPaths: string[] }).prefixPaths;
      const sub = paths.map((p) => ({
        code: 200,
        ...(p === 'root.sg.d1' ? { redirectNode: { ip: '10.0.0.2', port: 6667 } } : {}),
      }));
      return status(400, { subStatus: sub });
    });
    const s = session(fake);
    await s.open();
    const both = [tablet('root.sg.d0'), tablet('root.sg.d1')];
    await s.insertTablets(both); // learns d1 -> B
    await s.insertTablets(both); // opens B
    const t = trace<InsertTraceContext>(CHANNELS.insert);
    const before = s.stats().bytesOut;
    await s.insertTablets(both);
    const [ctx] = t.contexts();
    expect(
      fake
        .callsOf('insertTablets')
        .slice(-2)
        .map((c) => c.node)
        .sort(),
    ).toEqual([A, B]);
    expect(ctx).toMatchObject({ operation: 'insertTablets', rows: 6, points: 12, attempts: 1 });
    expect(ctx.bytesOut).toBe(s.stats().bytesOut - before);
    expect(ctx.serializeMs).toBeGreaterThan(0);
    expect(ctx.networkMs).toBeGreaterThanOrEqual(29);
    expect(ctx.serializeMs).toBeLessThan(ctx.durationMs);
  });

  it('counts the retries of an insert in attempts, and the bytes of every attempt', async () => {
    const fake = new FakeTransport(sequence('insertTablet', [status(301)]));
    const s = session(fake);
    await s.open();
    const t = trace<InsertTraceContext>(CHANNELS.insert);
    await s.insertTablet(tablet('root.sg.d1'));
    await s.insertTablet(tablet('root.sg.d1'));
    const [retried, once] = t.contexts();
    expect([retried.attempts, once.attempts]).toEqual([2, 1]);
    expect(retried.bytesOut).toBe(2 * once.bytesOut);
    expect(retried.bytesIn).toBeGreaterThan(once.bytesIn); // two replies (the first a longer status)
  });

  it('publishes error with the error in the context when an insert fails', async () => {
    const fake = new FakeTransport(sequence('insertTablet', [status(507)]));
    const s = session(fake);
    await s.open();
    const t = trace<InsertTraceContext>(CHANNELS.insert);
    const e = await s.insertTablet(tablet('root.sg.d1')).catch((x: unknown) => x);
    expect(t.seen.map(([ev]) => ev)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
    expect(t.contexts()[0].error).toBe(e);
    expect(t.contexts()[0].endpoint).toBe(A);
  });

  it('traces a query with its statement, and a statement on the same channel', async () => {
    const s = session(new FakeTransport());
    await s.open();
    const t = trace<QueryTraceContext>(CHANNELS.query);
    const ds = await s.executeQueryStatement('SELECT * FROM root.sg.d1');
    await ds.close();
    await s.executeNonQueryStatement('FLUSH');
    expect(t.contexts().map((c) => [c.operation, c.statement, c.endpoint])).toEqual([
      ['executeQueryStatement', 'SELECT * FROM root.sg.d1', A],
      ['executeNonQueryStatement', 'FLUSH', A],
    ]);
    expect(t.contexts()[0].bytesIn).toBeGreaterThan(0);
  });

  it('traces a statement the server refuses as an error', async () => {
    const s = session(new FakeTransport(sequence('executeUpdateStatementV2', [{ reply: { status: { code: 700 } } }])));
    await s.open();
    const t = trace<QueryTraceContext>(CHANNELS.query);
    const e = await s.executeNonQueryStatement('bad sql').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBServerError);
    expect(t.seen.map(([ev]) => ev)).toContain('error');
    expect(t.contexts()[0]).toMatchObject({ operation: 'executeNonQueryStatement', statement: 'bad sql', error: e });
  });

  it('traces each connect, with its endpoint and bytes, and a failed one with its error', async () => {
    const fake = new FakeTransport();
    fake.setNode(A, 'refuse');
    const t = trace<TraceContext>(CHANNELS.connect);
    const s = session(fake, { nodeUrls: [A, B] });
    await s.open();
    const [failed, ok] = t.contexts();
    expect(failed).toMatchObject({ operation: 'openSession', endpoint: A, bytesOut: 0 });
    expect(failed.error).toBeDefined();
    expect(ok).toMatchObject({ operation: 'openSession', endpoint: B });
    expect(ok.bytesOut).toBeGreaterThan(0);
    expect(ok.error).toBeUndefined();
  });

  it('takes the traced path (and builds a context) only while someone subscribes', async () => {
    const s = session(new FakeTransport());
    await s.open();
    const spies = [insertChannel, queryChannel, connectChannel].map((c) => vi.spyOn(c, 'tracePromise'));
    closers.push(() => Promise.resolve(spies.forEach((spy) => spy.mockRestore())));
    const work = async () => {
      await s.insertTablet(tablet('root.sg.d1'));
      await (await s.executeQueryStatement('SELECT * FROM root.sg.d1')).close();
      await s.executeNonQueryStatement('FLUSH');
      await new Session({ nodeUrls: [A], transport: new FakeTransport() }).open();
    };
    await work();
    expect(spies.map((spy) => spy.mock.calls.length)).toEqual([0, 0, 0]);
    // any one of the five events counts as a subscriber: here, only `start`, by the plain channel API
    const onStart = () => undefined;
    for (const name of Object.values(CHANNELS)) subscribe(`tracing:${name}:start`, onStart);
    await work();
    for (const name of Object.values(CHANNELS)) unsubscribe(`tracing:${name}:start`, onStart);
    expect(spies.map((spy) => spy.mock.calls.length)).toEqual([1, 2, 1]);
    await work();
    expect(spies.map((spy) => spy.mock.calls.length)).toEqual([1, 2, 1]);
  });
});

describe('stats', () => {
  it('counts calls, errors, requests and bytes of a session', async () => {
    const fake = new FakeTransport(sequence('executeUpdateStatementV2', [status(700)]));
    const s = session(fake);
    expect(s.stats()).toEqual({
      calls: 0,
      errors: 0,
      retries: 0,
      failovers: 0,
      redirects: 0,
      connects: 0,
      connectFailures: 0,
      requests: 0,
      bytesOut: 0,
      bytesIn: 0,
    });
    await s.open();
    await s.executeNonQueryStatement('bad sql').catch(() => undefined);
    await s.insertTablet(tablet('root.sg.d1'));
    const st = s.stats();
    // open (openSession + requestStatementId), the statement, the insert
    expect(st).toMatchObject({ calls: 3, errors: 1, connects: 1, requests: 4 });
    expect(st.bytesOut).toBeGreaterThan(100);
    expect(st.bytesIn).toBeGreaterThan(4 * 4);
  });

  it('returns a copy: the caller cannot change the counters', () => {
    const s = session(new FakeTransport());
    s.stats().calls = 99;
    expect(s.stats().calls).toBe(0);
  });

  it('adds up the counters of a pool over its sessions, closed ones included, and counts them', async () => {
    const pool = new SessionPool({ nodeUrls: [A], transport: new FakeTransport(), retry: FAST, maxSize: 2 });
    closers.push(() => pool.close());
    await Promise.all([
      pool.execute(async (s) => s.insertTablet(tablet('root.sg.d1'))),
      pool.execute(async (s) => s.insertTablet(tablet('root.sg.d2'))),
    ]);
    expect(pool.stats()).toMatchObject({
      size: 2,
      idle: 2,
      inUse: 0,
      waiting: 0,
      sessionsCreated: 2,
      sessionsClosed: 0,
    });
    expect(pool.stats()).toMatchObject({ calls: 4, connects: 2 });
    const before = pool.stats().bytesOut;
    await pool.close();
    const after = pool.stats();
    expect(after).toMatchObject({ size: 0, sessionsCreated: 2, sessionsClosed: 2, calls: 4, connects: 2 });
    expect(after.bytesOut).toBeGreaterThan(before); // the logouts
  });
});
