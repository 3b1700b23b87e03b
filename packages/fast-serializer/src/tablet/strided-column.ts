/**
 * A numeric column kept inside a row-major block of float64 cells (row r's cell at `offset + r * stride`), as a
 * batching writer stages rows: appending a row then writes one run of memory instead of one cell into each of
 * dozens of column arrays. The encoder gathers it into the wire's column layout. Its cells are float64 values of
 * the column's type (FLOAT rounded to float32 when encoded, INT64 and TIMESTAMP safe integers); nulls are in the
 * tablet's `nullMasks`.
 */
export class StridedColumn {
  constructor(
    readonly data: Float64Array,
    readonly stride: number,
    readonly offset: number,
    /** rows it holds */
    readonly length: number,
  ) {}

  at(row: number): number {
    return this.data[this.offset + row * this.stride];
  }

  /** Its cells as an array (for the plain encoder and error reports). */
  toArray(): number[] {
    return Array.from({ length: this.length }, (_, r) => this.at(r));
  }
}
