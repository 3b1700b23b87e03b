import { IoTDBValidationError } from '../errors.js';
import { describe } from '../types/describe.js';
import { notWellFormed } from '../types/well-formed.js';
import { checkRecordHead } from './encode-record.js';
import { checkColumnName } from '../types/name.js';
import { KnownKeys } from '../types/known-keys.js';
import type { TimestampPrecision } from '../tablet/time-unit.js';

/** A string record's keys: no dataTypes (the server infers them; given ones would be ignored). */
const STRING_RECORD_KEYS: KnownKeys = KnownKeys.of<StringRecordInput>('record')(
  'deviceId',
  'timestamp',
  'measurements',
  'values',
  'isAligned',
);

/** One row of one device with its values as strings: the server infers each type (Java's string overloads). */
export interface StringRecordInput {
  deviceId: string;
  /** in the session's precision (a safe integer number or an int64 bigint), or a Date, converted to it */
  timestamp: number | bigint | Date;
  measurements: readonly string[];
  /** null: nothing written for that measurement */
  values: readonly (string | null | undefined)[];
  isAligned?: boolean;
}

/** A string record checked, its null values left out with their measurements (as Java does). */
export interface CheckedStringRecord {
  deviceId: string;
  timestamp: number | bigint;
  /** empty when every value was null: nothing to write */
  measurements: string[];
  values: string[];
  isAligned: boolean;
}

export function checkStringRecord(
  rec: StringRecordInput,
  field = 'record',
  precision: TimestampPrecision = 'ms',
): CheckedStringRecord {
  const { timestamp, n } = checkRecordHead(rec, field, precision, STRING_RECORD_KEYS);
  const seen = new Set<string>();
  const measurements: string[] = [];
  const values: string[] = [];
  for (let i = 0; i < n; i++) {
    const m = rec.measurements[i];
    checkColumnName(`${field}.measurements[${i}]`, m, false);
    if (seen.has(m)) throw new IoTDBValidationError(`${field}.measurements[${i}]`, `duplicate name "${m}"`);
    seen.add(m);
    const v = rec.values[i];
    if (v == null) continue;
    if (typeof v !== 'string')
      throw new IoTDBValidationError(
        `${field}.values[${i}] ("${m}")`,
        `needs a string (the server infers the type), got ${describe(v)}`,
      );
    const malformed = notWellFormed(v);
    if (malformed !== undefined) throw new IoTDBValidationError(`${field}.values[${i}] ("${m}")`, malformed);
    measurements.push(m);
    values.push(v);
  }
  return { deviceId: rec.deviceId, timestamp, measurements, values, isAligned: rec.isAligned === true };
}
