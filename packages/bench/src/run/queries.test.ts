import { describe, expect, it } from 'vitest';
import { IoTDBConnectionError, IoTDBServerError, type SessionDataSet } from '@iotdb/client';
import { LatencyHistogram } from '../report/histogram.js';
import { compareRuns } from '../report/compare-runs.js';
import { mergeShares } from '../report/merge-runs.js';
import { mainOperation } from '../report/result-fields.js';
import { sampleConfig, sampleRun } from '../report/test-fixture.js';
import type { BenchConfig } from '../types.js';
import { FIRST_ROW, rowTime } from '../workload/generator.js';
import { OPERATIONS, storedRows, type OperationWeights } from '../workload/operations.js';
import { javaPlan } from './java-plan.js';
import { rowsAfterTheRun } from './client-operations.js';
import {
  addQueriesAfter,
  noWholeRoundNote,
  noneSucceeded,
  queryPasses,
  querySqls,
  timedRead,
  untimedReads,
  type QueriesAfter,
} from './queries.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('queryPasses (--queries after the writes)', () => {
  const emptyResult = async function* () {};
  const refused = () => new IoTDBConnectionError('refused', '127.0.0.1:6667', 'cannot connect', false);
  /** An execute whose `failAt`-th call (from 1) and every later one fails with `error`; the calls counted. */
  const executing = (failAt: number, error: () => Error) => {
    const calls = { n: 0 };
    const execute = (): Promise<SessionDataSet> => {
      calls.n++;
      if (calls.n >= failAt) return Promise.reject(error());
      return Promise.resolve(emptyResult() as unknown as SessionDataSet);
    };
    return { calls, execute };
  };
  const c = sampleConfig({ queries: ['TIME_RANGE', 'LATEST_POINT'], queryLoops: 10 });
  const statements = c.queries.map((kind) => ({ kind, sqls: querySqls(c, kind, 1000) }));

  it('ends at a read that reached no node in its retry budget: every read after it would wait as long', async () => {
    const { calls, execute } = executing(13, refused);
    const done = await queryPasses(c, statements, execute);
    expect(calls.n).toBe(13);
    expect(done.reachedNoNode).toBe(true);
    expect(done.after.queries.TIME_RANGE).toMatchObject({ ops: 10, failed: 0 });
    expect(done.after.queries.LATEST_POINT).toMatchObject({ ops: 2, failed: 1 });
    expect(done.errors).toEqual([
      '127.0.0.1:6667: cannot connect',
      '--queries stopped at LATEST_POINT: a read reached no node in --retry-max-ms 60,000 ms; 7 reads not run',
    ]);
  });

  it("with --vs-java, its untimed first pass alike (the timed pass's reads would wait as long)", async () => {
    const { calls, execute } = executing(3, refused);
    const done = await queryPasses({ ...c, vsJava: true }, statements, execute);
    expect(calls.n).toBe(3);
    expect(done.reachedNoNode).toBe(true);
    expect(done.after.queries).toEqual({});
    expect(done.errors.at(-1)).toMatch(/^--queries stopped at TIME_RANGE: .*; 37 reads not run$/);
  });

  it('goes on after a failure of any other kind, and after every failure with no retries asked for (0)', async () => {
    const status = () => new IoTDBServerError({ code: 301, message: 'no such table' }, 'executeQueryStatement');
    for (const [config, error] of [
      [c, status],
      [{ ...c, retryMaxMs: 0 }, refused],
    ] as const) {
      const { calls, execute } = executing(5, error);
      const done = await queryPasses(config, statements, execute);
      expect(calls.n).toBe(20);
      expect(done.reachedNoNode).toBe(false);
      expect(done.after.queries.LATEST_POINT).toMatchObject({ ops: 0, failed: 10 });
    }
  });
});

describe('timedRead', () => {
  it('times the statement from its call to its last row: the reply awaited and every row read', async () => {
    // a reply after 30 ms, whose one row comes 30 ms later
    const slowRows = async function* () {
      await sleep(30);
      yield { values: [1, null, 2] };
    };
    const execute = async () => {
      await sleep(30);
      return slowRows() as unknown as SessionDataSet;
    };
    const read = await timedRead(execute);
    expect(read).toMatchObject({ rows: 1, points: 2 });
    expect(read.ns).toBeGreaterThanOrEqual(55e6); // timers may fire a little early, never 5 ms
  });

  it('gives the error of a statement the server refuses instead of throwing it, with the time it took', async () => {
    const refused = await timedRead(() => Promise.reject(new Error('[701] UDF NOSUCH has not been registered')));
    expect(refused).toMatchObject({ rows: 0, points: 0, error: '[701] UDF NOSUCH has not been registered' });
    expect(refused.ns).toBeGreaterThanOrEqual(0);
  });
});

