import type { TraceContext } from '../diagnostics/channels.js';
import type { Recorder } from '../diagnostics/recorder.js';
import { withAttemptsNote } from './attempts-note.js';
import { decideRetry, type OperationKind, type ResolvedRetryOptions } from './retry-policy.js';
import { sleep } from './sleep.js';

/** Who hears of the retries of one operation: the recorder (stats, logger) and its trace, if traced. */
export interface RetryReport {
  readonly recorder: Recorder;
  /** what the logs call the operation */
  readonly operation: string;
  readonly trace?: TraceContext | null;
}

/**
 * Carries out the retry policy for one operation: runs `attempt` until it succeeds, the policy says
 * stop (its last error is thrown, saying how long the operation was tried: withAttemptsNote), or `signal` aborts (the
 * wait ends with the signal's reason).
 */
export async function withRetry<T>(
  kind: OperationKind,
  options: ResolvedRetryOptions,
  signal: AbortSignal,
  attempt: () => Promise<T>,
  report?: RetryReport,
): Promise<T> {
  const started = performance.now();
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      const elapsedMs = performance.now() - started;
      const d = decideRetry(options, { kind, error, attempt: n, elapsedMs }, Math.random());
      if (!d.retry || signal.aborted) {
        if (n > 1) report?.recorder.gaveUp(report.operation, n, error);
        throw withAttemptsNote(error, n, elapsedMs);
      }
      if (report !== undefined) {
        report.recorder.retrying(report.operation, n, d.delayMs, error);
        if (report.trace) report.trace.attempts = n + 1;
      }
      await sleep(d.delayMs, signal);
    }
  }
}
