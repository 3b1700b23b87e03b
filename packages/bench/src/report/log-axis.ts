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

/**
 * A log axis's ends for `values` (any unit): their range widened to the 1-2-5 steps around it, so that both ends
 * have a tick, and at least a decade wide.
 */
export function axisRange(values: number[]): { lo: number; hi: number } {
  const positive = values.filter((v) => v > 0 && Number.isFinite(v));
  const [lo, hi] = atLeastADecade(niceBelow(Math.min(...positive)), niceAbove(Math.max(...positive)));
  return { lo, hi };
}

const STEPS = [1, 2, 5, 10];

/** The largest 1, 2 or 5 x 10^k below v (a little room left for the dot). */
function niceBelow(v: number): number {
  const mag = 10 ** Math.floor(Math.log10(v / 1.05));
  return mag * Math.max(...STEPS.filter((m) => m * mag <= v / 1.05));
}

/** The smallest 1, 2 or 5 x 10^k above v. */
function niceAbove(v: number): number {
  const mag = 10 ** Math.floor(Math.log10(v * 1.05));
  return mag * Math.min(...STEPS.filter((m) => m * mag >= v * 1.05));
}
