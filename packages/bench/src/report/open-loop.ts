import type { BenchConfig, LatencySummary, RunResult } from '../types.js';
import { millis } from './numbers.js';
import { START_LAG, UNCORRECTED_PREFIX } from '../latency-rows.js';

/** How an open-loop run (--target-rate) kept its schedule. */
export interface OpenLoopFigures {
  targetRate: number;
  /** operations started a second, failed or not (the schedule's rate; ops/s counts the ones that succeeded) */
  startedPerS: number;
  /** how late operations started on average: corrected less uncorrected latency over every operation, ms */
  delayMs: number;
  /** how late they started, percentiles (the 'start lag' row); absent from files before it was recorded */
  lag?: LatencySummary;
  /** the rate achieved, within 10 % */
  rateMet: boolean;
  /** operations started later than a client's interval between operations, on average */
  behind: boolean;
}

/**
 * Whether an open-loop run kept its rate, and how late its operations started; null for a closed-loop run.
 * 10 % slack on the rate: the clients' staggered starts and the last operations' latency stretch a run that kept
 * its schedule a little past count / rate. Late by more than a client's interval between operations: the clients
 * or the server could not keep up, for the whole run or a spell of it (a short run can keep its rate with a cold
 * start's lag carried to its end).
 */
export function openLoopFigures(r: RunResult): OpenLoopFigures | null {
  const { targetRate } = r.config;
  if (!(targetRate > 0)) return null;
  const lag = r.latency[START_LAG];
  const delayMs = lag?.avg ?? meanStartDelayMs(r.latency);
  const startedPerS = (r.okOps + r.failedOps) / r.durationS;
  const behind = delayMs > clientIntervalMs(r.config);
  return { targetRate, startedPerS, delayMs, rateMet: startedPerS >= 0.9 * targetRate, behind, ...(lag && { lag }) };
}

/** An open loop's interval between one client's operations, ms (as if every client had an equal share). */
export function clientIntervalMs({
  workers,
  clients,
  targetRate,
}: Pick<BenchConfig, 'workers' | 'clients' | 'targetRate'>): number {
  return (1000 * workers * clients) / targetRate;
}

/** Whether the run kept its schedule, and what its corrected rows then are, in a sentence. */
export function openLoopVerdict({ rateMet, behind }: OpenLoopFigures): string {
  if (rateMet)
    return behind
      ? 'rate met, but operations fell behind their schedule (the corrected rows include the wait: a cold start or a slow spell; a longer run shows whether it lasts)'
      : 'met';
  return behind
    ? 'NOT met: operations fell behind their schedule (the corrected rows include the wait)'
    : 'NOT met, though operations kept their schedule: the last operations or clients with less work stretched the run';
}

/** ` (p50 0.110, p99 0.540, max 2.310 ms)`: how late operations started, where the run recorded it. */
export function lagPercentiles({ lag }: OpenLoopFigures): string {
  return lag === undefined ? '' : ` (p50 ${millis(lag.p50)}, p99 ${millis(lag.p99)}, max ${millis(lag.max)} ms)`;
}

/** The verdict in a few words (the HTML report's summary cell; the sentence is its title). */
export function shortVerdict({ rateMet, behind }: OpenLoopFigures): string {
  return `${rateMet ? (behind ? 'rate met' : 'met') : 'NOT met'}${behind ? ', behind its schedule' : ''}`;
}

/** Mean of (corrected - uncorrected) latency over every operation that has both rows, ms (a file without START_LAG). */
function meanStartDelayMs(latency: RunResult['latency']): number {
  let count = 0;
  let delay = 0;
  for (const [kind, uncorrected] of Object.entries(latency)) {
    const corrected = kind.startsWith(UNCORRECTED_PREFIX) ? latency[kind.slice(UNCORRECTED_PREFIX.length)] : undefined;
    if (corrected === undefined) continue;
    count += uncorrected.count;
    delay += (corrected.avg - uncorrected.avg) * uncorrected.count;
  }
  return count === 0 ? 0 : delay / count;
}
