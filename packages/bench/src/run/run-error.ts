import { inspect } from 'node:util';
import { IoTDBError } from '@iotdb/client';
import { ConfigError } from '../config/errors.js';

/** How many errors a run keeps for its report: the first distinct ones. */
export const MAX_ERRORS = 10;

/**
 * `messages` added to a run's `errors`: each distinct one once (a server gone fails every operation alike; an error of
 * another kind after them is the one to see), up to MAX_ERRORS in all.
 */
export function keepErrors(errors: string[], ...messages: string[]): void {
  for (const m of messages) if (errors.length < MAX_ERRORS && !errors.includes(m)) errors.push(m);
}

/** The errors of several runs or workers as one run's: each distinct one once, the first MAX_ERRORS. */
export function keptErrors(lists: readonly (readonly string[])[]): string[] {
  const errors: string[] = [];
  keepErrors(errors, ...lists.flat());
  return errors;
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