describe('querySqls (--queries after the writes)', () => {
  const weights = (ingestion: number) =>
    Object.fromEntries(OPERATIONS.map((op) => [op, op === 'INGESTION' ? ingestion : 0])) as OperationWeights;
  const knobs = { workers: 2, clients: 2, devices: 8, deviceCount: 8, loop: 20, warmupRounds: 1, queryLoops: 200 };
  /** The latest start of a TIME_RANGE statement of the run `c`, as a row of the device. */
  const latestStartRow = (c: BenchConfig) => {
    const starts = querySqls(c, 'TIME_RANGE', rowsAfterTheRun(c)).map((sql) => BigInt(/time >= (\d+)/.exec(sql)![1]));
    const latest = starts.reduce((a, b) => (a > b ? a : b));
    return Number((latest - rowTime(c, FIRST_ROW)) / BigInt(c.timeStep)) + FIRST_ROW;
  };
  const RANGE_ROWS = 100; // queryInterval 100 s over rows 1 s apart

  it('range over the rows every device has after a mixed run, whose writes were a share of its operations', () => {
    const c = sampleConfig({ ...knobs, operationProportion: { ...weights(1), TIME_RANGE: 3 } });
    // each device's rows, from the writes of the plan its clients ran: its warm-up round and its timed writes
    const writes = new Map<string, number>();
    for (const line of [...javaPlan(c)].filter((l) => l.includes(' write ')))
      for (const d of line.split(' ')[3].split(',')) writes.set(d, (writes.get(d) ?? 0) + 1);
    const fewest = (c.warmupRounds + Math.min(...[...Array(8).keys()].map((d) => writes.get(String(d)) ?? 0))) * 100;
    expect(fewest).toBeLessThan(storedRows(c) / 2); // a quarter of the operations wrote
    const latest = latestStartRow(c);
    expect(latest + RANGE_ROWS - 1).toBeLessThanOrEqual(FIRST_ROW + fewest - 1); // every range ends within them
    expect(latest).toBeGreaterThan(FIRST_ROW + fewest / 2); // and they spread over them
  });

  it('range over every row the loop wrote in a run of writes only, and over what such a run stored when reading only', () => {
    for (const operationProportion of [weights(1), { ...weights(0), TIME_RANGE: 1 }]) {
      const c = sampleConfig({ ...knobs, operationProportion });
      const latest = latestStartRow(c);
      expect(latest + RANGE_ROWS - 1).toBeLessThanOrEqual(FIRST_ROW + storedRows(c) - 1);
      expect(latest).toBeGreaterThan(FIRST_ROW + storedRows(c) * 0.9);
    }
  });
});

describe('noneSucceeded', () => {
  const type = (ops: number, failed: number) => ({
    ops,
    failed,
    rows: 0,
    rowsPerS: 0,
    latency: new LatencyHistogram().summaryMs(),
  });
  it('is true when a query type ran and every statement of it failed', () => {
    expect(noneSucceeded({ AGG_RANGE: type(0, 2), TIME_RANGE: type(2, 0) })).toBe(true);
  });
  it('is false when every type read something, or nothing ran', () => {
    expect(noneSucceeded({ AGG_RANGE: type(1, 1), TIME_RANGE: type(2, 0) })).toBe(false);
    expect(noneSucceeded({ AGG_RANGE: type(0, 0) })).toBe(false);
    expect(noneSucceeded(undefined)).toBe(false);
  });
});

/** `--queries`' outcome: TIME_RANGE read at each of `ms` (ms), AGG_RANGE refused twice. */
function queriesAfter(ms: number[]): QueriesAfter {
  const h = new LatencyHistogram();
  for (const v of ms) h.record(v * 1e6);
  const refused = new LatencyHistogram();
  return {
    queries: {
      TIME_RANGE: { ops: h.count, failed: 0, rows: 10 * h.count, rowsPerS: 100, latency: h.summaryMs() },
      AGG_RANGE: { ops: 0, failed: 2, rows: 0, rowsPerS: 0, latency: refused.summaryMs() },
    },
    histograms: { TIME_RANGE: h, AGG_RANGE: refused },
  };
}

/** A write run (sampleRun's 1000 insertTablets) with no queries of its own. */
const writeRun = () => sampleRun('tree-insertTablet', { queries: undefined });

