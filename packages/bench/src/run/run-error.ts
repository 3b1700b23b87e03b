import { inspect } from 'node:util';
import { IoTDBConnectionError, IoTDBError } from '@iotdb/client';
import { ConfigError } from '../config/errors.js';

/** How many errors a run keeps for its report: the first distinct ones. */
export const MAX_ERRORS = 10;

/** How the errors name a query of the untimed warm-up that failed, ours and the Java client's alike. */
export function warmupQueryError(kind: string): string {
  return `the warm-up's ${kind}`;
}

/**
 * `messages` added to a run's `errors`: each distinct one once (a server gone fails every operation alike; an error of
 * another kind after them is the one to see), up to MAX_ERRORS in all. Errors that differ only in the statement they
 * quote (`executeQueryStatement "SELECT ...": ...`, each query its own) or in how long their calls were tried are alike:
 * the first is kept.
 */
export function keepErrors(errors: string[], ...messages: string[]): void {
  for (const m of messages) {
    if (errors.length >= MAX_ERRORS) return;
    const kind = errorKind(m);
    if (!errors.some((e) => errorKind(e) === kind)) errors.push(m);
  }
}

/**
 * A message without the statement it quotes (the client quotes one as `"<statement>": `, sqlContext) and without how
 * long its call was tried (`(after 12 attempts over 58.1 s)`, the client's note on an error after retries).
 */
function errorKind(message: string): string {
  return message.replace(/".*?": /, '"": ').replace(/ \(after \d+ attempts over [\d.]+ s\)/, '');
}

/** The errors of several runs or workers as one run's: each distinct one once, the first MAX_ERRORS. */
export function keptErrors(lists: readonly (readonly string[])[]): string[] {
  const errors: string[] = [];
  keepErrors(errors, ...lists.flat());
  return errors;
}

/**
 * Whether a failed operation reached no node for the whole of its retry budget (a connection error whose request was
 * never sent is retried until the budget is spent): every operation after it would spend its own alike, a minute
 * each by default, and the run would not end. With no retries asked for (0) each failure is counted, the run goes on.
 */
export function reachedNoNode(error: unknown, retryMaxMs: number): boolean {
  return retryMaxMs > 0 && error instanceof IoTDBConnectionError && !error.requestSent;
}

/** A run that cannot go on for a reason the operator can act on (the server's settings, a worker's failure). */
export class RunError extends Error {
  override readonly name = 'RunError';
}

/**
 * An error as the operator reads it: one line for what they can act on (a knob, the server unreachable or
 * refusing, a run that cannot go on), with the client's error code; the whole error with its stack for
 * anything else, which is a bug to report.
 */
export function describeError(e: unknown): string {
  if (e instanceof ConfigError || e instanceof RunError) return e.message;
  if (e instanceof IoTDBError) return `${e.message} (${e.code})`;
  return inspect(e);
}
