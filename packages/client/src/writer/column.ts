import type { StorePool } from './store-pool.js';
import {
  ColumnCategory,
  TSDataType,
  checkCell,
  cellError,
  dateToTime,
  encodeDate,
  isInt64,
  notUtf8Bytes,
  overflowsFloat32,
  StridedColumn,
  tagBytesError,
  type CellValue,
  type ColumnInput,
  type TimestampPrecision,
} from '@iotdb/fast-serializer';

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A buffer's numeric cells, row-major: row r's cells at `data[r * width + slot]`. Appending a row writes one run
 * of memory; a store per column would write one cell into each of dozens of arrays, and with a hundred devices
 * buffering at once most of those stores miss the cache.
 */
export interface Stage {
  data: Float64Array;
  width: number;
}

/** The types kept in the stage (as float64: FLOAT rounded when encoded, int64 while safe integers). */
export function isStaged(type: TSDataType): boolean {
  return (
    type === TSDataType.DOUBLE ||
    type === TSDataType.FLOAT ||
    type === TSDataType.INT32 ||
    type === TSDataType.INT64 ||
    type === TSDataType.TIMESTAMP
  );
}

/** What a column needs of its buffer. */
export interface ColumnContext {
  readonly precision: TimestampPrecision;
  readonly stores: StorePool;
  readonly stage: Stage;
  /** a slot in the stage for a new numeric column */
  claimSlot(): number;
  /** a column left the stage (an int64 beyond 2^53): compiled puts that stored into its slot are stale */
  unstaged(): void;
  /** a column got a null mask (values must clear their bit from now until the flush) */
  masked(): void;
}

/**
 * One measurement (tree) or column (table) of a buffered tablet: a slot of its buffer's stage for the numeric
 * types (nulls in a byte mask beside it), an array of values for the others, or its own BigInt64Array for an
 * int64 column once a bigint beyond 2^53 came. Every row of the tablet sets every column, a value or a null, so
 * a row that failed half way is simply overwritten.
 */
export class Column {
  /** its slot in the stage, or -1 */
  slot = -1;
  /** INT64 and TIMESTAMP from the first bigint beyond 2^53 on */
  i64: BigInt64Array | null = null;
  /** BOOLEAN, TEXT, STRING, BLOB, DATE: the values themselves, null for a null */
  cells: CellValue[] | null = null;
  /** stage and int64 columns: 1 where the row is null (allocated at the first null) */
  mask: Uint8Array | null = null;
  /** the last row (by writer sequence) that set a value here */
  stamp = -1;
  readonly #context: ColumnContext;

