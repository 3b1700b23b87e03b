import type { TSDataType } from '../types/data-type.js';

/**
 * Decoded query columns, typed by the column's logical type:
 * BOOLEAN Uint8Array (0/1), INT32 Int32Array, DATE Int32Array (yyyymmdd), INT64/TIMESTAMP BigInt64Array,
 * FLOAT Float32Array, DOUBLE Float64Array, TEXT/STRING (string|null)[], BLOB (Buffer|null)[].
 * Null slots of typed arrays hold 0; `nulls` tells them apart.
 */
export type ColumnValues =
  Uint8Array | Int32Array | BigInt64Array | Float32Array | Float64Array | (string | null)[] | (Buffer | null)[];

export interface DecodedColumn {
  readonly type: TSDataType;
  readonly values: ColumnValues;
  /** one byte per row, 1 = null; null when the column has no nulls */
  readonly nulls: Uint8Array | null;
  /**
   * TEXT/STRING: the bytes of each cell that are not UTF-8, by row (its string has U+FFFD in their place, as Java's
   * getString gives it); absent when every cell is UTF-8, as almost always.
   */
  readonly rawText?: ReadonlyMap<number, Buffer>;
}

export interface DecodedTsBlock {
  readonly rows: number;
  /** the block's time column */
  readonly times: BigInt64Array;
  readonly columns: readonly DecodedColumn[];
}

/** TsBlock column encodings (tsfile ColumnEncoding). */
export const ColumnEncoding = {
  BYTE_ARRAY: 0,
  INT32_ARRAY: 1,
  INT64_ARRAY: 2,
  BINARY_ARRAY: 3,
  RLE: 4,
  DICTIONARY: 5,
} as const;

/** Physical column types in the TsBlock header (TSDataType ordinals 0-5). */
export const PhysicalType = { BOOLEAN: 0, INT32: 1, INT64: 2, FLOAT: 3, DOUBLE: 4, TEXT: 5 } as const;
