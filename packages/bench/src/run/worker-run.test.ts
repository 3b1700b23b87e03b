import { IoTDBConnectionError } from '@iotdb/client';
import { describe, expect, it } from 'vitest';
import { formatReport } from '../report/format.js';
import { matrixCsv } from '../report/latency-matrix.js';
import { sampleConfig, sampleRun } from '../report/test-fixture.js';
import type { BenchConfig, WorkerTask } from '../types.js';
import { QUERY_KINDS, WRITES_ONLY, type OperationWeights, type QueryKind } from '../workload/operations.js';
import type { Clock } from './clock.js';
import { StartBarrier } from './barrier.js';
import { combineWorkers } from './combine-workers.js';
import { failuresOverTime, latencyOverTime } from './interval-latency.js';
import { liveCounters, liveSlot } from './live-counters.js';
import { SimulatedClock, workerTask } from './test-fixture.js';
import { WorkerRun, type Backend } from './worker-run.js';

const MS = 1e6;

/**
 * Operations that take what `latencyMs` says (by kind and the kind's count so far), logged; a negative latency
 * is an operation that fails after -latency ms.
 */
function backend(
  clock: SimulatedClock,
  latencyMs: (kind: string, n: number) => number,
  failure = (kind: string, n: number): Error => new Error(`${kind} ${n} failed`),
) {
  const log: { kind: string; ms: number }[] = [];
  const sqls: string[] = [];
  const counts = new Map<string, number>();
  const take = async (kind: string) => {
    const n = counts.get(kind) ?? 0;
    counts.set(kind, n + 1);
    const ms = latencyMs(kind, n);
    log.push({ kind, ms });
    await clock.sleep(Math.abs(ms) * MS);
    if (ms < 0) throw failure(kind, n);
  };
  const fake: Backend = {
    writer: (_groupSize, send) => (devices, round) =>
      send('insertTablet', 10 * devices.length, async () => {
        if (round >= 0) await take('insertTablet');
        return 10 * devices.length;
      }),
    // --method writer: a round is one operation; close() the final flush, which must always run
    rowWriter: (devices, send) => ({
      round: () => send('writer', 10 * devices.length, async () => (await take('writer'), 10 * devices.length)),
      close: () => send('writer', 0, async () => (await take('close'), 0), { evenWhenStopped: true, last: true }),
    }),
    query: async (sql, kind) => {
      sqls.push(sql);
      await take(kind);
      return { rows: 1, points: 3 };
    },
    activity: () => ({ retries: 2, connects: 1, connectFailures: 0, failovers: 0, redirects: 0 }),
  };
  return { fake, log, sqls };
}

async function run(
  over: Partial<BenchConfig>,
  latencyMs: (kind: string, n: number) => number,
  taskOver: Partial<WorkerTask> = {},
  onStart: (clock: Clock) => void = () => {},
) {
  const config = sampleConfig({ workers: 1, warmupRounds: 0, devices: 4, deviceCount: 4, ...over });
  const task = workerTask(config, taskOver);
  const clock = new SimulatedClock();
  const { fake, log, sqls } = backend(clock, latencyMs);
  onStart(clock);
  const result = await clock.drive(new WorkerRun(task, fake, clock).run());
  if (result.state !== 'done') throw new Error(result.error);
  return { result, log, sqls, report: sampleRun('known', { config, ...combineWorkers([result]) }) };
}

