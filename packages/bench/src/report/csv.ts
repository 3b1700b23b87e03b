/**
 * results.csv: a header of RESULT_KEYS and the environment's columns, then one row per run with the RESULT
 * line's values and where the run ran.
 */
import type { Environment, RunResult } from '../types.js';
import { csvText } from './csv-cell.js';
import { RESULT_KEYS, resultFields } from './result-fields.js';

const ENVIRONMENT: readonly [key: string, value: (e: Environment) => string][] = [
  ['cpu', (e) => e.cpu],
  ['cores', (e) => String(e.cores)],
  ['memory_gib', (e) => String(e.memoryGiB)],
  ['os', (e) => e.os],
  ['node', (e) => e.node],
  ['jvm', (e) => e.jvm ?? ''],
  ['server_version', (e) => e.server?.version ?? ''],
  ['timestamp_precision', (e) => e.server?.timestampPrecision ?? ''],
  ['data_nodes', (e) => String(e.server?.dataNodes?.length ?? '')],
  ['client_version', (e) => e.client.version],
  ['git_commit', (e) => e.client.gitCommit ?? ''],
];

function environmentCells(e: Environment | undefined): string[] {
  return ENVIRONMENT.map(([, value]) => (e === undefined ? '' : value(e)));
}

export function toCsv(runs: RunResult[]): string {
  const header = [...RESULT_KEYS, ...ENVIRONMENT.map(([key]) => key)];
  const rows = [header, ...runs.map((r) => [...resultFields(r).map(([, v]) => v), ...environmentCells(r.environment)])];
  return csvText(rows);
}
