import { mergeHistograms, summarize } from '../report/histogram.js';
import type { RunResult, WorkerResult } from '../types.js';
import { slowestOf } from './operation-stats.js';

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
> {
  const start = Math.min(...done.map((r) => r.timedStartMs));
  const durationS = Math.max(1e-9, (Math.max(...done.map((r) => r.timedEndMs)) - start) / 1000);
  const points = done.reduce((n, r) => n + r.points, 0);
  const okOps = done.reduce((n, r) => n + r.okOps, 0);
  const failedOps = done.reduce((n, r) => n + r.failedOps, 0);
  const histograms = mergeHistograms(done.map((r) => r.latency));
  const slowestNs = slowestOf(done.map((r) => r.slowestClientNs));
  return {
    durationS,
    points,
    okOps,
    failedOps,
    pointsPerS: points / durationS,
    opsPerS: (okOps + failedOps) / durationS,
    latency: summarize(histograms),
    histograms,
    slowestClientMs: Object.fromEntries(Object.entries(slowestNs).map(([kind, ns]) => [kind, ns / 1e6])),
    errors: done.flatMap((r) => r.errors).slice(0, 10),
  };
}
