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
  const gathers = [
    new Gather(types, rows, [TSDataType.FLOAT], (n) => new Float32Array(n)),
    new Gather(types, rows, [TSDataType.INT32], (n) => new Int32Array(n)),
    new Gather(types, rows, [TSDataType.DOUBLE, TSDataType.INT64, TSDataType.TIMESTAMP], (n) => new Float64Array(n)),
  ];
  for (let r = 0; r < rows; r++) for (const g of gathers) g.take(values[r], r);
  const out = new Array<ColumnInput>(types.length);
  for (const g of gathers) g.placeInto(out);
  for (let c = 0; c < types.length; c++) out[c] ??= gatherPlain(values, c, rows);
  return out;
}

/**
 * The columns of some types, each gathered into its typed array until a cell does not fit (then it is
 * dropped). A cell fits when the array gives it back unchanged, or (a float array) rounded to a finite
 * value or NaN: a fraction or an out-of-range integer in INT32, a FLOAT that overflows to infinity, are left
 * to the encoder's per-cell checks. TypeScript-private fields: in this per-cell loop V8 loads them faster
 * than #private ones.
 */
class Gather<A extends Float32Array | Int32Array | Float64Array> {
  private readonly columns: number[] = [];
  private readonly arrays: (A | null)[] = [];
  private readonly rounds: boolean;

  constructor(types: readonly TSDataType[], rows: number, of: readonly TSDataType[], make: (rows: number) => A) {
    types.forEach((t, c) => {
      if (of.includes(t)) {
        this.columns.push(c);
        this.arrays.push(make(rows));
      }
    });
    this.rounds = !of.includes(TSDataType.INT32);
  }

  take(row: readonly CellValue[], r: number): void {
    for (let j = 0; j < this.columns.length; j++) {
      const out = this.arrays[j];
      if (out === null) continue;
      const v = row[this.columns[j]];
      if (typeof v !== 'number') {
        this.arrays[j] = null;
        continue;
      }
      out[r] = v;
      const got = out[r];
      const fits = got === v || (this.rounds && (v !== v || (got !== Infinity && got !== -Infinity)));
      if (!fits) this.arrays[j] = null;
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