describe('WorkerRun: the latency matrix of a run with known latencies', () => {
  it('100 writes of 1, 2, ..., 100 ms: each percentile, the average and the client total are what they must be', async () => {
    const { report } = await run({ clients: 1, devices: 1, deviceCount: 1, loop: 100 }, (_kind, n) => n + 1);
    const l = report.latency.insertTablet;
    expect(l.count).toBe(100);
    expect([l.min, l.avg, l.max]).toEqual([1, 50.5, 100]);
    // nearest rank: P10 is the 10th value; histogram buckets are within 0.8 % of the value
    const expected = { p10: 10, p25: 25, p50: 50, p75: 75, p90: 90, p95: 95, p99: 99, p999: 100 };
    for (const [p, ms] of Object.entries(expected))
      expect(l[p as keyof typeof expected]).toBeCloseTo(ms, -Math.log10(ms * 0.02));
    expect(report.slowestClientMs).toEqual({ insertTablet: 5050 });
    expect(report.durationS).toBeCloseTo(5.05, 9); // the clock's own time: the operations back to back

    const console = formatReport(report);
    expect(console).toMatch(/AVG\s+MIN\s+P10\s+P25\s+MEDIAN\s+P75\s+P90\s+P95\s+P99\s+P999\s+MAX\s+SLOWEST_CLIENT/);
    expect(console).toMatch(/insertTablet\s+100\s+50\.50\s+1\.000\s+10\.\d+\s+2[45]\.\d+\s+(49|50)\.\d+\s+/);
    expect(console).toMatch(/\s5050\s*$/m);
    const csv = matrixCsv([report]).split('\n');
    expect(csv[0]).toBe('label,operation,count,AVG,MIN,P10,P25,MEDIAN,P75,P90,P95,P99,P999,MAX,SLOWEST_CLIENT');
    expect(csv[1]).toMatch(/^known,insertTablet,100,50\.500,1\.000,.*,100\.000,5050\.000$/);
  });

  it('a mixed run: every operation drawn by weight gets its own row, matching the latencies each one took', async () => {
    const weights: OperationWeights = { ...WRITES_ONLY, INGESTION: 2 };
    for (const k of QUERY_KINDS) weights[k] = 1;
    const latency = (kind: string, n: number) =>
      (kind === 'insertTablet' ? 2 : 5 + QUERY_KINDS.indexOf(kind as QueryKind)) + (n % 7);
    const { report, log } = await run({ clients: 3, loop: 200, operationProportion: weights }, latency);
    const kinds = ['insertTablet', ...QUERY_KINDS];
    expect(Object.keys(report.latency).sort()).toEqual([...kinds].sort());
    for (const kind of kinds) {
      const took = log
        .filter((e) => e.kind === kind)
        .map((e) => e.ms)
        .sort((a, b) => a - b);
      const l = report.latency[kind];
      expect(l.count).toBe(took.length);
      expect(l.min).toBe(took[0]);
      expect(l.max).toBe(took[took.length - 1]);
      expect(l.avg).toBeCloseTo(took.reduce((a, b) => a + b, 0) / took.length, 9);
      const rank = (q: number) => took[Math.ceil((q / 100) * took.length) - 1];
      for (const [p, q] of [
        ['p10', 10],
        ['p50', 50],
        ['p90', 90],
        ['p99', 99],
      ] as const)
        expect(Math.abs(l[p] - rank(q))).toBeLessThanOrEqual(rank(q) * 0.008);
    }
    // loop x device groups per client: 3 clients over 4 devices (2, 1, 1 devices) make 800 operations, 2/12 writes
    expect(report.okOps).toBe(800);
    expect(report.latency.insertTablet.count / 800).toBeGreaterThan(0.12);
    expect(report.latency.insertTablet.count / 800).toBeLessThan(0.21);
    expect(report.points).toBe(10 * report.latency.insertTablet.count);
    for (const kind of QUERY_KINDS) expect(report.queries?.[kind]?.rows).toBe(report.latency[kind].count); // 1 row each
  });
});

