import {
  IoTDBValidationError,
  TSDataType,
  dataTypeName,
  decodeDate,
  timeToDate,
  type DecodedColumn,
} from '@iotdb/fast-serializer';
import type { TimestampPrecision } from './node-session.js';
import type { Int64Mode } from './options.js';

/** A query cell in JS: BOOLEAN boolean, INT32/FLOAT/DOUBLE number, INT64/TIMESTAMP bigint (or number), DATE Date, TEXT/STRING string, BLOB Buffer. */
export type IoTDBValue = boolean | number | bigint | string | Date | Buffer | null;

/** What every row of one result shares: column names, declared types, the server's time unit. */
export interface RowShape {
  /** value column name -> position in `values` (the first of duplicate names) */
  readonly index: ReadonlyMap<string, number>;
  /** the declared type of each value column */
  readonly types: readonly TSDataType[];
  readonly precision: TimestampPrecision;
}

/** One row of a query result. */
export class RowRecord {
  /** the row's time as `timestampAs` asks (null for results without a time column, e.g. the table model: there `time` is a value column) */
  readonly timestamp: bigint | number | Date | null;
  /** the value columns, in `SessionDataSet.columnNames` order without `Time` */
  readonly values: readonly IoTDBValue[];
  readonly #shape: RowShape;
  /** the time as it came, in the server's unit (for the typed getters) */
  readonly #time: bigint | number | null;

  /** @internal rows are made by their data set (`for await (const row of ds)`, `ds.next()`). */
  constructor(
    timestamp: bigint | number | Date | null,
    values: IoTDBValue[],
    shape: RowShape,
    time: bigint | number | null = timestamp instanceof Date ? null : timestamp,
  ) {
    this.timestamp = timestamp;
    this.values = values;
    this.#shape = shape;
    this.#time = time;
  }

