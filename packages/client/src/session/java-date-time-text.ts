import type { TimestampPrecision } from './node-session.js';

/**
 * A TIMESTAMP value as the Java client's getString gives it (RpcUtils.formatDatetime, its default format): the
 * date and time in the session's zone to the server's unit, then the zone's offset, `Z` at UTC
 * (`2024-02-29T08:00:00.001+08:00`, `1969-12-31T23:59:59.999Z`, `1970-01-01T00:00:00.000001Z` in microseconds).
 * Java puts the fraction in by cutting its text six characters from the end when it has a `+`, one when it has a
 * `Z`, and after it all otherwise: a zone west of UTC comes out `...T18:59:59-05:00.999`, and an offset with seconds
 * or a year past 9999 garbled. This writes those as ISO 8601 has them, the fraction before the offset.
 */
export function javaDateTimeText(value: bigint, precision: TimestampPrecision, zone: string): string {
  const [unit, digits] = UNITS[precision];
  const fraction = ((value % unit) + unit) % unit; // a time before 1970 counts back from the second before it
  const second = (value - fraction) / unit;
  const offset = offsetSeconds(zone, second);
  return `${localDateTime(second + BigInt(offset))}.${String(fraction).padStart(digits, '0')}${offsetText(offset)}`;
}

const UNITS: Record<TimestampPrecision, [bigint, number]> = { ms: [1000n, 3], us: [1_000_000n, 6], ns: [10n ** 9n, 9] };

/** yyyy-MM-ddTHH:mm:ss of seconds since 1970 on the local clock, as Java's ISO_LOCAL_DATE_TIME prints a whole second. */
function localDateTime(localSecond: bigint): string {
  const daySecond = Number(((localSecond % 86_400n) + 86_400n) % 86_400n);
  const [y, m, d] = civilDate(Number((localSecond - BigInt(daySecond)) / 86_400n));
  // ISO: four digits at least, a sign beyond 9999 and before year 0
  const year = y > 9999 ? `+${y}` : y < 0 ? `-${String(-y).padStart(4, '0')}` : String(y).padStart(4, '0');
  const [hh, mm, ss] = [Math.floor(daySecond / 3600), Math.floor(daySecond / 60) % 60, daySecond % 60];
  return `${year}-${two(m)}-${two(d)}T${two(hh)}:${two(mm)}:${two(ss)}`;
}

const two = (n: number) => String(n).padStart(2, '0');

/** The proleptic Gregorian year, month and day of a day count since 1970-01-01 (Howard Hinnant's civil_from_days). */
function civilDate(days: number): [number, number, number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

/** Z for no offset, else ±HH:MM, and :SS when it has seconds (a zone's local mean time), as Java prints an offset. */
function offsetText(seconds: number): string {
  if (seconds === 0) return 'Z';
  const abs = Math.abs(seconds);
  const hhmm = `${seconds < 0 ? '-' : '+'}${two(Math.floor(abs / 3600))}:${two(Math.floor(abs / 60) % 60)}`;
  return abs % 60 === 0 ? hhmm : `${hhmm}:${two(abs % 60)}`;
}

/** UTC, GMT or UT, maybe with an offset after it; or an offset alone (+08:00, +8, +0800, -05:30:15). */
const FIXED = /^(?:Z|(?:UTC|GMT|UT)?([+-])(\d{1,2})(?::?(\d{2}))?(?::?(\d{2}))?|UTC|GMT|UT)$/;

/** The zone's offset from UTC, seconds, at a second since 1970: fixed, or the region's rules there (ICU's tzdata). */
function offsetSeconds(zone: string, second: bigint): number {
  const fixed = FIXED.exec(zone);
  if (fixed !== null) {
    const [, sign, h = '0', m = '0', s = '0'] = fixed;
    return (sign === '-' ? -1 : 1) * (Number(h) * 3600 + Number(m) * 60 + Number(s));
  }
  return regionOffset(zone, Number(second));
}

/**
 * A region's offset at a second: from its hour's, where the hour is known to have one offset throughout. The values of
 * a column come seconds or minutes apart and would ask the zone's rules (microseconds each) every time: a value
 * within ten minutes of the last one asked, in the same hour, asks the hour's first and last second instead, and the
 * hour is kept with their offset when they agree (no zone changes its offset twice in one hour), or as one that
 * changes (on the hour or not: its values ask the rules each time). Values further apart ask the rules each, as
 * before: an hour of two or three would cost more to check than to ask.
 */
function regionOffset(zone: string, second: number): number {
  const hours = hourOffsets(zone);
  const hour = Math.floor(second / 3600);
  const known = hours.kept.get(hour);
  if (known !== undefined && !Number.isNaN(known)) return known;
  const near = Math.floor(hours.lastSecond / 3600) === hour && Math.abs(second - hours.lastSecond) <= NEAR_S;
  hours.lastSecond = second;
  if (known === undefined && near) {
    const first = rulesOffset(zone, hour * 3600);
    const whole = rulesOffset(zone, hour * 3600 + 3599) === first;
    if (hours.kept.size >= KEPT_HOURS) hours.kept.clear();
    hours.kept.set(hour, whole ? first : NaN);
    if (whole) return first;
  }
  return rulesOffset(zone, second);
}

/** A zone's hours: of one offset, or NaN where it changes within; and the second of the last value asked. */
interface HourOffsets {
  kept: Map<number, number>;
  lastSecond: number;
}

/** Values this close, seconds, are taken for a column of several an hour, whose hour is worth checking. */
const NEAR_S = 600;

/** Hours kept per zone, at most (then forgotten at once: some 100 kB a zone, five months of hours). */
const KEPT_HOURS = 4096;

const HOURS = new Map<string, HourOffsets>();

function hourOffsets(zone: string): HourOffsets {
  let hours = HOURS.get(zone);
  if (hours === undefined) {
    hours = { kept: new Map(), lastSecond: NaN };
    HOURS.set(zone, hours);
  }
  return hours;
}

/** The region's offset at a second by its rules (ICU's tzdata): its wall clock there, less the second. */
function rulesOffset(zone: string, second: number): number {
  // a Date holds ±8.64e15 ms: beyond it, the rules at its edge
  const ms = Math.min(Math.max(second * 1000, -8.64e15), 8.64e15);
  const parts = Object.fromEntries(
    regionFormat(zone)
      .formatToParts(ms)
      .map((p) => [p.type, p.value]),
  );
  const year = parts.era === 'BC' ? 1 - Number(parts.year) : Number(parts.year);
  const local = Date.UTC(
    year,
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  // Date.UTC maps years 0 to 99 to 1900 to 1999: set the year again (ms is whole seconds, as the wall clock's fields)
  return (new Date(local).setUTCFullYear(year) - ms) / 1000;
}

const FORMATS = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of a region, field by field (one formatter a zone, kept: making one costs tens of microseconds). */
function regionFormat(zone: string): Intl.DateTimeFormat {
  let format = FORMATS.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    FORMATS.set(zone, format);
  }
  return format;
}
