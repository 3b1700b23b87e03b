import type { inspect as nodeInspect, InspectOptions } from 'node:util';
import {
  IoTDBValidationError,
  TSDataType,
  dataTypeName,
  decodeDate,
  timeToDate,
  type DecodedColumn,
} from '@iotdb/fast-serializer';
import { cellValue, int64WordToNumber, int64Words, type IoTDBValue } from './cell-value.js';
import { javaDateTimeText } from './java-date-time-text.js';
import { javaNumberText } from './java-number-text.js';
import type { TimestampPrecision } from './node-session.js';
import type { Int64Mode, TimestampMode } from './options.js';
import { rowMaker, type RowMaker } from './row-maker.js';

/** What every row of one result shares: column names, declared types, how times and INT64 are given. */
export interface RowShape {
  /** value column name -> position in `values` (the first of duplicate names) */
  readonly index: ReadonlyMap<string, number>;
  /** each value column's key in toObject(), objectKeys of the names: none dropped when a name is given twice */
  readonly objectKeys: readonly string[];
  /** the declared type of each value column */
  readonly types: readonly TSDataType[];
  readonly precision: TimestampPrecision;
  readonly int64As: Int64Mode;
  readonly timestampAs: TimestampMode;
  /** the session's zone when the query went out: getString prints a TIMESTAMP in it */
  readonly timeZone: string;
}

/**
 * What the rows of one decoded block read: its value columns in `values` order and its time column
 * (null for results without one). Rows are views into it: a row costs one small object, and a value is
 * made only when it is read.
 */
export interface RowBlock {
  readonly time: DecodedColumn | null;
  /** the time column's 32-bit words (timestamps as number read without a BigInt each) */
  readonly timeWords: Int32Array | null;
  readonly columns: readonly DecodedColumn[];
  /** the columns by 1-based position - 1: the time column first when there is one (the typed getters' numbering) */
  readonly positions: readonly DecodedColumn[];
  /** makes a row's `values` array when it is read */
  readonly makeRow: RowMaker;
}

/**
 * The key of each value column in a row's object: its name, and for a name given before it (or `Time`, the
 * timestamp's key, when the result has a time column) the name with `#2`, `#3`, ... after it, the first not taken.
 * An object keeps one value a key: a join's `t1.a, t2.a` (both named `a`) would lose its second column.
 */
export function objectKeys(names: readonly string[], hasTime: boolean): string[] {
  const taken = new Set(names);
  const seen = new Set(hasTime ? ['Time'] : []);
  return names.map((name) => {
    if (!seen.has(name)) {
      seen.add(name);
      return name;
    }
    let key = `${name}#2`;
    for (let n = 3; taken.has(key) || seen.has(key); n++) key = `${name}#${n}`;
    seen.add(key);
    return key;
  });
}

/** A RowBlock: a time column (or null) and the value columns, INT64 given as `int64As` says. */
export function rowBlock(time: DecodedColumn | null, columns: readonly DecodedColumn[], int64As: Int64Mode): RowBlock {
  return {
    time,
    timeWords: time === null ? null : int64Words(time.values as BigInt64Array),
    columns,
    positions: time === null ? columns : [time, ...columns],
    makeRow: rowMaker(columns, int64As),
  };
}

const inspectCustom = Symbol.for('nodejs.util.inspect.custom');

/**
 * One row of a query result: a view of its block, read through the typed getters or `values`. Its state
 * is in TypeScript-private fields, not #private ones: V8 inlines the getters' field loads into a caller's
 * loop over rows better (measured: the getters 1.3-1.5x faster, see docs/PERFORMANCE.md "Row iterator").
 */
export class RowRecord {
  private readonly block: RowBlock;
  private readonly r: number;
  private readonly shape: RowShape;
  private valuesMade: IoTDBValue[] | undefined;

  /** @internal rows are made by their data set (`for await (const row of ds)`, `ds.next()`). */
  constructor(block: RowBlock, r: number, shape: RowShape) {
    this.block = block;
    this.r = r;
    this.shape = shape;
  }

  /** the row's time as `timestampAs` asks (null for results without a time column, e.g. the table model: there `time` is a value column) */
  get timestamp(): bigint | number | Date | null {
    const time = this.block.time;
    if (time === null) return null;
    switch (this.shape.timestampAs) {
      case 'number':
        return int64WordToNumber(this.block.timeWords!, this.r, 'timestampAs');
      case 'Date':
        return timeToDate((time.values as BigInt64Array)[this.r], this.shape.precision);
      default:
        return (time.values as BigInt64Array)[this.r];
    }
  }

