import { isArray } from '../types/is-array.js';
import { deviceName } from '../types/device-path.js';
import type { PreparedTablet } from '../tablet/prepare-tablet.js';
import type { CellValue, DataTypeInput, Tablet } from '../tablet/tablet-input.js';
import { RECORD_KEYS, type RecordInput } from './encode-record.js';

/**
 * Records of a few devices as those devices' tablets, as the Java Session sends them by default (its
 * enableRecordsAutoConvertTablet): the server stores a tablet's columns in one go where it takes records one by
 * one, about 5x the time for the same points (docs/PERFORMANCE.md "Records sent as tablets"). Java's thresholds:
 * at least 40 records, at most one device for every two, and each record with at least half of the measurements
 * its device's records name in all (checked for every record here, for a sample in Java). A device's tablet has
 * those measurements as columns, in the order they first appear, a record's missing ones null; a measurement must
 * keep one type within its device, and the records must agree on isAligned. A record whose values are all null
 * writes nothing, as a record: it is left out. A device's tablet is named as its first record spells it. Anything
 * else, or anything malformed (the records' own checks name it), and the records stay records.
 */
const MIN_RECORDS = 40;
const MAX_DEVICES_PER_RECORD = 0.5;
const MIN_MEASUREMENT_SHARE = 0.5;

export interface RecordsAsTablets {
  /** one tablet per device, in order of first appearance, its rows in the records' order */
  tablets: Tablet[];
  /** the index in the call of each tablet's records, row by row */
  recordsOf: number[][];
  /** the records whose values are all null */
  empty: number[];
}

/** The records as tablets, or null when they do not make tablets (see above). */
export function recordsAsTablets(records: readonly RecordInput[]): RecordsAsTablets | null {
  if (records.length < MIN_RECORDS) return null;
  const aligned = records[0]?.isAligned === true;
  const devices = new Map<unknown, number[]>();
  const empty: number[] = [];
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    if (r === null || typeof r !== 'object' || !isArray(r.values) || (r.isAligned === true) !== aligned) return null;
    if (!RECORD_KEYS.fits(r)) return null;
    if (r.values.every((v) => v == null)) {
      empty.push(i);
      continue;
    }
    // a device spelt two ways (`` root.sg.`x` ``, root.sg.x) is one tablet: as two, their rows would lose their order
    const device = typeof r.deviceId === 'string' ? deviceName(r.deviceId) : r.deviceId;
    const mine = devices.get(device);
    if (mine !== undefined) mine.push(i);
    else if (devices.set(device, [i]).size > records.length * MAX_DEVICES_PER_RECORD) return null; // no more work
  }
  const recordsOf = [...devices.values()];
  const tablets: Tablet[] = [];
  for (const mine of recordsOf) {
    const tablet = tabletOf(records, mine);
    if (tablet === null) return null;
    tablets.push(aligned ? { ...tablet, isAligned: true } : tablet);
  }
  return tablets.length === 0 ? null : { tablets, recordsOf, empty };
}

/** One device's records as its tablet: their rows as they are when they all name the same measurements. */
function tabletOf(records: readonly RecordInput[], mine: readonly number[]): Tablet | null {
  const { deviceId, measurements, dataTypes } = records[mine[0]];
  const rows = mine.map((i) => records[i]);
  const timestamps = rows.map((r) => r.timestamp);
  if (rows.every((r) => sameList(measurements, r.measurements) && sameList(dataTypes, r.dataTypes)))
    return { deviceId, measurements, dataTypes, timestamps, values: rows.map((r) => r.values) };
  const union = unionOf(rows);
  if (union === null) return null;
  return { deviceId, measurements: union.names, dataTypes: union.types, timestamps, values: union.rows };
}

/**
 * The measurements the records name in all (first appearance order) and each record's row over them, its missing
 * ones null; null when a measurement has two types, a record names one twice or less than half of them, or a
 * record is malformed.
 */
function unionOf(records: readonly RecordInput[]) {
  const column = new Map<unknown, number>();
  const names: string[] = [];
  const types: DataTypeInput[] = [];
  const columnsOf: number[][] = [];
  const namedBy: number[] = []; // the last record that named each column
  for (let j = 0; j < records.length; j++) {
    const { measurements, dataTypes, values } = records[j];
    if (!isArray(measurements) || !isArray(dataTypes) || measurements.length !== values.length) return null;
    const columns = new Array<number>(measurements.length);
    for (let k = 0; k < measurements.length; k++) {
      let c = column.get(measurements[k]);
      if (c === undefined) {
        column.set(measurements[k], (c = names.length));
        names.push(measurements[k]);
        types.push(dataTypes[k]);
      } else if (types[c] !== dataTypes[k] || namedBy[c] === j) return null;
      namedBy[c] = j;
      columns[k] = c;
    }
    columnsOf.push(columns);
  }
  if (records.some((r) => r.measurements.length < MIN_MEASUREMENT_SHARE * names.length)) return null;
  const rows = records.map((r, j) => {
    const row = new Array<CellValue>(names.length).fill(null);
    columnsOf[j].forEach((c, k) => (row[c] = r.values[k]));
    return row;
  });
  return { names, types, rows };
}

/** The same array, or arrays of the same elements (the records are not checked yet: either may be anything). */
function sameList(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return isArray(a) && isArray(b) && a.length === b.length && a.every((x, k) => x === b[k]);
}

/**
 * Whether a prepared tablet has a time twice: records are applied in order, but which of two rows of one time a
 * tablet keeps is up to the server's sort, so such records stay records.
 */
export function repeatsTime(p: PreparedTablet): boolean {
  const { timestamps, order } = p;
  const time = (j: number) => timestamps[order === null ? j : order[j]];
  for (let j = 1; j < p.rows; j++) if (!(time(j - 1) < time(j))) return true;
  return false;
}
