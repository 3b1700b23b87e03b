/** A logarithmic time axis of the latency charts (histograms, percentiles): its ticks, its ends, its labels. */
import { compact } from './numbers.js';

/** 1500 -> "1.5µs", 2e6 -> "2ms" */
export function nsLabel(ns: number): string {
  const units: [number, string][] = [
    [1e9, 's'],
    [1e6, 'ms'],
    [1e3, 'µs'],
  ];
  for (const [size, unit] of units) if (ns >= size) return `${compact(ns / size)}${unit}`;
  return `${compact(ns)}ns`;
}

/** [lo, hi] widened around its middle to a decade when narrower, so that a log axis has ticks to read it by. */
export function atLeastADecade(lo: number, hi: number): [number, number] {
  if (hi / lo >= 10) return [lo, hi];
  const mid = Math.sqrt(lo * hi);
  return [mid / Math.sqrt(10), mid * Math.sqrt(10)];
}

/** 1, 2, 5 · 10^k inside [lo, hi]; only the powers of ten when that would be too many */
export function logTicks(lo: number, hi: number): number[] {
  const ticks: number[] = [];
  for (let d = Math.floor(Math.log10(lo)); d <= Math.ceil(Math.log10(hi)); d++) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** d;
      if (v >= lo && v <= hi) ticks.push(v);
    }
  }
  return ticks.length > 9 ? ticks.filter((v) => Number.isInteger(Math.log10(v))) : ticks;
}
