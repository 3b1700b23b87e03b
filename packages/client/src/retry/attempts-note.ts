import { IoTDBError } from '../errors.js';

/**
 * The error a call gives up with, saying how long the call was tried when it was sent more than once: a copy of the
 * error (its class, fields, cause and stack), its message ending `(after 5 attempts over 2.9 s)` and its `attempts` the
 * count. A copy, because one error (a broken connection's) may fail several calls, each tried its own number of
 * times. An error that already says so (a call inside a retried call) and any error of a call tried once go as they are.
 */
export function withAttemptsNote(error: unknown, attempts: number, elapsedMs: number): unknown {
  if (attempts < 2 || !(error instanceof IoTDBError) || error.attempts !== undefined) return error;
  const note = ` (after ${attempts} attempts over ${(elapsedMs / 1000).toFixed(1)} s)`;
  const copy = Object.create(Object.getPrototypeOf(error) as object, Object.getOwnPropertyDescriptors(error)) as Error;
  const header = `${error.name}: ${error.message}`;
  hidden(copy, 'message', error.message + note);
  // the stack's first line is the message as it was when the error was made
  if (error.stack?.startsWith(header)) hidden(copy, 'stack', header + note + error.stack.slice(header.length));
  Object.defineProperty(copy, 'attempts', { value: attempts, enumerable: true });
  return copy;
}

/** A property as Error's own: writable, not enumerated (so that inspecting the error does not print it twice). */
function hidden(o: object, key: string, value: string): void {
  Object.defineProperty(o, key, { value, writable: true, enumerable: false, configurable: true });
}
