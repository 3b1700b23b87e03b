import { IoTDBValidationError } from '../errors.js';
import { ByteWriter } from '../io/byte-writer.js';
import { TSDataType } from '../types/data-type.js';
import { checkCell, isInt64 } from '../tablet/cell.js';
import { describe } from '../types/describe.js';
import { dateToTime, type TimestampPrecision } from '../tablet/time-unit.js';
import { dataTypeCode } from '../tablet/prepare-tablet.js';
import type { CellValue, DataTypeInput } from '../tablet/tablet-input.js';
import { checkDevicePath } from '../types/device-path.js';
import { checkColumnNames } from '../types/name.js';
import { KnownKeys } from '../types/known-keys.js';

/** The keys of a RecordInput. */
export const RECORD_KEYS: KnownKeys = KnownKeys.of<RecordInput>('record')(
  'deviceId',
  'timestamp',
  'measurements',
  'dataTypes',
  'values',
  'isAligned',
);

/** One row of one device, as `insertRecord` takes it. */
export interface RecordInput {
  deviceId: string;
  /** in the session's precision (a safe integer number or an int64 bigint), or a Date, converted to it */
  timestamp: number | bigint | Date;
  measurements: readonly string[];
  dataTypes: readonly DataTypeInput[];
  values: readonly CellValue[];
  isAligned?: boolean;
}

/** What goes into TSInsertRecordReq / TSInsertRecordsReq for one record. */
export interface EncodedRecord {
  deviceId: string;
  timestamp: number | bigint;
  /** the measurements whose value is not null (a null cell is simply not written, as in Java); empty when all
   * are; the caller's own array when no value is null (records sharing one array share it here too) */
  measurements: readonly string[];
  /** per measurement: a TSDataType byte, then the value (protocol.md 4.4) */
  values: Buffer;
  isAligned: boolean;
}

/**
 * Remembers the last measurement names and types a call validated, by identity: records of one call
 * usually share those arrays, and checking them once per call instead of once per record is most of
 * what a record costs. Pass one cache to the encodeRecord calls of one request (arrays not changed meanwhile).
 */
export interface RecordShapeCache {
  measurements?: readonly string[];
  dataTypes?: readonly DataTypeInput[];
  codes?: TSDataType[];
}

/** Values are written here first (one writer reused: a record's values are copied out once). */
const scratch = new ByteWriter(4096);

/** `precision`: the server's time unit, for Dates (the record's time, TIMESTAMP values). */
export function encodeRecord(
  rec: RecordInput,
  field = 'record',
  precision: TimestampPrecision = 'ms',
  cache: RecordShapeCache = {},
): EncodedRecord {
  const { timestamp, n } = checkRecordHead(rec, field, precision, RECORD_KEYS);
  const codes = shapeCodes(rec, n, field, cache);
  const w = scratch;
  w.pos = 0;
  let measurements: string[] | null = null; // a copy only once a null value leaves a measurement out
  for (let i = 0; i < n; i++) {
    const v = rec.values[i];
    if (v == null) {
      measurements ??= rec.measurements.slice(0, i);
      continue;
    }
    w.i8(codes[i]);
    try {
      writeCell(w, codes[i], v, '', precision);
    } catch (e) {
      throw refield(e, `${field}.values[${i}] ("${rec.measurements[i]}")`);
    }
    measurements?.push(rec.measurements[i]);
  }
  // every value null: `measurements` is empty and there is nothing to write (the session skips it, as Java does)
  return {
    deviceId: rec.deviceId,
    timestamp,
    measurements: measurements ?? rec.measurements,
    values: Buffer.from(w.view()),
    isAligned: rec.isAligned === true,
  };
}

/** The type codes of a record's measurements, its names checked (non-empty, no duplicates); cached by identity. */
function shapeCodes(rec: RecordInput, n: number, field: string, cache: RecordShapeCache): TSDataType[] {
  if (cache.codes !== undefined && rec.measurements === cache.measurements && rec.dataTypes === cache.dataTypes)
    return cache.codes;
  if (!Array.isArray(rec.dataTypes) || rec.dataTypes.length !== n) {
    throw new IoTDBValidationError(`${field}.dataTypes`, `needs one type per measurement (${n})`);
  }
  checkColumnNames(rec.measurements, `${field}.measurements`, false);
  const codes = rec.measurements.map((_, i) => dataTypeCode(rec.dataTypes[i], `${field}.dataTypes[${i}]`));
  Object.assign(cache, { measurements: rec.measurements, dataTypes: rec.dataTypes, codes });
  return codes;
}

/** The same validation error under the field it belongs to (cells are checked without building their names). */
function refield(e: unknown, field: string): unknown {
  if (!(e instanceof IoTDBValidationError)) return e;
  return new IoTDBValidationError(field, e.message.slice(e.field.length + 2), { cause: e });
}

/**
 * What every kind of record checks first: an object, a device, a time (a Date converted to the server's
 * unit), measurements, one value per measurement. Returns the time on the wire and the measurement count.
 */
export function checkRecordHead(
  rec: { deviceId: unknown; timestamp: unknown; measurements: unknown; values: unknown } | null,
  field: string,
  precision: TimestampPrecision,
  keys: KnownKeys,
): { timestamp: number | bigint; n: number } {
  keys.check(rec, field);
  checkDevicePath(`${field}.deviceId`, rec.deviceId);
  const timestamp =
    rec.timestamp instanceof Date ? dateToTime(rec.timestamp, precision, `${field}.timestamp`) : rec.timestamp;
  checkTimestamp(`${field}.timestamp`, timestamp);
  const n = Array.isArray(rec.measurements) ? rec.measurements.length : 0;
  if (n === 0) throw new IoTDBValidationError(`${field}.measurements`, 'needs at least one name');
  if (!Array.isArray(rec.values) || rec.values.length !== n) {
    throw new IoTDBValidationError(`${field}.values`, `needs one value per measurement (${n})`);
  }
  return { timestamp: timestamp as number | bigint, n };
}

export function checkTimestamp(field: string, t: unknown): void {
  if (!isInt64(t))
    throw new IoTDBValidationError(field, `needs a safe integer number or an int64 bigint, got ${describe(t)}`);
}

function writeCell(w: ByteWriter, type: TSDataType, v: CellValue, field: string, precision: TimestampPrecision): void {
  const x = checkCell(type, v, field, precision);
  switch (type) {
    case TSDataType.BOOLEAN:
      w.i8(x ? 1 : 0);
      return;
    case TSDataType.INT32:
    case TSDataType.DATE:
      w.i32(x as number);
      return;
    case TSDataType.INT64:
    case TSDataType.TIMESTAMP:
      w.i64(x as number | bigint);
      return;
    case TSDataType.FLOAT:
      w.f32(x as number);
      return;
    case TSDataType.DOUBLE:
      w.f64(x as number);
      return;
    default:
      if (x instanceof Uint8Array) w.lengthPrefixedBytes(x);
      else w.lengthPrefixedUtf8(x as string);
  }
}
