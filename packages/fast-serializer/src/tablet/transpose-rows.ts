import { TSDataType } from '../types/data-type.js';
import type { CellValue, ColumnInput } from './tablet-input.js';

type Rows = readonly (readonly CellValue[])[];

/**
 * Row-major values (`values[row][column]`, rows already checked to hold one value per column) as columns.
 * A numeric column whose cells are all plain numbers that its type holds exactly is gathered straight into
 * a typed array, which the encoder then copies as a block; any other column (text, nulls, bigints, a cell
 * the encoder must refuse) becomes a plain array and goes through the encoder's per-cell checks.
 * Rows are read once each, in order (a row's cells are next to each other; a column's are not).
 */
export function transposeRows(values: Rows, types: readonly TSDataType[], rows: number): ColumnInput[] {
  const f32 = new Gather(types, rows, TSDataType.FLOAT, (n) => new Float32Array(n));
  const i32 = new Gather(types, rows, TSDataType.INT32, (n) => new Int32Array(n));
  const f64 = new Gather(
    types,
    rows,
    [TSDataType.DOUBLE, TSDataType.INT64, TSDataType.TIMESTAMP],
    (n) => new Float64Array(n),
  );
  for (let r = 0; r < rows; r++) {
    const row = values[r];
    f32.floats(row, r);
    i32.ints(row, r);
    f64.doubles(row, r);
  }
  const out = new Array<ColumnInput>(types.length);
  for (const g of [f32, i32, f64]) g.placeInto(out);
  for (let c = 0; c < types.length; c++) out[c] ??= gatherPlain(values, c, rows);
  return out;
}

/** The columns of some types, each gathered into its typed array until a cell does not fit (then it is dropped). TypeScript-private fields: in these per-cell loops V8 loads them faster than #private ones. */
class Gather<A extends Float32Array | Int32Array | Float64Array> {
  private readonly columns: number[] = [];
  private readonly arrays: (A | null)[] = [];

  constructor(types: readonly TSDataType[], rows: number, of: TSDataType | TSDataType[], make: (rows: number) => A) {
    types.forEach((t, c) => {
      if (t === of || (Array.isArray(of) && of.includes(t))) {
        this.columns.push(c);
        this.arrays.push(make(rows));
      }
    });
  }

  floats(row: readonly CellValue[], r: number): void {
    for (let j = 0; j < this.columns.length; j++) {
      const out = this.arrays[j];
      if (out === null) continue;
      const v = row[this.columns[j]];
      if (typeof v !== 'number') this.arrays[j] = null;
      else {
        out[r] = v;
        const f = out[r];
        // overflowed to infinity: the encoder's range error names the cell
        if ((f === Infinity || f === -Infinity) && f !== v) this.arrays[j] = null;
      }
    }
  }

  ints(row: readonly CellValue[], r: number): void {
    for (let j = 0; j < this.columns.length; j++) {
      const out = this.arrays[j];
      if (out === null) continue;
      const v = row[this.columns[j]];
      if (typeof v !== 'number' || (v | 0) !== v) this.arrays[j] = null;
      else out[r] = v;
    }
  }

  /** DOUBLE, and INT64/TIMESTAMP as numbers (the encoder checks each is a safe integer as it writes it) */
  doubles(row: readonly CellValue[], r: number): void {
    for (let j = 0; j < this.columns.length; j++) {
      const out = this.arrays[j];
      if (out === null) continue;
      const v = row[this.columns[j]];
      if (typeof v !== 'number') this.arrays[j] = null;
      else out[r] = v;
    }
  }

  placeInto(out: ColumnInput[]): void {
    this.columns.forEach((c, j) => {
      const a = this.arrays[j];
      if (a !== null) out[c] = a;
    });
  }
}

function gatherPlain(values: Rows, c: number, rows: number): CellValue[] {
  const out = new Array<CellValue>(rows);
  for (let r = 0; r < rows; r++) out[r] = values[r][c];
  return out;
}
