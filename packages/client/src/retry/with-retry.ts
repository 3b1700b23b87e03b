import { decideRetry, type OperationKind, type ResolvedRetryOptions } from './retry-policy.js';
import { sleep } from './sleep.js';

/**
 * Carries out the retry policy for one operation: runs `attempt` until it succeeds, the policy says
 * stop (its last error is thrown), or `signal` aborts (the wait ends with the signal's reason).
 */
export async function withRetry<T>(
  kind: OperationKind,
  options: ResolvedRetryOptions,
  signal: AbortSignal,
  attempt: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      const d = decideRetry(
        options,
        { kind, error, attempt: n, elapsedMs: performance.now() - started },
        Math.random(),
      );
      if (!d.retry || signal.aborted) throw error;
      await sleep(d.delayMs, signal);
    }
  }
}
