import { IoTDBValidationError } from '../errors.js';
import { describe } from '../types/describe.js';

/** IoTDB keeps a DATE as the int32 yyyy*10000 + mm*100 + dd, with the year in 1000..9999. */
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

function checked(field: string, y: number, m: number, d: number): number {
  const probe = new Date(Date.UTC(y, m - 1, d));
  if (y < 1000 || y > 9999 || probe.getUTCMonth() !== m - 1 || probe.getUTCDate() !== d) {
    throw new IoTDBValidationError(field, `not a valid DATE (years 1000-9999): ${y}-${m}-${d}`);
  }
  return y * 10000 + m * 100 + d;
}

/** A `Date` (its UTC calendar day) or a 'YYYY-MM-DD' string to the wire int. */
export function encodeDate(field: string, v: unknown): number {
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) throw new IoTDBValidationError(field, 'Invalid Date');
    return checked(field, v.getUTCFullYear(), v.getUTCMonth() + 1, v.getUTCDate());
  }
  if (typeof v === 'string') {
    const m = DATE_RE.exec(v);
    if (m) return checked(field, +m[1], +m[2], +m[3]);
  }
  throw new IoTDBValidationError(field, `DATE needs a Date or a 'YYYY-MM-DD' string, got ${describe(v)}`);
}

/** The wire int back to a `Date` at UTC midnight. */
export function decodeDate(yyyymmdd: number): Date {
  return new Date(Date.UTC(Math.floor(yyyymmdd / 10000), (Math.floor(yyyymmdd / 100) % 100) - 1, yyyymmdd % 100));
}