describe('addQueriesAfter', () => {
  it("gives each query type read its latency matrix and histogram beside the run's writes, and its session's time", () => {
    const run = writeRun();
    addQueriesAfter(run, queriesAfter([2, 4, 6]));
    expect(run.queries?.TIME_RANGE).toMatchObject({ ops: 3, rows: 30 });
    const { count, min, max } = run.latency.TIME_RANGE;
    expect([count, Math.round(min), Math.round(max)]).toEqual([3, 2, 6]);
    expect(run.histograms.TIME_RANGE.count).toBe(3);
    expect(run.slowestClientMs?.TIME_RANGE).toBeCloseTo(12, 0); // one session read them all
    // a type never read has its failures counted, and no latency
    expect(run.queries?.AGG_RANGE).toMatchObject({ ops: 0, failed: 2 });
    expect(run.latency.AGG_RANGE).toBeUndefined();
  });

  it("names them '<type> after the writes' after a mixed run's own queries of that type", () => {
    const run = sampleRun('tree-insertTablet-mixed'); // its own queries: raw, last
    addQueriesAfter(run, queriesAfter([2]));
    expect(Object.keys(run.queries ?? {})).toEqual([
      'raw',
      'last',
      'TIME_RANGE after the writes',
      'AGG_RANGE after the writes',
    ]);
    expect(run.latency['TIME_RANGE after the writes'].count).toBe(1);
  });

  it('leaves the writes the main operation, however many statements were read', () => {
    const [run, mixed] = [writeRun(), sampleRun('tree-insertTablet-mixed')];
    for (const r of [run, mixed]) addQueriesAfter(r, queriesAfter(Array.from({ length: 5000 }, () => 1)));
    expect(mainOperation(run)?.kind).toBe('insertTablet');
    expect(mainOperation(mixed)?.kind).toBe('insertTablet'); // not 'TIME_RANGE after the writes'
  });

  it("lets compare set each type's p50 and p99 against another run's, and merge add shares' histograms exactly", () => {
    const [a, b] = [writeRun(), writeRun()];
    addQueriesAfter(a, queriesAfter([2, 2, 2, 2]));
    addQueriesAfter(b, queriesAfter([4, 4, 4, 4]));
    const p50 = compareRuns(a, b).find((f) => f.figure === 'TIME_RANGE p50 ms');
    expect(p50?.ratio).toBeCloseTo(2, 1);
    const merged = mergeShares([a, b]);
    expect(merged.queries?.TIME_RANGE).toMatchObject({ ops: 8, rows: 80 });
    const { count, min, max } = merged.latency.TIME_RANGE;
    expect([count, Math.round(min), Math.round(max)]).toEqual([8, 2, 4]);
  });
});

describe('untimedReads (a warm-up: reads before the timed ones)', () => {
  const refused = () => new IoTDBConnectionError('refused', '127.0.0.1:6667', 'cannot connect', false);
  const counting = (error?: () => Error) => {
    const calls = { n: 0 };
    const execute = (): Promise<SessionDataSet> => {
      calls.n++;
      if (error !== undefined) return Promise.reject(error());
      return Promise.resolve((async function* () {})() as unknown as SessionDataSet);
    };
    return { calls, execute };
  };

  const five = (execute: () => Promise<SessionDataSet>) => Array.from({ length: 5 }, () => execute);

  it('reads each in turn, a refusal counted by the timed reads, not here', async () => {
    const ok = counting();
    expect(await untimedReads(five(ok.execute), 60_000)).toEqual({ ran: 5 });
    expect(ok.calls.n).toBe(5);
    const refusedByServer = counting(() => new IoTDBServerError({ code: 301, message: 'no table' }, 'q'));
    expect(await untimedReads(five(refusedByServer.execute), 60_000)).toEqual({ ran: 5 });
    expect(refusedByServer.calls.n).toBe(5);
  });

  it('ends at a read that reached no node in its retry budget: the next would wait as long, and so would the timed', async () => {
    const gone = counting(refused);
    const pass = await untimedReads(five(gone.execute), 60_000);
    expect([pass.ran, pass.unreachable?.error]).toEqual([1, '127.0.0.1:6667: cannot connect']);
    expect(gone.calls.n).toBe(1);
    const noRetries = counting(refused);
    expect((await untimedReads(five(noRetries.execute), 0)).ran).toBe(5);
    expect(noRetries.calls.n).toBe(5);
  });
});

describe('noWholeRoundNote (--queries after a run --test-max-time stopped)', () => {
  it('says when no round reached every device: the queries read the first, which some devices lack', () => {
    const c = sampleConfig({ queries: ['TIME_RANGE'], warmupRounds: 0 });
    expect(noWholeRoundNote(c, 0, "ours'")).toBe(
      "note: ours' queries after the writes: no round reached every device before the time limit " +
        '(--test-max-time), so they read the first, which some devices lack: their rows are fewer than a whole ' +
        "round's (--warmup-rounds 1 writes one, untimed)",
    );
    expect(noWholeRoundNote(c, 0, "the Java client's")).toMatch(/^note: the Java client's queries after the writes:/);
    expect(noWholeRoundNote(c, 1, "ours'")).toBeUndefined(); // a whole round: the queries range over it
    expect(noWholeRoundNote(c, undefined, "the Java client's")).toBeUndefined(); // it wrote its plan
    expect(noWholeRoundNote({ ...c, queries: [] }, 0, "ours'")).toBeUndefined(); // no queries after
    // queries alone read what a run before wrote, no round of their own
    const alone = { ...c, operationProportion: { ...c.operationProportion, INGESTION: 0, TIME_RANGE: 1 } };
    expect(noWholeRoundNote(alone, 0, "ours'")).toBeUndefined();
  });
});
