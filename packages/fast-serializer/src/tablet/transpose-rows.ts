import { TSDataType } from '../types/data-type.js';
import type { CellValue, ColumnInput } from './tablet-input.js';

type Rows = readonly (readonly CellValue[])[];

/** The columns of one kind gathered into typed arrays: `arrays[j]` holds column `columns[j]`, null once a cell did not fit. */
interface Gathered<A> {
  readonly columns: readonly number[];
  readonly arrays: (A | null)[];
}

/**
 * Row-major values (`values[row][column]`, rows already checked to hold one value per column) as columns.
 * A numeric column whose cells are all plain numbers that its type holds exactly is gathered straight into
 * a typed array, which the encoder then copies as a block; any other column (text, nulls, bigints, a cell
 * the encoder must refuse) becomes a plain array and goes through the encoder's per-cell checks.
 * Rows are read once each, in order (a row's cells are next to each other; a column's are not).
 *
 * The typed arrays are views of one ArrayBuffer: forty arrays of 2-4 KB allocated each on its own took a
 * third to a half of the gathering's time (docs/PERFORMANCE.md, "Row-major gather in one allocation").
 * Each kind has its own loop, so that every store in it meets one typed-array kind.
 */
export function transposeRows(values: Rows, types: readonly TSDataType[], rows: number): ColumnInput[] {
  const doubleColumns = columnsOfTypes(types, [TSDataType.DOUBLE, TSDataType.INT64, TSDataType.TIMESTAMP]);
  const floatColumns = columnsOfTypes(types, [TSDataType.FLOAT]);
  const int32Columns = columnsOfTypes(types, [TSDataType.INT32]);
  // the 8-byte views first, so that every view starts aligned to its width
  const store = new ArrayBuffer(rows * (8 * doubleColumns.length + 4 * (floatColumns.length + int32Columns.length)));
  let offset = 0;
  const carve = <A>(columns: number[], width: number, view: (at: number) => A): Gathered<A> => {
    const arrays = columns.map(() => {
      const array = view(offset);
      offset += width * rows;
      return array;
    });
    return { columns, arrays };
  };
  const doubles = carve(doubleColumns, 8, (at) => new Float64Array(store, at, rows));
  const floats = carve(floatColumns, 4, (at) => new Float32Array(store, at, rows));
  const int32s = carve(int32Columns, 4, (at) => new Int32Array(store, at, rows));
  for (let r = 0; r < rows; r++) {
    const row = values[r];
    takeDoubles(row, r, doubles);
    takeFloats(row, r, floats);
    takeInt32s(row, r, int32s);
  }
  const out = new Array<ColumnInput>(types.length);
  for (const g of [doubles, floats, int32s] as Gathered<ColumnInput>[]) {
    g.columns.forEach((c, j) => {
      const a = g.arrays[j];
      if (a !== null) out[c] = a;
    });
  }
  for (let c = 0; c < types.length; c++) out[c] ??= gatherPlain(values, c, rows);
  return out;
}

function columnsOfTypes(types: readonly TSDataType[], of: readonly TSDataType[]): number[] {
  const columns: number[] = [];
  types.forEach((t, c) => {
    if (of.includes(t)) columns.push(c);
  });
  return columns;
}

/** DOUBLE, INT64, TIMESTAMP: a Float64Array gives back any number it is given (NaN as NaN). */
function takeDoubles(row: readonly CellValue[], r: number, g: Gathered<Float64Array>): void {
  const { columns, arrays } = g;
  for (let j = 0; j < columns.length; j++) {
    const out = arrays[j];
    if (out === null) continue;
    const v = row[columns[j]];
    if (typeof v === 'number') out[r] = v;
    else arrays[j] = null;
  }
}

/** FLOAT: rounded to float32 is fine, unless a finite value overflows to infinity (the encoder refuses it). */
function takeFloats(row: readonly CellValue[], r: number, g: Gathered<Float32Array>): void {
  const { columns, arrays } = g;
  for (let j = 0; j < columns.length; j++) {
    const out = arrays[j];
    if (out === null) continue;
    const v = row[columns[j]];
    if (typeof v !== 'number') {
      arrays[j] = null;
      continue;
    }
    out[r] = v;
    const got = out[r];
    if (got !== v && v === v && (got === Infinity || got === -Infinity)) arrays[j] = null;
  }
}

/** INT32: only integers in range (a fraction or a larger number is the encoder's to refuse). */
function takeInt32s(row: readonly CellValue[], r: number, g: Gathered<Int32Array>): void {
  const { columns, arrays } = g;
  for (let j = 0; j < columns.length; j++) {
    const out = arrays[j];
    if (out === null) continue;
    const v = row[columns[j]];
    if (typeof v === 'number' && (v | 0) === v) out[r] = v;
    else arrays[j] = null;
  }
}

function gatherPlain(values: Rows, c: number, rows: number): CellValue[] {
  const out = new Array<CellValue>(rows);
  for (let r = 0; r < rows; r++) out[r] = values[r][c];
  return out;
}