  /** the value columns, in `SessionDataSet.columnNames` order without `Time` (made on first use) */
  get values(): readonly IoTDBValue[] {
    return (this.valuesMade ??= this.block.makeRow(this.r));
  }

  /** The value of a column by its name as the server named it (`root.sg.d1.s1`, `time`, ...); 'Time' gives the timestamp. */
  getValue(column: string): IoTDBValue {
    const k = this.shape.index.get(column);
    if (k !== undefined) return cellValue(this.block.columns[k], this.r, this.shape.int64As);
    if (column === 'Time' && this.block.time !== null) return this.timestamp;
    return noName(column, this.shape.index);
  }

  /**
   * column name -> value, `Time` first when the result has a time column; a name given again (a join's `t1.a, t2.a`,
   * both `a`) keys its later columns `a#2`, `a#3` (objectKeys), where getValue('a') reads the first
   */
  toObject(): Record<string, IoTDBValue> {
    const out: Record<string, IoTDBValue> = {};
    if (this.block.time !== null) out.Time = this.timestamp;
    const values = this.values;
    const keys = this.shape.objectKeys;
    for (let k = 0; k < keys.length; k++) out[keys[k]] = values[k];
    return out;
  }

  /**
   * As Java's RowRecord.toString: the time (when the result has one), then each value tab-separated, as getString
   * gives it but a DATE as its yyyyMMdd number and a TIMESTAMP as its number (as Java prints them there). Java prints a
   * time of 0 first for a result without one (a table-model query, an aggregation, SHOW); this leaves it out.
   */
  toString(): string {
    const { positions } = this.block;
    let out = '';
    for (let k = 0; k < positions.length; k++) {
      const c = positions[k];
      const isNull = c.nulls !== null && c.nulls[this.r] === 1;
      const cell = isNull
        ? null
        : ((AS_NUMBER >>> c.type) & 1) === 1
          ? String(c.values[this.r])
          : this.getString(k + 1);
      out += `${k > 0 ? '\t' : ''}${cell ?? 'null'}`;
    }
    return out;
  }

  /**
   * `JSON.stringify(row)` gives `toObject()` with each bigint (a time or INT64, by default) as its decimal string:
   * JSON has no 64-bit integer, and a number would lose digits beyond 2^53 (ask for `number` to have numbers).
   */
  toJSON(): Record<string, Exclude<IoTDBValue, bigint>> {
    const out = this.toObject();
    for (const [name, value] of Object.entries(out)) if (typeof value === 'bigint') out[name] = String(value);
    return out as Record<string, Exclude<IoTDBValue, bigint>>;
  }

  /** `console.log(row)` shows its columns and values, not the block it is a view of. */
  [inspectCustom](depth: number, options: InspectOptions, inspect: typeof nodeInspect): string {
    if (depth < 0) return '[RowRecord]';
    return `RowRecord ${inspect(this.toObject(), { ...options, depth: options.depth === null ? null : depth - 1 })}`;
  }

  // Typed getters, as Java's DataIterator: by column name, or by 1-based position counting the time
  // column as 1. A null cell gives null; a column of another type throws IoTDBValidationError. Each reads
  // its column's own array kind, so that a loop over many rows stays on one fast path per getter.

  isNull(column: string | number): boolean {
    const c = this.column(column);
    return c.nulls !== null && c.nulls[this.r] === 1;
  }

  getBoolean(column: string | number): boolean | null {
    const c = this.typed(column, 'getBoolean', BOOLEANS);
    return c === null ? null : (c.values as Uint8Array)[this.r] === 1;
  }

  getInt(column: string | number): number | null {
    const c = this.typed(column, 'getInt', INT32S);
    return c === null ? null : (c.values as Int32Array)[this.r];
  }

  /** INT64 or TIMESTAMP as bigint, whatever `int64As` says. */
  getLong(column: string | number): bigint | null {
    const c = this.typed(column, 'getLong', INT64S);
    return c === null ? null : (c.values as BigInt64Array)[this.r];
  }

  getFloat(column: string | number): number | null {
    const c = this.typed(column, 'getFloat', FLOATS);
    return c === null ? null : (c.values as Float32Array)[this.r];
  }

  /** DOUBLE, or FLOAT widened. */
  getDouble(column: string | number): number | null {
    const c = this.typed(column, 'getDouble', DOUBLES);
    return c === null ? null : (c.values as Float32Array | Float64Array)[this.r];
  }

