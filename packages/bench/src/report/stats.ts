/**
 * The few distributions compare's tests need, computed here (no statistics package for three functions): the
 * normal and Student's t two-sided tails, Student's t 95 % points, and Holm's step-down over a family of tests.
 */

/** P(|Z| >= z) for a standard normal Z. */
export function normalTwoSidedP(z: number): number {
  return Math.min(1, erfc(Math.abs(z) / Math.SQRT2));
}

/** erfc(x) for x >= 0 by Abramowitz and Stegun 7.1.26 (|error| < 1.5e-7). */
function erfc(x: number): number {
  const t = 1 / (1 + 0.3275911 * x);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  return poly * Math.exp(-x * x);
}

/** P(|T| >= t) for Student's t with `df` degrees of freedom (any df > 0): 1 minus twice the density's integral on [0, |t|]. */
export function studentTwoSidedP(t: number, df: number): number {
  const x = Math.abs(t);
  if (x === 0) return 1;
  if (!Number.isFinite(x)) return 0;
  const c = Math.exp(logGamma((df + 1) / 2) - logGamma(df / 2)) / Math.sqrt(df * Math.PI);
  const density = (u: number) => c * (1 + (u * u) / df) ** (-(df + 1) / 2);
  // Simpson's rule over u = x * s, s in [0, 1]; the density is smooth, 2000 intervals give ~1e-9 here
  const n = 2000;
  let sum = density(0) + density(x);
  for (let i = 1; i < n; i++) sum += (i % 2 === 1 ? 4 : 2) * density((x * i) / n);
  const half = ((x / n) * sum) / 3;
  return Math.max(0, Math.min(1, 1 - 2 * half));
}

/** Student's t, two-sided 95 %, for 1 to 30 degrees of freedom; then 40, 60, 120, and the normal's beyond. */
const T95 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11,
  2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** The t quantile for `df` degrees of freedom, rounded down (a fractional Welch df gets the wider interval). */
export function studentT95(df: number): number {
  const d = Math.max(1, Math.floor(df));
  if (d <= T95.length) return T95[d - 1];
  return d < 60 ? 2.021 : d < 120 ? 2.0 : d < 1000 ? 1.98 : 1.96;
}

/** ln Γ(z) for z > 0 (Lanczos, g = 7, nine coefficients). */
function logGamma(z: number): number {
  const g = 7;
  const coef = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (z < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * z)) - logGamma(1 - z);
  const w = z - 1;
  let a = coef[0];
  for (let i = 1; i < g + 2; i++) a += coef[i] / (w + i);
  const t = w + g + 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (w + 0.5) * Math.log(t) - t + Math.log(a);
}

/**
 * Holm's step-down at a family-wise 5 %: which of these p-values are rejected. The smallest is held to 0.05/m, the
 * next to 0.05/(m-1), ... and the first that is not below its bound stops it (it and the larger ones stand).
 */
export function holmRejected(ps: readonly number[]): boolean[] {
  const order = ps.map((p, i) => [p, i] as const).sort((x, y) => x[0] - y[0]);
  const rejected = ps.map(() => false);
  for (let k = 0; k < order.length; k++) {
    const [p, i] = order[k];
    if (p > 0.05 / (order.length - k)) break;
    rejected[i] = true;
  }
  return rejected;
}
