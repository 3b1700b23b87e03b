import { IoTDBValidationError } from '../errors.js';
import { keyInAnyCase } from '../types/key-in-any-case.js';
import { isArray } from '../types/is-array.js';
import { dateToTime, type TimestampPrecision } from './time-unit.js';
import {
  ColumnCategory,
  TSDataType,
  dataTypeName,
  isColumnCategory,
  isTSDataType,
  type ColumnCategoryName,
} from '../types/data-type.js';
import { describe } from '../types/describe.js';
import type { ColumnInput, DataTypeInput, TableTablet, Tablet, TabletData, TimestampsInput } from './tablet-input.js';
import { RowMajorColumn, type PreparedColumn } from './row-major-column.js';
import { fitsInt64 } from '../types/int64.js';
import { checkDevicePath } from '../types/device-path.js';
import { checkTableName } from '../types/table-name.js';
import { checkColumnNames } from '../types/name.js';
import { nullMasksOf } from './null-masks.js';
import { KnownKeys } from '../types/known-keys.js';
import { checkTagBytes } from './tag-bytes.js';

const DATA_KEYS = ['dataTypes', 'timestamps', 'values', 'columns', 'nulls'] as const satisfies (keyof TabletData)[];
const TREE_TABLET_KEYS: KnownKeys = KnownKeys.of<Tablet>('tablet')(
  'deviceId',
  'measurements',
  ...DATA_KEYS,
  'isAligned',
);
const TABLE_TABLET_KEYS: KnownKeys = KnownKeys.of<TableTablet>('tablet')(
  'tableName',
  'columnNames',
  'columnCategories',
  ...DATA_KEYS,
);

/** A tablet whose shape has been checked, ready for the encoder. Values are checked while encoding. */
export interface PreparedTablet {
  /** tree: the device path; table: the table name */
  readonly prefixPath: string;
  readonly measurements: readonly string[];
  readonly types: readonly TSDataType[];
  readonly rows: number;
  /** row times in the server's unit (Dates converted) */
  readonly timestamps: RowTimes;
  /** as given; row-major input read in place (RowMajorColumn); a writer's numeric columns strided into its block */
  readonly columns: readonly PreparedColumn[];
  /** Row permutation that sorts by time (stable), or null when already sorted, as the Java client does. */
  readonly order: Uint32Array | null;
  readonly isAligned: boolean;
  /** the rows came as `values` (row-major): error messages name cells that way */
  readonly rowMajor: boolean;
  /** table model only */
  readonly columnCategories: readonly ColumnCategory[] | null;
  /** the server's time unit: Dates (row times, TIMESTAMP cells) are converted to it */
  readonly precision: TimestampPrecision;
  /**
   * Nulls of typed-array columns (which cannot hold null): `nullMasks[c][row]` is 1 where column c's row is
   * null; a column without a mask has none (its cells say so themselves when it is a plain array).
   */
  readonly nullMasks?: readonly (Uint8Array | null)[];
}

/** `precision`: the server's time unit, for Dates. */
export function prepareTablet(t: Tablet, precision: TimestampPrecision = 'ms'): PreparedTablet {
  TREE_TABLET_KEYS.check(t, '');
  checkDevicePath('deviceId', t.deviceId);
  return prepare(t, t.deviceId, t.measurements, 'measurements', t.isAligned === true, null, precision);
}

export function prepareTableTablet(t: TableTablet, precision: TimestampPrecision = 'ms'): PreparedTablet {
  TABLE_TABLET_KEYS.check(t, '');
  checkTableName('tableName', t.tableName);
  const names = t.columnNames;
  if (!isArray(t.columnCategories) || t.columnCategories.length !== names?.length) {
    throw new IoTDBValidationError(
      'columnCategories',
      `needs one category per column (${names?.length ?? 0}), got ${describeLength(t.columnCategories)}`,
    );
  }
  const categories = t.columnCategories.map((c, i) => categoryCode(c, `columnCategories[${i}]`));
  const prepared = prepare(t, t.tableName, names, 'columnNames', false, categories, precision);
  checkTagBytes(prepared);
  return prepared;
}

