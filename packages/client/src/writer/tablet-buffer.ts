import {
  ColumnCategory,
  IoTDBValidationError,
  describeValue,
  TSDataType,
  sortOrder,
  StridedColumn,
  columnNameProblem,
  sameColumnAs,
  serverName,
  tableTypeProblem,
  type CellValue,
  type PreparedTablet,
  type TimestampPrecision,
} from '@iotdb/fast-serializer';
import { Column, type ColumnContext, type Stage, type TakenColumn } from './column.js';
import { compiledPut, type CompiledPut } from './compiled-put.js';
import type { StorePool } from './store-pool.js';
import { tabletParts, type TabletPart } from './device-keys.js';

/** The type a new column gets: the declared one, or one inferred from its first value (undefined: no rule for it). */
export type TypeOf = (name: string, first: unknown, category: ColumnCategory) => TSDataType | undefined;

interface Shape {
  names: string[];
  /** undefined where a name had only nulls so far */
  columns: (Column | undefined)[];
  /** for a buffer without null masks, and (made when needed) for one with */
  put: CompiledPut | null;
  putMasked: CompiledPut | null;
  /** how many of `columns` exist */
  defined: number;
}

/** What every buffer of a writer shares. */
export interface BufferSpec {
  /** the row being put (rows are put one at a time, begin to commit, whichever buffer they go to) */
  readonly row: RowScratch;
  /** table model (the tablet carries column categories) */
  readonly table: boolean;
  readonly isAligned: boolean;
  readonly precision: TimestampPrecision;
  /** rows allocated at first (doubled when full) */
  readonly capacity: number;
  readonly typeOf: TypeOf;
  /** where column arrays come from and go back to */
  readonly stores: StorePool;
}

/** One row's bookkeeping while it is put: a writer's buffers share one (a buffer of its own cost 3 arrays a device). */
export class RowScratch {
  /** the categories of the current row read name by name, with the names they had */
  readonly reshaped: { shape: Shape; seen: string[] }[] = [];
  /** the current row's new names and values, added once the whole row is valid */
  readonly fresh: { column: Column; bytes: number }[] = [];
  /** the shapes whose compiled puts took categories of the current row */
  readonly compiled: Shape[] = [];
}

/** A flushed tablet: what goes on the wire, and its rows as cells again for reporting a failure. */
export interface TakenTablet {
  readonly tablet: PreparedTablet;
  /** the devices it holds rows of: a request waits for an earlier one holding any of them */
  readonly devices: readonly string[];
  /** source row i: its time and, per category, its non-null cells by name */
  timeAt(i: number): number | bigint;
  cellsAt(i: number, category: ColumnCategory): Record<string, CellValue>;
  /** its arrays go back to the writer's pool: call once the request is settled and the rows reported */
  release(): void;
}

/**
 * The rows of one tree device, or one table, as columns (see Column): the writer appends rows one at a
 * time and, at a flush, takes them as one PreparedTablet, sorted by time if they came out of order.
 * A row with a new name adds a column (earlier rows null there); a row without a name is null there. It is its
 * columns' ColumnContext (an object and three closures of their own cost 250 bytes a device).
 */
export class TabletBuffer implements ColumnContext {
  rows = 0;
  #capacity: number;
  #times: Int64Store;
  /** the numeric cells of its rows, row-major (see Stage) */
  readonly stage: Stage = { data: new Float64Array(0), width: 0 };
  readonly precision: TimestampPrecision;
  readonly stores: StorePool;
  /** columns with a null mask (until the flush) */
  #masks = 0;
  #sorted = true;
  /** (made anew, not pushed to, when a row adds columns: a pushed array keeps room for 17 of them) */
  #columns: Column[] = [];
  readonly #byName = new Map<string, Column>();
  /**
   * the columns by the name the server reads (serverName): a table's in lower case (`Temp` and `temp` are one column),
   * a tree measurement's without backquotes (`` `s1` `` and s1 are one series)
   */
  readonly #byServerName = new Map<string, Column>();
  /**
   * per category, made at its first row (a tree device has one of three): the names of the last row read name by
   * name, their columns, and a compiled put once they repeat
   */
  readonly #shapes: (Shape | undefined)[] = [undefined, undefined, undefined];
  /** the current row's bytes on the wire, and how many columns the compiled puts of its categories set */
  #rowBytes = 0;
  #covered = 0;

  /** the keys rows gave it: a device's (a table's) spellings, the first its `key` */
  readonly spellings: string[] = [];

