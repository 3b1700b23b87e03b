import { IoTDBValidationError } from '../errors.js';
import { ByteWriter } from '../io/byte-writer.js';
import { TSDataType } from '../types/data-type.js';
import { describe, encodeDate } from '../tablet/date.js';
import { dataTypeCode } from '../tablet/prepare-tablet.js';
import type { CellValue, DataTypeInput } from '../tablet/tablet-input.js';

/** One row of one device, as `insertRecord` takes it. */
export interface RecordInput {
  deviceId: string;
  /** in the session's precision; a safe integer number or an int64 bigint */
  timestamp: number | bigint;
  measurements: readonly string[];
  dataTypes: readonly DataTypeInput[];
  values: readonly CellValue[];
  isAligned?: boolean;
}

/** What goes into TSInsertRecordReq / TSInsertRecordsReq for one record. */
export interface EncodedRecord {
  deviceId: string;
  timestamp: number | bigint;
  /** the measurements whose value is not null (a null cell is simply not written, as in Java) */
  measurements: string[];
  /** per measurement: a TSDataType byte, then the value (protocol.md 4.4) */
  values: Buffer;
  isAligned: boolean;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export function encodeRecord(rec: RecordInput, field = 'record'): EncodedRecord {
  if (rec === null || typeof rec !== 'object') throw new IoTDBValidationError(field, 'expected an object');
  if (typeof rec.deviceId !== 'string' || rec.deviceId.length === 0) {
    throw new IoTDBValidationError(`${field}.deviceId`, `needs a non-empty string, got ${describe(rec.deviceId)}`);
  }
  checkTimestamp(`${field}.timestamp`, rec.timestamp);
  const n = rec.measurements?.length ?? 0;
  if (!Array.isArray(rec.measurements) || n === 0) {
    throw new IoTDBValidationError(`${field}.measurements`, 'needs at least one name');
  }
  if (!Array.isArray(rec.dataTypes) || rec.dataTypes.length !== n) {
    throw new IoTDBValidationError(`${field}.dataTypes`, `needs one type per measurement (${n})`);
  }
  if (!Array.isArray(rec.values) || rec.values.length !== n) {
    throw new IoTDBValidationError(`${field}.values`, `needs one value per measurement (${n})`);
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
    writeCell(w, type, v, `${field}.values[${i}] ("${m}")`);
    measurements.push(m);
  }
  if (measurements.length === 0) {
    throw new IoTDBValidationError(`${field}.values`, 'every value is null: nothing to write');
  }
  return { deviceId: rec.deviceId, timestamp: rec.timestamp, measurements, values: Buffer.from(w.view()), isAligned: rec.isAligned === true };
}

export function checkTimestamp(field: string, t: unknown): void {
  const ok = typeof t === 'number' ? Number.isSafeInteger(t) : typeof t === 'bigint' && t >= INT64_MIN && t <= INT64_MAX;
  if (!ok) throw new IoTDBValidationError(field, `needs a safe integer number or an int64 bigint, got ${describe(t)}`);
}

function writeCell(w: ByteWriter, type: TSDataType, v: CellValue, field: string): void {
  const bad = (expected: string): never => {
    throw new IoTDBValidationError(field, `needs ${expected}, got ${describe(v)}`);
  };
  switch (type) {
    case TSDataType.BOOLEAN:
      if (typeof v !== 'boolean') bad('a boolean');
      w.i8(v ? 1 : 0);
      return;
    case TSDataType.INT32:
      if (typeof v !== 'number' || (v | 0) !== v) bad('an integer number in the int32 range');
      w.i32(v as number);
      return;
    case TSDataType.DATE:
      w.i32(encodeDate(field, v));
      return;
    case TSDataType.INT64:
    case TSDataType.TIMESTAMP: {
      const x = type === TSDataType.TIMESTAMP && v instanceof Date ? v.getTime() : v;
      if (typeof x === 'number' ? !Number.isSafeInteger(x) : typeof x !== 'bigint' || x < INT64_MIN || x > INT64_MAX) {
        bad('a bigint in the int64 range or a safe integer number');
      }
      w.i64(x as number | bigint);
      return;
    }
    case TSDataType.FLOAT:
      if (typeof v !== 'number') bad('a number');
      w.f32(v as number);
      return;
    case TSDataType.DOUBLE:
      if (typeof v !== 'number') bad('a number');
      w.f64(v as number);
      return;
    case TSDataType.TEXT:
    case TSDataType.STRING:
      if (typeof v !== 'string') bad('a string');
      w.lengthPrefixedUtf8(v as string);
      return;
    case TSDataType.BLOB:
      if (!(v instanceof Uint8Array)) bad('a Buffer or Uint8Array');
      w.lengthPrefixedBytes(v as Uint8Array);
      return;
  }
}
