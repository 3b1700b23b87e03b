import { LatencyHistogram } from '../report/histogram.js';
import { sumByKey } from '../report/numbers.js';
import type { IntervalCounts, IntervalHistograms, RunResult } from '../types.js';

/**
 * Latency over the timed phase: one histogram per interval (--report-interval-ms), an operation counted in the
 * interval it ended in. The workers' are merged interval by interval (exact), and the run keeps each interval's
 * count, p50, p99 and max: whether a high percentile is the run's steady state or one spell of it. The operations
 * that failed are counted apart, by the interval they ended in: when a fault hit the run, and for how long.
 */
/** A worker's (or a statement's) intervals: their histograms, and their failures. */
interface IntervalTally {
  latencyOverTime: IntervalHistograms;
  failuresOverTime: IntervalCounts;
}

export class IntervalLatency {
  readonly #intervals = new Map<number, LatencyHistogram>();
  readonly #failed = new Map<number, number>();

  constructor(private readonly intervalMs: number) {}

  /** An operation of latency `ns` that ended `sinceStartMs` into the timed phase. */
  record(ns: number, sinceStartMs: number): void {
    const interval = this.#interval(sinceStartMs);
    let h = this.#intervals.get(interval);
    if (h === undefined) this.#intervals.set(interval, (h = new LatencyHistogram()));
    h.record(ns);
  }

  /** An operation that failed `sinceStartMs` into the timed phase. */
  fail(sinceStartMs: number): void {
    const interval = this.#interval(sinceStartMs);
    this.#failed.set(interval, (this.#failed.get(interval) ?? 0) + 1);
  }

  data(): IntervalHistograms {
    return [...this.#intervals].map(([interval, h]) => [interval, h.toSparseData()]);
  }

  failures(): IntervalCounts {
    return [...this.#failed];
  }

  /** Both, as a worker hands them over (overTime merges several). */
  tally(): IntervalTally {
    return { latencyOverTime: this.data(), failuresOverTime: this.failures() };
  }

  #interval(sinceStartMs: number): number {
    return Math.max(0, Math.floor(sinceStartMs / this.intervalMs));
  }
}

/** Several workers' failures added, interval by interval: [seconds at the interval's end, failed], in time order. */
export function failuresOverTime(
  workers: readonly IntervalCounts[],
  intervalMs: number,
): NonNullable<RunResult['failuresOverTime']> {
  return sumByKey(workers).map(([interval, n]) => [((interval + 1) * intervalMs) / 1000, n]);
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

/** Several tallies as the run's latency and failures over time. */
export function overTime(
  tallies: readonly IntervalTally[],
  intervalMs: number,
): Required<Pick<RunResult, 'latencyOverTime' | 'failuresOverTime'>> {
  return {
    latencyOverTime: latencyOverTime(
      tallies.map((t) => t.latencyOverTime),
      intervalMs,
    ),
    failuresOverTime: failuresOverTime(
      tallies.map((t) => t.failuresOverTime),
      intervalMs,
    ),
  };
}