describe('WorkerRun: queries', () => {
  it('of a run of queries only range over every row a write run with the same knobs stored, writing none', async () => {
    const weights: OperationWeights = { ...WRITES_ONLY, INGESTION: 0, TIME_RANGE: 1 };
    // 2 warm-up rounds + 8 rounds of 100 rows: rows 1-1000 stored, ranges of 100 rows start at rows 1-901
    const { sqls, result, log } = await run(
      { clients: 1, devices: 1, deviceCount: 1, loop: 8, warmupRounds: 2, operationProportion: weights },
      () => 1,
    );
    // and it writes nothing: no schema row, no writes in its warm-up rounds (rows written again would sit beside the
    // stored ones), only its query once a round
    expect(result.state === 'done' && result.writtenPoints).toBe(0);
    expect(log.map((e) => e.kind)).toEqual(new Array(10).fill('TIME_RANGE'));
    expect(result.okOps).toBe(8);
    const startRows = sqls.map((sql) => (Number(/time >= (\d+)/.exec(sql)?.[1]) - 1_700_000_000_000) / 1000);
    expect(startRows).toHaveLength(10);
    expect(Math.min(...startRows)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...startRows)).toBeLessThanOrEqual(901);
    expect(Math.max(...startRows)).toBeGreaterThan(300); // not all at the start, as when only rows written count
  });
});

describe("WorkerRun: a mixed run's warm-up", () => {
  const weights: OperationWeights = { ...WRITES_ONLY, INGESTION: 2, TIME_RANGE: 1, LATEST_POINT: 1 };
  const over = { clients: 1, devices: 2, deviceCount: 2, loop: 20, warmupRounds: 2, operationProportion: weights };

  it('runs each query type once a round after its writes, untimed: the timed rows count only the timed ones', async () => {
    const { log, report } = await run(over, () => 1);
    const round = ['insertTablet', 'insertTablet', 'TIME_RANGE', 'LATEST_POINT'];
    expect(log.slice(0, 8).map((e) => e.kind)).toEqual([...round, ...round]);
    const timed = log.slice(8);
    expect(timed).toHaveLength(40);
    for (const kind of ['insertTablet', 'TIME_RANGE', 'LATEST_POINT'])
      expect(report.latency[kind].count, kind).toBe(timed.filter((e) => e.kind === kind).length);
    expect(report.okOps).toBe(40);
  });

  it("goes on past a query of it that fails, its error kept as the warm-up's: the timed queries count their own", async () => {
    // the first TIME_RANGE (warm-up round 0) fails; every other operation takes 1 ms
    const { result, log } = await run(over, (kind, n) => (kind === 'TIME_RANGE' && n === 0 ? -1 : 1));
    expect(log).toHaveLength(48);
    expect(result.state === 'done' && [result.okOps, result.failedOps]).toEqual([40, 0]);
    expect(result.state === 'done' && result.errors).toEqual(["the warm-up's TIME_RANGE: TIME_RANGE 0 failed"]);
  });
});

