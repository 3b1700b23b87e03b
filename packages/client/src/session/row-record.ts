import { IoTDBValidationError, TSDataType, decodeDate, type DecodedColumn } from '@iotdb/fast-serializer';
import type { Int64Mode } from './options.js';

/** A query cell in JS: BOOLEAN boolean, INT32/FLOAT/DOUBLE number, INT64/TIMESTAMP bigint (or number), DATE Date, TEXT/STRING string, BLOB Buffer. */
export type IoTDBValue = boolean | number | bigint | string | Date | Buffer | null;

/** One row of a query result. */
export class RowRecord {
  /** the row's time (null for results without a time column, e.g. the table model: there `time` is a value column) */
  readonly timestamp: bigint | number | null;
  /** the value columns, in `SessionDataSet.columnNames` order without `Time` */
  readonly values: readonly IoTDBValue[];
  readonly #index: ReadonlyMap<string, number>;

  constructor(timestamp: bigint | number | null, values: IoTDBValue[], index: ReadonlyMap<string, number>) {
    this.timestamp = timestamp;
    this.values = values;
    this.#index = index;
  }

  /** The value of a column by its name as the server named it (`root.sg.d1.s1`, `time`, ...); 'Time' gives the timestamp. */
  getValue(column: string): IoTDBValue {
    const i = this.#index.get(column);
    if (i === undefined) {
      if (column === 'Time' && this.timestamp !== null) return this.timestamp;
      throw new IoTDBValidationError('column', `no column "${column}" in this result (columns: ${[...this.#index.keys()].join(', ')})`);
    }
    return this.values[i];
  }

  /** column name -> value, plus `Time` when the result has a time column */
  toObject(): Record<string, IoTDBValue> {
    const out: Record<string, IoTDBValue> = {};
    if (this.timestamp !== null) out.Time = this.timestamp;
    for (const [name, i] of this.#index) out[name] = this.values[i];
    return out;
  }
}

/** INT64 as number, refusing to round. */
export function int64ToNumber(v: bigint): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) {
    throw new IoTDBValidationError('int64As', `INT64 value ${v} is beyond Number.MAX_SAFE_INTEGER; use int64As: 'bigint'`);
  }
  return n;
}

/**
 * A decoded column as JS values, for the row iterator. Converting a whole column in one loop per type
 * keeps every element access monomorphic; reading cell by cell across typed arrays of six kinds was
 * the row iterator's main cost (measured: ~45% of its time).
 */
export function jsColumn(col: DecodedColumn, rows: number, int64As: Int64Mode): IoTDBValue[] {
  const out: IoTDBValue[] = new Array(rows);
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
