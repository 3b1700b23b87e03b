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

type TypedStore = Float32Array | Float64Array | Int32Array | BigInt64Array;
type Store = TypedStore | CellValue[];

/** The typed array a fixed-width type is buffered in, or null for the types kept as values (strings, booleans, dates). */
function typedStore(type: TSDataType, capacity: number): TypedStore | null {
  switch (type) {
    case TSDataType.FLOAT: return new Float32Array(capacity);
    case TSDataType.DOUBLE: return new Float64Array(capacity);
    case TSDataType.INT32: return new Int32Array(capacity);
    case TSDataType.INT64:
    case TSDataType.TIMESTAMP: return new Float64Array(capacity);
    default: return null;
  }
}

function grown<T extends TypedStore | Uint8Array>(a: T, capacity: number): T {
  const b = new (a.constructor as new (n: number) => T)(capacity);
  (b as Uint8Array).set(a as Uint8Array);
  return b;
}

/**
 * One measurement (tree) or column (table) of a buffered tablet: its cells by row, in a typed array for
 * the numeric types (nulls in a byte mask beside it) or an array of values for the others. Every row of
 * the tablet sets every column, a value or a null, so a row that failed half way is simply overwritten.
 */
export class Column {
  values: Store;
  /** typed stores: 1 where the row is null (allocated at the first null) */
  mask: Uint8Array | null = null;
  /** the last row (by writer sequence) that set a value here */
  stamp = -1;

  constructor(
    readonly name: string,
    readonly type: TSDataType,
    readonly category: ColumnCategory,
    capacity: number,
    nullRows: number,
    private readonly precision: TimestampPrecision,
  ) {
    this.values = typedStore(type, capacity) ?? new Array<CellValue>(nullRows).fill(null);
    if (nullRows > 0 && !Array.isArray(this.values)) (this.mask = new Uint8Array(capacity)).fill(1, 0, nullRows);
  }

  /** Puts v at `row`: the bytes it takes on the wire, or -1 when v is not a value of this type (then see `error`). */
  put(row: number, v: unknown): number {
    const s = this.values;
    if (this.mask !== null) this.mask[row] = 0;
    switch (this.type) {
      case TSDataType.DOUBLE:
        if (typeof v !== 'number') return -1;
        (s as Float64Array)[row] = v;
        return 8;
      case TSDataType.FLOAT:
        if (typeof v !== 'number' || overflowsFloat32(v)) return -1;
        (s as Float32Array)[row] = v;
        return 4;
      case TSDataType.INT32:
        if (typeof v !== 'number' || (v | 0) !== v) return -1;
        (s as Int32Array)[row] = v;
        return 4;
      case TSDataType.INT64:
        if (!isInt64(v)) return -1;
        this.values = putInt64(s as Int64Store, row, v);
        return 8;
      case TSDataType.TIMESTAMP: {
        const t = v instanceof Date && !Number.isNaN(v.getTime()) ? dateToTime(v, this.precision, this.name) : v;
        if (!isInt64(t)) return -1;
        this.values = putInt64(s as Int64Store, row, t);
        return 8;
      }
      case TSDataType.BOOLEAN:
        if (typeof v !== 'boolean') return -1;
        (s as CellValue[])[row] = v;
        return 1;
      case TSDataType.DATE:
        if (!isDate(v)) return -1;
        (s as CellValue[])[row] = v as Date | string;
        return 4;
      default: {
        // TEXT, STRING (strings or bytes), BLOB (bytes)
        const bytes = v instanceof Uint8Array ? v.length : typeof v === 'string' && this.type !== TSDataType.BLOB ? 3 * v.length : -1;
        if (bytes < 0) return -1;
        (s as CellValue[])[row] = v as string | Uint8Array;
        return 4 + bytes;
      }
    }
  }

  putNull(row: number): void {
    const s = this.values;
    if (Array.isArray(s)) s[row] = null;
    else (this.mask ??= new Uint8Array(s.length))[row] = 1;
  }

  /** Why v is not a value of this column, named `field` (the precise message of the tablet checks). */
  error(field: string, v: unknown): Error {
    try {
      checkCell(this.type, v, field, this.precision);
    } catch (e) {
      return e as Error;
    }
    return cellError(field, this.type, v);
  }

  /** Room for `capacity` rows (typed stores; arrays grow by themselves). */
  grow(capacity: number): void {
    if (!Array.isArray(this.values)) this.values = grown(this.values, capacity);
    if (this.mask !== null) this.mask = grown(this.mask, capacity);
  }

  /** Whether rows [0, rows) hold a value (a column of nulls only is left out of the tablet). */
  hasValues(rows: number): boolean {
    const s = this.values;
    if (Array.isArray(s)) {
      for (let r = 0; r < rows; r++) if (s[r] != null) return true;
      return false;
    }
    if (this.mask === null) return rows > 0;
    for (let r = 0; r < rows; r++) if (this.mask[r] === 0) return true;
    return false;
  }

  /** The null mask of rows [0, rows) for the encoder, or null when they hold no null. */
  nullMask(rows: number): Uint8Array | null {
    const m = this.mask;
    if (m === null) return null;
    for (let r = 0; r < rows; r++) if (m[r] === 1) return m;
    return null;
  }

  /** The cell of a row as it will be sent (null for a null). */
  cell(row: number): CellValue {
    if (this.mask !== null && this.mask[row] === 1) return null;
    return this.values[row];
  }

  /** Hands its cells over (to a request) and starts again empty with room for `capacity` rows. */
  takeValues(rows: number, capacity: number): { values: Store; mask: Uint8Array | null } {
    const taken = { values: this.values, mask: this.nullMask(rows) };
    if (Array.isArray(taken.values)) taken.values.length = rows;
    this.values = typedStore(this.type, capacity) ?? [];
    this.mask = null;
    return taken;
  }
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
