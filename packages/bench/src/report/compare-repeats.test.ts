import { describe, expect, it } from 'vitest';
import type { RunResult } from '../types.js';
import { compareGroups } from './compare-repeats.js';
import { compareRuns, formatComparison } from './compare-runs.js';
import { regressions } from './regressions.js';
import { studentT95 } from './stats.js';
import { sampleQueriesAlone, sampleRun } from './test-fixture.js';

/** `--repeat N`'s runs of one label: `label#1`, `label#2`, ... with these points/s and peak RSS. */
function repeats(label: string, pointsPerS: number[], rssMb = pointsPerS.map(() => 100)) {
  return pointsPerS.map((p, i) => ({ ...sampleRun(`${label}#${i + 1}`, {}, p), peakRssMb: rssMb[i] }));
}

describe('compare over --repeat runs', () => {
  it("compares each label's repeats as one figure: their means, noise from their spread (Welch's t)", () => {
    const a = repeats('tree-insertTablet', [1.0e6, 1.1e6, 0.9e6]);
    const b = repeats('tree-insertTablet', [2.0e6, 2.1e6, 1.9e6]);
    const [group] = compareGroups(a, b);
    expect(group.label).toBe('tree-insertTablet: mean of 3 repeats (A) vs 3 (B)');
    const points = group.figures.find((f) => f.figure === 'points/s')!;
    expect(points).toMatchObject({ a: 1e6, b: 2e6, ratio: 2, beyond: true });
    // se of the difference: sqrt(0.01e12/3 + 0.01e12/3) = 81,650; df 4: t 2.776; over A's mean
    expect(points.noise).toBeCloseTo((2.776 * Math.sqrt(2 * (0.01e12 / 3))) / 1e6, 3);
  });

  it('gives every figure a noise estimate from the repeats, also those one run cannot (client CPU, memory)', () => {
    const a = repeats('x', [1e6, 1e6], [100, 110]);
    const b = repeats('x', [1e6, 1e6], [104, 106]);
    const rss = compareGroups(a, b)[0].figures.find((f) => f.figure === 'peak RSS MB')!;
    expect(rss).toMatchObject({ a: 105, b: 105, ratio: 1, beyond: false });
    expect(rss.noise).not.toBeNull();
  });

  it('leaves a difference the repeats swing by within noise, with two repeats a side (t of 1 degree of freedom)', () => {
    const [group] = compareGroups(repeats('x', [1.0e6, 1.4e6]), repeats('x', [1.3e6, 1.7e6]));
    expect(group.figures[0]).toMatchObject({ figure: 'points/s', beyond: false });
  });

  it('compares one run against repeats with the repeated side’s spread', () => {
    const a = repeats('x', [1.0e6, 1.02e6, 0.98e6, 1.0e6]);
    const [group] = compareGroups(a, [sampleRun('x', {}, 1.5e6)]);
    expect(group.label).toBe('x: mean of 4 repeats (A) vs 1 (B)');
    expect(group.figures[0]).toMatchObject({ figure: 'points/s', ratio: 1.5, beyond: true });
  });

  it('pairs single runs by label as before, each with its own noise estimate', () => {
    const groups = compareGroups([sampleRun('x'), sampleRun('y')], [sampleRun('y'), sampleRun('x')]);
    expect(groups.map((g) => g.label)).toEqual(['x', 'y']);
    // the only run of each file, whatever their labels
    expect(compareGroups([sampleRun('x')], [sampleRun('z')]).map((g) => g.label)).toEqual(['x']);
    expect(compareGroups([sampleRun('x'), sampleRun('y')], [sampleRun('z')])).toEqual([]);
  });

  it('compares the failed operations of repeats when any repeat failed, not only when the first did', () => {
    const b = repeats('x', [1e6, 1e6, 1e6]).map((r, i) => (i === 1 ? { ...r, failedOps: 6 } : r));
    const [group] = compareGroups(repeats('x', [1e6, 1e6, 1e6]), b);
    expect(group.figures.find((f) => f.figure === 'failed ops')).toMatchObject({ a: 0, b: 2 });
    expect(regressions([group])).toEqual(['x failed ops 0 -> 2']);
    const [clean] = compareGroups(repeats('x', [1e6, 1e6]), repeats('x', [1e6, 1e6]));
    expect(clean.figures.map((f) => f.figure)).not.toContain('failed ops');
  });

  it('compares a figure some repeats lack over the repeats that have it, and says how many have it', () => {
    const withoutLast = (r: RunResult): RunResult => ({ ...r, queries: { raw: r.queries!.raw } });
    const b = repeats('x', [1e6, 1e6, 1e6]).map((r, i) => (i === 1 ? withoutLast(r) : r));
    const [group] = compareGroups(repeats('x', [1e6, 1e6, 1e6]), b);
    const last = group.figures.find((f) => f.figure === 'last rows/s')!;
    expect(last).toMatchObject({ a: 5000, b: 5000, ratio: 1, among: 'in 2 of 3 repeats of B' });
    expect(group.figures.find((f) => f.figure === 'points/s')!.among).toBeUndefined();
    const table = formatComparison(group.label, group.figures, [], group.unpaired);
    expect(table).toMatch(/last rows\/s .*within noise \(±0\.0 %\); in 2 of 3 repeats of B/);
    // one value a side: the mean of nothing to estimate noise from
    const one = repeats('x', [1e6, 1e6]).map((r, i) => (i === 0 ? withoutLast(r) : r));
    const [sparse] = compareGroups(
      one,
      repeats('x', [1e6, 1e6]).map((r, i) => (i === 1 ? withoutLast(r) : r)),
    );
    expect(sparse.figures.find((f) => f.figure === 'last rows/s')).toMatchObject({
      noise: null,
      beyond: null,
      p: null,
      among: 'in 1 of 2 repeats of A and 1 of 2 of B',
    });
  });

  it("pairs a figure A's first repeat lacks with B's, and keeps one no run of the other side has as one side's", () => {
    const withoutLast = (r: RunResult): RunResult => ({ ...r, queries: { raw: r.queries!.raw } });
    const a = repeats('x', [1e6, 1e6]).map((r, i) => (i === 0 ? withoutLast(r) : r));
    const [group] = compareGroups(a, repeats('x', [1e6, 1e6]));
    const names = group.figures.map((f) => f.figure);
    expect(names.indexOf('last rows/s')).toBe(names.indexOf('raw rows/s') + 1); // in its place, not last
    expect(group.unpaired).toEqual([]);
    const [alone] = compareGroups(a, repeats('x', [1e6, 1e6]).map(withoutLast));
    expect(alone.unpaired.map((f) => [f.figure, f.in, f.value, f.among])).toEqual([
      ['last rows/s', 'A', 5000, 'in 1 of 2 repeats of A'],
    ]);
    expect(formatComparison(alone.label, alone.figures, [], alone.unpaired)).toMatch(
      /last rows\/s +5,000 +- +- +A only; in 1 of 2 repeats of A/,
    );
  });

  it('pairs only the figures both runs have: writes against queries alone share no rate and no CPU per unit', () => {
    const writes = sampleRun('x', { queries: undefined });
    const reads = sampleQueriesAlone('x');
    expect(compareRuns(writes, reads).map((f) => f.figure)).toEqual(['peak RSS MB']);
    const only = compareGroups([writes], [reads])[0].unpaired.map((f) => [f.figure, f.in, f.value]);
    expect(only).toEqual([
      ['points/s', 'A', 1e6],
      ['insertTablet p50 ms', 'A', writes.latency.insertTablet.p50],
      ['insertTablet p99 ms', 'A', writes.latency.insertTablet.p99],
      ['client CPU s/Mpts', 'A', 0.5],
      ['TIME_RANGE rows/s', 'B', 1000],
      ['TIME_RANGE p50 ms', 'B', reads.latency.TIME_RANGE.p50],
      ['TIME_RANGE p99 ms', 'B', reads.latency.TIME_RANGE.p99],
      ['client CPU s/M rows', 'B', 500],
      ['client CPU ms/op', 'B', 2.5],
    ]);
    // a write run that wrote nothing (every write failed) keeps its points/s: 0 against A's is a figure
    const failed = sampleRun('x', { queries: undefined, points: 0, pointsPerS: 0, failedOps: 1000 });
    expect(compareRuns(writes, failed).find((f) => f.figure === 'points/s')).toMatchObject({ a: 1e6, b: 0 });
  });

  it("gives a figure of one side alone the mean of that side's repeats that have it", () => {
    const reads = [sampleQueriesAlone('x#1'), sampleQueriesAlone('x#2', { clientCpuS: 3.5 })];
    const cpu = compareGroups([sampleRun('x')], reads)[0].unpaired.find((f) => f.figure === 'client CPU s/M rows');
    expect(cpu).toMatchObject({ in: 'B', value: 600 }); // (2.5 + 3.5) / 2 s over 5,000 rows
  });

  it('prints a figure of one run alone under its side, with no ratio and no verdict', () => {
    const [writes, reads] = [sampleRun('x', { queries: undefined }), sampleQueriesAlone('x')];
    const text = formatComparison('x', compareRuns(writes, reads), [], compareGroups([writes], [reads])[0].unpaired);
    expect(text).toMatch(/^points\/s\s+1,000,000\s+-\s+-\s+A only$/m);
    expect(text).toMatch(/^TIME_RANGE rows\/s\s+-\s+1,000\s+-\s+B only$/m);
    expect(text).toMatch(/^peak RSS MB\s+180\.3\s+180\.3\s+1\.000x/m);
  });

  it("has Student's t at 95 % for small samples, and the normal's for large", () => {
    expect(studentT95(1)).toBeCloseTo(12.706, 3);
    expect(studentT95(4)).toBeCloseTo(2.776, 3);
    expect(studentT95(4.6)).toBeCloseTo(2.776, 3); // a fractional Welch df rounds down (the wider interval)
    expect(studentT95(1000)).toBeCloseTo(1.96, 2);
  });
});