describe('WorkerRun: failed operations', () => {
  it("keep apart: an operation's row is its successes, 'failed <op>' its failures, the queries table counts both", async () => {
    const weights: OperationWeights = { ...WRITES_ONLY, INGESTION: 1, TIME_RANGE: 1 };
    // every 4th TIME_RANGE fails at once (1 ms), every 5th write times out (50 ms); the others take 20 and 3 ms
    const latency = (kind: string, n: number) =>
      kind === 'insertTablet' ? (n % 5 === 4 ? -50 : 3) : n % 4 === 3 ? -1 : 20;
    const { report, log } = await run(
      { clients: 1, devices: 1, deviceCount: 1, loop: 80, operationProportion: weights },
      latency,
    );
    const count = (kind: string, failed: boolean) => log.filter((e) => e.kind === kind && e.ms < 0 === failed).length;
    const l = report.latency;
    expect([l.TIME_RANGE.count, l.TIME_RANGE.min, l.TIME_RANGE.max]).toEqual([count('TIME_RANGE', false), 20, 20]);
    expect([l['failed TIME_RANGE'].count, l['failed TIME_RANGE'].max]).toEqual([count('TIME_RANGE', true), 1]);
    expect([l.insertTablet.count, l.insertTablet.max]).toEqual([count('insertTablet', false), 3]);
    expect([l['failed insertTablet'].count, l['failed insertTablet'].min]).toEqual([count('insertTablet', true), 50]);
    expect(count('TIME_RANGE', true)).toBeGreaterThan(0);
    expect(count('insertTablet', true)).toBeGreaterThan(0);
    expect(report.okOps + report.failedOps).toBe(80);
    expect(report.failedOps).toBe(count('TIME_RANGE', true) + count('insertTablet', true));
    // throughput is what succeeded, as points/s: a failure is not an operation done
    expect(report.opsPerS).toBeCloseTo(report.okOps / report.durationS, 6);
    expect(report.queries?.TIME_RANGE).toMatchObject({
      ops: count('TIME_RANGE', false),
      failed: count('TIME_RANGE', true),
    });

    const text = formatReport(report);
    expect(text).toMatch(
      /\n {2}insertTablet .*\n {2}failed insertTablet .*\n {2}TIME_RANGE .*\n {2}failed TIME_RANGE /,
    );
    expect(text).toMatch(/query\s+ops\s+failed\s+rows/);
  });

  it('a write of the untimed warm-up that fails ends the run, naming it: no timed operation runs', async () => {
    // the 2nd write of the warm-up rounds fails (the server gone: each such write has had its retries)
    const config = sampleConfig({ workers: 1, clients: 1, devices: 4, deviceCount: 4, loop: 10, warmupRounds: 2 });
    const clock = new SimulatedClock();
    const { fake, log } = backend(clock, (_kind, n) => (n === 1 ? -5 : 1));
    const result = await clock.drive(new WorkerRun(workerTask(config), fake, clock).run());
    expect(result.state).toBe('failed');
    expect(result.state === 'failed' && result.error).toMatch(/warm-up failed: .*insertTablet 1 failed/);
    expect(log).toHaveLength(2); // not the other warm-up writes, nor the timed ones after them
    // --method writer: its warm-up rounds alike
    const writer = { ...config, method: 'writer' as const };
    const rows = backend(clock, (_kind, n) => (n === 1 ? -5 : 1));
    const byRows = await clock.drive(new WorkerRun(workerTask(writer), rows.fake, clock).run());
    expect([byRows.state, rows.log.length]).toEqual(['failed', 2]);
  });

  it('a run whose operations all fail still reports them, under failed rows', async () => {
    const { report } = await run({ clients: 1, devices: 1, deviceCount: 1, loop: 5 }, () => -2);
    expect(report.okOps).toBe(0);
    expect(report.failedOps).toBe(5);
    expect(report.latency['failed insertTablet'].count).toBe(5);
    expect(report.latency.insertTablet).toBeUndefined();
    expect(report.opsPerS).toBe(0);
  });
});

describe("WorkerRun: the client's own activity", () => {
  it('is in the result, and published to the live counters for the progress line while operations wait', async () => {
    const counters = liveCounters(2);
    const { result } = await run({ clients: 1, loop: 1 }, () => 1, { workerId: 1, counters });
    expect(result.client).toEqual({ retries: 2, connects: 1, connectFailures: 0, failovers: 0, redirects: 0 });
    const live = new BigInt64Array(counters);
    expect([live[liveSlot(0, 'retries')], live[liveSlot(1, 'retries')]]).toEqual([0n, 2n]);
  });
});

