import { TSDataType } from '@iotdb/fast-serializer';
import type { FakeCall } from '../transport/fake-transport.js';

/** A tablet as a fake server received it: its device (or table) and its rows, null cells left out. */
export interface SentTablet {
  device: string;
  rows: { time: number; values: Record<string, unknown> }[];
  categories?: number[];
}

/** One tablet's fields of a request, as sent. */
interface TabletArgs {
  device: string;
  names: string[];
  types: number[];
  rows: number;
  times: Uint8Array;
  values: Uint8Array;
}

/** The tablets of an insertTablet or insertTablets call, decoded from their binary columns. */
export function sentTablets(call: FakeCall): SentTablet[] {
  const a = call.args as Record<string, unknown>;
  if (call.method === 'insertTablets')
    return (a.prefixPaths as string[]).map((device, i) =>
      decode({
        device,
        names: (a.measurementsList as string[][])[i],
        types: (a.typesList as number[][])[i],
        rows: (a.sizeList as number[])[i],
        times: (a.timestampsList as Uint8Array[])[i],
        values: (a.valuesList as Uint8Array[])[i],
      }),
    );
  const t = decode({
    device: a.prefixPath as string,
    names: a.measurements as string[],
    types: a.types as number[],
    rows: a.size as number,
    times: a.timestamps as Uint8Array,
    values: a.values as Uint8Array,
  });
  return [{ ...t, categories: a.columnCategories as number[] | undefined }];
}

function decode({ device, names, types, rows, times, values }: TabletArgs): SentTablet {
  const tv = Buffer.from(times.buffer, times.byteOffset, times.byteLength);
  const vv = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  const cols: unknown[][] = [];
  let pos = 0;
  for (const type of types) {
    const col: unknown[] = [];
    for (let r = 0; r < rows; r++) {
      const [value, size] = cell(vv, pos, type);
      col.push(value);
      pos += size;
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

/** The value of `type` at `pos` of a values buffer, and the bytes it takes. */
function cell(vv: Buffer, pos: number, type: number): [value: unknown, size: number] {
  switch (type) {
    case TSDataType.BOOLEAN:
      return [vv[pos] === 1, 1];
    case TSDataType.INT32:
    case TSDataType.DATE:
      return [vv.readInt32BE(pos), 4];
    case TSDataType.FLOAT:
      return [vv.readFloatBE(pos), 4];
    case TSDataType.DOUBLE:
      return [vv.readDoubleBE(pos), 8];
    case TSDataType.INT64:
    case TSDataType.TIMESTAMP:
      return [vv.readBigInt64BE(pos), 8];
    default: {
      const n = vv.readInt32BE(pos);
      const bytes = vv.subarray(pos + 4, pos + 4 + n);
      return [type === TSDataType.BLOB ? Buffer.from(bytes) : bytes.toString('utf8'), 4 + n];
    }
  }
}
