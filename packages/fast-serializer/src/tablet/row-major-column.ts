import type { CellValue, ColumnInput } from './tablet-input.js';
import { StridedColumn } from './strided-column.js';

/**
 * One column of row-major input (`values[row][column]`), read where it is: the encoder takes each column's cells
 * straight from the rows into the request, with no column-major copy of the tablet made first (that copy took
 * half the row-major encode's time, docs/PERFORMANCE.md "Row-major tablets read in place"). The rows were checked
 * to hold one cell per column; the cells are checked as they are encoded, like a plain column array's.
 */
export class RowMajorColumn {
  constructor(
    readonly rows: readonly (readonly CellValue[])[],
    /** the column's position in each row */
    readonly index: number,
  ) {}

  /** Its cells as an array (for the plain encoder and error reports). */
  toArray(): CellValue[] {
    return this.rows.map((row) => row[this.index]);
  }
}

/** A prepared tablet's column: as given, strided into a writer's row-major block, or read in place from rows. */
export type PreparedColumn = ColumnInput | StridedColumn | RowMajorColumn;

/** A column's cells as an array-like (views copied out): for code off the hot path. */
export function columnCells(col: PreparedColumn): ArrayLike<CellValue> {
  return col instanceof StridedColumn || col instanceof RowMajorColumn ? col.toArray() : col;
}
