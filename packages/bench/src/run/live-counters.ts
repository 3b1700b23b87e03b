import { overdueMs } from './pacing.js';

/**
 * The workers' live counters, read by the main thread for the progress line: a BigInt64Array over a
 * SharedArrayBuffer, LIVE_PER_WORKER slots per worker, in LIVE's order.
 */
const LIVE = { points: 0, okOps: 1, failedOps: 2, retries: 3, nextDueNs: 4 } as const;
const LIVE_PER_WORKER = 5;

export type LiveCounter = keyof typeof LIVE;

export function liveCounters(workers: number): SharedArrayBuffer {
  return new SharedArrayBuffer(8 * LIVE_PER_WORKER * workers);
}

/** The slot of worker `w`'s `counter`. */
export function liveSlot(w: number, counter: LiveCounter): number {
  return w * LIVE_PER_WORKER + LIVE[counter];
}

/** `counter` added up over `workers` workers. */
export function liveSum(counters: BigInt64Array, workers: number, counter: LiveCounter): number {
  let n = 0;
  for (let w = 0; w < workers; w++) n += Number(Atomics.load(counters, liveSlot(w, counter)));
  return n;
}

/**
 * Open loop: how far behind its schedule the run is at `nowNs` (process.hrtime, the workers' clock), ms: the most
 * any worker's earliest due operation not started yet (its `nextDueNs` slot; 0: none) is overdue, 0 if none is.
 */
export function behindMs(counters: BigInt64Array, workers: number, nowNs: number): number {
  let behind = 0;
  for (let w = 0; w < workers; w++)
    behind = Math.max(behind, overdueMs(Number(Atomics.load(counters, liveSlot(w, 'nextDueNs'))), nowNs));
  return behind;
}