describe('WorkerRun: stopped (Ctrl-C, --test-max-time)', () => {
  it('starts no operation after the stop; those under way finish and are counted', async () => {
    const barrier = new SharedArrayBuffer(8);
    // two clients, 10 ms writes; the 7th write to start stops the run (as the main thread does)
    const latency = (_kind: string, n: number) => {
      if (n === 6) StartBarrier.stop(new Int32Array(barrier));
      return 10;
    };
    const { result, log } = await run({ clients: 2, devices: 4, deviceCount: 4, loop: 10 }, latency, { barrier });
    // 40 writes were planned; the 7th and the other client's write under way are the last ones
    expect(log.length).toBeLessThanOrEqual(8);
    expect(result.okOps).toBe(log.length);
    expect(result.failedOps).toBe(0);
    expect(result.timedEndMs - result.timedStartMs).toBeLessThanOrEqual(40);
  });

  it('a timed operation that reached no node for its whole retry budget ends the run as unreachable; others failing do not', async () => {
    const barrier = new SharedArrayBuffer(8);
    const config = sampleConfig({
      workers: 1,
      clients: 2,
      devices: 4,
      deviceCount: 4,
      loop: 10,
      warmupRounds: 0,
      retryMaxMs: 60_000,
    });
    const clock = new SimulatedClock();
    const refused = () => new IoTDBConnectionError('refused', '127.0.0.1:6667', 'cannot connect', false);
    // the 13th timed write and every one after it: refused after the budget (60 s of retries)
    const { fake, log } = backend(clock, (_kind, n) => (n >= 12 ? -60_000 : 10), refused);
    const result = await clock.drive(new WorkerRun(workerTask(config, { barrier }), fake, clock).run());
    expect(result.state).toBe('done');
    expect(StartBarrier.unreachable(new Int32Array(barrier))).toBe(true);
    // the refused write and the other client's under way, then none: not 60 s more for each of the 40 planned
    expect(log.filter((e) => e.ms < 0).length).toBeLessThanOrEqual(2);
    expect(result.state === 'done' && result.errors[0]).toMatch(/cannot connect/);

    // a write the server refused, or one sent whose reply was lost, is a failure like any other: the run goes on
    const sent = () => new IoTDBConnectionError('reset', '127.0.0.1:6667', 'connection reset', true);
    for (const [failure, over] of [
      [sent, {}],
      [refused, { retryMaxMs: 0 }], // no retries asked for: each failure counted, as iot-benchmark's
    ] as const) {
      const again = new SharedArrayBuffer(8);
      const b = backend(clock, (_kind, n) => (n >= 12 ? -1 : 10), failure);
      const r = await clock.drive(
        new WorkerRun(workerTask({ ...config, ...over }, { barrier: again }), b.fake, clock).run(),
      );
      expect(StartBarrier.unreachable(new Int32Array(again))).toBe(false);
      expect(r.state === 'done' && r.failedOps).toBe(40 - 12);
    }
  });

  it('stopped during the warm-up rounds: none of the timed operations runs', async () => {
    const barrier = new SharedArrayBuffer(8);
    StartBarrier.stop(new Int32Array(barrier));
    const { result, log } = await run({ clients: 1, loop: 10, warmupRounds: 3 }, () => 10, { barrier });
    expect(result.okOps + result.failedOps).toBe(0);
    expect(log).toEqual([]); // the warm-up rounds were skipped too (the 1-row schema writes are not logged)
  });

  it('an operation waiting for its turn (--target-rate, --rate-limit) does not start after the stop, nor waits it out', async () => {
    for (const pacing of [{ targetRate: 1 }, { rateLimit: 10 }]) {
      const barrier = new SharedArrayBuffer(8);
      // one write of 10 points a second, 10 ms each; stopped at 2.5 s, while the next write waits for its turn
      const stopAt = (clock: Clock) =>
        void clock.sleep(2500 * MS).then(() => StartBarrier.stop(new Int32Array(barrier)));
      const over = { clients: 1, devices: 1, deviceCount: 1, loop: 10, ...pacing };
      const { result, log } = await run(over, () => 10, { barrier }, stopAt);
      expect(result.okOps).toBe(log.length);
      expect(log.length).toBeLessThanOrEqual(3);
      // the run ends at the stop, not when the next write was due
      expect(result.timedEndMs - result.timedStartMs).toBeLessThanOrEqual(2600);
    }
  });
  it('reports the rounds every device was written in: those done before the stop, or all of them', async () => {
    const barrier = new SharedArrayBuffer(8);
    // one client, two devices, 10 ms writes: d0 and d1 of round 0 and d0 of round 1 before the stop at 35 ms; d1's
    // ends after it, not counted (a paced write due after a stop returns without writing: no telling them apart)
    const stopAt = (clock: Clock) => void clock.sleep(35 * MS).then(() => StartBarrier.stop(new Int32Array(barrier)));
    const two = { clients: 1, devices: 2, deviceCount: 2, loop: 10 };
    expect((await run(two, () => 10, { barrier }, stopAt)).result.fullRounds).toBe(1);
    const later = new SharedArrayBuffer(8); // at 45 ms: round 1 done, d0's write of round 2 under way
    const stopLater = (clock: Clock) => void clock.sleep(45 * MS).then(() => StartBarrier.stop(new Int32Array(later)));
    expect((await run(two, () => 10, { barrier: later }, stopLater)).result.fullRounds).toBe(2);
    expect((await run({ ...two, warmupRounds: 1, loop: 3 }, () => 10)).result.fullRounds).toBe(4);
    const writer = { ...two, method: 'writer' as const, warmupRounds: 1, loop: 3 };
    expect((await run(writer, () => 10)).result.fullRounds).toBe(4);
  });

  it('reports the rounds of the clients that have devices: one without any wrote no round and holds none back', async () => {
    // 4 clients over 2 devices: clients 2 and 3 have none (they took warmupRounds for the run's rounds)
    const over = { clients: 4, devices: 2, deviceCount: 2, warmupRounds: 1, loop: 3 };
    expect((await run(over, () => 10)).result.fullRounds).toBe(4);
  });

  it("--method writer: the writer's final flush runs after the stop (its rows were counted as written)", async () => {
    const barrier = new SharedArrayBuffer(8);
    const stopAt = (clock: Clock) => void clock.sleep(2500 * MS).then(() => StartBarrier.stop(new Int32Array(barrier)));
    const over = { method: 'writer' as const, clients: 1, devices: 1, deviceCount: 1, loop: 10, rateLimit: 10 };
    const { log } = await run(over, () => 10, { barrier }, stopAt);
    expect(log.at(-1)?.kind).toBe('close');
    expect(log.filter((o) => o.kind === 'writer').length).toBeLessThanOrEqual(3);
  });
});

