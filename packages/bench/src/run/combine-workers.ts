import { mergeHistograms, summarize } from '../report/histogram.js';
import type { LatencySummary, RunResult, WorkerResult } from '../types.js';
import { QUERY_KINDS } from '../workload/operations.js';
import { sumActivity } from './client-activity.js';
import { slowestOf } from './operation-stats.js';
import { keptErrors } from './run-error.js';
import { NO_LATENCY } from '../report/result-fields.js';
import { FAILED_PREFIX } from '../latency-rows.js';

export type DoneWorker = Extract<WorkerResult, { state: 'done' }>;

/** The workers' counts added, their histograms merged, over the timed window from the first start to the last end. */
export function combineWorkers(
  done: readonly DoneWorker[],
): Pick<
  RunResult,
  | 'durationS'
  | 'points'
  | 'okOps'
  | 'failedOps'
  | 'pointsPerS'
  | 'opsPerS'
  | 'latency'
  | 'histograms'
  | 'slowestClientMs'
  | 'errors'
  | 'queries'
  | 'client'
> {
  const start = Math.min(...done.map((r) => r.timedStartMs));
  const durationS = Math.max(1e-9, (Math.max(...done.map((r) => r.timedEndMs)) - start) / 1000);
  const points = done.reduce((n, r) => n + r.points, 0);
  const okOps = done.reduce((n, r) => n + r.okOps, 0);
  const failedOps = done.reduce((n, r) => n + r.failedOps, 0);
  const histograms = mergeHistograms(done.map((r) => r.latency));
  const slowestNs = slowestOf(done.map((r) => r.slowestClientNs));
  const latency = summarize(histograms);
  return {
    durationS,
    points,
    okOps,
    failedOps,
    pointsPerS: points / durationS,
    opsPerS: okOps / durationS,
    latency,
    histograms,
    slowestClientMs: Object.fromEntries(Object.entries(slowestNs).map(([kind, ns]) => [kind, ns / 1e6])),
    errors: keptErrors(done.map((r) => r.errors)),
    queries: queriesOf(done, latency, durationS),
    client: sumActivity(done.map((r) => r.client)),
  };
}

/**
 * A mixed run's queries: per type, operations that succeeded and failed, rows read and their rate over the run,
 * the values read; undefined without any.
 */
function queriesOf(
  done: readonly DoneWorker[],
  latency: Record<string, LatencySummary>,
  durationS: number,
): RunResult['queries'] {
  const failedOf = (k: string) => latency[FAILED_PREFIX + k]?.count ?? 0;
  const kinds = QUERY_KINDS.filter((k) => latency[k] !== undefined || failedOf(k) > 0);
  if (kinds.length === 0) return undefined;
  return Object.fromEntries(
    kinds.map((k) => {
      const rows = done.reduce((n, r) => n + (r.rowsRead[k] ?? 0), 0);
      const points = done.reduce((n, r) => n + (r.pointsRead[k] ?? 0), 0);
      const ok = latency[k] ?? NO_LATENCY;
      return [k, { ops: ok.count, failed: failedOf(k), rows, rowsPerS: rows / durationS, points, latency: ok }];
    }),
  );
}
