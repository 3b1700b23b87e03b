import { describe, expect, it } from 'vitest';
import { LatencyHistogram } from './histogram.js';
import { mergeFiles, mergeShares } from './merge-runs.js';
import { sweepText } from './sweep-table.js';
import { sampleRun, sampleStatement } from './test-fixture.js';

/** A histogram of the given latencies, ms. */
function histogram(ms: number[]) {
  const h = new LatencyHistogram();
  for (const v of ms) h.record(v * 1e6);
  return h.toData();
}

/** The latency summary of the given latencies, ms, as a run's is made from its histogram. */
const summary = (ms: number[]) => LatencyHistogram.from(histogram(ms)).summaryMs();

describe('merge', () => {
  const fast = Array.from({ length: 900 }, (_, i) => 1 + (i % 10) / 10);
  const slow = Array.from({ length: 100 }, (_, i) => 50 + i);
  const shareA = sampleRun('tree-insertTablet', {
    points: 1_000,
    okOps: 900,
    failedOps: 1,
    clientCpuS: 2,
    durationS: 10,
    pointsPerS: 100,
    peakRssMb: 120,
    histograms: { insertTablet: histogram(fast) },
    latency: { insertTablet: summary(fast) }, // as a run's: from its histograms
    verify: { expected: 1_000, actual: 1_000, ok: true },
    config: { ...sampleRun('x').config, deviceOffset: 0, deviceCount: 5 },
  });
  const shareB = sampleRun('tree-insertTablet', {
    points: 3_000,
    okOps: 100,
    failedOps: 0,
    clientCpuS: 1,
    durationS: 8,
    pointsPerS: 375,
    peakRssMb: 150,
    histograms: { insertTablet: histogram(slow) },
    latency: { insertTablet: summary(slow) }, // as a run's: from its histograms
    verify: { expected: 3_000, actual: 2_999, ok: false },
    config: { ...sampleRun('x').config, deviceOffset: 5, deviceCount: 5 },
  });

  it('adds the shares up exactly and covers their devices', () => {
    const m = mergeShares([shareA, shareB]);
    expect(m).toMatchObject({
      points: 4_000,
      okOps: 1_000,
      failedOps: 1,
      clientCpuS: 3,
      peakRssMb: 150,
    });
    expect(m.clientCpuSPerMpts).toBeCloseTo(3 / 0.004);
    expect(m.config).toMatchObject({ deviceOffset: 0, deviceCount: 10 });
    expect(m.verify).toEqual({ expected: 4_000, actual: 3_999, ok: false });
  });

  it('leaves the whole verify unread, with the reason, when a share could not read its points back', () => {
    const unread = { ...shareB, verify: { expected: 3_000, ok: false as const, error: 'connect ECONNREFUSED' } };
    expect(mergeShares([shareA, unread]).verify).toEqual({ expected: 4_000, ok: false, error: 'connect ECONNREFUSED' });
  });

  it("keeps one share's latency over time, and none of several (their percentiles do not add up)", () => {
    const overTime: [number, number, number, number, number][] = [[1, 10, 1, 2, 3]];
    expect(mergeShares([{ ...shareA, latencyOverTime: overTime }]).latencyOverTime).toEqual(overTime);
    const shares = [shareA, shareB].map((r) => ({ ...r, latencyOverTime: overTime }));
    expect(mergeShares(shares).latencyOverTime).toBeUndefined();
  });

  it("keeps one share's server CPU, and none of several: each measured the same server, over its own window", () => {
    const serverCpu = { pids: [12], seconds: 2 };
    expect(mergeShares([{ ...shareA, serverCpu }]).serverCpu).toEqual(serverCpu);
    // said, not dropped: the merged run's report and files tell why it has none
    const measured = [shareA, { ...shareB, serverCpu: { pids: [12, 13], seconds: 1.5 } }].map((r) => ({
      serverCpu,
      ...r,
    }));
    expect(mergeShares(measured).serverCpu).toEqual({
      pids: [12, 13],
      error: "the shares' figures do not add up: each is the same server's over its own window (2.00 s, 1.50 s)",
    });
    expect(mergeShares([shareA, shareB]).serverCpu).toBeUndefined();
    const overTime: [number, number][] = [[1, 0.5]];
    expect(mergeShares([{ ...shareA, serverCoresOverTime: overTime }]).serverCoresOverTime).toEqual(overTime);
    const shares = [shareA, shareB].map((r) => ({ ...r, serverCoresOverTime: overTime }));
    expect(mergeShares(shares).serverCoresOverTime).toBeUndefined();
  });

  it("adds the shares' failures interval by interval, as their throughput samples", () => {
    const a = {
      ...shareA,
      failuresOverTime: [
        [2, 5],
        [3, 1],
      ] as [number, number][],
    };
    const b = {
      ...shareB,
      failuresOverTime: [
        [3, 4],
        [7, 2],
      ] as [number, number][],
    };
    expect(mergeShares([a, b]).failuresOverTime).toEqual([
      [2, 5],
      [3, 5],
      [7, 2],
    ]);
    // files from before it was recorded: none
    expect(mergeShares([shareA, b]).failuresOverTime).toBeUndefined();
  });

  it("gives rates over the longest share's time, as one run's are over its time: not the sum of the shares' rates", () => {
    // share B ended 2 s before share A: for those 2 s the run wrote at share A's rate alone
    const m = mergeShares([shareA, shareB]);
    expect(m.durationS).toBe(10);
    expect(m.pointsPerS).toBe(400); // 4,000 points in 10 s, where 100 + 375 would say 475
    expect(m.opsPerS).toBe(100);
  });

  it('takes percentiles from the merged histograms, as one run over every sample would, never averaged', () => {
    const whole = summary([...fast, ...slow]);
    const m = mergeShares([shareA, shareB]);
    expect(m.latency.insertTablet).toEqual(whole);
    expect(m.latency.insertTablet.p95).toBeGreaterThan(50); // the slow share's tail, which an average would hide
    expect(m.histograms.insertTablet.count).toBe(1_000);
  });

  it("adds up a mixed run's queries per type: operations, failures, rows and rates; latency from the merged histograms", () => {
    const withQueries = (share: typeof shareA, ms: number[], rows: number, rowsPerS: number, failedMs: number[]) => ({
      ...share,
      histograms: {
        ...share.histograms,
        TIME_RANGE: histogram(ms),
        ...(failedMs.length > 0 ? { 'failed TIME_RANGE': histogram(failedMs) } : {}),
      },
      queries: { TIME_RANGE: { ops: ms.length, failed: failedMs.length, rows, rowsPerS, latency: summary(ms) } },
    });
    // a mixed run's rows/s are over its whole time: 30 in shareA's 10 s, 20 in shareB's 8 s
    const m = mergeShares([withQueries(shareA, [1, 2, 3], 30, 3, [7, 9]), withQueries(shareB, [40, 50], 20, 2.5, [8])]);
    expect(m.queries).toEqual({
      TIME_RANGE: { ops: 5, failed: 3, rows: 50, rowsPerS: 5, latency: summary([1, 2, 3, 40, 50]) },
    });
    expect(m.latency['failed TIME_RANGE']).toEqual(summary([7, 8, 9]));
    // --queries after the writes keeps no histogram (the fixture's raw/last): not merged rather than averaged
    expect(mergeShares([shareA, shareB]).queries).toBeUndefined();
    // the points read add up; a share from before they were recorded leaves them out
    const [a, b] = [withQueries(shareA, [1], 30, 10, []), withQueries(shareB, [2], 20, 5, [])];
    a.queries.TIME_RANGE = { ...a.queries.TIME_RANGE, points: 90 } as typeof a.queries.TIME_RANGE;
    const both = { ...b, queries: { TIME_RANGE: { ...b.queries.TIME_RANGE, points: 60 } } };
    expect(mergeShares([a, both]).queries?.TIME_RANGE.points).toBe(150);
    expect(mergeShares([a, b]).queries?.TIME_RANGE.points).toBeUndefined();
  });

  it("merges --queries after the writes over the longest share's time in each type, not the writes' time", () => {
    const read = (share: typeof shareA, ms: number[], rows: number, seconds: number) => {
      const latency = summary(ms);
      return {
        ...share,
        histograms: { ...share.histograms, TIME_RANGE: histogram(ms) },
        latency: { ...share.latency, TIME_RANGE: latency },
        queries: { TIME_RANGE: { ops: ms.length, failed: 0, rows, rowsPerS: rows / seconds, latency } },
      };
    };
    // the writes took 10 s and 8 s; the queries after them 0.1 s and 0.2 s, at the same time on both machines
    const m = mergeShares([read(shareA, [1, 2], 1_000, 0.1), read(shareB, [3, 4], 1_000, 0.2)]);
    expect(m.queries?.TIME_RANGE).toMatchObject({ ops: 4, rows: 2_000, rowsPerS: 10_000 });
    expect(m.latency.TIME_RANGE.count).toBe(4);
    // a share whose every statement of the type failed has no histogram of it: its failures count all the same
    const refused = { ...shareB, queries: { TIME_RANGE: { ...read(shareB, [], 0, 1).queries.TIME_RANGE, failed: 2 } } };
    expect(mergeShares([read(shareA, [1, 2], 1_000, 0.1), refused]).queries?.TIME_RANGE).toMatchObject({
      ops: 2,
      failed: 2,
      latency: { count: 2 },
    });
    // a share's file from before --queries kept a histogram: the type cannot be merged exactly, and is left out
    const before = { ...read(shareB, [3, 4], 1_000, 0.2), histograms: shareB.histograms, latency: shareB.latency };
    const mixedVersions = mergeShares([read(shareA, [1, 2], 1_000, 0.1), before]);
    expect([mixedVersions.queries, mixedVersions.latency.TIME_RANGE]).toEqual([undefined, undefined]); // nor its row
  });
  it("adds up each machine's workers, open-loop target and rate limit: the merged run had all of them", () => {
    const open = (share: typeof shareA, workers: number, targetRate: number) => ({
      ...share,
      config: { ...share.config, workers, targetRate, rateLimit: 0 },
    });
    const m = mergeShares([open(shareA, 2, 40), open(shareB, 3, 60)]);
    expect([m.config.workers, m.config.targetRate, m.config.rateLimit]).toEqual([5, 100, 0]);
  });

  it("names a swept run by the shares' total rate, as one machine's sweep at that rate, and its table shows it", () => {
    const swept = (share: typeof shareA, rate: number, k: string) => ({
      ...share,
      label: `tree-insertTablet@${rate}/s${k}`,
      config: { ...share.config, targetRate: rate, sweepRates: [100, 300] },
    });
    const files = [100, 300].map((rate) => [swept(shareA, rate, '#2'), swept(shareB, rate, '#2')]);
    const { merged } = mergeFiles([files.map(([a]) => a), files.map(([, b]) => b)]);
    expect(merged.map((r) => [r.label, r.config.targetRate])).toEqual([
      ['tree-insertTablet@200/s#2', 200],
      ['tree-insertTablet@600/s#2', 600],
    ]);
    expect(merged[0].config.sweepRates).toEqual([200, 600]);
    const otherRates = { ...files[0][1], config: { ...files[0][1].config, sweepRates: [100, 200] } };
    expect(() => mergeFiles([[files[0][0]], [otherRates]])).toThrow(
      "file 2's run has sweepRates [100,200], file 1's [100,300]",
    );
    expect(sweepText(merged).join('\n')).toMatch(/sweep tree-insertTablet#2: .*\n *target +200 +600/);
    // a run of one rate (--target-rate) keeps its name: it carries no rate
    const paced = { ...shareA, config: { ...shareA.config, targetRate: 50 } };
    expect(mergeShares([paced, { ...shareB, config: { ...shareB.config, targetRate: 50 } }]).label).toBe(
      'tree-insertTablet',
    );
  });

  it("adds up a query-file statement's sessions: each machine ran its own", () => {
    const statement = (share: typeof shareA) => ({
      ...share,
      queryFile: { sql: 'SELECT 1', concurrency: 2, repetitions: 5, line: 1 },
    });
    expect(mergeShares([statement(shareA), statement(shareB)]).queryFile).toEqual({
      sql: 'SELECT 1',
      concurrency: 4,
      repetitions: 5,
      line: 1,
    });
    expect(mergeShares([shareA, shareB]).queryFile).toBeUndefined();
  });

  it("adds up the clients' retries, connects, failovers and redirects", () => {
    const client = (retries: number) => ({ retries, connects: 2, connectFailures: 1, failovers: 0, redirects: 3 });
    const m = mergeShares([
      { ...shareA, client: client(5) },
      { ...shareB, client: client(7) },
    ]);
    expect(m.client).toEqual({ retries: 12, connects: 4, connectFailures: 2, failovers: 0, redirects: 6 });
  });

  it('is a run that ended early when any share did', () => {
    expect(mergeShares([shareA, shareB]).stopped).toBeUndefined();
    expect(mergeShares([shareA, { ...shareB, stopped: 'test-max-time' }]).stopped).toBe('test-max-time');
    const term = { ...shareB, stopped: 'interrupted' as const, interruptedBy: 'SIGTERM' as const };
    expect(mergeShares([shareA, term])).toMatchObject({ stopped: 'interrupted', interruptedBy: 'SIGTERM' });
  });

  it("leaves out the Java client's runs, which keep percentiles and no histograms, and names them", () => {
    const java = (share: typeof shareA) => ({ ...share, label: 'java', histograms: {} });
    const { merged, unmerged } = mergeFiles([
      [shareA, java(shareA)],
      [shareB, java(shareB)],
    ]);
    expect(merged.map((r) => r.label)).toEqual(['tree-insertTablet']);
    expect(unmerged).toEqual(['java']);
    // its --queries keep a histogram per query type, its writes still none
    const javaWithQueries = (share: typeof shareA) => {
      const latency = summary([1, 2]);
      return {
        ...java(share),
        histograms: { TIME_RANGE: histogram([1, 2]) },
        latency: { ...share.latency, TIME_RANGE: latency },
        queries: { TIME_RANGE: { ops: 2, failed: 0, rows: 2, rowsPerS: 1, latency } },
      };
    };
    const withQueries = mergeFiles([[javaWithQueries(shareA)], [javaWithQueries(shareB)]]);
    expect([withQueries.merged, withQueries.unmerged]).toEqual([[], ['java']]);
    // a query file's statement, read by the Java client: percentiles from its output, no histogram
    const statement = sampleStatement('java count', 100, { histograms: {} });
    const statements = mergeFiles([[statement], [{ ...statement, config: { ...statement.config, deviceOffset: 50 } }]]);
    expect([statements.merged, statements.unmerged]).toEqual([[], ['java count']]);
  });

  it('refuses files whose labels do not match', () => {
    expect(() => mergeFiles([[shareA], [sampleRun('other')]])).toThrow(
      /file 2 has no run labelled "tree-insertTablet"/,
    );
  });

  it('refuses shares whose devices overlap: the same file twice would count every point twice', () => {
    expect(() => mergeFiles([[shareA], [shareA]])).toThrow(
      'tree-insertTablet: the shares of files 1 and 2 overlap (devices 0-4 and 0-4): each machine runs its own devices',
    );
    const overlapping = { ...shareB, config: { ...shareB.config, deviceOffset: 4, deviceCount: 6 } };
    expect(() => mergeFiles([[shareA], [overlapping]])).toThrow(/files 1 and 2 overlap \(devices 0-4 and 4-9\)/);
    expect(mergeFiles([[shareB], [shareA]]).merged[0].points).toBe(4_000);
  });

  it('refuses shares that did not run at the same time, and takes clocks a second apart as together', () => {
    const at = (share: typeof shareA, iso: string) => ({ ...share, startedAt: iso });
    const a = at(shareA, '2026-01-02T03:04:05.000Z'); // 10 s: until 03:04:15
    expect(() => mergeFiles([[a], [at(shareB, '2026-01-02T03:04:20.000Z')]])).toThrow(
      'tree-insertTablet: the runs of files 1 and 2 did not run at the same time (started 2026-01-02T03:04:05.000Z ' +
        'and 2026-01-02T03:04:20.000Z, 5.0 s between the end of one and the start of the other): the shares of one ' +
        'run run together',
    );
    // the later file first: the same gap
    expect(() => mergeFiles([[at(shareB, '2026-01-02T03:04:20.000Z')], [a]])).toThrow(/5\.0 s between/);
    expect(mergeFiles([[a], [at(shareB, '2026-01-02T03:04:15.900Z')]]).merged[0].points).toBe(4_000);
    expect(mergeFiles([[a], [at(shareB, '2026-01-02T03:03:56.500Z')]]).merged[0].points).toBe(4_000); // 8 s, until 03:04:04.5
  });

  it('refuses shares of different workloads: they are not one run', () => {
    const other = { ...shareB, config: { ...shareB.config, sensors: 10 } };
    expect(() => mergeFiles([[shareA], [other]])).toThrow(
      `tree-insertTablet: file 2's run has sensors 10, file 1's 50: the shares of one run have the same workload`,
    );
    const mixed = {
      ...shareB,
      config: { ...shareB.config, operationProportion: { ...shareB.config.operationProportion, TIME_RANGE: 1 } },
    };
    expect(() => mergeFiles([[shareA], [mixed]])).toThrow(/file 2's run has operationProportion \{.*"TIME_RANGE":1/);
    // each machine's own: workers, clients, rates, seed
    const own = { ...shareB, config: { ...shareB.config, workers: 7, clients: 3, targetRate: 5, seed: 9 } };
    expect(mergeFiles([[shareA], [own]]).merged[0].config.workers).toBe(shareA.config.workers + 7);
  });

  it("merges a query-file statement's shares whatever their devices, when they ran the same statement", () => {
    const statement = (share: typeof shareA, sql: string) => ({
      ...share,
      config: { ...share.config, deviceOffset: 0, deviceCount: 10 },
      queryFile: { sql, concurrency: 2, repetitions: 5, line: 1 },
    });
    expect(mergeFiles([[statement(shareA, 'SELECT 1')], [statement(shareB, 'SELECT 1')]]).merged[0].okOps).toBe(1_000);
    expect(() => mergeFiles([[statement(shareA, 'SELECT 1')], [statement(shareB, 'SELECT 2')]])).toThrow(
      `tree-insertTablet: file 2's run has the statement "SELECT 2", file 1's "SELECT 1"`,
    );
  });
});
