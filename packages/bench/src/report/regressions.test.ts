import { describe, expect, it } from 'vitest';
import type { GroupComparison } from './compare-repeats.js';
import type { FigureComparison } from './compare-runs.js';
import { regressions } from './regressions.js';

function figure(name: string, ratio: number, p: number | null): FigureComparison {
  return {
    figure: name,
    a: 1,
    b: ratio,
    ratio,
    noise: p === null ? null : 0.1,
    beyond: p === null ? null : p < 0.05,
    p,
  };
}

const group = (figures: FigureComparison[]): GroupComparison => ({
  run: 'x',
  label: 'x',
  figures,
  unpaired: [],
  differences: [],
});

describe("regressions: compare --fail-on-regression's verdict", () => {
  it('names a figure clearly worse, not one clearly better', () => {
    const figures = [figure('points/s', 0.5, 1e-9), figure('insertTablet p50 ms', 0.5, 1e-9)];
    expect(regressions([group(figures)])).toEqual(['x points/s 0.500x']);
  });

  it('does not fail on figures each just beyond 95 % among many (what chance gives runs of the same setup)', () => {
    const figures = ['points/s', 'a p50 ms', 'a p99 ms', 'b rows/s', 'b p50 ms', 'client CPU s/Mpts'].map((n) =>
      figure(n, n.endsWith('/s') ? 0.9 : 1.1, 0.04),
    );
    expect(figures.every((f) => f.beyond)).toBe(true);
    expect(regressions([group(figures)])).toEqual([]);
  });

  it('counts the figures of every run of the comparison as one family, and skips those without an estimate', () => {
    const a = group([figure('points/s', 0.8, 0.004), figure('peak RSS MB', 5, null)]);
    const b = { ...group([figure('points/s', 1.0, 0.9)]), run: 'y' };
    // 0.004 < 0.05 / 2
    expect(regressions([a, b])).toEqual(['x points/s 0.800x']);
  });

  it('fails on operations that failed in B where none did in A, though a count has no noise estimate', () => {
    const failed = (a: number, b: number): FigureComparison => ({
      figure: 'failed ops',
      a,
      b,
      ratio: a === 0 ? NaN : b / a,
      noise: null,
      beyond: null,
      p: null,
    });
    expect(regressions([group([failed(0, 12), figure('points/s', 1, 0.9)])])).toEqual(['x failed ops 0 -> 12']);
    expect(regressions([group([failed(0, 0.5)])])).toEqual(['x failed ops 0 -> 0.5']); // a mean of repeats
    expect(regressions([group([failed(3, 12)])])).toEqual([]); // failing already: a count, within no estimate
  });
});
