import { IoTDBConnectionError } from '../errors.js';

/** Only connection failures are retried: the server never saw the call, or its answer was lost. */
export function isRetryable(e: unknown): boolean {
  return e instanceof IoTDBConnectionError;
}

/** Wait before retry `attempt` (1-based): the interval, doubling each time, at most 10x. */
export function backoffMs(retryIntervalMs: number, attempt: number): number {
  return Math.min(retryIntervalMs * 2 ** (attempt - 1), retryIntervalMs * 10);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
