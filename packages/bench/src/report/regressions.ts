/**
 * `compare --fail-on-regression`'s verdict: the figures of B worse than A's beyond what chance explains over the
 * whole comparison. Each figure with a noise estimate is one test; Holm's step-down keeps the family-wise error at
 * 5 %, so that a comparison of a dozen figures between runs of the same setup fails about one time in twenty, not
 * one time in two (each figure alone at 95 % would).
 */
import type { GroupComparison } from './compare-repeats.js';
import { isWorse } from './compare-runs.js';
import { holmRejected } from './stats.js';

/** `<run label> <figure> <ratio>x` for each figure of B worse than A's after Holm's correction. */
export function regressions(groups: readonly GroupComparison[]): string[] {
  const tested = groups.flatMap((g) => g.figures.flatMap((f) => (f.p === null ? [] : [{ run: g.run, f, p: f.p }])));
  const rejected = holmRejected(tested.map((t) => t.p));
  return tested
    .filter((t, i) => rejected[i] && isWorse(t.f))
    .map(({ run, f }) => `${run} ${f.figure} ${f.ratio.toFixed(3)}x`);
}
