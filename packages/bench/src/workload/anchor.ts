import { TSDataType, type Tablet } from '@iotdb/client';

/**
 * The anchor workload of packages/bench/java/Bench.java (the Java anchor), value for value, so that our client and
 * the Java client do identical work: 50 sensors typed 30/20/20/10/10/10 % FLOAT/DOUBLE/INT32/INT64/
 * TEXT/BOOLEAN, row g of device d at T0 + g*1000 ms, "pattern" values:
 * FLOAT (g%1000)*0.5+s, DOUBLE (g%3600)*0.25+d, INT32 g%10000+s, INT64 g*10+d,
 * TEXT "value-NN" with NN = (g+s)%100, BOOLEAN (g+s)%2 == 0.
 */
const T0 = 1_700_000_000_000;

interface AnchorShape {
  sensors: number;
  rows: number;
}

export function anchorTypes(sensors: number): TSDataType[] {
  const types: TSDataType[] = [];
  for (let s = 0; s < sensors; s++) {
    const f = s / sensors;
    types.push(
      f < 0.3
        ? TSDataType.FLOAT
        : f < 0.5
          ? TSDataType.DOUBLE
          : f < 0.7
            ? TSDataType.INT32
            : f < 0.8
              ? TSDataType.INT64
              : f < 0.9
                ? TSDataType.TEXT
                : TSDataType.BOOLEAN,
    );
  }
  return types;
}

const TEXT = Array.from({ length: 100 }, (_, i) => `value-${String(i).padStart(2, '0')}`);

const deviceId = (d: number): string => `root.bench.d${String(d).padStart(3, '0')}`;

type AnchorColumn = Float32Array | Float64Array | Int32Array | BigInt64Array | string[] | boolean[];

/**
 * Builds anchor tablets into arrays allocated once and refilled per batch: typed arrays for the
 * numeric columns (the client's fast path), plain arrays for TEXT and BOOLEAN. Memory stays flat.
 */
export class AnchorTabletBuilder {
  readonly types: TSDataType[];
  readonly measurements: string[];
  readonly #rows: number;
  readonly #timestamps: Float64Array;
  readonly #columns: AnchorColumn[];

  constructor({ sensors, rows }: AnchorShape) {
    this.types = anchorTypes(sensors);
    this.measurements = this.types.map((_, s) => `s${s}`);
    this.#rows = rows;
    this.#timestamps = new Float64Array(rows);
    this.#columns = this.types.map((t) => {
      switch (t) {
        case TSDataType.FLOAT:
          return new Float32Array(rows);
        case TSDataType.DOUBLE:
          return new Float64Array(rows);
        case TSDataType.INT32:
          return new Int32Array(rows);
        case TSDataType.INT64:
          return new BigInt64Array(rows);
        case TSDataType.TEXT:
          return new Array<string>(rows).fill('');
        default:
          return new Array<boolean>(rows).fill(false);
      }
    });
  }

  /** Rows [g0, g0 + rows) of device d, column-major; the arrays are reused by the next call. */
  fill(d: number, g0: number): Tablet {
    const rows = this.#rows;
    for (let r = 0; r < rows; r++) this.#timestamps[r] = T0 + (g0 + r) * 1000;
    for (let s = 0; s < this.types.length; s++) fillColumn(this.#columns[s], this.types[s], s, d, g0, rows);
    return {
      deviceId: deviceId(d),
      measurements: this.measurements,
      dataTypes: this.types,
      timestamps: this.#timestamps,
      columns: this.#columns,
    };
  }
}

function fillColumn(col: AnchorColumn, type: TSDataType, s: number, d: number, g0: number, rows: number): void {
  switch (type) {
    case TSDataType.FLOAT: {
      const c = col as Float32Array;
      for (let r = 0; r < rows; r++) c[r] = ((g0 + r) % 1000) * 0.5 + s;
      return;
    }
    case TSDataType.DOUBLE: {
      const c = col as Float64Array;
      for (let r = 0; r < rows; r++) c[r] = ((g0 + r) % 3600) * 0.25 + d;
      return;
    }
    case TSDataType.INT32: {
      const c = col as Int32Array;
      for (let r = 0; r < rows; r++) c[r] = ((g0 + r) % 10000) + s;
      return;
    }
    case TSDataType.INT64: {
      const c = col as BigInt64Array;
      for (let r = 0; r < rows; r++) c[r] = BigInt((g0 + r) * 10 + d);
      return;
    }
    case TSDataType.TEXT: {
      const c = col as string[];
      for (let r = 0; r < rows; r++) c[r] = TEXT[(g0 + r + s) % 100];
      return;
    }
    default: {
      const c = col as boolean[];
      for (let r = 0; r < rows; r++) c[r] = (g0 + r + s) % 2 === 0;
    }
  }
}

/** The same tablet with plain JS arrays (number/bigint) instead of typed arrays. */
export function toPlainColumns(t: Tablet): Tablet {
  return {
    ...t,
    timestamps: Array.from(t.timestamps as Float64Array),
    columns: t.columns!.map((c) => Array.from(c as ArrayLike<unknown>) as never),
  };
}

/** The same tablet row-major (`values[row][column]`), the seed API's shape. */
export function toRowMajor(t: Tablet): Tablet {
  const cols = t.columns!.map((c) => Array.from(c as ArrayLike<unknown>));
  const rows = t.timestamps.length;
  const values = Array.from({ length: rows }, (_, r) => cols.map((c) => c[r]) as never[]);
  return {
    deviceId: t.deviceId,
    measurements: t.measurements,
    dataTypes: t.dataTypes,
    timestamps: Array.from(t.timestamps as Float64Array),
    values,
  };
}