  /** The value of a column by its name as the server named it (`root.sg.d1.s1`, `time`, ...); 'Time' gives the timestamp. */
  getValue(column: string): IoTDBValue {
    if (column === 'Time' && this.timestamp !== null && !this.#shape.index.has('Time')) return this.timestamp;
    return this.#cell(column).value;
  }

  /** column name -> value, plus `Time` when the result has a time column */
  toObject(): Record<string, IoTDBValue> {
    const out: Record<string, IoTDBValue> = {};
    if (this.timestamp !== null) out.Time = this.timestamp;
    for (const [name, i] of this.#shape.index) out[name] = this.values[i];
    return out;
  }

  // Typed getters, as Java's DataIterator: by column name, or by 1-based position counting the time
  // column as 1. A null cell gives null; a column of another type throws IoTDBValidationError.

  isNull(column: string | number): boolean {
    return this.#cell(column).value === null;
  }

  getBoolean(column: string | number): boolean | null {
    return this.#typed(column, 'getBoolean', BOOLEANS) as boolean | null;
  }

  getInt(column: string | number): number | null {
    return this.#typed(column, 'getInt', INT32S) as number | null;
  }

  /** INT64 or TIMESTAMP as bigint, whatever `int64As` says. */
  getLong(column: string | number): bigint | null {
    const v = this.#typed(column, 'getLong', INT64S) as bigint | number | null;
    return v === null ? null : BigInt(v);
  }

  getFloat(column: string | number): number | null {
    return this.#typed(column, 'getFloat', FLOATS) as number | null;
  }

  /** DOUBLE, or FLOAT widened. */
  getDouble(column: string | number): number | null {
    return this.#typed(column, 'getDouble', DOUBLES) as number | null;
  }

  /** TEXT or STRING as it is; any other type as its string form (as Java's getString). */
  getString(column: string | number): string | null {
    const { value } = this.#cell(column);
    if (value === null || typeof value === 'string') return value;
    if (value instanceof Date) return value.toISOString().slice(0, 10);
    if (Buffer.isBuffer(value)) return `0x${value.toString('hex')}`;
    return String(value);
  }

  /** A TIMESTAMP column or the time column as a Date, converted from the server's time unit (sub-millisecond digits dropped). */
  getTimestamp(column: string | number): Date | null {
    const v = this.#typed(column, 'getTimestamp', TIMESTAMPS) as bigint | number | null;
    return v === null ? null : timeToDate(v, this.#shape.precision);
  }

  getDate(column: string | number): Date | null {
    return this.#typed(column, 'getDate', DATES) as Date | null;
  }

  getBlob(column: string | number): Buffer | null {
    return this.#typed(column, 'getBlob', BLOBS) as Buffer | null;
  }

  #typed(column: string | number, getter: string, allowed: ReadonlySet<TSDataType>): IoTDBValue {
    const { value, type } = this.#cell(column);
    if (!allowed.has(type)) {
      throw new IoTDBValidationError(
        'column',
        `${getter}(${JSON.stringify(column)}): the column is ${dataTypeName(type)}`,
      );
    }
    return value;
  }

  /** The cell of a column by name or 1-based position (the time column first, when there is one). */
  #cell(column: string | number): { value: IoTDBValue; type: TSDataType } {
    const hasTime = this.timestamp !== null;
    let k: number | undefined;
    if (typeof column === 'number') {
      if (!Number.isInteger(column) || column < 1 || column > this.values.length + (hasTime ? 1 : 0)) {
        throw new IoTDBValidationError(
          'column',
          `no column ${column} in this result (1 to ${this.values.length + (hasTime ? 1 : 0)})`,
        );
      }
      if (hasTime && column === 1) return { value: this.#time, type: TSDataType.TIMESTAMP };
      k = column - (hasTime ? 2 : 1);
    } else {
      k = this.#shape.index.get(column);
      if (k === undefined) {
        if (column === 'Time' && hasTime) return { value: this.#time, type: TSDataType.TIMESTAMP };
        throw new IoTDBValidationError(
          'column',
          `no column "${column}" in this result (columns: ${[...this.#shape.index.keys()].join(', ')})`,
        );
      }
    }
    return { value: this.values[k], type: this.#shape.types[k] };
  }
}

const BOOLEANS = new Set([TSDataType.BOOLEAN]);
const INT32S = new Set([TSDataType.INT32]);
const INT64S = new Set([TSDataType.INT64, TSDataType.TIMESTAMP]);
const FLOATS = new Set([TSDataType.FLOAT]);
const DOUBLES = new Set([TSDataType.FLOAT, TSDataType.DOUBLE]);
const TIMESTAMPS = new Set([TSDataType.TIMESTAMP]);
const DATES = new Set([TSDataType.DATE]);
const BLOBS = new Set([TSDataType.BLOB]);

/** INT64 as number, refusing to round. */
export function int64ToNumber(v: bigint): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) {
    throw new IoTDBValidationError(
      'int64As',
      `INT64 value ${v} is beyond Number.MAX_SAFE_INTEGER; use int64As: 'bigint'`,
    );
  }
  return n;
}

/**
 * A decoded column as JS values, for the row iterator. Converting a whole column in one loop per type
 * keeps every element access monomorphic; reading cell by cell across typed arrays of six kinds was
 * the row iterator's main cost (measured: ~45% of its time).
 */
export function jsColumn(col: DecodedColumn, rows: number, int64As: Int64Mode): IoTDBValue[] {
  const out = new Array<IoTDBValue>(rows);
  switch (col.type) {
    case TSDataType.BOOLEAN: {
      const v = col.values as Uint8Array;
      for (let i = 0; i < rows; i++) out[i] = v[i] === 1;
      break;
    }
    case TSDataType.INT64:
    case TSDataType.TIMESTAMP: {
      const v = col.values as BigInt64Array;
      if (int64As === 'number') {
        // an unsafe value stays a bigint here; reading its row throws (RowRecord values are checked there)
        for (let i = 0; i < rows; i++) {
          const n = Number(v[i]);
          out[i] = Number.isSafeInteger(n) ? n : v[i];
        }
      } else {
        for (let i = 0; i < rows; i++) out[i] = v[i];
      }
      break;
    }
    case TSDataType.DATE: {
      const v = col.values as Int32Array;
      for (let i = 0; i < rows; i++) out[i] = decodeDate(v[i]);
      break;
    }
    case TSDataType.INT32: {
      const v = col.values as Int32Array;
      for (let i = 0; i < rows; i++) out[i] = v[i];
      break;
    }
    case TSDataType.FLOAT: {
      const v = col.values as Float32Array;
      for (let i = 0; i < rows; i++) out[i] = v[i];
      break;
    }
    case TSDataType.DOUBLE: {
      const v = col.values as Float64Array;
      for (let i = 0; i < rows; i++) out[i] = v[i];
      break;
    }
    default: {
      const v = col.values as (string | Buffer | null)[];
      for (let i = 0; i < rows; i++) out[i] = v[i];
    }
  }
  const nulls = col.nulls;
  if (nulls !== null) for (let i = 0; i < rows; i++) if (nulls[i] === 1) out[i] = null;
  return out;
}