  /**
   * TEXT or STRING as it is; any other type as its string form, as Java's getString: a TIMESTAMP column's value as
   * its date and time in the session's zone (`2024-02-29T08:00:00.001+08:00`), the time column as its number.
   */
  getString(column: string | number): string | null {
    const c = this.column(column);
    const nulls = c.nulls;
    if (nulls !== null && nulls[this.r] === 1) return null;
    // text read straight from its column: the generic cell reader meets every column kind and is slower
    if (((TEXTS >>> c.type) & 1) === 1) return (c.values as string[])[this.r];
    if (c.type === TSDataType.TIMESTAMP && c !== this.block.time) {
      const { precision, timeZone } = this.shape;
      return javaDateTimeText((c.values as BigInt64Array)[this.r], precision, timeZone);
    }
    return stringOf(cellValue(c, this.r, 'bigint'), c.type);
  }

  /** A TIMESTAMP column or the time column as a Date, converted from the server's time unit (sub-millisecond digits dropped). */
  getTimestamp(column: string | number): Date | null {
    const c = this.typed(column, 'getTimestamp', TIMESTAMPS);
    return c === null ? null : timeToDate((c.values as BigInt64Array)[this.r], this.shape.precision);
  }

  getDate(column: string | number): Date | null {
    const c = this.typed(column, 'getDate', DATES);
    return c === null ? null : decodeDate((c.values as Int32Array)[this.r]);
  }

  /**
   * BLOB as it is; TEXT or STRING as its bytes (as the Java RowRecord's Field.getBinaryV), exactly as stored when
   * they are not UTF-8 too, where getString has U+FFFD in their place.
   */
  getBlob(column: string | number): Buffer | null {
    const c = this.typed(column, 'getBlob', BINARIES);
    if (c === null) return null;
    const value = (c.values as (Buffer | string)[])[this.r];
    if (typeof value !== 'string') return value;
    return c.rawText?.get(this.r) ?? Buffer.from(value, 'utf8');
  }

  /** The column, checked against the getter's types (a mask of TSDataType bits); null when this row's cell is null. */
  private typed(column: string | number, getter: string, allowed: number): DecodedColumn | null {
    const c = this.column(column);
    if (((allowed >>> c.type) & 1) === 0) wrongType(column, getter, c.type);
    const nulls = c.nulls;
    return nulls !== null && nulls[this.r] === 1 ? null : c;
  }

  /** A column by name or 1-based position (the time column first, when there is one). */
  private column(column: string | number): DecodedColumn {
    const c = typeof column === 'number' ? this.block.positions[column - 1] : this.named(column);
    return c ?? noPosition(column as number, this.block.positions.length);
  }

  private named(column: string): DecodedColumn {
    const k = this.shape.index.get(column);
    if (k !== undefined) return this.block.columns[k];
    if (column === 'Time' && this.block.time !== null) return this.block.time;
    return noName(column, this.shape.index);
  }
}

// the getters' errors, out of line: the getters stay small enough for V8 to inline into the caller's loop

function wrongType(column: string | number, getter: string, type: TSDataType): never {
  throw new IoTDBValidationError('column', `${getter}(${JSON.stringify(column)}): the column is ${dataTypeName(type)}`);
}

/** A non-text cell as Java's getString gives it. */
function stringOf(value: IoTDBValue, type: TSDataType): string | null {
  if (value === null || typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (Buffer.isBuffer(value)) return `0x${value.toString('hex')}`;
  if (type === TSDataType.FLOAT || type === TSDataType.DOUBLE)
    return javaNumberText(value as number, type === TSDataType.FLOAT);
  return String(value);
}

function noPosition(column: number, count: number): never {
  throw new IoTDBValidationError('column', `no column ${column} in this result (1 to ${count})`);
}

function noName(column: string, index: ReadonlyMap<string, number>): never {
  throw new IoTDBValidationError(
    'column',
    `no column "${column}" in this result (columns: ${[...index.keys()].join(', ')})`,
  );
}

/** The types each getter reads, as bit masks (bit t = TSDataType t). */
const mask = (...types: TSDataType[]): number => types.reduce<number>((m, t) => m | (1 << t), 0);
const BOOLEANS = mask(TSDataType.BOOLEAN);
const INT32S = mask(TSDataType.INT32);
const INT64S = mask(TSDataType.INT64, TSDataType.TIMESTAMP);
const FLOATS = mask(TSDataType.FLOAT);
const DOUBLES = mask(TSDataType.FLOAT, TSDataType.DOUBLE);
const TIMESTAMPS = mask(TSDataType.TIMESTAMP);
/** what Java's RowRecord.toString prints as the number it holds, where getString gives a date */
const AS_NUMBER = mask(TSDataType.DATE, TSDataType.TIMESTAMP);
const DATES = mask(TSDataType.DATE);
const BINARIES = mask(TSDataType.BLOB, TSDataType.TEXT, TSDataType.STRING);
const TEXTS = mask(TSDataType.TEXT, TSDataType.STRING);