describe('WorkerRun: latency over the run', () => {
  it('counts every operation that succeeded in the interval it ended in, failures left out', async () => {
    // 10 writes of 100 ms back to back, the 4th failing: they end at 100, 200, ..., 1000 ms; intervals of 250 ms
    const over = { clients: 1, devices: 1, deviceCount: 1, loop: 10, reportIntervalMs: 250 };
    const { result } = await run(over, (_kind, n) => (n === 3 ? -100 : 100));
    const samples = latencyOverTime([result.latencyOverTime], 250);
    expect(samples.map(([atS, count, p50]) => [atS, count, p50])).toEqual([
      [0.25, 2, 100],
      [0.5, 1, 100],
      [0.75, 3, 100],
      [1, 2, 100],
      [1.25, 1, 100],
    ]);
    // the failure apart, in the interval it ended in (at 400 ms)
    expect(failuresOverTime([result.failuresOverTime], 250)).toEqual([[0.5, 1]]);
  });
});

describe('WorkerRun: open loop (--target-rate)', () => {
  it('counts latency from the intended start, so a slow server shows in the corrected rows, not the uncorrected', async () => {
    // 10 ops/s is one every 100 ms; each takes 250 ms, so the n-th starts 150 ms x n late
    const { report } = await run({ clients: 1, devices: 1, deviceCount: 1, loop: 10, targetRate: 10 }, () => 250);
    const corrected = report.latency.insertTablet;
    const uncorrected = report.latency['uncorrected insertTablet'];
    expect([corrected.min, corrected.max, corrected.avg]).toEqual([250, 1600, 925]);
    expect([uncorrected.min, uncorrected.max, uncorrected.count]).toEqual([250, 250, 10]);
    // the client spent 10 x 250 ms in its writes (the run lasted 2.5 s), not the 9,250 ms of the corrected latencies
    expect(report.slowestClientMs).toEqual({ insertTablet: 2500, 'uncorrected insertTablet': 2500 });
  });

  it('records how late each operation started in one start lag row: 0 for the first, 150 ms more for each after', async () => {
    const { report } = await run({ clients: 1, devices: 1, deviceCount: 1, loop: 10, targetRate: 10 }, () => 250);
    const lag = report.latency['start lag'];
    expect([lag.count, lag.min, lag.max, lag.avg]).toEqual([10, 0, 1350, 675]);
    // not an operation of a client: none is its slowest
    expect(report.slowestClientMs?.['start lag']).toBeUndefined();
  });

  it("keeps a client's next due time in the worker's live slot while it has operations left, none during its last", async () => {
    // 10 ops/s, 250 ms each: while a write runs, the next one is due (and falls behind); the last has none after it
    const counters = liveCounters(1);
    const live = new BigInt64Array(counters);
    const slots: bigint[] = [];
    const slot = () => (slots.push(live[liveSlot(0, 'nextDueNs')]), 250);
    await run({ clients: 1, devices: 1, deviceCount: 1, loop: 4, targetRate: 10 }, slot, { counters });
    // during write k (due at 100 k ms) the next is due at 100 (k + 1) ms
    const due = slots.map((ns) => Number(ns - slots[0]) / MS);
    expect(due.slice(0, 3)).toEqual([0, 100, 200]);
    expect(slots[3]).toBe(0n); // the last write: no operation will fall due behind it
    expect(live[liveSlot(0, 'nextDueNs')]).toBe(0n);
  });

  it("--method writer: no next due time during a client's final flush, its last operation", async () => {
    const counters = liveCounters(1);
    const live = new BigInt64Array(counters);
    const during = new Map<string, bigint[]>();
    const slot = (kind: string) => (
      during.set(kind, [...(during.get(kind) ?? []), live[liveSlot(0, 'nextDueNs')]]),
      50
    );
    const over = { method: 'writer' as const, clients: 1, devices: 1, deviceCount: 1, loop: 3, targetRate: 10 };
    await run(over, slot, { counters });
    expect(during.get('writer')?.every((ns) => ns > 0n)).toBe(true); // each row: the next row or the flush is due
    expect(during.get('close')).toEqual([0n]);
  });

  it('keeps no start lag row in a closed loop', async () => {
    const { report } = await run({ clients: 1, devices: 1, deviceCount: 1, loop: 3 }, () => 250);
    expect(report.latency['start lag']).toBeUndefined();
  });

  it('starts operations on the schedule when the server keeps up: latency is the operation itself, the run lasts count / rate', async () => {
    const { report } = await run({ clients: 2, devices: 2, deviceCount: 2, loop: 10, targetRate: 20 }, () => 30);
    expect(report.latency.insertTablet.max).toBe(30);
    expect(report.latency['uncorrected insertTablet'].max).toBe(30);
    // 20 operations at 20/s: the last one starts at 0.95 s (the two clients interleaved) and takes 30 ms
    expect(report.durationS).toBeCloseTo(0.98, 6);
  });

  it('keeps the total rate when the clients have unequal shares: each client paced by its share of the operations', async () => {
    // 3 devices over 2 clients: 20 and 10 operations. At 30/s in all, both schedules end by 0.95 s; one
    // interval for every client (2 / 30 s) would have left the first client writing alone until 1.27 s
    const { report } = await run({ clients: 2, devices: 3, deviceCount: 3, loop: 10, targetRate: 30 }, () => 30);
    expect(report.okOps).toBe(30);
    expect(report.latency.insertTablet.max).toBe(30);
    expect(report.durationS).toBeCloseTo(0.98, 6);
    expect(report.opsPerS).toBeGreaterThan(0.9 * 30);
  });
});

