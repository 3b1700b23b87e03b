import { noneSucceeded } from '../run/queries.js';
import type { RunResult } from '../types.js';

/**
 * Whether a run failed (the exit status 1; its report and files are kept), ours or the Java client's alike: its
 * count read back not what the server acknowledged, or none read back; no operation succeeding; a query type
 * that ran (during the run or after the writes) and never succeeded; or the run stopped early because an operation
 * reached no node (the server went away, whatever succeeded before).
 */
export function runFailed(r: RunResult): boolean {
  if (r.stopped === 'unreachable') return true;
  return (r.verify !== undefined && !r.verify.ok) || (r.okOps === 0 && r.failedOps > 0) || noneSucceeded(r.queries);
}
