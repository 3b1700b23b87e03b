import { IoTDBValidationError } from '../errors.js';
import { TSDataType, dataTypeName } from '../types/data-type.js';
import { encodeDate } from './date.js';
import { describe } from '../types/describe.js';
import { notWellFormed } from '../types/well-formed.js';
import { dateToTime, type TimestampPrecision } from './time-unit.js';
import type { PreparedTablet } from './prepare-tablet.js';
import { fitsInt64 } from '../types/int64.js';

/**
 * One non-null cell checked against its data type and turned into what goes on the wire:
 * BOOLEAN boolean; INT32, DATE (yyyymmdd), FLOAT, DOUBLE number; INT64, TIMESTAMP bigint or safe number;
 * TEXT, STRING string; BLOB Uint8Array. Used by the plain tablet encoder and by records; the fast
 * encoder inlines the same checks and shares the messages.
 */
export type WireCell = boolean | number | bigint | string | Uint8Array;

export const EXPECTED: Record<TSDataType, string> = {
  [TSDataType.BOOLEAN]: 'a boolean',
  [TSDataType.INT32]: 'an integer number in the int32 range',
  [TSDataType.INT64]: 'a bigint in the int64 range or a safe integer number',
  [TSDataType.FLOAT]: 'a number within the float32 range',
  [TSDataType.DOUBLE]: 'a number',
  [TSDataType.TEXT]: 'a string, Buffer or Uint8Array',
  [TSDataType.TIMESTAMP]: 'a bigint, a safe integer number or a Date',
  [TSDataType.DATE]: "a Date or a 'YYYY-MM-DD' string",
  [TSDataType.BLOB]: 'a Buffer or Uint8Array',
  [TSDataType.STRING]: 'a string, Buffer or Uint8Array',
};

export function cellError(field: string, type: TSDataType, v: unknown): IoTDBValidationError {
  const text = typeof v === 'string' && (type === TSDataType.TEXT || type === TSDataType.STRING);
  const malformed = text ? notWellFormed(v) : undefined;
  if (malformed !== undefined) return new IoTDBValidationError(field, `${dataTypeName(type)} value ${malformed}`);
  return new IoTDBValidationError(field, `${dataTypeName(type)} needs ${EXPECTED[type]}, got ${describe(v)}`);
}

/** The largest float32 (Float.MAX_VALUE); a finite number that rounds past it would be stored as Infinity. */
export const FLOAT32_MAX = 3.4028234663852886e38;

/** A finite number whose float32 is infinite: it would be written as Infinity. NaN and ±Infinity themselves are floats. */
export function overflowsFloat32(v: number): boolean {
  const f = Math.fround(v);
  return (f === Infinity || f === -Infinity) && Number.isFinite(v);
}

export function floatRangeError(field: string, v: number): IoTDBValidationError {
  return new IoTDBValidationError(field, `FLOAT value ${v} is beyond the float32 range (±${FLOAT32_MAX}); use DOUBLE`);
}

export function isInt64(v: unknown): v is number | bigint {
  return typeof v === 'number' ? Number.isSafeInteger(v) : typeof v === 'bigint' && fitsInt64(v);
}

/** `precision`: the server's time unit, for a Date in a TIMESTAMP cell. */
export function checkCell(type: TSDataType, v: unknown, field: string, precision: TimestampPrecision = 'ms'): WireCell {
  switch (type) {
    case TSDataType.BOOLEAN:
      if (typeof v === 'boolean') return v;
      break;
    case TSDataType.INT32:
      if (typeof v === 'number' && (v | 0) === v) return v;
      break;
    case TSDataType.DATE:
      return encodeDate(field, v);
    case TSDataType.FLOAT:
      if (typeof v === 'number') {
        if (overflowsFloat32(v)) throw floatRangeError(field, v);
        return v;
      }
      break;
    case TSDataType.DOUBLE:
      if (typeof v === 'number') return v;
      break;
    case TSDataType.TIMESTAMP:
      if (v instanceof Date && !Number.isNaN(v.getTime())) return dateToTime(v, precision, field);
      if (isInt64(v)) return v;
      break;
    case TSDataType.INT64:
      if (isInt64(v)) return v;
      break;
    case TSDataType.TEXT:
    case TSDataType.STRING:
      if ((typeof v === 'string' && v.isWellFormed()) || v instanceof Uint8Array) return v;
      break;
    case TSDataType.BLOB:
      if (v instanceof Uint8Array) return v;
      break;
  }
  throw cellError(field, type, v);
}

/** How error messages name a tablet cell: the way the user gave it (row-major or column-major). */
export function cellField(p: PreparedTablet, c: number, row: number): string {
  if (c < 0) return `timestamps[${row}]`;
  return p.rowMajor
    ? `values[${row}][${c}] ("${p.measurements[c]}")`
    : `columns[${c}] ("${p.measurements[c]}") row ${row}`;
}
