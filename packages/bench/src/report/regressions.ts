/**
 * `compare --fail-on-regression`'s verdict: the figures of B worse than A's beyond what chance explains over the
 * whole comparison. Each figure with a noise estimate is one test; Holm's step-down keeps the family-wise error at
 * 5 %, so that a comparison of a dozen figures between runs of the same setup fails about one time in twenty, not
 * one time in two (each figure alone at 95 % would). Operations that failed in B where none did in A fail it too:
 * a count has no noise estimate, and a failure is not noise.
 */
import type { GroupComparison } from './compare-repeats.js';
import { FAILED_OPS, isWorse } from './compare-runs.js';
import { holmRejected } from './stats.js';

/**
 * `<run label> <figure> <ratio>x` for each figure of B worse than A's after Holm's correction, then `<run label>
 * failed ops 0 -> <B's>` for each run that failed where A's did not.
 */
export function regressions(groups: readonly GroupComparison[]): string[] {
  const tested = groups.flatMap((g) => g.figures.flatMap((f) => (f.p === null ? [] : [{ run: g.run, f, p: f.p }])));
  const rejected = holmRejected(tested.map((t) => t.p));
  const worse = tested
    .filter((t, i) => rejected[i] && isWorse(t.f))
    .map(({ run, f }) => `${run} ${f.figure} ${f.ratio.toFixed(3)}x`);
  return [...worse, ...newFailures(groups)];
}

function newFailures(groups: readonly GroupComparison[]): string[] {
  return groups.flatMap((g) =>
    g.figures
      .filter((f) => f.figure === FAILED_OPS && f.a === 0 && f.b > 0)
      .map((f) => `${g.run} ${FAILED_OPS} 0 -> ${Number(f.b.toFixed(2))}`),
  );
}
