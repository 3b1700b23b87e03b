/**
 * The latency matrix iot-benchmark users read, one row per operation: AVG, MIN, P10 ... P999, MAX and the
 * slowest client's total time, all ms. The console, report.html and latency.csv are made from this list.
 */
import type { LatencySummary, RunResult } from '../types.js';
import { QUERY_KINDS, type QueryKind } from '../workload/operations.js';
import { csvText } from './csv-cell.js';
import { fixed, grouped, millis } from './numbers.js';
import { AFTER_THE_WRITES, DERIVED_PREFIXES, START_LAG } from '../latency-rows.js';

export const MATRIX_COLUMNS: readonly [header: string, value: (l: LatencySummary) => number][] = [
  ['AVG', (l) => l.avg],
  ['MIN', (l) => l.min],
  ['P10', (l) => l.p10],
  ['P25', (l) => l.p25],
  ['MEDIAN', (l) => l.p50],
  ['P75', (l) => l.p75],
  ['P90', (l) => l.p90],
  ['P95', (l) => l.p95],
  ['P99', (l) => l.p99],
  ['P999', (l) => l.p999],
  ['MAX', (l) => l.max],
];

/** iot-benchmark calls it SLOWEST_THREAD: per operation, the largest total time one client spent in it */
const SLOWEST = 'SLOWEST_CLIENT';

export const MATRIX_HEADERS: readonly string[] = ['operation', 'count', ...MATRIX_COLUMNS.map(([h]) => h), SLOWEST];

/**
 * The operations in report order: writes, then the query types in iot-benchmark's order, each followed by
 * its 'failed', 'uncorrected' and 'traced' rows and its row of --queries after the writes; the start lag last.
 */
export function byReportOrder(ops: readonly string[]): string[] {
  const rank = (op: string): [number, number, number] => {
    if (op === START_LAG) return [QUERY_KINDS.length + 1, 0, 0];
    const d = DERIVED_PREFIXES.findIndex((p) => op.startsWith(p));
    const base = (d < 0 ? op : op.slice(DERIVED_PREFIXES[d].length)).split(': ')[0]; // 'GROUP_BY: decode' goes with GROUP_BY
    const after = base.endsWith(AFTER_THE_WRITES); // 'GROUP_BY after the writes' after GROUP_BY's rows
    const kind = after ? base.slice(0, -AFTER_THE_WRITES.length) : base;
    return [1 + QUERY_KINDS.indexOf(kind as QueryKind), after ? 1 : 0, d + 1];
  };
  return [...ops].sort((a, b) => {
    const [ra, rb] = [rank(a), rank(b)];
    return ra[0] - rb[0] || ra[1] - rb[1] || ra[2] - rb[2]; // ties keep their order (a traced write's phases in flow order)
  });
}

function ordered(r: RunResult): [string, LatencySummary][] {
  return byReportOrder(Object.keys(r.latency)).map((op) => [op, r.latency[op]]);
}

/** The run's rows, cells as the console and HTML show them; `name` escapes the operation where needed. */
export function matrixRows(r: RunResult, name: (s: string) => string = (s) => s): string[][] {
  return ordered(r).map(([op, l]) => [
    name(op),
    grouped(l.count),
    ...MATRIX_COLUMNS.map(([, value]) => millis(value(l))),
    slowest(r, op, millis),
  ]);
}

/** latency.csv: one row per run and operation, ms with 3 decimals. */
export function matrixCsv(runs: readonly RunResult[]): string {
  const header = ['label', ...MATRIX_HEADERS];
  const rows = runs.flatMap((r) =>
    ordered(r).map(([op, l]) => [
      r.label,
      op,
      String(l.count),
      ...MATRIX_COLUMNS.map(([, value]) => fixed(value(l), 3)),
      slowest(r, op, (ms) => fixed(ms, 3)),
    ]),
  );
  return csvText([header, ...rows]);
}

function slowest(r: RunResult, op: string, format: (ms: number) => string): string {
  const ms = r.slowestClientMs?.[op];
  return ms === undefined ? '-' : format(ms);
}
