import type { RunResult } from '../types.js';
import { describe, expect, it } from 'vitest';
import { compareRuns, formatComparison, isWorse } from './compare-runs.js';
import { LatencyHistogram } from './histogram.js';
import { sampleHistogram, sampleRun } from './test-fixture.js';

/** A run whose throughput samples wobble by ±`wobble` around `pointsPerS`. */
function run(label: string, pointsPerS: number, wobble: number) {
  const throughput: [number, number][] = Array.from({ length: 12 }, (_, i) => [
    i + 1,
    pointsPerS * (1 + (i % 2 === 0 ? wobble : -wobble)),
  ]);
  return sampleRun(label, { throughput }, pointsPerS);
}

describe('compare', () => {
  it('calls a doubled throughput with steady samples beyond noise, and the same run within it', () => {
    const [same] = compareRuns(run('a', 1e6, 0.02), run('a', 1e6, 0.02));
    expect(same).toMatchObject({ figure: 'points/s', ratio: 1, beyond: false });
    const [doubled] = compareRuns(run('a', 1e6, 0.02), run('a', 2e6, 0.02));
    expect(doubled.ratio).toBe(2);
    expect(doubled.beyond).toBe(true);
  });

  it('leaves a 10 % difference within noise when the samples swing by half', () => {
    const [points] = compareRuns(run('a', 1e6, 0.5), run('a', 1.1e6, 0.5));
    expect(points.noise).toBeGreaterThan(0.1);
    expect(points.beyond).toBe(false);
  });

  it("estimates a percentile's noise from the histogram: wide for few samples, narrow for many", () => {
    const few = sampleRun('a', { histograms: { insertTablet: sampleHistogram(20, 4) } });
    const many = sampleRun('a', { histograms: { insertTablet: sampleHistogram(100_000, 4) } });
    const p50 = (r: typeof few) => compareRuns(r, r).find((f) => f.figure === 'insertTablet p50 ms')!;
    expect(p50(few).noise!).toBeGreaterThan(p50(many).noise!);
    expect(p50(many).beyond).toBe(false);
  });

  it("puts a percentile's noise at 95 %, not wider: the standard error from its order statistics, times 1.96", () => {
    // 2,500 latencies spread evenly over 1..10,000 ms: the median's rank has a standard error of
    // sqrt(2500 x 0.5 x 0.5) = 25 ranks, 100 ms at 4 ms a rank: 2 % of the median (5,000 ms)
    const h = new LatencyHistogram();
    for (let i = 1; i <= 2500; i++) h.record(i * 4 * 1e6);
    const r = sampleRun('a', { histograms: { insertTablet: h.toData() } });
    const p50 = compareRuns(r, r).find((f) => f.figure === 'insertTablet p50 ms')!;
    // two runs' standard errors of 2 % each: 1.96 x sqrt(2) x 2 % = 5.5 % (the histogram's buckets: within 0.8 %)
    expect(p50.noise).toBeCloseTo(1.96 * Math.SQRT2 * 0.02, 2);
  });

  it('gives no noise estimate for a percentile whose interval runs past the samples (p99 of 20 operations)', () => {
    const few = sampleRun('a', { histograms: { insertTablet: sampleHistogram(20, 4) } });
    const many = sampleRun('a', { histograms: { insertTablet: sampleHistogram(100_000, 4) } });
    const p99 = (r: typeof few) => compareRuns(r, r).find((f) => f.figure === 'insertTablet p99 ms')!;
    expect(p99(few)).toMatchObject({ noise: null, beyond: null });
    expect(p99(many).noise).not.toBeNull();
  });

  it("compares a mixed run's queries per type: rows/s, and p50/p99 with the noise of their histograms", () => {
    const mixed = (rowsPerS: number) => {
      const h = sampleHistogram(1_000, 8);
      const latency = LatencyHistogram.from(h).summaryMs();
      const r = sampleRun('mixed', {}, 1e6);
      return {
        ...r,
        histograms: { ...r.histograms, TIME_RANGE: h },
        latency: { ...r.latency, TIME_RANGE: latency },
        queries: { TIME_RANGE: { ops: 1_000, failed: 0, rows: 10 * rowsPerS, rowsPerS, latency } },
      };
    };
    const figures = compareRuns(mixed(500), mixed(1_000));
    expect(figures.find((f) => f.figure === 'TIME_RANGE rows/s')).toMatchObject({ a: 500, b: 1_000, ratio: 2 });
    expect(figures.find((f) => f.figure === 'TIME_RANGE p50 ms')).toMatchObject({ ratio: 1, beyond: false });
    expect(figures.map((f) => f.figure)).toContain('points/s');
  });

  it("compares two open loops' start lag, p50 and p99 with their noise; a closed loop has none to compare", () => {
    const paced = (lateBy: number) => {
      const h = sampleHistogram(10_000, lateBy);
      return sampleRun('open', {
        histograms: { 'start lag': h },
        latency: { 'start lag': LatencyHistogram.from(h).summaryMs() },
      });
    };
    const lag = compareRuns(paced(0.2), paced(0.4)).filter((f) => f.figure.startsWith('start lag'));
    expect(lag.map((f) => [f.figure, f.beyond])).toEqual([
      ['start lag p50 ms', true],
      ['start lag p99 ms', true],
    ]);
    expect(lag.every((f) => isWorse(f))).toBe(true);
    const closed = compareRuns(sampleRun('a'), sampleRun('a')).map((f) => f.figure);
    expect(closed.some((f) => f.startsWith('start lag'))).toBe(false);
  });

  it("compares a typical interval's p99, its noise from the intervals' spread; none for runs of few intervals", () => {
    // 20 intervals whose p99 swings around 10 ms (one spell of 400 ms), against the same 1.5x higher
    const p99s = (scale: number) => Array.from({ length: 20 }, (_, i) => (i === 7 ? 400 : 10 + (i % 5)) * scale);
    const overTime = (scale: number) => ({
      latencyOverTime: p99s(scale).map((p99, i): [number, number, number, number, number] => [i + 1, 50, 1, p99, p99]),
    });
    const typical = (a: object, b: object) =>
      compareRuns(sampleRun('a', a), sampleRun('a', b)).find((f) => f.figure === 'typical interval p99 ms');
    expect(typical(overTime(1), overTime(1))).toMatchObject({ a: 12, b: 12, ratio: 1, beyond: false });
    const worse = typical(overTime(1), overTime(1.5));
    expect(worse).toMatchObject({ a: 12, b: 18, beyond: true }); // the spell moves neither
    expect(worse?.noise).toBeGreaterThan(0);
    // 5 intervals: a figure, but no noise estimate (the median's interval runs past them)
    const few = { latencyOverTime: overTime(1).latencyOverTime.slice(0, 5) };
    expect(typical(few, few)?.noise).toBeNull();
    expect(typical({}, overTime(1))).toBeUndefined(); // one run without it: no figure
  });

  it('compares query-file runs by rows/s and latency, without the write figures they have none of', () => {
    const statement = (rowsPerS: number) => {
      const h = sampleHistogram(100, 5);
      const latency = LatencyHistogram.from(h).summaryMs();
      return sampleRun('count', {
        points: 0,
        pointsPerS: 0,
        clientCpuSPerMpts: 0,
        latency: { count: latency },
        histograms: { count: h },
        queries: { count: { ops: 100, failed: 0, rows: 100, rowsPerS, latency } },
        queryFile: { sql: 'SELECT count(*) FROM root.bench.**', concurrency: 1, repetitions: 100, line: 1 },
      });
    };
    const names = compareRuns(statement(50), statement(60)).map((f) => f.figure);
    expect(names).toEqual([
      'count p50 ms',
      'count p99 ms',
      'count rows/s',
      'client CPU s/M rows',
      'client CPU ms/op',
      'peak RSS MB',
    ]);
    // the client's CPU per million rows read, as the run's own line and the server's figure give it (100 rows)
    const cpu = compareRuns(statement(50), { ...statement(60), clientCpuS: 5 }).find((f) =>
      f.figure.startsWith('client'),
    );
    expect(cpu).toMatchObject({ a: 25_000, b: 50_000, ratio: 2 });
    // and per operation, as the runs' table and --repeat give a read's (1000 operations)
    const perOperation = compareRuns(statement(50), { ...statement(60), clientCpuS: 5 }).find(
      (f) => f.figure === 'client CPU ms/op',
    );
    expect(perOperation).toMatchObject({ a: 2.5, b: 5, ratio: 2 });
    const none = { ...statement(50), queries: { count: { ...statement(50).queries!.count, rows: 0, rowsPerS: 0 } } };
    // no row read: no figure per row, one per operation still
    expect(compareRuns(none, none).map((f) => f.figure)).not.toContain('client CPU s/M rows');
    expect(compareRuns(none, none).map((f) => f.figure)).toContain('client CPU ms/op');
    // the server's CPU per row read, when both measured it
    const measured = (rowsPerS: number, seconds: number) => ({
      ...statement(rowsPerS),
      serverCpu: { pids: [1], seconds },
    });
    const server = compareRuns(measured(50, 1e-4), measured(60, 3e-4)).find((f) => f.figure.startsWith('server'));
    expect(server).toMatchObject({ figure: 'server CPU s/M rows', a: 1, b: 3, ratio: 3 });
    const serverPerOperation = compareRuns(measured(50, 1), measured(60, 3)).find(
      (f) => f.figure === 'server CPU ms/op',
    );
    expect(serverPerOperation).toMatchObject({ a: 1, b: 3, ratio: 3 }); // 1 s and 3 s over 1000 reads
  });

  it("compares the server's CPU per point written when both runs measured it (--server-pid), none otherwise", () => {
    const measured = (seconds: number) => ({ ...run('a', 1e6, 0.02), serverCpu: { pids: [1], seconds } });
    const server = (a: RunResult, b: RunResult) => compareRuns(a, b).find((f) => f.figure.startsWith('server'));
    // 5 M points each
    expect(server(measured(1), measured(1.5))).toMatchObject({ figure: 'server CPU s/Mpts', a: 0.2, b: 0.3 });
    expect(isWorse(server(measured(1), measured(1.5))!)).toBe(true);
    expect(server(measured(1), run('a', 1e6, 0.02))).toBeUndefined();
  });

  it('prints one line per figure with its ratio and verdict', () => {
    const text = formatComparison('tree-insertTablet', compareRuns(run('a', 1e6, 0.02), run('a', 2e6, 0.02)));
    expect(text).toMatch(/^== tree-insertTablet ==/);
    expect(text).toMatch(/points\/s\s+1,000,000\s+2,000,000\s+2\.000x\s+BEYOND noise/);
    expect(text).toMatch(/peak RSS MB .* no noise estimate/);
  });

  it('shows failed operations when either run had some, and no ratio against nothing', () => {
    const clean = run('a', 1e6, 0.02);
    const failing = { ...run('a', 1e6, 0.02), failedOps: 12 };
    expect(compareRuns(clean, run('a', 1e6, 0.02)).map((f) => f.figure)).not.toContain('failed ops');
    const text = formatComparison('a', compareRuns(clean, failing));
    expect(text).toMatch(/^failed ops\s+0\s+12\s+-\s+no noise estimate$/m);
    expect(text).not.toContain('NaN');
  });

  it('ends with what differs between the runs besides their figures, when anything does', () => {
    const figures = compareRuns(run('a', 1e6, 0.02), run('a', 1e6, 0.02));
    expect(formatComparison('a', figures, [])).not.toContain('differs');
    const text = formatComparison('a', figures, [
      ['batchSize', '100', '1000'],
      ['server version', '2.0.1-beta', '2.0.2'],
    ]);
    expect(text).toMatch(
      /\ndiffers, A -> B:\n {2}batchSize {6} 100 -> 1000\n {2}server version {2}2\.0\.1-beta -> 2\.0\.2$/,
    );
  });

  it('calls a figure worse in its bad direction: a lower rate, a higher latency or cost', () => {
    const [base] = compareRuns(run('a', 1, 0), run('a', 1, 0));
    const worse = (figure: string, ratio: number) => isWorse({ ...base, figure, ratio });
    expect(worse('points/s', 0.5)).toBe(true);
    expect(worse('TIME_RANGE rows/s', 1.5)).toBe(false);
    expect(worse('insertTablet p99 ms', 1.5)).toBe(true);
    expect(worse('client CPU s/Mpts', 0.8)).toBe(false);
  });

  it('gives each figure with a noise estimate the p of its difference, and none without one', () => {
    const [same] = compareRuns(run('a', 1e6, 0.02), run('a', 1e6, 0.02));
    expect(same.p).toBeCloseTo(1, 6);
    const [doubled] = compareRuns(run('a', 1e6, 0.02), run('a', 2e6, 0.02));
    expect(doubled.p).toBeLessThan(1e-6);
    const rss = compareRuns(run('a', 1e6, 0.02), run('a', 1e6, 0.02)).find((f) => f.figure === 'peak RSS MB')!;
    expect(rss.p).toBeNull();
  });
});
