import type { ColumnCategory, ColumnCategoryName, TSDataType, TSDataTypeName } from '../types/data-type.js';

/** One cell as users hand it over; `null`/`undefined` is a null cell. */
export type CellValue = boolean | number | bigint | string | Date | Uint8Array | null | undefined;

/**
 * Row times in the server's unit (ms by default), or Dates, converted to that unit. Numbers must be safe
 * integers; bigint covers the full int64 range (ns precision needs it).
 */
export type TimestampsInput = readonly (number | bigint | Date)[] | Float64Array | BigInt64Array;

/**
 * One column. Typed arrays are the fast path (bulk copy + byte swap; their nulls in `nulls`): Float32Array for
 * FLOAT, Float64Array for DOUBLE, Int32Array for INT32, BigInt64Array for INT64/TIMESTAMP, and as
 * `SessionDataSet.toColumnar()` gives them, Int32Array for DATE (yyyymmdd) and Uint8Array for BOOLEAN (0/1).
 */
export type ColumnInput = readonly CellValue[] | Float32Array | Float64Array | Int32Array | BigInt64Array | Uint8Array;

export type DataTypeInput = TSDataType | TSDataTypeName;

/**
 * Rows given either row-major (`values[row][column]`) or column-major (`columns[column][row]`). The arrays are
 * read, not copied, each time a request is encoded from them (a write's first attempt and every retry): keep them
 * unchanged until the write's promise settles.
 */
export interface TabletData {
  dataTypes: readonly DataTypeInput[];
  timestamps: TimestampsInput;
  /** Row-major: one array per row, one cell per measurement. */
  values?: readonly (readonly CellValue[])[];
  /** Column-major: one array per measurement. Typed arrays allowed (the fast path). */
  columns?: readonly ColumnInput[];
  /**
   * With `columns`: the nulls of typed-array columns, which cannot hold null, one entry per column: a Uint8Array
   * with 1 where the row is null (the value in that slot is not sent), or null / undefined for a column without.
   * The shape `SessionDataSet.toColumnar()` gives. A plain array says its nulls with null cells; a mask given for
   * it must mark only those.
   */
  nulls?: readonly (Uint8Array | null | undefined)[];
}

/** A tree-model tablet: rows of one device. */
export interface Tablet extends TabletData {
  deviceId: string;
  measurements: readonly string[];
  /** Write to an aligned device. @default false */
  isAligned?: boolean;
}

/** A table-model tablet: rows of one table; TAG columns identify the device. */
export interface TableTablet extends TabletData {
  tableName: string;
  columnNames: readonly string[];
  columnCategories: readonly (ColumnCategory | ColumnCategoryName)[];
}
