import type { StorePool } from './store-pool.js';
import {
  ColumnCategory,
  TSDataType,
  checkCell,
  cellError,
  dateToTime,
  encodeDate,
  isInt64,
  overflowsFloat32,
  type CellValue,
  type ColumnInput,
  type TimestampPrecision,
} from '@iotdb/fast-serializer';

/**
 * int64 cells and row times: numbers while every value is a safe integer (no bigint per value), a
 * BigInt64Array from the first bigint beyond 2^53 on (nothing rounded).
 */
export type Int64Store = Float64Array | BigInt64Array;

/** Stores a checked int64 at row i; returns the store, which becomes a BigInt64Array for a bigint past 2^53. */
export function putInt64(s: Int64Store, i: number, v: number | bigint): Int64Store {
  if (s instanceof BigInt64Array) {
    s[i] = typeof v === 'bigint' ? v : BigInt(v);
    return s;
  }
  if (typeof v === 'number') s[i] = v;
  else if (v >= MIN_SAFE && v <= MAX_SAFE) s[i] = Number(v);
  else {
    const wide = new BigInt64Array(s.length);
    for (let k = 0; k < i; k++) wide[k] = BigInt(s[k]);
    wide[i] = v;
    return wide;
  }
  return s;
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * One measurement (tree) or column (table) of a buffered tablet: its cells by row, in a typed array for
 * the numeric types (nulls in a byte mask beside it) or an array of values for the others. Every row of
 * the tablet sets every column, a value or a null, so a row that failed half way is simply overwritten.
 * One field per kind of store, each always of one class, keeps `put` monomorphic (it runs per cell).
 */
export class Column {
  /** DOUBLE; INT64 and TIMESTAMP while their values are safe integers */
  f64: Float64Array | null = null;
  f32: Float32Array | null = null;
  i32: Int32Array | null = null;
  /** INT64 and TIMESTAMP from the first bigint beyond 2^53 on */
  i64: BigInt64Array | null = null;
  /** BOOLEAN, TEXT, STRING, BLOB, DATE: the values themselves, null for a null */
  cells: CellValue[] | null = null;
  /** typed stores: 1 where the row is null (allocated at the first null) */
  mask: Uint8Array | null = null;
  /** the last row (by writer sequence) that set a value here */
  stamp = -1;

  readonly #precision: TimestampPrecision;
  readonly #stores: StorePool;

  /** `nullRows`: the rows the tablet has already, null in this new column */
  constructor(
    readonly name: string,
    readonly type: TSDataType,
    readonly category: ColumnCategory,
    nullRows: number,
    capacity: number,
    context: { readonly precision: TimestampPrecision; readonly stores: StorePool },
  ) {
    this.#precision = context.precision;
    this.#stores = context.stores;
    this.#allocate(capacity);
    for (let r = 0; r < nullRows; r++) this.putNull(r);
  }

  /**
   * Puts v at `row`: the bytes it takes on the wire, or -1 when v is not a value of this type (then see
   * `error`). The row's mask bit is the buffer's to clear (it knows which columns the row set).
   */
  put(row: number, v: unknown): number {
    switch (this.type) {
      case TSDataType.DOUBLE:
        if (typeof v !== 'number') return -1;
        this.f64![row] = v;
        return 8;
      case TSDataType.FLOAT:
        if (typeof v !== 'number' || overflowsFloat32(v)) return -1;
        this.f32![row] = v;
        return 4;
      case TSDataType.INT32:
        if (typeof v !== 'number' || (v | 0) !== v) return -1;
        this.i32![row] = v;
        return 4;
      case TSDataType.INT64:
        return this.#putInt64(row, v);
      case TSDataType.TIMESTAMP:
        return this.#putInt64(row, v instanceof Date && !Number.isNaN(v.getTime()) ? dateToTime(v, this.#precision, this.name) : v);
      case TSDataType.BOOLEAN:
        if (typeof v !== 'boolean') return -1;
        this.cells![row] = v;
        return 1;
      case TSDataType.DATE:
        if (!isDate(v)) return -1;
        this.cells![row] = v as Date | string;
        return 4;
      default: {
        // TEXT, STRING (strings or bytes), BLOB (bytes)
        const bytes = v instanceof Uint8Array ? v.length : typeof v === 'string' && this.type !== TSDataType.BLOB ? 3 * v.length : -1;
        if (bytes < 0) return -1;
        this.cells![row] = v as string | Uint8Array;
        return 4 + bytes;
      }
    }
  }

  #putInt64(row: number, v: unknown): number {
    if (!isInt64(v)) return -1;
    if (this.f64 !== null) {
      if (typeof v === 'number') this.f64[row] = v;
      else if (v >= MIN_SAFE && v <= MAX_SAFE) this.f64[row] = Number(v);
      else {
        this.i64 = putInt64(this.f64, row, v) as BigInt64Array;
        this.f64 = null;
      }
    } else this.i64![row] = typeof v === 'bigint' ? v : BigInt(v);
    return 8;
  }

  putNull(row: number): void {
    if (this.cells !== null) this.cells[row] = null;
    else (this.mask ??= this.#stores.zeroed(this.#capacity()))[row] = 1;
  }

  /** Why v is not a value of this column, named `field` (the precise message of the tablet checks). */
  error(field: string, v: unknown): Error {
    try {
      checkCell(this.type, v, field, this.#precision);
    } catch (e) {
      return e as Error;
    }
    return cellError(field, this.type, v);
  }

  /** Room for `capacity` rows (typed stores; arrays grow by themselves). */
  grow(capacity: number): void {
    if (this.f64 !== null) this.f64 = this.#grown(this.f64, Float64Array, capacity);
    if (this.f32 !== null) this.f32 = this.#grown(this.f32, Float32Array, capacity);
    if (this.i32 !== null) this.i32 = this.#grown(this.i32, Int32Array, capacity);
    if (this.i64 !== null) this.i64 = this.#grown(this.i64, BigInt64Array, capacity);
    if (this.mask !== null) this.mask = this.#grown(this.mask, Uint8Array, capacity).fill(0, this.mask.length);
  }

  #grown<T extends Float64Array | Float32Array | Int32Array | BigInt64Array | Uint8Array>(a: T, cls: new (n: number) => T, capacity: number): T {
    const b = this.#stores.typed(cls, capacity);
    (b as Uint8Array).set(a as Uint8Array);
    this.#stores.give(a);
    return b;
  }

  /** Whether rows [0, rows) hold a value (a column of nulls only is left out of the tablet). */
  hasValues(rows: number): boolean {
    const cells = this.cells;
    if (cells !== null) {
      for (let r = 0; r < rows; r++) if (cells[r] != null) return true;
      return false;
    }
    if (this.mask === null) return rows > 0;
    for (let r = 0; r < rows; r++) if (this.mask[r] === 0) return true;
    return false;
  }

  /** Hands its cells over (to a request) and starts again empty with room for `capacity` rows. */
  takeValues(rows: number, capacity: number): TakenColumn {
    const values = (this.f64 ?? this.f32 ?? this.i32 ?? this.i64 ?? this.cells)!;
    if (this.cells !== null && this.cells.length !== rows) this.cells.length = rows; // a reused array's old tail
    const taken = { values, mask: this.mask, nulls: hasNull(this.mask, rows) };
    this.#allocate(capacity);
    this.mask = null;
    return taken;
  }

  #allocate(capacity: number): void {
    const pool = this.#stores;
    this.f64 = this.f32 = this.i32 = this.i64 = this.cells = null;
    switch (this.type) {
      case TSDataType.FLOAT: this.f32 = pool.typed(Float32Array, capacity); break;
      case TSDataType.INT32: this.i32 = pool.typed(Int32Array, capacity); break;
      case TSDataType.DOUBLE:
      case TSDataType.INT64:
      case TSDataType.TIMESTAMP: this.f64 = pool.typed(Float64Array, capacity); break;
      default: this.cells = pool.cells();
    }
  }

  #capacity(): number {
    return (this.f64 ?? this.f32 ?? this.i32 ?? this.i64)!.length;
  }
}

function hasNull(m: Uint8Array | null, rows: number): boolean {
  if (m === null) return false;
  for (let r = 0; r < rows; r++) if (m[r] === 1) return true;
  return false;
}

/** A column's cells as a flush took them: `nulls` whether rows [0, rows) hold a null (then `mask` says where). */
export interface TakenColumn {
  readonly values: ColumnInput;
  readonly mask: Uint8Array | null;
  readonly nulls: boolean;
}

function isDate(v: unknown): boolean {
  if (!(v instanceof Date) && typeof v !== 'string') return false;
  try {
    encodeDate('', v);
    return true;
  } catch {
    return false;
  }
}
