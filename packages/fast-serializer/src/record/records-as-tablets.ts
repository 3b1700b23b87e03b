import { isArray } from '../types/is-array.js';
import type { PreparedTablet } from '../tablet/prepare-tablet.js';
import type { CellValue, Tablet } from '../tablet/tablet-input.js';
import type { RecordInput } from './encode-record.js';

/**
 * Records of a few devices as those devices' tablets, as the Java Session sends them by default (its
 * enableRecordsAutoConvertTablet): the server stores a tablet's columns in one go where it takes records one by
 * one, about 5x the time for the same points (docs/PERFORMANCE.md "Records sent as tablets"). Java's thresholds:
 * at least 40 records, at most one device for every two. Here a device's records must also list one set of
 * measurements (the same names and types in the same order; a null value is a null cell) and agree on
 * isAligned. A record whose values are all null writes nothing, as a record: it is left out. Anything else, or
 * anything malformed (the records' own checks name it), and the records stay records.
 */
const MIN_RECORDS = 40;
const MAX_DEVICES_PER_RECORD = 0.5;

export interface RecordsAsTablets {
  /** one tablet per device, in order of first appearance, its rows in the records' order */
  tablets: Tablet[];
  /** the index in the call of each tablet's records, row by row */
  recordsOf: number[][];
  /** the records whose values are all null */
  empty: number[];
}

interface DeviceRows {
  tablet: Tablet & { timestamps: (number | bigint | Date)[]; values: (readonly CellValue[])[] };
  records: number[];
}

/** The records as tablets, or null when they do not make tablets (see above). */
export function recordsAsTablets(records: readonly RecordInput[]): RecordsAsTablets | null {
  if (records.length < MIN_RECORDS) return null;
  const aligned = records[0]?.isAligned === true;
  const devices = new Map<unknown, DeviceRows>();
  const empty: number[] = [];
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    if (r === null || typeof r !== 'object' || !isArray(r.values) || (r.isAligned === true) !== aligned) return null;
    if (r.values.every((v) => v == null)) {
      empty.push(i);
      continue;
    }
    const d = devices.get(r.deviceId);
    if (d === undefined) {
      devices.set(r.deviceId, deviceOf(r, i));
      if (devices.size > records.length * MAX_DEVICES_PER_RECORD) return null; // records of many devices: no more work
    } else if (!sameList(d.tablet.measurements, r.measurements) || !sameList(d.tablet.dataTypes, r.dataTypes))
      return null;
    else {
      d.tablet.timestamps.push(r.timestamp);
      d.tablet.values.push(r.values);
      d.records.push(i);
    }
  }
  if (devices.size === 0) return null;
  const all = [...devices.values()];
  return { tablets: all.map((d) => d.tablet), recordsOf: all.map((d) => d.records), empty };
}

function deviceOf(r: RecordInput, i: number): DeviceRows {
  const { deviceId, measurements, dataTypes } = r;
  const tablet = { deviceId, measurements, dataTypes, timestamps: [r.timestamp], values: [r.values] };
  return { tablet: r.isAligned === true ? { ...tablet, isAligned: true } : tablet, records: [i] };
}

/** The same array, or arrays of the same elements. */
function sameList(a: readonly unknown[], b: unknown): boolean {
  if (a === b) return true;
  return isArray(b) && a.length === b.length && a.every((x, k) => x === b[k]);
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
