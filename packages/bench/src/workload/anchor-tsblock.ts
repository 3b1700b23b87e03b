import { ColumnEncoding, TSDataType } from '@iotdb/fast-serializer';
import { AnchorTabletBuilder } from './anchor.js';

/**
 * A serialized TsBlock of anchor rows, as the server sends query results (protocol.md 6.1), for
 * the decode benchmark: plain array encodings, no nulls, like Java's TsBlockSerde writes them.
 */
export function anchorTsBlock(rows: number, sensors: number): Buffer {
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
  t.columns!.forEach((col, i) => parts.push(column(b.types[i], col, rows)));
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

function column(t: TSDataType, col: ArrayLike<unknown>, rows: number): Buffer {
  const mayHaveNull = Buffer.from([0]);
  switch (t) {
    case TSDataType.BOOLEAN: {
      const bits = Buffer.alloc((rows + 7) >> 3);
      for (let r = 0; r < rows; r++) if (col[r]) bits[r >> 3] |= 0x80 >> (r & 7);
      return Buffer.concat([mayHaveNull, bits]);
    }
    case TSDataType.TEXT:
      return Buffer.concat([
        mayHaveNull,
        ...Array.from({ length: rows }, (_, r) => {
          const s = Buffer.from(col[r] as string);
          const len = Buffer.alloc(4);
          len.writeInt32BE(s.length);
          return Buffer.concat([len, s]);
        }),
      ]);
    default: {
      const width = t === TSDataType.INT32 || t === TSDataType.FLOAT ? 4 : 8;
      const out = Buffer.alloc(width * rows);
      for (let r = 0; r < rows; r++) {
        const v = col[r];
        if (t === TSDataType.INT32) out.writeInt32BE(v as number, 4 * r);
        else if (t === TSDataType.FLOAT) out.writeFloatBE(v as number, 4 * r);
        else if (t === TSDataType.DOUBLE) out.writeDoubleBE(v as number, 8 * r);
        else out.writeBigInt64BE(v as bigint, 8 * r);
      }
      return Buffer.concat([mayHaveNull, out]);
    }
  }
}
