import { ByteWriter, TSDataType } from '@iotdb/fast-serializer';

/** A column of a hand-built TsBlock: its values, null where the row has none. */
export type BlockColumn =
  | { readonly type: 'INT32'; readonly values: readonly (number | null)[] }
  | { readonly type: 'INT64'; readonly values: readonly (bigint | null)[] }
  | { readonly type: 'TEXT'; readonly values: readonly (string | Buffer | null)[] }; // a Buffer: bytes as they are

/** Each column type's array encoding (protocol.md 6.1): the time column is INT64_ARRAY too. */
const ENCODING = { INT32: 1, INT64: 2, TEXT: 3 } as const;

/**
 * A TsBlock as IoTDB 2.0 sends it (protocol.md 6.1), built by hand: the times, then each column in its array
 * encoding, a null bitmap before the values of a column that has a null.
 */
export function tsBlock(times: readonly (number | bigint)[], columns: readonly BlockColumn[]): Buffer {
  const w = new ByteWriter(256);
  w.i32(columns.length);
  for (const c of columns) w.i8(TSDataType[c.type]);
  w.i32(times.length);
  w.i8(ENCODING.INT64);
  for (const c of columns) w.i8(ENCODING[c.type]);
  w.i8(0); // the time column has no null
  for (const t of times) w.i64(t);
  for (const c of columns) writeColumn(w, c);
  return Buffer.from(w.view());
}

function writeColumn(w: ByteWriter, c: BlockColumn): void {
  const nulls = c.values.map((v) => v === null);
  if (nulls.includes(true)) {
    w.i8(1);
    for (let i = 0; i < nulls.length; i += 8)
      w.i8(nulls.slice(i, i + 8).reduce((bits, isNull, b) => (isNull ? bits | (0x80 >> b) : bits), 0));
  } else w.i8(0);
  for (const v of c.values) {
    if (v === null) continue;
    if (c.type === 'INT32') w.i32(v as number);
    else if (c.type === 'INT64') w.i64(v as bigint);
    else w.lengthPrefixedBytes(Buffer.isBuffer(v) ? v : Buffer.from(v as string, 'utf8'));
  }
}
