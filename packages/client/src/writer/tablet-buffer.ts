import {
  ColumnCategory,
  IoTDBValidationError,
  describeValue,
  TSDataType,
  sortOrder,
  type CellValue,
  type PreparedTablet,
  type TimestampPrecision,
} from '@iotdb/fast-serializer';
import { Column, putInt64, type Int64Store } from './column.js';

/** The type a new column gets: the declared one, or one inferred from its first value (undefined: no rule for it). */
export type TypeOf = (name: string, first: unknown, category: ColumnCategory) => TSDataType | undefined;

/** What every buffer of a writer shares. */
export interface BufferSpec {
  /** table model (the tablet carries column categories) */
  readonly table: boolean;
  readonly isAligned: boolean;
  readonly precision: TimestampPrecision;
  /** rows allocated at first (doubled when full) */
  readonly capacity: number;
  readonly typeOf: TypeOf;
}

/** A flushed tablet: what goes on the wire, and its rows as cells again for reporting a failure. */
export interface TakenTablet {
  readonly tablet: PreparedTablet;
  readonly bytes: number;
  /** source row i: its time and, per category, its non-null cells by name */
  timeAt(i: number): number | bigint;
  cellsAt(i: number, category: ColumnCategory): Record<string, CellValue>;
}

/**
 * The rows of one tree device, or one table, as columns (see Column): the writer appends rows one at a
 * time and, at a flush, takes them as one PreparedTablet, sorted by time if they came out of order.
 * A row with a new name adds a column (earlier rows null there); a row without a name is null there.
 */
export class TabletBuffer {
  rows = 0;
  bytes = 0;
  #capacity: number;
  #times: Int64Store;
  #sorted = true;
  readonly #columns: Column[] = [];
  readonly #byName = new Map<string, Column>();
  /** the current row's new names and values, added once the whole row is valid */
  readonly #fresh: { column: Column; value: unknown }[] = [];
  #rowBytes = 0;

  constructor(
    readonly key: string,
    private readonly spec: BufferSpec,
  ) {
    this.#capacity = spec.capacity;
    this.#times = new Float64Array(spec.capacity);
  }

  /** Starts row `rows` at time t (a checked int64 in the server's unit). */
  begin(t: number | bigint): void {
    const row = this.rows;
    if (row === this.#capacity) this.#grow();
    this.#times = putInt64(this.#times, row, t);
    this.#fresh.length = 0;
    this.#rowBytes = 8;
  }

  /**
   * Puts the cells of `entries` (one category) into the current row; throws, naming `field.<name>`, at a
   * value that does not fit its column. `seq` identifies the row (columns it does not set become null).
   */
  put(entries: Record<string, unknown>, category: ColumnCategory, field: string, seq: number): void {
    const row = this.rows;
    for (const name in entries) {
      const v = entries[name];
      if (v == null) continue; // a null cell is the same as a missing one
      let col = this.#byName.get(name);
      if (col === undefined) {
        col = this.#newColumn(name, v, category, field);
        this.#fresh.push({ column: col, value: v });
        continue;
      }
      if (col.category !== category) throw new IoTDBValidationError(`${field}.${name}`, `is a ${categoryName(col.category)} column of ${this.key}, not a ${categoryName(category)}`);
      const n = col.put(row, v);
      if (n < 0) throw col.error(`${field}.${name}`, v);
      col.stamp = seq;
      this.#rowBytes += n;
    }
  }

  /** the bytes the last committed row takes on the wire */
  get lastRowBytes(): number {
    return this.#rowBytes;
  }

  /** Ends a row whose cells were all accepted: its new columns join, the columns it did not set get a null. */
  commit(seq: number): number {
    const row = this.rows;
    for (const { column, value } of this.#fresh) {
      this.#rowBytes += column.put(row, value);
      column.stamp = seq;
      this.#columns.push(column);
      this.#byName.set(column.name, column);
    }
    this.#fresh.length = 0;
    for (const col of this.#columns) if (col.stamp !== seq) col.putNull(row);
    if (row > 0 && this.#times[row - 1] > this.#times[row]) this.#sorted = false;
    this.rows = row + 1;
    this.bytes += this.#rowBytes;
    return this.#rowBytes;
  }

  /** The buffered rows as a tablet (columns of nulls only left out); the buffer starts again empty, same columns. */
  take(): TakenTablet {
    const rows = this.rows;
    const times = this.#times.subarray(0, rows);
    const cols = this.#columns.filter((c) => c.hasValues(rows));
    const taken = cols.map((c) => c.takeValues(rows, this.#capacity));
    for (const c of this.#columns) if (!cols.includes(c)) c.takeValues(rows, this.#capacity);
    const tablet: PreparedTablet = {
      prefixPath: this.key,
      measurements: cols.map((c) => c.name),
      types: cols.map((c) => c.type),
      rows,
      timestamps: times,
      columns: taken.map((t) => t.values),
      order: this.#sorted ? null : sortOrder(times, rows),
      isAligned: this.spec.isAligned,
      rowMajor: false,
      columnCategories: this.spec.table ? cols.map((c) => c.category) : null,
      precision: this.spec.precision,
      nullMasks: taken.map((t) => t.mask),
    };
    const bytes = this.bytes;
    this.#times = new Float64Array(this.#capacity);
    this.#sorted = true;
    this.rows = 0;
    this.bytes = 0;
    return {
      tablet,
      bytes,
      timeAt: (i) => times[i],
      cellsAt: (i, category) => {
        const out: Record<string, CellValue> = {};
        cols.forEach((c, k) => {
          const { values, mask } = taken[k];
          if (c.category === category && mask?.[i] !== 1 && values[i] != null) out[c.name] = values[i];
        });
        return out;
      },
    };
  }

  #newColumn(name: string, v: unknown, category: ColumnCategory, field: string): Column {
    if (name.length === 0) throw new IoTDBValidationError(field, 'has an empty name');
    const type = this.spec.typeOf(name, v, category);
    if (type === undefined) throw new IoTDBValidationError(`${field}.${name}`, `no type is declared and none can be inferred from ${describeValue(v)}`);
    const col = new Column(name, type, category, this.#capacity, this.rows, this.spec.precision);
    if (col.put(this.rows, v) < 0) throw col.error(`${field}.${name}`, v);
    return col;
  }

  #grow(): void {
    this.#capacity *= 2;
    const t = new (this.#times.constructor as new (n: number) => Int64Store)(this.#capacity);
    (t as Float64Array).set(this.#times as Float64Array);
    this.#times = t;
    for (const c of this.#columns) c.grow(this.#capacity);
  }
}

function categoryName(c: ColumnCategory): string {
  return c === ColumnCategory.TAG ? 'TAG' : c === ColumnCategory.ATTRIBUTE ? 'ATTRIBUTE' : c === ColumnCategory.FIELD ? 'FIELD' : 'measurement';
}