describe('WorkerRun: --batch-interval-ms', () => {
  it('pauses between the timed writes only: not after the warm-up, nor after the last write', async () => {
    // writes of 10 ms, 1 s apart: the warm-up (the schema row, 2 rounds of 10 ms) unpaused, then 10 timed writes
    // and the 9 pauses between them
    const over = { clients: 1, devices: 1, deviceCount: 1, loop: 10, batchIntervalMs: 1000, warmupRounds: 2 };
    const { result } = await run(over, () => 10);
    if (result.state !== 'done') throw new Error('not done');
    expect(result.okOps).toBe(10);
    expect(result.timedStartMs - 1e6).toBeCloseTo(20, 6); // the simulated clock starts at 1e6 ms
    expect(result.timedEndMs - result.timedStartMs).toBeCloseTo(9100, 6);
  });

  it('stops pausing when the run is stopped', async () => {
    const barrier = new SharedArrayBuffer(8);
    const stopAt = (clock: Clock) => void clock.sleep(2500 * MS).then(() => StartBarrier.stop(new Int32Array(barrier)));
    const over = { clients: 1, devices: 1, deviceCount: 1, loop: 10, batchIntervalMs: 1000 };
    const { result } = await run(over, () => 10, { barrier }, stopAt);
    if (result.state !== 'done') throw new Error('not done');
    expect(result.okOps).toBe(3);
    expect(result.timedEndMs - result.timedStartMs).toBeLessThanOrEqual(2600);
  });
});

