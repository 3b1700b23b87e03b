import { IoTDBValidationError } from '@iotdb/fast-serializer';
import { checkString } from './checks.js';

/** An offset as Java's ZoneOffset.of takes one: +h, +hh, +hh:mm, +hhmm, +hh:mm:ss, +hhmmss. */
const OFFSET = /^[+-](?:\d{1,2}|\d{2}:\d{2}(?::\d{2})?|\d{4}(?:\d{2})?)$/;
/** Names Node's ICU takes that Java 17's ZoneId.of refuses (its SHORT_IDS, and a link it dropped). */
const NOT_JAVA: ReadonlySet<string> = new Set(['EST', 'MST', 'HST', 'ROC']);
/** UTC, GMT and UT alone or before an offset; Z alone (Zulu is a region). */
const PREFIXED = /^(?:Z$|(?:UTC|GMT|UT)(?=$|[+-]))/;

/**
 * A session's time zone as the server's ZoneId.of takes it: a region (`Asia/Shanghai`: one Node's ICU knows, as it
 * knows every one of Java 17's 603), `UTC`/`GMT`/`UT` alone or before an offset, `Z`, or an offset (`+08:00`, within
 * 18 hours). The server fails a login with another with "Internal error processing openSession", which names nothing.
 */
export function checkTimeZone(field: string, v: unknown): string {
  const zone = checkString(field, v);
  if (isJavaZone(zone)) return zone;
  throw new IoTDBValidationError(
    field,
    `needs a zone the server knows: a region (Asia/Shanghai), UTC or GMT, or an offset (+08:00, UTC+8); got '${zone}'`,
  );
}

/** Whether ZoneId.of takes `zone`: Z or UTC/GMT/UT alone, an offset after one or alone, else a region. */
function isJavaZone(zone: string): boolean {
  const offset = zone.replace(PREFIXED, '');
  if (offset === '') return true;
  // a sign first is an offset, never a region (a newer ICU takes offsets as zones, beyond what Java takes)
  if (/^[+-]/.test(offset)) return OFFSET.test(offset) && withinDay(offset);
  return offset === zone && !NOT_JAVA.has(zone) && isRegion(zone);
}

/** An offset of at most 18 hours, as Java's ZoneOffset allows. */
function withinDay(offset: string): boolean {
  const digits = offset.slice(1).replaceAll(':', '');
  const hours = Number(digits.length === 1 ? digits : digits.slice(0, 2));
  return hours < 18 || (hours === 18 && /^0*$/.test(digits.slice(2)));
}

function isRegion(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
