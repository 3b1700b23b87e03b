import { describe, expect, it } from 'vitest';
import { compareGroups } from './compare-repeats.js';
import { regressions } from './regressions.js';
import { studentT95 } from './stats.js';
import { sampleRun } from './test-fixture.js';

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

  it("has Student's t at 95 % for small samples, and the normal's for large", () => {
    expect(studentT95(1)).toBeCloseTo(12.706, 3);
    expect(studentT95(4)).toBeCloseTo(2.776, 3);
    expect(studentT95(4.6)).toBeCloseTo(2.776, 3); // a fractional Welch df rounds down (the wider interval)
    expect(studentT95(1000)).toBeCloseTo(1.96, 2);
  });
});
