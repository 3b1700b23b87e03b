import { TSDataType, decodeDate, type DecodedColumn } from '@iotdb/fast-serializer';
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
      throw new RangeError(`no column "${column}" in this result (columns: ${[...this.#index.keys()].join(', ')})`);
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
    throw new RangeError(`INT64 value ${v} is beyond Number.MAX_SAFE_INTEGER; use int64As: 'bigint'`);
  }
  return n;
}

export function cellValue(col: DecodedColumn, row: number, int64As: Int64Mode): IoTDBValue {
  if (col.nulls !== null && col.nulls[row] === 1) return null;
  const v = col.values[row];
  switch (col.type) {
    case TSDataType.BOOLEAN:
      return v === 1;
    case TSDataType.INT64:
    case TSDataType.TIMESTAMP:
      return int64As === 'number' ? int64ToNumber(v as bigint) : (v as bigint);
    case TSDataType.DATE:
      return decodeDate(v as number);
    default:
      return v as IoTDBValue;
  }
}
