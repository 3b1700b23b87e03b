/**
 * latency-over-time.csv: each run's latency over time and failures over time (RunResult.latencyOverTime,
 * failuresOverTime), a row per interval in which an operation ended.
 */
import type { RunResult } from '../types.js';
import { csvText } from './csv-cell.js';
import { fixed } from './numbers.js';
import { sampleAt } from './over-time.js';

const HEADER = ['label', 'at_s', 'operations', 'failed', 'p50_ms', 'p99_ms', 'max_ms'];

/**
 * A row per run and interval, in the runs' order and time order: an interval of failures alone has no percentiles
 * (empty cells); the header alone when no run has either series.
 */
export function overTimeCsv(runs: readonly RunResult[]): string {
  const rows = runs.flatMap((r) => {
    const latency = new Map((r.latencyOverTime ?? []).map(([atS, ...rest]) => [atS, rest]));
    const failed = new Map(r.failuresOverTime ?? []);
    const times = [...new Set([...latency.keys(), ...failed.keys()])].sort((a, b) => a - b);
    return times.map((atS) => {
      const [count, p50, p99, max] = latency.get(atS) ?? [0];
      return [
        r.label,
        fixed(sampleAt(r, atS), 3),
        String(count),
        String(failed.get(atS) ?? 0),
        ms(p50),
        ms(p99),
        ms(max),
      ];
    });
  });
  return csvText([HEADER, ...rows]);
}

/** A latency cell, ms; empty for an interval of failures alone. */
function ms(v: number | undefined): string {
  return v === undefined ? '' : fixed(v, 3);
}
