import {
  IoTDBValidationError,
  describeValue as describe,
  nearestName,
  type ValidationIssue,
} from '@iotdb/fast-serializer';

/**
 * The problems found while checking a session's or a pool's options. Every option is checked and
 * every problem collected, so that one IoTDBValidationError lists them all instead of the first.
 */
export class IssueList {
  readonly #issues: ValidationIssue[] = [];

  get size(): number {
    return this.#issues.length;
  }

  add(field: string, message: string): void {
    this.#issues.push({ field, message });
  }

  /** fn's value; or, when fn refuses its input with IoTDBValidationError, undefined and its problems noted. */
  take<T>(fn: () => T): T | undefined {
    try {
      return fn();
    } catch (e) {
      if (!(e instanceof IoTDBValidationError)) throw e;
      this.#issues.push(...e.issues);
      return undefined;
    }
  }

  /** The problems noted so far. */
  get all(): readonly ValidationIssue[] {
    return this.#issues;
  }

  /** Throws one IoTDBValidationError listing every problem, if there is any. */
  throwIfAny(): void {
    if (this.#issues.length > 0) throw validationErrorOf(this.#issues);
  }
}

/** One problem: the error as it always was (`field: message`); several: `options`, one line each. */
export function validationErrorOf(issues: readonly ValidationIssue[]): IoTDBValidationError {
  if (issues.length === 1) return new IoTDBValidationError(issues[0].field, issues[0].message, { issues });
  const lines = issues.map((i) => `\n  - ${i.field}: ${i.message}`).join('');
  return new IoTDBValidationError('options', `${issues.length} problems${lines}`, { issues });
}

/** Names an object may have: a Set, or `KnownKeys.of<T>()` listing every key of T (exhaustive at compile time). */
export type KeyNames = Pick<ReadonlySet<string>, 'has'> & Iterable<string>;

/**
 * Flags the keys of `given` that are not in `known` (which values are fine is checked elsewhere),
 * suggesting what `elsewhere` says of a key (another client's name for an option), else the nearest known key for a
 * near miss. Values are never quoted: one may be a password.
 */
export function checkKnownKeys(
  given: object,
  known: KeyNames,
  prefix: string,
  issues: IssueList,
  elsewhere: (key: string, known: KeyNames) => string | undefined = () => undefined,
): void {
  for (const key of Object.keys(given)) {
    if (known.has(key)) continue;
    issues.add(`${prefix}${key}`, `unknown option${unknownNameHint(key, known, elsewhere)}`);
  }
}

/**
 * What follows "unknown option" for `name`: ` (<hint>)`, the hint what `elsewhere` says of it (another client's name
 * for an option), else the nearest name of `known` for a near miss; '' when there is neither.
 */
export function unknownNameHint(
  name: string,
  known: KeyNames,
  elsewhere: (name: string, known: KeyNames) => string | undefined = () => undefined,
): string {
  const near = nearestName(name, known);
  const hint = elsewhere(name, known) ?? (near === undefined ? undefined : `did you mean '${near}'?`);
  return hint === undefined ? '' : ` (${hint})`;
}

/**
 * A call's own options (`opts` of a query or a statement): keys not in `known` refused, the nearest known one
 * suggested; a typo would otherwise be a setting silently not applied.
 */
export function checkCallOptions(opts: object, known: KeyNames): void {
  const refused = callOptionsRefused(opts, known);
  if (refused !== undefined) throw refused;
}

/** Why checkCallOptions refuses `opts`, or undefined: for a call that answers with a rejected promise instead. */
export function callOptionsRefused(opts: object, known: KeyNames): IoTDBValidationError | undefined {
  if (opts === null || typeof opts !== 'object') {
    const names = [...known].join(', ');
    return new IoTDBValidationError('options', `needs an object ({ ${names} }), got ${describe(opts)}`);
  }
  // runs on every write and read call: nothing allocated when every name is known
  let allKnown = true;
  for (const key in opts) if (Object.hasOwn(opts, key) && !known.has(key)) allKnown = false;
  if (allKnown) return signalRefused((opts as { signal?: unknown }).signal);
  const issues = new IssueList();
  checkKnownKeys(opts, known, '', issues);
  return validationErrorOf(issues.all);
}

/**
 * The signal of a call's options, read before the session checks them: options that are not an object hold none here,
 * and the session refuses them, naming them (`null` would otherwise be a TypeError reading its signal).
 */
export const signalOf = (opts: { signal?: AbortSignal } | null | undefined): AbortSignal | undefined =>
  opts === null || typeof opts !== 'object' ? undefined : opts.signal;

/**
 * A `signal` that is no AbortSignal: Node's AbortSignal.any threw its own TypeError for it, and a data set's read
 * never looked at it.
 */
export function signalRefused(signal: unknown): IoTDBValidationError | undefined {
  if (signal === undefined || signal instanceof AbortSignal) return undefined;
  return new IoTDBValidationError(
    'signal',
    `needs an AbortSignal (an AbortController's signal, or AbortSignal.timeout(ms)), got ${describe(signal)}`,
  );
}
