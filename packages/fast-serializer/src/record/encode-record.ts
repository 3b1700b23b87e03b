import { IoTDBValidationError } from '../errors.js';
import { ByteWriter } from '../io/byte-writer.js';
import { TSDataType } from '../types/data-type.js';
import { checkCell, isInt64 } from '../tablet/cell.js';
import { describe } from '../tablet/date.js';
import { dateToTime, type TimestampPrecision } from '../tablet/time-unit.js';
import { dataTypeCode } from '../tablet/prepare-tablet.js';
import type { CellValue, DataTypeInput } from '../tablet/tablet-input.js';

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
  /** the measurements whose value is not null (a null cell is simply not written, as in Java); empty when all are */
  measurements: string[];
  /** per measurement: a TSDataType byte, then the value (protocol.md 4.4) */
  values: Buffer;
  isAligned: boolean;
}

/** `precision`: the server's time unit, for Dates (the record's time, TIMESTAMP values). */
export function encodeRecord(rec: RecordInput, field = 'record', precision: TimestampPrecision = 'ms'): EncodedRecord {
  const { timestamp, n } = checkRecordHead(rec, field, precision);
  if (!Array.isArray(rec.dataTypes) || rec.dataTypes.length !== n) {
    throw new IoTDBValidationError(`${field}.dataTypes`, `needs one type per measurement (${n})`);
  }
  const seen = new Set<string>();
  const w = new ByteWriter(64);
  const measurements: string[] = [];
  for (let i = 0; i < n; i++) {
    const m = rec.measurements[i];
    if (typeof m !== 'string' || m.length === 0) {
      throw new IoTDBValidationError(`${field}.measurements[${i}]`, `needs a non-empty string, got ${describe(m)}`);
    }
    if (seen.has(m)) throw new IoTDBValidationError(`${field}.measurements[${i}]`, `duplicate name "${m}"`);
    seen.add(m);
    const type = dataTypeCode(rec.dataTypes[i], `${field}.dataTypes[${i}]`);
    const v = rec.values[i];
    if (v == null) continue;
    w.i8(type);
    writeCell(w, type, v, `${field}.values[${i}] ("${m}")`, precision);
    measurements.push(m);
  }
  // every value null: `measurements` is empty and there is nothing to write (the session skips it, as Java does)
  return { deviceId: rec.deviceId, timestamp, measurements, values: Buffer.from(w.view()), isAligned: rec.isAligned === true };
}

/**
 * What every kind of record checks first: an object, a device, a time (a Date converted to the server's
 * unit), measurements, one value per measurement. Returns the time on the wire and the measurement count.
 */
export function checkRecordHead(
  rec: { deviceId: unknown; timestamp: unknown; measurements: unknown; values: unknown } | null,
  field: string,
  precision: TimestampPrecision,
): { timestamp: number | bigint; n: number } {
  if (rec === null || typeof rec !== 'object') throw new IoTDBValidationError(field, 'expected an object');
  if (typeof rec.deviceId !== 'string' || rec.deviceId.length === 0) {
    throw new IoTDBValidationError(`${field}.deviceId`, `needs a non-empty string, got ${describe(rec.deviceId)}`);
  }
  const timestamp = rec.timestamp instanceof Date ? dateToTime(rec.timestamp, precision, `${field}.timestamp`) : rec.timestamp;
  checkTimestamp(`${field}.timestamp`, timestamp);
  const n = Array.isArray(rec.measurements) ? rec.measurements.length : 0;
  if (n === 0) throw new IoTDBValidationError(`${field}.measurements`, 'needs at least one name');
  if (!Array.isArray(rec.values) || rec.values.length !== n) {
    throw new IoTDBValidationError(`${field}.values`, `needs one value per measurement (${n})`);
  }
  return { timestamp: timestamp as number | bigint, n };
}

export function checkTimestamp(field: string, t: unknown): void {
  if (!isInt64(t)) throw new IoTDBValidationError(field, `needs a safe integer number or an int64 bigint, got ${describe(t)}`);
}

function writeCell(w: ByteWriter, type: TSDataType, v: CellValue, field: string, precision: TimestampPrecision): void {
  const x = checkCell(type, v, field, precision);
  switch (type) {
    case TSDataType.BOOLEAN: w.i8(x ? 1 : 0); return;
    case TSDataType.INT32:
    case TSDataType.DATE: w.i32(x as number); return;
    case TSDataType.INT64:
    case TSDataType.TIMESTAMP: w.i64(x as number | bigint); return;
    case TSDataType.FLOAT: w.f32(x as number); return;
    case TSDataType.DOUBLE: w.f64(x as number); return;
    default:
      if (x instanceof Uint8Array) w.lengthPrefixedBytes(x);
      else w.lengthPrefixedUtf8(x as string);
  }
}
