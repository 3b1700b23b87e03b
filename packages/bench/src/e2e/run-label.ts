import type { BenchConfig, RunResult } from '../types.js';
import { rateMark } from '../report/sweep-table.js';
import { hasQueries, readsOnly, storedRows } from '../workload/operations.js';

/**
 * What a run is called in the console and its files (and what merge and compare match): `--compare`'s runs by
 * their method; else model and method, `-mixed` with queries among the writes, `-noop`/`-dry` for runs whose
 * writes are not stored. A run of queries only wrote nothing, through no method: `<model>-queries`.
 */
export function runLabel(c: BenchConfig, oneOfSeveral: boolean): string {
  if (oneOfSeveral) return c.method;
  if (readsOnly(c.operationProportion)) return `${c.model}-queries`;
  const mixed = hasQueries(c.operationProportion) ? '-mixed' : '';
  return `${c.model}-${c.method}${mixed}${c.serverNoop ? '-noop' : ''}${c.dryRunSend ? '-dry' : ''}`;
}

/**
 * The line a run starts with: its clients and what they write; a run of queries only writes nothing, so its
 * line gives its rounds of queries and the rows they read (what a write run with these knobs stored).
 */
export function runLine(c: BenchConfig, label: string): string {
  const clients = `${c.workers} worker(s) x ${c.clients} client(s)`;
  if (readsOnly(c.operationProportion))
    return `run ${label}: ${clients}, ${c.loop} rounds of queries over ${c.deviceCount} devices x ${c.sensors} sensors x ${storedRows(c)} rows stored`;
  return `run ${label}: ${clients}, ${c.deviceCount} devices x ${c.sensors} sensors x ${c.batchSize} rows x ${c.loop} rounds`;
}

/**
 * A run under the name it is kept by, as its report and RESULT line show it (its repeat's and its rate's, see
 * runRepeats); its latency rows keep the names they had (a query-file statement's own: its `queryFile.row`).
 */
export type Named = (run: RunResult) => RunResult;

/** `tree-queries@200/s`: a run of --sweep-rates named by its rate (before a repeat's `#k`, which compare reads last). */
export function sweepLabel(run: RunResult, c: BenchConfig): RunResult {
  return c.sweepRates.length === 0 ? run : { ...run, label: `${run.label}${rateMark(c.targetRate)}` };
}
