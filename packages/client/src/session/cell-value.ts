import { IoTDBValidationError, TSDataType, decodeDate, type DecodedColumn } from '@iotdb/fast-serializer';
import type { Int64Mode } from './options.js';

/** A query cell in JS: BOOLEAN boolean, INT32/FLOAT/DOUBLE number, INT64/TIMESTAMP bigint (or number), DATE Date, TEXT/STRING string, BLOB Buffer. */
export type IoTDBValue = boolean | number | bigint | string | Date | Buffer | null;

/** INT64 as number, or undefined when the number would round (beyond 2^53 - 1 either way). */
export function int64AsSafeNumber(v: bigint): number | undefined {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Which option asked for a number: `int64As` (INT64 and TIMESTAMP values) or `timestampAs` (a row's time). */
export type NumberOption = 'int64As' | 'timestampAs';

/** INT64 as number, refusing to round; the error names the option that asked for a number. */
export function int64ToNumber(v: bigint, option: NumberOption = 'int64As'): number {
  const n = int64AsSafeNumber(v);
  if (n === undefined) {
    throw option === 'int64As'
      ? new IoTDBValidationError('int64As', `INT64 value ${v} is beyond Number.MAX_SAFE_INTEGER; use int64As: 'bigint'`)
      : new IoTDBValidationError(
          'timestampAs',
          `time ${v} is beyond Number.MAX_SAFE_INTEGER; use timestampAs: 'bigint' or 'Date'`,
        );
  }
  return n;
}

/** Where a BigInt64Array keeps each value's low and high 32-bit word (platform byte order). */
const LOW_FIRST = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;
const LO = LOW_FIRST ? 0 : 1;
const HI = 1 - LO;

/** The 32-bit words of an INT64 column, two a value, for int64WordToNumber. */
export function int64Words(values: BigInt64Array): Int32Array {
  return new Int32Array(values.buffer, values.byteOffset, values.length * 2);
}

/**
 * Value i of an INT64 column's words (int64Words) as number, refusing to round as int64ToNumber does, without
 * making a BigInt: 4 ns a value where reading the bigint and converting it took 23 ns.
 */
export function int64WordToNumber(words: Int32Array, i: number, option: NumberOption = 'int64As'): number {
  // exact below 2^53 in magnitude; beyond, rounding keeps it beyond, so the check below sees it
  const n = words[2 * i + HI] * 2 ** 32 + (words[2 * i + LO] >>> 0);
  if (Number.isSafeInteger(n)) return n;
  return int64ToNumber(new BigInt64Array(words.buffer, words.byteOffset, words.length >> 1)[i], option); // throws
}

/** Row r of a decoded column as a JS value (INT64 and TIMESTAMP as `int64As` says; an unsafe one as number throws). */
export function cellValue(col: DecodedColumn, r: number, int64As: Int64Mode): IoTDBValue {
  if (col.nulls !== null && col.nulls[r] === 1) return null;
  switch (col.type) {
    case TSDataType.BOOLEAN:
      return (col.values as Uint8Array)[r] === 1;
    case TSDataType.INT64:
    case TSDataType.TIMESTAMP: {
      const v = (col.values as BigInt64Array)[r];
      return int64As === 'number' ? int64ToNumber(v) : v;
    }
    case TSDataType.DATE:
      return decodeDate((col.values as Int32Array)[r]);
    case TSDataType.INT32:
    case TSDataType.FLOAT:
    case TSDataType.DOUBLE:
      return (col.values as Int32Array | Float32Array | Float64Array)[r];
    default:
      return (col.values as (string | Buffer | null)[])[r];
  }
}