  /** `nullRows`: the rows the tablet has already, null in this new column */
  constructor(
    readonly name: string,
    readonly type: TSDataType,
    readonly category: ColumnCategory,
    nullRows: number,
    context: ColumnContext,
  ) {
    this.#context = context;
    if (isStaged(type)) this.slot = context.claimSlot();
    else this.cells = context.stores.cells();
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
        this.#stage(row, v);
        return 8;
      case TSDataType.FLOAT:
        if (typeof v !== 'number' || overflowsFloat32(v)) return -1;
        this.#stage(row, v);
        return 4;
      case TSDataType.INT32:
        if (typeof v !== 'number' || (v | 0) !== v) return -1;
        this.#stage(row, v);
        return 4;
      case TSDataType.INT64:
        return this.#putInt64(row, v);
      case TSDataType.TIMESTAMP:
        return this.#putInt64(
          row,
          v instanceof Date && !Number.isNaN(v.getTime()) ? dateToTime(v, this.#context.precision, this.name) : v,
        );
      case TSDataType.BOOLEAN:
        if (typeof v !== 'boolean') return -1;
        this.cells![row] = v;
        return 1;
      case TSDataType.DATE:
        if (!isDate(v)) return -1;
        this.cells![row] = v as Date | string;
        return 4;
      default: {
        // TEXT, STRING (strings or bytes), BLOB (bytes); a TAG's bytes UTF-8 (IoTDB keeps tags as text)
        const bytes =
          v instanceof Uint8Array
            ? this.category === ColumnCategory.TAG && notUtf8Bytes(v)
              ? -1
              : v.length
            : typeof v === 'string' && this.type !== TSDataType.BLOB && v.isWellFormed() // else U+FFFD on the wire
              ? 3 * v.length
              : -1;
        if (bytes < 0) return -1;
        this.cells![row] = v as string | Uint8Array;
        return 4 + bytes;
      }
    }
  }

  #stage(row: number, v: number): void {
    const stage = this.#context.stage;
    stage.data[row * stage.width + this.slot] = v;
  }

  #putInt64(row: number, v: unknown): number {
    if (!isInt64(v)) return -1;
    if (this.slot >= 0) {
      if (typeof v === 'number') this.#stage(row, v);
      else if (v >= MIN_SAFE && v <= MAX_SAFE) this.#stage(row, Number(v));
      else {
        this.#unstage(row);
        this.i64![row] = v;
      }
    } else this.i64![row] = typeof v === 'bigint' ? v : BigInt(v);
    return 8;
  }

  /** Moves its rows before `row` from the stage into its own BigInt64Array (a bigint beyond 2^53 came). */
  #unstage(row: number): void {
    const { stage, stores } = this.#context;
    const i64 = stores.typed(BigInt64Array, this.#capacity());
    for (let r = 0; r < row; r++) {
      const x = stage.data[r * stage.width + this.slot];
      i64[r] = Number.isSafeInteger(x) ? BigInt(x) : 0n; // anything else is a null row's leftover
    }
    this.i64 = i64;
    this.slot = -1;
    this.#context.unstaged();
  }

  putNull(row: number): void {
    if (this.cells !== null) this.cells[row] = null;
    else {
      if (this.mask === null) {
        this.mask = this.#context.stores.zeroed(this.#capacity());
        this.#context.masked();
      }
      this.mask[row] = 1;
    }
  }

  /** Why v is not a value of this column, named `field` (the precise message of the tablet checks). */
  error(field: string, v: unknown): Error {
    if (this.category === ColumnCategory.TAG && notUtf8Bytes(v)) return tagBytesError(field, v as Uint8Array);
    try {
      checkCell(this.type, v, field, this.#context.precision);
    } catch (e) {
      return e as Error;
    }
    return cellError(field, this.type, v);
  }

  /** Room for `capacity` rows (the stage is its buffer's to grow; arrays grow by themselves). */
  grow(capacity: number): void {
    if (this.i64 !== null) this.i64 = this.#grown(this.i64, BigInt64Array, capacity);
    if (this.mask !== null) this.mask = this.#grown(this.mask, Uint8Array, capacity).fill(0, this.mask.length);
  }

  #grown<T extends BigInt64Array | Uint8Array>(a: T, cls: new (n: number) => T, capacity: number): T {
    const b = this.#context.stores.typed(cls, capacity);
    (b as Uint8Array).set(a as Uint8Array);
    this.#context.stores.give(a);
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

  /**
   * Hands its cells over (to a request) and starts again empty with room for `capacity` rows; a staged column's
   * cells are its slot of `stage`, the block the buffer hands over with it.
   */
  takeValues(rows: number, capacity: number, stage: Stage): TakenColumn {
    const values =
      this.slot >= 0 ? new StridedColumn(stage.data, stage.width, this.slot, rows) : (this.i64 ?? this.cells)!;
    if (this.cells !== null && this.cells.length !== rows) this.cells.length = rows; // a reused array's old tail
    const taken = { values, mask: this.mask, nulls: hasNull(this.mask, rows) };
    if (this.i64 !== null) this.i64 = this.#context.stores.typed(BigInt64Array, capacity);
    if (this.cells !== null) this.cells = this.#context.stores.cells();
    this.mask = null;
    return taken;
  }

  #capacity(): number {
    const stage = this.#context.stage;
    return this.i64?.length ?? stage.data.length / stage.width;
  }
}

function hasNull(m: Uint8Array | null, rows: number): boolean {
  if (m === null) return false;
  for (let r = 0; r < rows; r++) if (m[r] === 1) return true;
  return false;
}

/** A column's cells as a flush took them: `nulls` whether rows [0, rows) hold a null (then `mask` says where). */
export interface TakenColumn {
  readonly values: ColumnInput | StridedColumn;
  readonly mask: Uint8Array | null;
  readonly nulls: boolean;
}

/** A `Date` or a `YYYY-MM-DD` string of a real day: a DATE value. */
export function isDate(v: unknown): boolean {
  if (!(v instanceof Date) && typeof v !== 'string') return false;
  try {
    encodeDate('', v);
    return true;
  } catch {
    return false;
  }
}