function prepare(
  t: TabletData,
  prefixPath: string,
  measurements: readonly string[],
  namesField: string,
  isAligned: boolean,
  columnCategories: ColumnCategory[] | null,
  precision: TimestampPrecision,
): PreparedTablet {
  if (!isArray(measurements) || measurements.length === 0) {
    throw new IoTDBValidationError(namesField, 'needs at least one name');
  }
  checkColumnNames(measurements, namesField, columnCategories !== null);
  const n = measurements.length;
  if (!isArray(t.dataTypes) || t.dataTypes.length !== n) {
    throw new IoTDBValidationError('dataTypes', `needs one type per column (${n}), got ${describeLength(t.dataTypes)}`);
  }
  const types = t.dataTypes.map((d, i) => dataTypeCode(d, `dataTypes[${i}]`));
  if (columnCategories !== null) checkTableTypes(types, columnCategories);
  const rows = timestampsLength(t.timestamps);
  const columns = columnsOf(t, types, rows);
  const timestamps = datesToTimes(t.timestamps, precision);
  const order = sortOrder(timestamps, rows);
  const rowMajor = t.values !== undefined;
  const nullMasks = nullMasksOf(t, columns, rows);
  return {
    prefixPath,
    measurements,
    types,
    rows,
    timestamps,
    columns,
    order,
    isAligned,
    rowMajor,
    columnCategories,
    precision,
    nullMasks,
  };
}

/**
 * IoTDB's rule for a table: its TAG and ATTRIBUTE columns are STRING (the server refused other types, or failed on an
 * INT32 tag with a cast error).
 */
function checkTableTypes(types: readonly TSDataType[], categories: readonly ColumnCategory[]): void {
  categories.forEach((c, i) => {
    const problem = tableTypeProblem(c, types[i]);
    if (problem !== undefined) throw new IoTDBValidationError(`dataTypes[${i}]`, problem);
  });
}

/** Why a column of `category` cannot have `type` (IoTDB's rule: TAG and ATTRIBUTE are STRING), if it cannot. */
export function tableTypeProblem(category: ColumnCategory, type: TSDataType): string | undefined {
  if (category === ColumnCategory.FIELD || type === TSDataType.STRING) return undefined;
  const role = category === ColumnCategory.TAG ? 'a TAG' : 'an ATTRIBUTE';
  return `${role} column needs STRING (IoTDB's rule), got ${dataTypeName(type)}`;
}

/** Row times as they go on the wire: numbers or bigints in the server's unit. */
export type RowTimes = readonly (number | bigint)[] | Float64Array | BigInt64Array;

/** Row times with their Dates converted to the server's unit (the array as it is when it holds none). */
function datesToTimes(ts: TimestampsInput, precision: TimestampPrecision): RowTimes {
  if (!isArray(ts) || !ts.some((v) => v instanceof Date)) return ts as RowTimes;
  return ts.map((v, i) => (v instanceof Date ? dateToTime(v, precision, `timestamps[${i}]`) : v));
}

function describeLength(v: unknown): string {
  return isArray(v) ? `${v.length}` : describe(v);
}

export function dataTypeCode(d: DataTypeInput, field: string): TSDataType {
  if (isTSDataType(d)) return d;
  const name = typeof d === 'string' ? keyInAnyCase(TSDataType, d) : undefined;
  if (name !== undefined) return TSDataType[name];
  throw new IoTDBValidationError(field, `unknown data type ${describe(d)}`);
}

function categoryCode(c: ColumnCategory | ColumnCategoryName, field: string): ColumnCategory {
  if (isColumnCategory(c)) return c;
  const name = typeof c === 'string' ? keyInAnyCase(ColumnCategory, c) : undefined;
  if (name !== undefined) return ColumnCategory[name];
  throw new IoTDBValidationError(field, `unknown column category ${describe(c)} (TAG, FIELD or ATTRIBUTE)`);
}

