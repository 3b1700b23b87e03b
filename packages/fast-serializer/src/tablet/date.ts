import { IoTDBValidationError } from '../errors.js';
import { describe } from '../types/describe.js';

/** IoTDB keeps a DATE as the int32 yyyy*10000 + mm*100 + dd, with the year in 1000..9999. */
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The wire int of a day, or an error naming `field` and what was `given` (as the caller wrote it). */
function checked(field: string, [y, m, d]: [number, number, number], given: string): number {
  if (!isDay(y, m, d)) throw new IoTDBValidationError(field, `not a valid DATE (years 1000-9999): ${given}`);
  return wireInt(y, m, d);
}

function wireInt(y: number, m: number, d: number): number {
  return y * 10000 + m * 100 + d;
}

// a wire int's year, month and day (functions, not a tuple: isDateInt runs per value of a DATE column written)
const yearOf = (yyyymmdd: number): number => Math.floor(yyyymmdd / 10000);
const monthOf = (yyyymmdd: number): number => Math.floor(yyyymmdd / 100) % 100;
const dayOf = (yyyymmdd: number): number => yyyymmdd % 100;

function isDay(y: number, m: number, d: number): boolean {
  return y >= 1000 && y <= 9999 && m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m);
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(y: number, m: number): number {
  return m === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : DAYS[m - 1];
}

/** A `Date` (its UTC calendar day) or a 'YYYY-MM-DD' string to the wire int. */
export function encodeDate(field: string, v: unknown): number {
  const day = dateIntOf(v);
  if (day >= 0) return day;
  if (v instanceof Date && Number.isNaN(v.getTime())) throw new IoTDBValidationError(field, 'Invalid Date');
  const parts = dayParts(v);
  if (parts !== null) return checked(field, parts, describe(v)); // throws: not a day
  throw new IoTDBValidationError(field, `DATE needs a Date or a 'YYYY-MM-DD' string, got ${describe(v)}`);
}

/** A `Date` or a 'YYYY-MM-DD' string as the wire int, or -1 when it is none (encodeDate then says why). */
export function dateIntOf(v: unknown): number {
  const parts = dayParts(v);
  return parts !== null && isDay(...parts) ? wireInt(...parts) : -1;
}

/** Year, month and day of a `Date` (UTC) or a 'YYYY-MM-DD' string; null for anything else. */
function dayParts(v: unknown): [number, number, number] | null {
  if (v instanceof Date) return [v.getUTCFullYear(), v.getUTCMonth() + 1, v.getUTCDate()];
  const m = typeof v === 'string' ? DATE_RE.exec(v) : null;
  return m === null ? null : [+m[1], +m[2], +m[3]];
}

/** Whether a DATE given as its wire int (an Int32Array column, as `toColumnar()` gives it) is a day. */
export function isDateInt(yyyymmdd: number): boolean {
  return isDay(yearOf(yyyymmdd), monthOf(yyyymmdd), dayOf(yyyymmdd));
}

/** A DATE's wire int checked to be a day (isDateInt, with the error naming `field`). */
export function checkDateInt(field: string, yyyymmdd: number): number {
  return checked(field, [yearOf(yyyymmdd), monthOf(yyyymmdd), dayOf(yyyymmdd)], `${yyyymmdd} (yyyymmdd)`);
}

/** The wire int back to a `Date` at UTC midnight. */
export function decodeDate(yyyymmdd: number): Date {
  return new Date(Date.UTC(yearOf(yyyymmdd), monthOf(yyyymmdd) - 1, dayOf(yyyymmdd)));
}
