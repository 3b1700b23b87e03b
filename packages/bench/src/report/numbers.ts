/**
 * Number formatting for the reports. Locale-independent on purpose: the text report and RESULT lines
 * are compared and parsed across machines.
 */

/** `n` with `digits` decimals; NaN and infinities spelled as such */
export function fixed(n: number, digits: number): string {
  return Number.isFinite(n) ? n.toFixed(digits) : String(n);
}

/** `n` with `digits` decimals, '-' where there is no figure */
export const orDash = (n: number | undefined, digits: number): string => (n === undefined ? '-' : fixed(n, digits));

/**
 * `a / b` as `1.50x` (under 0.01 two significant digits, `0.0052x`, not `0.00x` as if none); `n/a` when there is no
 * ratio (b is 0, or either is not a number)
 */
export function times(a: number, b: number): string {
  const r = a / b;
  if (b === 0 || !Number.isFinite(r)) return 'n/a';
  return r > 0 && r < 0.01 ? `${Number(r.toPrecision(2))}x` : `${r.toFixed(2)}x`;
}

/** The median: the middle value, or the mean of the two middle ones. */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const GROUPED = [0, 1].map((digits) => new Intl.NumberFormat('en-US', { maximumFractionDigits: digits }));

/**
 * `n` (a bigint exactly) with thousands separators, rounded to an integer or, `decimals` 1, to at most one decimal:
 * 1234567.8 -> "1,234,568", 33.33 -> "33.3" (1); NaN and infinities spelled as such, what rounds to zero "0", not "-0"
 */
export function grouped(n: number | bigint, decimals: 0 | 1 = 0): string {
  if (typeof n === 'number' && !Number.isFinite(n)) return String(n);
  const s = GROUPED[decimals].format(n);
  return s === '-0' ? '0' : s;
}

/** a latency in ms with about four significant digits: 0.123, 12.35, 123.5, 1235 */
export function millis(ms: number): string {
  const a = Math.abs(ms);
  return fixed(ms, a >= 1000 ? 0 : a >= 100 ? 1 : a >= 10 ? 2 : 3);
}

/** a time span for humans: "45.2s", "3m05s", "2h07m" */
export function span(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const s = Math.round(seconds);
  const pad = (v: number): string => String(v).padStart(2, '0');
  if (s < 3600) return `${Math.floor(s / 60)}m${pad(s % 60)}s`;
  return `${Math.floor(s / 3600)}h${pad(Math.floor((s % 3600) / 60))}m`;
}

/** 1234 -> "1.2k", 2500000 -> "2.5M": short labels for chart axes and bars */
export function compact(n: number): string {
  const a = Math.abs(n);
  const units: [number, string][] = [
    [1e9, 'G'],
    [1e6, 'M'],
    [1e3, 'k'],
  ];
  for (const [size, suffix] of units) {
    if (a >= size) return `${trim((n / size).toFixed(a >= size * 100 ? 0 : 1))}${suffix}`;
  }
  return trim(n.toFixed(a >= 100 || Number.isInteger(n) ? 0 : a >= 1 ? 1 : 3));
}

function trim(s: string): string {
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

/** Pairs of [key, count] from several series, the counts of each key added, in key order. */
export function sumByKey(series: readonly Iterable<readonly [number, number]>[]): [number, number][] {
  const added = new Map<number, number>();
  for (const pairs of series) for (const [key, n] of pairs) added.set(key, (added.get(key) ?? 0) + n);
  return [...added].sort(([a], [b]) => a - b);
}
