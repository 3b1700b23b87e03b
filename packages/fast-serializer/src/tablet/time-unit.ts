import { IoTDBValidationError } from '../errors.js';
import { fitsInt64 } from '../types/int64.js';

/** The server's timestamp precision (`timestamp_precision`): the unit of every time on the wire. */
export type TimestampPrecision = 'ms' | 'us' | 'ns';

const UNITS_PER_MS: Record<TimestampPrecision, bigint> = { ms: 1n, us: 1_000n, ns: 1_000_000n };

/**
 * A Date as a time in the server's unit: milliseconds as a number (exact), microseconds and nanoseconds
 * as a number when safe, else a bigint (a Date far from 1970 in ns is past 2^53).
 */
export function dateToTime(d: Date, precision: TimestampPrecision, field: string | (() => string)): number | bigint {
  const ms = d.getTime();
  const name = () => (typeof field === 'string' ? field : field()); // built only for an error
  if (Number.isNaN(ms)) throw new IoTDBValidationError(name(), 'an invalid Date');
  if (precision === 'ms') return ms;
  const t = BigInt(ms) * UNITS_PER_MS[precision];
  if (!fitsInt64(t))
    throw new IoTDBValidationError(name(), `${d.toISOString()} is beyond the int64 range in ${precision}`);
  return t >= BigInt(Number.MIN_SAFE_INTEGER) && t <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(t) : t;
}

/** A time in the server's unit as a Date (sub-millisecond digits dropped, flooring before 1970). */
export function timeToDate(t: bigint | number, precision: TimestampPrecision): Date {
  const unit = UNITS_PER_MS[precision];
  const v = BigInt(t);
  const ms = v / unit - (v % unit < 0n ? 1n : 0n);
  return new Date(Number(ms));
}
