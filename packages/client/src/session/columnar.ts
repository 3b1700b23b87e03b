import {
  TSDataType,
  type ColumnValues,
  type DecodedColumn,
  type DecodedTsBlock,
  type TSDataTypeName,
} from '@iotdb/fast-serializer';

/**
 * A whole query result as columns (`SessionDataSet.toColumnar()`): typed arrays where a type has one
 * (BOOLEAN Uint8Array 0/1, INT32 Int32Array, DATE Int32Array yyyymmdd, INT64/TIMESTAMP BigInt64Array,
 * FLOAT Float32Array, DOUBLE Float64Array), arrays for TEXT/STRING (string|null) and BLOB (Buffer|null).
 * Null slots of typed arrays hold 0; `nulls[i]` (1 = null) tells them apart, or is null when column i has none.
 */
export interface ColumnarResult {
  /** the value columns (without `Time`) */
  readonly columnNames: readonly string[];
  readonly columnTypes: readonly TSDataTypeName[];
  /** the time column, or null when the result has none (table model: `time` is one of the value columns) */
  readonly timestamps: BigInt64Array | null;
  readonly values: readonly ColumnValues[];
  readonly nulls: readonly (Uint8Array | null)[];
  /**
   * By column, the exact bytes of its TEXT or STRING cells that are not UTF-8, by row (their strings in `values` hold
   * U+FFFD in place of those bytes, as `row.getString` does; `row.getBlob` gives the bytes); null when it has none
   */
  readonly rawText: readonly (ReadonlyMap<number, Buffer> | null)[];
  readonly rowCount: number;
}

/** Rows [from, to) of a decoded column, sharing memory with it where possible. */
export interface ColumnPiece {
  readonly column: DecodedColumn;
  readonly from: number;
  readonly to: number;
}

/** The rows of a block not read yet. */
export interface BlockPiece {
  readonly block: DecodedTsBlock;
  /** first row not read yet */
  readonly from: number;
}

/**
 * When toColumnar() joins the blocks it holds into one: once they are this many column pieces (blocks x columns) of
 * blocks of fewer than JOIN_BELOW_ROWS rows a block on average. The server sends a wide result in blocks of a few
 * dozen rows (36 rows of 400 DOUBLE columns measured on 2.0.1-beta): held to the end, their million column objects
 * outlived the young generation and the collector copied, then marked them, again and again (1.5 s of 2.3 s of CPU
 * for 100,000 rows). Joined as they come, they die young, for a second copy of each value. Blocks of 1,000 rows
 * (the server's most) cost the collector little for their values, and the second copy 10-15 % more CPU: kept.
 */
const JOIN_EVERY_COLUMN_PIECES = 8192;
const JOIN_BELOW_ROWS = 256;

/** Whether toColumnar() joins the blocks it holds now: many column pieces of few rows (see JOIN_EVERY_COLUMN_PIECES). */
export function joinNow(blocks: number, rows: number, columns: number): boolean {
  return blocks * columns >= JOIN_EVERY_COLUMN_PIECES && rows < blocks * JOIN_BELOW_ROWS;
}

/** `pieces` as one block: each column's rows, and the times, in one array. */
export function joinBlocks(pieces: readonly BlockPiece[]): BlockPiece {
  const first = pieces[0].block;
  const columns = first.columns.map((c, k) => {
    const joined = joinColumn(
      c.type,
      pieces.map((p) => ({ column: p.block.columns[k], from: p.from, to: p.block.rows })),
    );
    const { values, nulls, rawText } = joined;
    return rawText === null ? { type: c.type, values, nulls } : { type: c.type, values, nulls, rawText };
  });
  const times = joinTimes(pieces.map((p) => ({ times: p.block.times, from: p.from, to: p.block.rows })));
  return { block: { rows: times.length, times, columns }, from: 0 };
}

/** A column's rows joined: its values, nulls and the bytes of its text that is not UTF-8 (ColumnarResult.rawText). */
export interface JoinedColumn {
  readonly values: ColumnValues;
  readonly nulls: Uint8Array | null;
  readonly rawText: ReadonlyMap<number, Buffer> | null;
}

/** Joins the pieces of one column; one whole piece is handed over as it is (no copy). */
export function joinColumn(type: TSDataType, pieces: readonly ColumnPiece[]): JoinedColumn {
  if (pieces.length === 1 && pieces[0].from === 0 && pieces[0].to === pieces[0].column.values.length) {
    const { values, nulls, rawText } = pieces[0].column;
    return { values, nulls, rawText: rawText ?? null };
  }
  const rows = pieces.reduce((n, p) => n + p.to - p.from, 0);
  const anyNull = pieces.some((p) => p.column.nulls !== null);
  const nulls = anyNull ? new Uint8Array(rows) : null;
  let values: ColumnValues;
  if (type === TSDataType.TEXT || type === TSDataType.STRING || type === TSDataType.BLOB) {
    const out = new Array<unknown>(rows); // sized once: pushing 10^6 cells grows and copies it again and again
    let at = 0;
    for (const p of pieces) {
      const cells = p.column.values as unknown[];
      for (let i = p.from; i < p.to; i++) out[at++] = cells[i];
    }
    values = out as ColumnValues;
  } else {
    const first = pieces[0]?.column.values as Int32Array | undefined;
    const Ctor = (first?.constructor ?? emptyCtor(type)) as new (n: number) => Int32Array;
    const out = new Ctor(rows);
    let at = 0;
    for (const p of pieces) {
      out.set((p.column.values as Int32Array).subarray(p.from, p.to), at);
      at += p.to - p.from;
    }
    values = out;
  }
  if (nulls !== null) {
    let at = 0;
    for (const p of pieces) {
      if (p.column.nulls !== null) nulls.set(p.column.nulls.subarray(p.from, p.to), at);
      at += p.to - p.from;
    }
  }
  return { values, nulls, rawText: joinRawText(pieces) };
}

/** The pieces' rawText renumbered by row of the joined column; null when none of its rows has one. */
function joinRawText(pieces: readonly ColumnPiece[]): ReadonlyMap<number, Buffer> | null {
  let joined: Map<number, Buffer> | null = null;
  let at = 0;
  for (const p of pieces) {
    for (const [row, bytes] of p.column.rawText ?? []) {
      if (row >= p.from && row < p.to) (joined ??= new Map()).set(at + row - p.from, bytes);
    }
    at += p.to - p.from;
  }
  return joined;
}

export function joinTimes(pieces: readonly { times: BigInt64Array; from: number; to: number }[]): BigInt64Array {
  if (pieces.length === 1 && pieces[0].from === 0 && pieces[0].to === pieces[0].times.length) return pieces[0].times;
  const out = new BigInt64Array(pieces.reduce((n, p) => n + p.to - p.from, 0));
  let at = 0;
  for (const p of pieces) {
    out.set(p.times.subarray(p.from, p.to), at);
    at += p.to - p.from;
  }
  return out;
}

function emptyCtor(type: TSDataType): unknown {
  switch (type) {
    case TSDataType.BOOLEAN:
      return Uint8Array;
    case TSDataType.FLOAT:
      return Float32Array;
    case TSDataType.DOUBLE:
      return Float64Array;
    case TSDataType.INT64:
    case TSDataType.TIMESTAMP:
      return BigInt64Array;
    default:
      return Int32Array;
  }
}