describe('WorkerRun: --rate-limit', () => {
  it('paces the timed writes only: the untimed warm-up does not use up their budget', async () => {
    // 10 points a write at 10 points/s: the timed writes 1 s apart, the first at once (not a second after the
    // schema warm-up row, nor after the warm-up rounds), the last starting at 9 s and taking 10 ms
    const over = { clients: 1, devices: 1, deviceCount: 1, loop: 10, rateLimit: 10, warmupRounds: 2 };
    const { report } = await run(over, () => 10);
    expect(report.okOps).toBe(10);
    expect(report.durationS).toBeCloseTo(9.01, 6);
  });

  it("paces each worker at its devices' share of the points/s, so that workers with more devices do not run longer", async () => {
    // 3 devices over 2 workers: worker 0 writes device 0, worker 1 devices 1 and 2; 10 points a write, 60 points/s
    // in all: 20 and 40 points/s, 10 writes 0.5 s apart and 20 writes 0.25 s apart, the first at once: 4.53 s and
    // 4.78 s (half the total each, 30 points/s, would have been 3.03 s and 6.36 s: worker 1 writing alone for half)
    const config = { workers: 2, clients: 1, devices: 3, deviceCount: 3, loop: 10, rateLimit: 60 };
    const timed = async (workerId: number, firstDevice: number, deviceCount: number) => {
      const barrier = new SharedArrayBuffer(8);
      new Int32Array(barrier)[0] = 1; // the other worker has arrived: each worker runs alone here
      const counters = liveCounters(2);
      const { result } = await run(config, () => 30, { workerId, firstDevice, deviceCount, counters, barrier });
      return result;
    };
    const [first, second] = [await timed(0, 0, 1), await timed(1, 1, 2)];
    expect(first.okOps).toBe(10);
    expect(second.okOps).toBe(20);
    const seconds = (r: typeof first) => (r.state === 'done' ? (r.timedEndMs - r.timedStartMs) / 1000 : NaN);
    expect(seconds(first)).toBeCloseTo(4.53, 6);
    expect(seconds(second)).toBeCloseTo(4.78, 6);
  });
});
