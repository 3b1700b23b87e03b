import { ColumnEncoding, TSDataType } from '@iotdb/fast-serializer';
import { AnchorTabletBuilder } from './anchor.js';

/**
 * A serialized TsBlock of anchor rows, as the server sends query results (protocol.md 6.1), for
 * the decode benchmark: plain array encodings, like Java's TsBlockSerde writes them. No nulls, or with
 * `nullEvery` = n the cell of row r and sensor s is null where (r + s) % n is 0 (a sparse result, as a
 * query over devices that do not all write every sensor gets).
 */
export function anchorTsBlock(rows: number, sensors: number, nullEvery = 0): Buffer {
  const b = new AnchorTabletBuilder({ sensors, rows });
  const t = b.fill(0, 0);
  const parts: Buffer[] = [];
  const header = Buffer.alloc(4 + sensors + 4 + sensors + 1);
  header.writeInt32BE(sensors, 0);
  b.types.forEach((ty, i) => (header[4 + i] = ty));
  header.writeInt32BE(rows, 4 + sensors);
  const enc = header.subarray(8 + sensors);
  enc[0] = ColumnEncoding.INT64_ARRAY;
  b.types.forEach((ty, i) => (enc[1 + i] = encodingOf(ty)));
  parts.push(header);
  const time = Buffer.alloc(1 + 8 * rows);
  (t.timestamps as Float64Array).forEach((v, r) => time.writeBigInt64BE(BigInt(v), 1 + 8 * r));
  parts.push(time);
  t.columns!.forEach((col, s) => {
    const nulls = Array.from({ length: rows }, (_, r) => nullEvery > 0 && (r + s) % nullEvery === 0);
    parts.push(column(b.types[s], col, nulls));
  });
  return Buffer.concat(parts);
}

function encodingOf(t: TSDataType): number {
  switch (t) {
    case TSDataType.BOOLEAN:
      return ColumnEncoding.BYTE_ARRAY;
    case TSDataType.INT32:
    case TSDataType.FLOAT:
      return ColumnEncoding.INT32_ARRAY;
    case TSDataType.TEXT:
      return ColumnEncoding.BINARY_ARRAY;
    default:
      return ColumnEncoding.INT64_ARRAY;
  }
}

/** One column: its null indicators, then the values of its non-null rows (booleans: a bit for every row). */
function column(t: TSDataType, col: ArrayLike<unknown>, nulls: boolean[]): Buffer {
  const rows = nulls.length;
  const present = Array.from({ length: rows }, (_, r) => r).filter((r) => !nulls[r]);
  const nullIndicators = nulls.includes(true) ? Buffer.concat([Buffer.from([1]), bitsOf(nulls)]) : Buffer.from([0]);
  switch (t) {
    case TSDataType.BOOLEAN:
      return Buffer.concat([nullIndicators, bitsOf(Array.from({ length: rows }, (_, r) => Boolean(col[r])))]);
    case TSDataType.TEXT:
      return Buffer.concat([
        nullIndicators,
        ...present.map((r) => {
          const s = Buffer.from(col[r] as string);
          const len = Buffer.alloc(4);
          len.writeInt32BE(s.length);
          return Buffer.concat([len, s]);
        }),
      ]);
    default: {
      const width = t === TSDataType.INT32 || t === TSDataType.FLOAT ? 4 : 8;
      const out = Buffer.alloc(width * present.length);
      present.forEach((r, k) => {
        const v = col[r];
        if (t === TSDataType.INT32) out.writeInt32BE(v as number, 4 * k);
        else if (t === TSDataType.FLOAT) out.writeFloatBE(v as number, 4 * k);
        else if (t === TSDataType.DOUBLE) out.writeDoubleBE(v as number, 8 * k);
        else out.writeBigInt64BE(v as bigint, 8 * k);
      });
      return Buffer.concat([nullIndicators, out]);
    }
  }
}

/** MSB-first bits, 0x80 = row 0. */
function bitsOf(flags: boolean[]): Buffer {
  const bits = Buffer.alloc((flags.length + 7) >> 3);
  flags.forEach((f, r) => {
    if (f) bits[r >> 3] |= 0x80 >> (r & 7);
  });
  return bits;
}
