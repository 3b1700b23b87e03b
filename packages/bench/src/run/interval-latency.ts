import { LatencyHistogram } from '../report/histogram.js';
import type { IntervalHistograms, RunResult } from '../types.js';

/**
 * Latency over the timed phase: one histogram per interval (--report-interval-ms), an operation counted in the
 * interval it ended in. The workers' are merged interval by interval (exact), and the run keeps each interval's
 * count, p50, p99 and max: whether a high percentile is the run's steady state or one spell of it.
 */
export class IntervalLatency {
  readonly #intervals = new Map<number, LatencyHistogram>();

  constructor(private readonly intervalMs: number) {}

  /** An operation of latency `ns` that ended `sinceStartMs` into the timed phase. */
  record(ns: number, sinceStartMs: number): void {
    const interval = Math.max(0, Math.floor(sinceStartMs / this.intervalMs));
    let h = this.#intervals.get(interval);
    if (h === undefined) this.#intervals.set(interval, (h = new LatencyHistogram()));
    h.record(ns);
  }

  data(): IntervalHistograms {
    return [...this.#intervals].map(([interval, h]) => [interval, h.toSparseData()]);
  }
}

/** Several workers' intervals merged, as the run's samples: [seconds at the interval's end, count, p50, p99, max]. */
export function latencyOverTime(
  workers: readonly IntervalHistograms[],
  intervalMs: number,
): NonNullable<RunResult['latencyOverTime']> {
  const merged = new Map<number, LatencyHistogram>();
  for (const intervals of workers)
    for (const [interval, data] of intervals) {
      let h = merged.get(interval);
      if (h === undefined) merged.set(interval, (h = new LatencyHistogram()));
      h.mergeSparse(data);
    }
  return [...merged]
    .sort(([a], [b]) => a - b)
    .map(([interval, h]) => {
      const l = h.summaryMs();
      return [((interval + 1) * intervalMs) / 1000, l.count, l.p50, l.p99, l.max];
    });
}
