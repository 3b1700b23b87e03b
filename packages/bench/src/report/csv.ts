/** results.csv: a header of RESULT_KEYS, then one row per run with the RESULT line's values. */
import type { RunResult } from '../types.js';
import { RESULT_KEYS, resultFields } from './result-fields.js';

/** RFC 4180 quoting, only where needed (labels may hold commas) */
function cell(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export function toCsv(runs: RunResult[]): string {
  const rows = [RESULT_KEYS.map(cell), ...runs.map((r) => resultFields(r).map(([, v]) => cell(v)))];
  return rows.map((row) => row.join(',')).join('\n') + '\n';
}
