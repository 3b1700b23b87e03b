/** latency-over-time.csv: each run's latency over time (RunResult.latencyOverTime), a row per interval. */
import type { RunResult } from '../types.js';
import { csvCell } from './latency-matrix.js';
import { fixed } from './numbers.js';

const HEADER = ['label', 'at_s', 'operations', 'p50_ms', 'p99_ms', 'max_ms'];

/** A row per run and interval, in the runs' order: the header alone when no run has latency over time. */
export function overTimeCsv(runs: readonly RunResult[]): string {
  const rows = runs.flatMap((r) =>
    (r.latencyOverTime ?? []).map(([atS, count, p50, p99, max]) => [
      r.label,
      fixed(atS, 3),
      String(count),
      ...[p50, p99, max].map((ms) => fixed(ms, 3)),
    ]),
  );
  return [HEADER, ...rows].map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}
