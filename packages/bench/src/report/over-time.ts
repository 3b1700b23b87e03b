import type { RunResult } from '../types.js';
import { median } from './numbers.js';

/**
 * Where an interval's sample goes on a time axis (report.html's charts, latency-over-time.csv's at_s): its end
 * (`atS`), or the run's for a last interval the run's end cut short (its operations ended by then; the throughput
 * line ends there too).
 */
export function sampleAt(r: RunResult, atS: number): number {
  return Math.min(atS, r.durationS);
}

/**
 * A run's latency samples as its charts and its p99 over time read them: without a last interval shorter than half of
 * one (the run's end cut it short), whose percentiles are those of the run's last operations, which end with
 * nothing left to wait behind, so that its p99 would show as a fall at the run's end (measured: 2 ms after 10 ms
 * intervals; 14.8 ms after 41-157 ms). latency-over-time.csv, results.json and --persist-results keep it; the latency
 * matrix counts it.
 */
export function steadyLatency(r: RunResult): NonNullable<RunResult['latencyOverTime']> {
  const samples = r.latencyOverTime ?? [];
  const intervalS = r.config.reportIntervalMs / 1000;
  const last = samples.at(-1);
  if (samples.length < 2 || last === undefined) return samples;
  const partS = r.durationS - (last[0] - intervalS);
  return partS < intervalS / 2 ? samples.slice(0, -1) : samples;
}

/** Intervals a run needs before its p99 over time is summed up: with fewer, the worst is most of them. */
const MIN_INTERVALS = 3;

/**
 * A run's p99 over time summed up: a typical interval's, the worst one's, and when the worst ended (s); and its
 * longest operation, and when that ended.
 */
interface P99OverTime {
  intervals: number;
  typicalMs: number;
  worstMs: number;
  worstAtS: number;
  /** whether the worst interval is the run's first */
  worstFirst: boolean;
  longestMs: number;
  longestAtS: number;
}

/**
 * The run's p99 over its time (steadyLatency): a typical interval's (the median of the intervals' p99) and the
 * worst interval's; the longest operation of every interval; null for runs of fewer than three intervals, or none
 * recorded.
 */
export function p99OverTime(r: RunResult): P99OverTime | null {
  const over = steadyLatency(r);
  if (over.length < MIN_INTERVALS) return null;
  const worst = over.reduce((w, s) => (s[3] > w[3] ? s : w));
  const longest = r.latencyOverTime!.reduce((l, s) => (s[4] > l[4] ? s : l));
  return {
    intervals: over.length,
    typicalMs: median(over.map((s) => s[3])),
    worstMs: worst[3],
    worstAtS: worst[0],
    worstFirst: worst === over[0],
    longestMs: longest[4],
    longestAtS: longest[0],
  };
}
