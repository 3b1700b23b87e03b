import { IoTDBValidationError } from '@iotdb/fast-serializer';
import { positiveInt, timerMs } from '../config/checks.js';
import { IoTDBConnectionError, IoTDBServerError, IoTDBTimeoutError } from '../errors.js';
import { isRetryableReadStatus, isRetryableWriteStatus } from './retryable-status.js';

/**
 * What an operation is, for retries:
 * - write: every insert call. Idempotent in IoTDB (the same timestamps overwrite), so it is sent again
 *   after any connection failure, reply timeout or "not ready" status.
 * - read: a query that changes nothing (the structured queries; SELECT without INTO, SHOW, DESCRIBE, COUNT, ...):
 *   sent again after its connection broke, on another node, as the Java Session sends its queries again after
 *   reconnecting; not after a reply timeout (a slow read would be as slow again, the first one still running).
 *   Also after a status saying the server could not reach a node it needed (isRetryableReadStatus).
 * - query, statement: never sent again once their bytes may have reached the server.
 * - connect: opening a session (a pool's new session while the cluster restarts).
 */
export type OperationKind = 'write' | 'read' | 'query' | 'statement' | 'connect';

/** The retry budget; every field is optional. */
export interface RetryOptions {
  /** Total time an operation may spend retrying, from its first attempt; 0 turns retries off. @default 60000 */
  maxElapsedMs?: number;
  /** Wait before the first retry; doubles with each further one (with jitter). @default 100 */
  initialDelayMs?: number;
  /** The longest wait between two attempts. @default 2000 */
  maxDelayMs?: number;
}

export type ResolvedRetryOptions = Readonly<Required<RetryOptions>>;

export const RETRY_DEFAULTS: ResolvedRetryOptions = Object.freeze({
  maxElapsedMs: 60_000,
  initialDelayMs: 100,
  maxDelayMs: 2_000,
});

export function resolveRetryOptions(o: RetryOptions = {}): ResolvedRetryOptions {
  if (o === null || typeof o !== 'object')
    throw new IoTDBValidationError('retry', `needs an object, got ${o === null ? 'null' : typeof o}`);
  const r = { ...RETRY_DEFAULTS, ...definedOnly(o) };
  for (const k of ['maxElapsedMs', 'initialDelayMs', 'maxDelayMs'] as const) checkRetryValue(k, r[k]);
  if (r.maxDelayMs < r.initialDelayMs)
    throw new IoTDBValidationError('retry.maxDelayMs', `${r.maxDelayMs} is below initialDelayMs ${r.initialDelayMs}`);
  return Object.freeze(r);
}

/** One `retry` value: a budget (maxElapsedMs) or a wait between attempts, which a timer keeps. */
export function checkRetryValue(key: keyof RetryOptions, v: number): number {
  return (key === 'maxElapsedMs' ? positiveInt : timerMs)(`retry.${key}`, v, true);
}

function definedOnly(o: RetryOptions): RetryOptions {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined));
}

/** One failed attempt, as the policy sees it. */
export interface FailedAttempt {
  readonly kind: OperationKind;
  readonly error: unknown;
  /** 1 for the first attempt */
  readonly attempt: number;
  /** since the first attempt started */
  readonly elapsedMs: number;
}

export type RetryDecision =
  | { readonly retry: false; readonly reason: string }
  /** `otherNode`: the node failed (connection); prefer another one if there is */
  | { readonly retry: true; readonly delayMs: number; readonly otherNode: boolean };

/**
 * The retry policy, a pure function: operation kind x error x elapsed time -> try again (after how
 * long, and whether on another node) or fail. The session only carries the decision out. `random` in
 * [0, 1) spreads the waits (half of each wait is jitter), so that clients cut off together do not
 * come back together.
 */
export function decideRetry(options: ResolvedRetryOptions, failed: FailedAttempt, random: number): RetryDecision {
  const why = retryable(failed.kind, failed.error);
  if (why !== null) return { retry: false, reason: why };
  const base = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** (failed.attempt - 1));
  const delayMs = Math.round(base / 2 + (random * base) / 2);
  if (failed.elapsedMs + delayMs > options.maxElapsedMs) {
    return { retry: false, reason: `retry budget of ${options.maxElapsedMs} ms spent (${failed.attempt} attempts)` };
  }
  return { retry: true, delayMs, otherNode: failed.error instanceof IoTDBConnectionError };
}

/** null when the error may be retried for this kind of operation, else why not. */
function retryable(kind: OperationKind, error: unknown): string | null {
  if (error instanceof IoTDBConnectionError) {
    if (!error.requestSent) return null; // nothing reached the server: safe for every kind
    if (kind === 'write' || (kind === 'read' && !(error instanceof IoTDBTimeoutError))) return null;
    return kind === 'read' ? 'a read whose reply timed out is not sent again' : `a ${kind} is never sent twice`;
  }
  if (error instanceof IoTDBServerError) {
    if (kind === 'read')
      return isRetryableReadStatus({ code: error.statusCode, message: error.serverMessage })
        ? null
        : `status ${error.statusCode} is the read's answer`;
    if (kind !== 'write') return `the server answered the ${kind}`;
    return isRetryableWriteStatus({
      code: error.statusCode,
      message: error.serverMessage,
      needRetry: error.needRetry,
      subStatus: [...error.subStatus],
    })
      ? null
      : `status ${error.statusCode} is final`;
  }
  return 'not a transient failure';
}
