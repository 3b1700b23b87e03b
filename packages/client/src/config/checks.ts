import { IoTDBValidationError, checkName, isArray } from '@iotdb/fast-serializer';

/** Checks of single option values; each throws IoTDBValidationError naming the option. */

/** A non-empty string (checkName's check), returned. */
export function checkString(field: string, v: unknown): string {
  checkName(field, v);
  return v;
}

/** A call's list of `noun`s (tablets, records): an array of at least one; an object for the list is named so. */
export function checkList<T>(field: string, v: readonly T[], noun: string): readonly T[] {
  if (!isArray(v)) throw new IoTDBValidationError(field, `needs an array of ${noun}s, got ${describe(v)}`);
  if (v.length === 0) throw new IoTDBValidationError(field, `needs at least one ${noun}`);
  return v;
}

export function checkBoolean(field: string, v: unknown): boolean {
  if (typeof v !== 'boolean') throw new IoTDBValidationError(field, `needs true or false, got ${describe(v)}`);
  return v;
}

export function checkOneOf<T extends string>(field: string, v: unknown, allowed: readonly T[]): T {
  if (!(allowed as readonly unknown[]).includes(v)) {
    const names = allowed.map((a) => `'${a}'`);
    const list = `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
    throw new IoTDBValidationError(field, `needs ${list}, got ${describe(v)}`);
  }
  return v as T;
}

/** The longest a Node timer waits (2^31 - 1 ms): a longer one fires at once, with only a warning. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A time the client waits with a timer: a positive (or, allowZero, zero) integer, at most MAX_TIMER_MS. */
export function timerMs(field: string, v: number, allowZero = false): number {
  return atMost(field, positiveInt(field, v, allowZero), MAX_TIMER_MS, 'about 24.8 days, the longest a timer waits');
}

/** The largest value of a 32-bit field of the protocol: a query's fetchSize, a frame's length (maxFrameBytes). */
export const MAX_I32 = 2 ** 31 - 1;

/** A count sent in a 32-bit field: a positive integer, at most MAX_I32 (a larger one fails the encoder). */
export function int32Count(field: string, v: number): number {
  return atMost(field, positiveInt(field, v), MAX_I32, 'a 32-bit field of the protocol');
}

/**
 * The most sessions a pool holds. Each is a connection, and a DataNode takes 65535 at most by default
 * (dn_rpc_max_concurrent_client_num); the pool's slots are allocated up front.
 */
export const MAX_POOL_SIZE = 65_535;

/** A pool's session count: a positive (or, allowZero, zero) integer, at most MAX_POOL_SIZE. */
export function poolSize(field: string, v: number, allowZero = false): number {
  return atMost(
    field,
    positiveInt(field, v, allowZero),
    MAX_POOL_SIZE,
    'a session is a connection, and a DataNode takes 65535 by default',
  );
}

/** A number option given or not: checked by `check` when given (`allowZero` as `check` takes it), else undefined. */
export function checkedIfGiven(
  field: string,
  v: number | undefined,
  check: (field: string, v: number, allowZero?: boolean) => number = positiveInt,
  allowZero = false,
): number | undefined {
  return v === undefined ? undefined : check(field, v, allowZero);
}

function atMost(field: string, v: number, max: number, why: string): number {
  if (v > max) throw new IoTDBValidationError(field, `needs at most ${max} (${why}), got ${v}`);
  return v;
}

export function positiveInt(field: string, v: number, allowZero = false): number {
  if (!Number.isSafeInteger(v) || v < 0 || (!allowZero && v === 0)) {
    throw new IoTDBValidationError(
      field,
      `needs a ${allowZero ? 'non-negative' : 'positive'} integer, got ${describe(v)}`,
    );
  }
  return v;
}

/** An object with these methods (checked by shape: any implementation will do). */
export function checkMethods<T extends object>(field: string, v: unknown, methods: readonly string[]): T {
  const missing =
    typeof v !== 'object' || v === null
      ? methods
      : methods.filter((m) => typeof (v as Record<string, unknown>)[m] !== 'function');
  if (missing.length > 0) {
    const needed = methods.map((m) => `${m}()`).join(' and ');
    throw new IoTDBValidationError(field, `needs an object with ${needed}, got ${describe(v)}`);
  }
  return v as T;
}

/** A value for an error message: short, and never an object's contents. */
export function describe(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return `'${v.length > 40 ? `${v.slice(0, 40)}...` : v}'`;
    case 'object':
      return v === null ? 'null' : Array.isArray(v) ? 'an array' : 'an object';
    case 'function':
      return 'a function';
    case 'symbol':
      return v.toString();
    default:
      return String(v);
  }
}