  constructor(
    readonly key: string,
    private readonly spec: BufferSpec,
    /** when its rows were last taken (or it was made), on performance.now()'s clock */
    public lastRowsAt: number,
  ) {
    this.#capacity = spec.capacity;
    this.precision = spec.precision;
    this.stores = spec.stores;
    this.#times = spec.stores.typed(Float64Array, spec.capacity);
  }

  /** ColumnContext: a slot in the stage for a new numeric column. */
  claimSlot(): number {
    const slot = this.stage.width;
    this.#restage(slot + 1);
    return slot;
  }

  /** ColumnContext: compiled puts store into the slots they were compiled with, so the shapes are learnt again. */
  unstaged(): void {
    for (const shape of this.#shapes) if (shape !== undefined) shape.put = shape.putMasked = null;
  }

  /** ColumnContext: a column got a null mask. */
  masked(): void {
    this.#masks++;
  }

  /** Starts row `rows` at time t (a checked int64 in the server's unit). */
  begin(t: number | bigint): void {
    const row = this.rows;
    if (row === this.#capacity) this.#grow();
    this.#times = putInt64(this.#times, row, t);
    // (setting an array's length costs a builtin call even when it is 0 already)
    const scratch = this.spec.row;
    if (scratch.fresh.length !== 0) scratch.fresh.length = 0;
    if (scratch.reshaped.length !== 0) scratch.reshaped.length = 0;
    if (scratch.compiled.length !== 0) scratch.compiled.length = 0;
    this.#covered = 0;
    this.#rowBytes = 8;
  }

  /**
   * Puts the cells of `entries` (one category) into the current row; throws, naming `field.<name>`, at a
   * value that does not fit its column. `seq` identifies the row (columns it does not set become null).
   */
  put(entries: Record<string, unknown>, category: ColumnCategory, field: string, seq: number): void {
    const shape = (this.#shapes[category] ??= { names: [], columns: [], put: null, putMasked: null, defined: 0 });
    if (shape.put !== null && this.#putKnown(shape, entries)) return;
    this.#putAny(shape, entries, category, field, seq);
  }

  /**
   * The fast path, for a row with the same names in the same order as the rows that made `shape`: its
   * compiled put, no lookup by name. False (nothing to undo: the row is rewritten) when the row turns out
   * to differ or holds a value that needs the general path.
   */
  #putKnown(shape: Shape, entries: Record<string, unknown>): boolean {
    // as many names as the shape, each of them present (the compiled put checks): the same names.
    // A for-in count allocates nothing (Object.keys would make an array per row).
    let count = 0;
    for (const _ in entries) count++;
    if (count !== shape.names.length) return false;
    const stage = this.stage;
    const put = this.#masks === 0 ? shape.put! : (shape.putMasked ??= compiledPut(shape.names, shape.columns, true)!);
    const bytes = put(entries, shape.columns, this.rows, stage.data, this.rows * stage.width);
    if (bytes < 0) return false;
    this.#rowBytes += bytes;
    this.spec.row.compiled.push(shape);
    this.#covered += shape.defined;
    return true;
  }

  /** Any row: its names one by one (a new one makes a column once the whole row is valid). */
  #putAny(shape: Shape, entries: Record<string, unknown>, category: ColumnCategory, field: string, seq: number): void {
    const row = this.rows;
    const seen: string[] = [];
    let bytes = 0;
    for (const name in entries) {
      seen.push(name);
      const v = entries[name];
      if (v == null) continue; // a null cell is the same as a missing one
      const col = this.#byName.get(name) ?? this.#spelledElse(name, field);
      if (col === undefined) {
        this.spec.row.fresh.push(this.#newColumn(name, v, category, field));
        continue;
      }
      if (col.category !== category)
        throw new IoTDBValidationError(
          `${field}.${name}`,
          `is a ${categoryName(col.category)} column of ${this.key}, not a ${categoryName(category)}`,
        );
      // set in this row already, under another spelling
      if (col.stamp === seq) throw this.#sameColumn(`${field}.${name}`, spelledElse(seen, name, this.spec.table));
      const n = col.put(row, v);
      if (n < 0) throw col.error(`${field}.${name}`, v);
      col.stamp = seq;
      bytes += n;
    }
    this.#rowBytes += bytes;
    this.spec.row.reshaped.push({ shape, seen });
  }

  /**
   * After a row read name by name: a category whose names came the same twice in a row gets a compiled put
   * for them (not at once: rows that vary would compile one each).
   */
  #learnShapes(): void {
    const { reshaped } = this.spec.row;
    for (const { shape, seen } of reshaped) {
      const same = seen.length === shape.names.length && seen.every((n, k) => n === shape.names[k]);
      shape.names = seen.slice(); // kept: without the room the row's pushes left
      shape.columns = seen.map((n) => this.#byName.get(n)!);
      shape.defined = shape.columns.filter((c) => c !== undefined).length;
      shape.put = same ? compiledPut(seen, shape.columns, false) : null;
      shape.putMasked = null;
    }
    reshaped.length = 0;
  }

  /**
   * The column of `name` spelt otherwise (serverName: a table's in another case, a tree measurement with or without
   * backquotes), known from now on under `name` too; throws when the current row made it under another spelling (a
   * new column of this row).
   */
  #spelledElse(name: string, field: string): Column | undefined {
    const key = serverName(name, this.spec.table);
    const made = this.spec.row.fresh.find(({ column }) => serverName(column.name, this.spec.table) === key);
    if (made !== undefined) throw this.#sameColumn(`${field}.${name}`, made.column.name); // this row's new column
    const col = this.#byServerName.get(key);
    if (col !== undefined) this.#byName.set(name, col);
    return col;
  }

  /** A row's second name for one column: IoTDB would keep one of the two values, or refuse the tablet. */
  #sameColumn(field: string, first: string): IoTDBValidationError {
    return new IoTDBValidationError(field, sameColumnAs(first, this.spec.table));
  }

  /** the bytes the last committed row takes on the wire */
  get lastRowBytes(): number {
    return this.#rowBytes;
  }

  /** Ends a row whose cells were all accepted: its new columns join, the columns it did not set get a null. */
  commit(seq: number): void {
    const row = this.rows;
    const { fresh, reshaped, compiled } = this.spec.row;
    if (fresh.length !== 0) {
      for (const { column, bytes } of fresh) {
        this.#rowBytes += bytes; // its value was put when it was made
        column.stamp = seq;
        this.#byName.set(column.name, column);
        this.#byServerName.set(serverName(column.name, this.spec.table), column);
      }
      this.#columns = this.#columns.concat(fresh.map((f) => f.column));
      fresh.length = 0;
    }
    if (reshaped.length > 0) this.#learnShapes();
    // every column set by compiled puts (the usual row): nothing to fill in
    if (this.#covered !== this.#columns.length) {
      // -seq: set by a compiled put, value or null, nothing to do
      for (const shape of compiled) for (const col of shape.columns) if (col !== undefined) col.stamp = -seq;
      for (const col of this.#columns) {
        if (col.stamp === -seq) continue;
        if (col.stamp !== seq) col.putNull(row);
        else if (col.mask !== null) col.mask[row] = 0; // a value where an earlier, failed row may have left a null
      }
    }
    if (row > 0 && this.#times[row - 1] > this.#times[row]) this.#sorted = false;
    this.rows = row + 1;
  }

  /**
   * The buffered rows as a tablet (columns of nulls only left out; a table's as its attributeParts); the buffer starts
   * again empty, same columns.
   */
  take(now: number): TakenTablet[] {
    this.lastRowsAt = now;
    const rows = this.rows;
    const stores = this.spec.stores;
    const times = this.#times;
    const timestamps = times.subarray(0, rows);
    const stage = { data: this.stage.data, width: this.stage.width };
    const { cols, taken } = this.#takeColumns(rows, stage);
    this.stage.data = stores.typed(Float64Array, this.#capacity * stage.width);
    this.#masks = 0; // takeValues left every column without a mask
    const tablet: PreparedTablet = {
      prefixPath: this.key,
      measurements: cols.map((c) => c.name),
      types: cols.map((c) => c.type),
      rows,
      timestamps,
      columns: taken.map((t) => t.values),
      order: this.#sorted ? null : sortOrder(timestamps, rows),
      isAligned: this.spec.isAligned,
      rowMajor: false,
      columnCategories: this.spec.table ? cols.map((c) => c.category) : null,
      precision: this.spec.precision,
      nullMasks: taken.map((t) => (t.nulls ? t.mask : null)),
    };
    this.#times = stores.typed(Float64Array, this.#capacity);
    this.#sorted = true;
    this.rows = 0;
    const parts = tabletParts(tablet, this.spec.table);
    let unsettled = parts.length;
    const release = () => {
      if (--unsettled > 0) return; // the parts share the arrays: back once every part is settled
      stores.give(times);
      stores.give(stage.data);
      for (const t of taken) giveBack(stores, t);
    };
    return parts.map((part) => takenTablet(part, cols, taken, release));
  }

  /** Each column's values for `rows` rows; a column of nulls only is left out and its arrays go back at once. */
  #takeColumns(rows: number, stage: Stage): { cols: Column[]; taken: TakenColumn[] } {
    const cols: Column[] = [];
    const taken: TakenColumn[] = [];
    for (const c of this.#columns) {
      const sending = c.hasValues(rows);
      const t = c.takeValues(rows, this.#capacity, stage);
      if (sending) {
        cols.push(c);
        taken.push(t);
      } else giveBack(this.spec.stores, t);
    }
    return { cols, taken };
  }

  /** A column for a name the buffer has not seen, holding v at the current row (it joins at commit). */
  #newColumn(name: string, v: unknown, category: ColumnCategory, field: string): { column: Column; bytes: number } {
    if (name.length === 0) throw new IoTDBValidationError(field, 'has an empty name');
    const illegal = columnNameProblem(name, this.spec.table); // the server would refuse the whole request
    if (illegal !== undefined) throw new IoTDBValidationError(`${field}.${name}`, illegal);
    const type = this.spec.typeOf(name, v, category);
    if (type === undefined)
      throw new IoTDBValidationError(
        `${field}.${name}`,
        `no type is declared and none can be inferred from ${describeValue(v)}`,
      );
    const problem = this.spec.table ? tableTypeProblem(category, type) : undefined; // a tag declared INT32
    if (problem !== undefined) throw new IoTDBValidationError(`${field}.${name}`, problem);
    const col = new Column(name, type, category, this.rows, this);
    const bytes = col.put(this.rows, v);
    if (bytes < 0) throw col.error(`${field}.${name}`, v);
    return { column: col, bytes };
  }

  #grow(): void {
    this.#capacity *= 2;
    const old = this.#times;
    const t =
      old instanceof BigInt64Array
        ? this.spec.stores.typed(BigInt64Array, this.#capacity)
        : this.spec.stores.typed(Float64Array, this.#capacity);
    (t as Float64Array).set(old as Float64Array);
    this.spec.stores.give(old);
    this.#times = t;
    this.#restage(this.stage.width);
    for (const c of this.#columns) c.grow(this.#capacity);
  }

  /** The stage at the current capacity and `width` slots, the rows so far (and the one being written) copied. */
  #restage(width: number): void {
    const { data: old, width: was } = this.stage;
    const data = this.spec.stores.typed(Float64Array, this.#capacity * width);
    const rows = Math.min(this.rows + 1, old.length / Math.max(was, 1), this.#capacity);
    if (was === width) data.set(old.subarray(0, rows * was));
    else for (let r = 0; r < rows; r++) data.set(old.subarray(r * was, r * was + was), r * width);
    this.spec.stores.give(old);
    this.stage.data = data;
    this.stage.width = width;
  }
}

/**
 * Row times: numbers while every time is a safe integer (no bigint per row), a BigInt64Array from the first
 * bigint beyond 2^53 on (ns precision; nothing rounded).
 */
type Int64Store = Float64Array | BigInt64Array;

/** Stores a checked int64 at row i; returns the store, which becomes a BigInt64Array for a bigint past 2^53. */
function putInt64(s: Int64Store, i: number, v: number | bigint): Int64Store {
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

function categoryName(c: ColumnCategory): string {
  return c === ColumnCategory.TAG
    ? 'TAG'
    : c === ColumnCategory.ATTRIBUTE
      ? 'ATTRIBUTE'
      : c === ColumnCategory.FIELD
        ? 'FIELD'
        : 'measurement';
}

/** A taken tablet with what the writer reports of its rows (their times and cells, for a failed write) and its release. */
function takenTablet(
  { tablet, devices }: TabletPart,
  cols: Column[],
  taken: TakenColumn[],
  release: () => void,
): TakenTablet {
  const times = tablet.timestamps;
  return {
    tablet,
    devices,
    timeAt: (i) => times[i],
    cellsAt: (i, category) => {
      const out: Record<string, CellValue> = {};
      cols.forEach((c, k) => {
        const { values, mask } = taken[k];
        if (c.category !== category || mask?.[i] === 1) return;
        const v = values instanceof StridedColumn ? values.at(i) : values[i];
        if (v != null) out[c.name] = c.type === TSDataType.FLOAT ? Math.fround(v as number) : v;
      });
      return out;
    },
    release,
  };
}

/** A taken column's arrays back to the pool (a strided column's values are the stage's, given back with it). */
function giveBack(stores: StorePool, t: TakenColumn): void {
  if (!(t.values instanceof StridedColumn)) stores.give(t.values as BigInt64Array);
  stores.give(t.mask);
}

/** The name of `names` (a row's, so far) that is `name` spelt otherwise (serverName). */
function spelledElse(names: readonly string[], name: string, table: boolean): string {
  const key = serverName(name, table);
  return names.find((n) => n !== name && serverName(n, table) === key)!;
}
