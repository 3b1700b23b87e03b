import { TSDataType } from '@iotdb/fast-serializer';
import type { FakeCall } from '../transport/fake-transport.js';

/** A tablet as a fake server received it: its device (or table) and its rows, null cells left out. */
export interface SentTablet {
  device: string;
  rows: { time: number; values: Record<string, unknown> }[];
  categories?: number[];
}

/** The tablets of an insertTablet or insertTablets call, decoded from their binary columns. */
export function sentTablets(call: FakeCall): SentTablet[] {
  const a = call.args as Record<string, unknown>;
  if (call.method === 'insertTablets') {
    const paths = a.prefixPaths as string[];
    return paths.map((device, i) =>
      decode(
        device,
        (a.measurementsList as string[][])[i],
        (a.typesList as number[][])[i],
        (a.sizeList as number[])[i],
        (a.timestampsList as Uint8Array[])[i],
        (a.valuesList as Uint8Array[])[i],
      ),
    );
  }
  const t = decode(
    a.prefixPath as string,
    a.measurements as string[],
    a.types as number[],
    a.size as number,
    a.timestamps as Uint8Array,
    a.values as Uint8Array,
  );
  return [{ ...t, categories: a.columnCategories as number[] | undefined }];
}

function decode(
  device: string,
  names: string[],
  types: number[],
  rows: number,
  times: Uint8Array,
  values: Uint8Array,
): SentTablet {
  const tv = Buffer.from(times.buffer, times.byteOffset, times.byteLength);
  const vv = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  const cols: unknown[][] = [];
  let pos = 0;
  for (const type of types) {
    const col: unknown[] = [];
    for (let r = 0; r < rows; r++) {
      switch (type) {
        case TSDataType.BOOLEAN:
          col.push(vv[pos] === 1);
          pos += 1;
          break;
        case TSDataType.INT32:
        case TSDataType.DATE:
          col.push(vv.readInt32BE(pos));
          pos += 4;
          break;
        case TSDataType.FLOAT:
          col.push(vv.readFloatBE(pos));
          pos += 4;
          break;
        case TSDataType.DOUBLE:
          col.push(vv.readDoubleBE(pos));
          pos += 8;
          break;
        case TSDataType.INT64:
        case TSDataType.TIMESTAMP:
          col.push(vv.readBigInt64BE(pos));
          pos += 8;
          break;
        default: {
          const n = vv.readInt32BE(pos);
          const bytes = vv.subarray(pos + 4, pos + 4 + n);
          col.push(type === TSDataType.BLOB ? Buffer.from(bytes) : bytes.toString('utf8'));
          pos += 4 + n;
        }
      }
    }
    cols.push(col);
  }
  for (const col of cols) {
    if (vv[pos++] === 0) continue;
    for (let r = 0; r < rows; r++) if ((vv[pos + (r >> 3)] >> (r & 7)) & 1) col[r] = null;
    pos += (rows >> 3) + 1;
  }
  return {
    device,
    rows: Array.from({ length: rows }, (_, r) => ({
      time: Number(tv.readBigInt64BE(8 * r)),
      values: Object.fromEntries(names.flatMap((n, c) => (cols[c][r] === null ? [] : [[n, cols[c][r]]]))),
    })),
  };
}
