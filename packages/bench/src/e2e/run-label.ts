import type { BenchConfig } from '../types.js';
import { hasQueries, readsOnly } from '../workload/operations.js';

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
