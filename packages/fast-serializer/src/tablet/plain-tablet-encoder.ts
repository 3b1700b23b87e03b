import { IoTDBValidationError } from '../errors.js';
import type { TSInsertTabletReq } from '../thrift/iotdb-idl.js';
import { TSDataType } from '../types/data-type.js';
import { cellField, checkCell, isInt64 } from './cell.js';
import { describe } from '../types/describe.js';
import { bitmapBytes } from './encode-tablet.js';
import type { PreparedTablet } from './prepare-tablet.js';
import { columnCells } from './row-major-column.js';
import { INT64_MIN } from '../types/int64.js';

/**
 * The plain tablet encoder (`enableFastSerialization: false`): one value at a time through a
 * DataView, a Buffer per column, concatenated at the end. Slow on purpose and easy to read; it is the
 * reference the fast encoder is tested against, and it is checked against the Java vectors too.
 */
export function encodeTabletPlain(p: PreparedTablet): { timestamps: Buffer; values: Buffer } {
  const rowAt = (r: number): number => (p.order === null ? r : p.order[r]);

  const timestamps = Buffer.alloc(8 * p.rows);
  const tsView = new DataView(timestamps.buffer, timestamps.byteOffset, timestamps.length);
  for (let r = 0; r < p.rows; r++) {
    const t = (p.timestamps as ArrayLike<unknown>)[rowAt(r)];
    if (!isInt64(t)) {
      throw new IoTDBValidationError(
        `timestamps[${rowAt(r)}]`,
        `needs a safe integer number or an int64 bigint, got ${describe(t)}`,
      );
    }
    tsView.setBigInt64(8 * r, BigInt(t));
  }

  const parts: Buffer[] = [];
  const bitmaps: Buffer[] = [];
  p.types.forEach((type, c) => {
    const given = p.columns[c];
    const col = columnCells(given);
    const mask = p.nullMasks?.[c];
    const nullRows: number[] = [];
    for (let r = 0; r < p.rows; r++) {
      const v = col[rowAt(r)];
      if (v == null || mask?.[rowAt(r)] === 1) {
        nullRows.push(r);
        parts.push(placeholder(type));
      } else {
        parts.push(encodeCell(type, checkCell(type, v, cellField(p, c, rowAt(r)), p.precision)));
      }
    }
    if (nullRows.length === 0) {
      bitmaps.push(Buffer.from([0]));
      return;
    }
    const bitmap = Buffer.alloc(bitmapBytes(p.rows));
    for (const r of nullRows) bitmap[r >> 3] |= 1 << (r & 7);
    // like Java: bits past the last row stay marked unless the rows had to be sorted
    if (p.order === null) for (let r = p.rows; r < bitmap.length * 8; r++) bitmap[r >> 3] |= 1 << (r & 7);
    bitmaps.push(Buffer.from([1]), bitmap);
  });
  return { timestamps, values: Buffer.concat([...parts, ...bitmaps]) };
}

/** The whole TSInsertTabletReq for the plain path, to be written by a generic struct codec. */
export function plainInsertTabletReq(sessionId: bigint, p: PreparedTablet): TSInsertTabletReq {
  const { values, timestamps } = encodeTabletPlain(p);
  return {
    sessionId,
    prefixPath: p.prefixPath,
    measurements: p.measurements,
    values,
    timestamps,
    types: p.types,
    size: p.rows,
    isAligned: p.isAligned,
    writeToTable: p.columnCategories !== null ? true : undefined,
    columnCategories: p.columnCategories ?? undefined,
  };
}

function fixed(bytes: number, set: (v: DataView) => void): Buffer {
  const b = Buffer.alloc(bytes);
  set(new DataView(b.buffer, b.byteOffset, bytes));
  return b;
}

function encodeCell(type: TSDataType, v: boolean | number | bigint | string | Uint8Array): Buffer {
  switch (type) {
    case TSDataType.BOOLEAN:
      return Buffer.from([v ? 1 : 0]);
    case TSDataType.INT32:
    case TSDataType.DATE:
      return fixed(4, (d) => d.setInt32(0, v as number));
    case TSDataType.FLOAT:
      return fixed(4, (d) => d.setFloat32(0, v as number));
    case TSDataType.DOUBLE:
      return fixed(8, (d) => d.setFloat64(0, v as number));
    case TSDataType.INT64:
    case TSDataType.TIMESTAMP:
      return fixed(8, (d) => d.setBigInt64(0, BigInt(v as number | bigint)));
    default: {
      const bytes = typeof v === 'string' ? Buffer.from(v, 'utf8') : Buffer.from(v as Uint8Array);
      return Buffer.concat([fixed(4, (d) => d.setInt32(0, bytes.length)), bytes]);
    }
  }
}

/** What Java writes in a null slot: Integer/Long/Float/Double.MIN_VALUE, 10000101 for DATE, false, "". */
function placeholder(type: TSDataType): Buffer {
  switch (type) {
    case TSDataType.BOOLEAN:
      return Buffer.from([0]);
    case TSDataType.INT32:
      return fixed(4, (d) => d.setInt32(0, -2147483648));
    case TSDataType.DATE:
      return fixed(4, (d) => d.setInt32(0, 10000101));
    case TSDataType.FLOAT:
      return fixed(4, (d) => d.setFloat32(0, 1.401298464324817e-45));
    case TSDataType.DOUBLE:
      return fixed(8, (d) => d.setFloat64(0, 5e-324));
    case TSDataType.INT64:
    case TSDataType.TIMESTAMP:
      return fixed(8, (d) => d.setBigInt64(0, INT64_MIN));
    default:
      return Buffer.alloc(4);
  }
}