function timestampsLength(ts: TimestampsInput): number {
  if (!(isArray(ts) || ts instanceof Float64Array || ts instanceof BigInt64Array)) {
    throw new IoTDBValidationError('timestamps', `needs an array, Float64Array or BigInt64Array, got ${describe(ts)}`);
  }
  if (ts.length === 0) throw new IoTDBValidationError('timestamps', 'a tablet needs at least one row');
  if (ts.length > 0x7fffffff) throw new IoTDBValidationError('timestamps', 'too many rows');
  return ts.length;
}

/** The tablet's columns: as given, or views of row-major input (read by the encoder where they are). */
function columnsOf(t: TabletData, types: readonly TSDataType[], rows: number): readonly PreparedColumn[] {
  const n = types.length;
  if ((t.values === undefined) === (t.columns === undefined)) {
    throw new IoTDBValidationError('values', 'give either `values` (row-major) or `columns` (column-major)');
  }
  if (t.columns !== undefined) {
    if (!isArray(t.columns) || t.columns.length !== n) {
      throw new IoTDBValidationError(
        'columns',
        `needs one column per measurement (${n}), got ${describeLength(t.columns)}`,
      );
    }
    t.columns.forEach((c: ColumnInput, i) => {
      if (!(isArray(c) || isTypedColumn(c))) {
        throw new IoTDBValidationError(
          `columns[${i}]`,
          `needs an array or a Float32Array, Float64Array, Int32Array, BigInt64Array or Uint8Array, got ${describe(c)}`,
        );
      }
      if (c.length !== rows) {
        throw new IoTDBValidationError(`columns[${i}]`, `has ${c.length} values for ${rows} timestamps`);
      }
    });
    return t.columns;
  }
  const values = t.values!;
  if (!isArray(values) || values.length !== rows) {
    throw new IoTDBValidationError('values', `needs one row per timestamp (${rows}), got ${describeLength(values)}`);
  }
  for (let r = 0; r < rows; r++) {
    const row = values[r];
    if (!isArray(row) || row.length !== n) {
      throw new IoTDBValidationError(
        `values[${r}]`,
        `needs ${n} values (one per measurement), got ${describeLength(row)}`,
      );
    }
  }
  return types.map((_, c) => new RowMajorColumn(values, c));
}

function isTypedColumn(c: unknown): boolean {
  return (
    c instanceof Float32Array ||
    c instanceof Float64Array ||
    c instanceof Int32Array ||
    c instanceof BigInt64Array ||
    c instanceof Uint8Array
  );
}

/** Checks every timestamp and returns the sorting permutation, or null when already non-decreasing. */
export function sortOrder(ts: RowTimes, rows: number): Uint32Array | null {
  let sorted = true;
  if (ts instanceof BigInt64Array) {
    for (let i = 1; i < rows && sorted; i++) sorted = ts[i - 1] <= ts[i];
  } else if (ts instanceof Float64Array) {
    for (let i = 0; i < rows; i++) {
      const v = ts[i];
      if (!Number.isSafeInteger(v)) badTimestamp(i, v);
      if (i > 0 && ts[i - 1] > v) sorted = false;
    }
  } else {
    for (let i = 0; i < rows; i++) {
      const v = ts[i];
      if (typeof v === 'number') {
        if (!Number.isSafeInteger(v)) badTimestamp(i, v);
      } else if (typeof v !== 'bigint' || !fitsInt64(v)) {
        badTimestamp(i, v);
      }
      if (i > 0 && ts[i - 1] > v) sorted = false;
    }
  }
  if (sorted) return null;
  const idx = Array.from({ length: rows }, (_, i) => i);
  idx.sort((a, b) => (ts[a] < ts[b] ? -1 : ts[a] > ts[b] ? 1 : a - b));
  return Uint32Array.from(idx);
}

function badTimestamp(i: number, v: unknown): never {
  throw new IoTDBValidationError(
    `timestamps[${i}]`,
    `needs a safe integer number or an int64 bigint, got ${describe(v)}`,
  );
}
