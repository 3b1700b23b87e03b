import { TSDataType, type ColumnValues, type DecodedColumn, type TSDataTypeName } from '@iotdb/fast-serializer';

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
  readonly rowCount: number;
}

/** Rows [from, to) of a decoded column, sharing memory with it where possible. */
export interface ColumnPiece {
  readonly column: DecodedColumn;
  readonly from: number;
  readonly to: number;
}

/** Joins the pieces of one column; one whole piece is handed over as it is (no copy). */
export function joinColumn(
  type: TSDataType,
  pieces: readonly ColumnPiece[],
): { values: ColumnValues; nulls: Uint8Array | null } {
  if (pieces.length === 1 && pieces[0].from === 0 && pieces[0].to === pieces[0].column.values.length) {
    return { values: pieces[0].column.values, nulls: pieces[0].column.nulls };
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
  return { values, nulls };
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
