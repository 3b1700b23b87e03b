import { TSDataType, type DecodedColumn } from '@iotdb/fast-serializer';
import { cellValue, int64AsSafeNumber, type IoTDBValue } from './cell-value.js';
import type { Int64Mode } from './options.js';

/** The first run of a sequential read; each run after it doubles, up to the last. */
const FIRST_RUN = 8;
const LAST_RUN = 256;

/**
 * The `values` arrays of one block's rows. Read in order (as `for await` reads), rows are made a run at a
 * time column by column: each column's loop reads one typed-array kind and boxes its values in a row, where
 * one row at a time reads fifty kinds through one switch (measured 2x the time, see docs/PERFORMANCE.md
 * "Row values a run at a time"). A run starts small and doubles while the reads stay in order, so reading
 * one row here and there makes a few rows, not a run; any other read makes just its row.
 */
export class RowValues {
  private run: IoTDBValue[][] = [];
  /** the row of run[0] */
  private from = 0;
  /** the row that continues an in-order read */
  private next = 0;
  private runLength = FIRST_RUN;

  constructor(
    private readonly columns: readonly DecodedColumn[],
    private readonly rows: number,
    private readonly int64As: Int64Mode,
  ) {}

  /** Row r's values; with int64As 'number' an unsafe INT64 throws (for its own row only). */
  of(r: number): IoTDBValue[] {
    const i = r - this.from;
    if (i >= 0 && i < this.run.length) return this.run[i];
    if (r === this.next) {
      this.makeRun(r, Math.min(this.runLength, this.rows - r));
      this.runLength = Math.min(2 * this.runLength, LAST_RUN);
      if (this.run.length > 0) return this.run[0];
    } else {
      this.runLength = FIRST_RUN;
    }
    this.next = r + 1;
    return rowOf(this.columns, r, this.int64As);
  }

  /** Rows r.. r+n-1, ending before the first row with an INT64 that cannot be a number (that row throws on its own). */
  private makeRun(r: number, n: number): void {
    const run = new Array<IoTDBValue[]>(n);
    for (let i = 0; i < n; i++) run[i] = new Array<IoTDBValue>(this.columns.length);
    let made = n;
    for (let k = 0; k < this.columns.length; k++) made = fillColumn(run, k, this.columns[k], r, made, this.int64As);
    run.length = made;
    this.run = run;
    this.from = r;
    this.next = r + made;
  }
}

/** One row's values, cell by cell. */
function rowOf(columns: readonly DecodedColumn[], r: number, int64As: Int64Mode): IoTDBValue[] {
  const out = new Array<IoTDBValue>(columns.length);
  for (let k = 0; k < columns.length; k++) out[k] = cellValue(columns[k], r, int64As);
  return out;
}

/**
 * Column c's cells of rows from.. from+n-1 into slot k of the run's rows; returns how many rows it filled (fewer
 * than n only at an INT64 that cannot be a number). The loops below have the same shape on purpose: V8 keeps type
 * feedback per function, so one shared loop would meet every array kind and its load go megamorphic (measured
 * 1.6-1.8x the time of one function per kind).
 */
function fillColumn(
  run: IoTDBValue[][],
  k: number,
  c: DecodedColumn,
  from: number,
  n: number,
  int64As: Int64Mode,
): number {
  if (c.nulls !== null || c.type === TSDataType.DATE) return fillCells(run, k, c, from, n, int64As);
  switch (c.type) {
    case TSDataType.FLOAT:
      return fillFloats(run, k, c.values as Float32Array, from, n);
    case TSDataType.DOUBLE:
      return fillDoubles(run, k, c.values as Float64Array, from, n);
    case TSDataType.INT32:
      return fillInts(run, k, c.values as Int32Array, from, n);
    case TSDataType.BOOLEAN:
      return fillBooleans(run, k, c.values as Uint8Array, from, n);
    case TSDataType.INT64:
    case TSDataType.TIMESTAMP:
      return int64As === 'number'
        ? fillLongsAsNumbers(run, k, c.values as BigInt64Array, from, n)
        : fillLongs(run, k, c.values as BigInt64Array, from, n);
    default:
      return fillObjects(run, k, c.values as (string | Buffer | null)[], from, n);
  }
}

function fillFloats(run: IoTDBValue[][], k: number, values: Float32Array, from: number, n: number): number {
  for (let i = 0; i < n; i++) run[i][k] = values[from + i];
  return n;
}

function fillDoubles(run: IoTDBValue[][], k: number, values: Float64Array, from: number, n: number): number {
  for (let i = 0; i < n; i++) run[i][k] = values[from + i];
  return n;
}

function fillInts(run: IoTDBValue[][], k: number, values: Int32Array, from: number, n: number): number {
  for (let i = 0; i < n; i++) run[i][k] = values[from + i];
  return n;
}

function fillBooleans(run: IoTDBValue[][], k: number, values: Uint8Array, from: number, n: number): number {
  for (let i = 0; i < n; i++) run[i][k] = values[from + i] === 1;
  return n;
}

function fillLongs(run: IoTDBValue[][], k: number, values: BigInt64Array, from: number, n: number): number {
  for (let i = 0; i < n; i++) run[i][k] = values[from + i];
  return n;
}

function fillLongsAsNumbers(run: IoTDBValue[][], k: number, values: BigInt64Array, from: number, n: number): number {
  for (let i = 0; i < n; i++) {
    const v = int64AsSafeNumber(values[from + i]);
    if (v === undefined) return i;
    run[i][k] = v;
  }
  return n;
}

function fillObjects(
  run: IoTDBValue[][],
  k: number,
  values: (string | Buffer | null)[],
  from: number,
  n: number,
): number {
  for (let i = 0; i < n; i++) run[i][k] = values[from + i];
  return n;
}

/** Cell by cell: columns with nulls, DATE (a Date each). */
function fillCells(
  run: IoTDBValue[][],
  k: number,
  c: DecodedColumn,
  from: number,
  n: number,
  int64As: Int64Mode,
): number {
  for (let i = 0; i < n; i++) {
    try {
      run[i][k] = cellValue(c, from + i, int64As);
    } catch {
      return i; // its row throws on its own, when it is read
    }
  }
  return n;
}
