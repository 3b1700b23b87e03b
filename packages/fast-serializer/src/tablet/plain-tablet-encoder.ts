import { IoTDBValidationError } from '../errors.js';
import type { TSInsertTabletReq } from '../thrift/iotdb-idl.js';
import { TSDataType } from '../types/data-type.js';
import { cellField, checkCell, isInt64, type WireCell } from './cell.js';
import { checkDateInt } from './date.js';
import { DATE_NULL, DOUBLE_NULL, FLOAT_NULL, INT32_NULL, INT64_NULL } from './null-slots.js';
import { typedBoolean } from './typed-date-boolean.js';
import { describe } from '../types/describe.js';
import { bitmapBytes } from './encode-tablet.js';
import type { PreparedTablet } from './prepare-tablet.js';
import { columnCells } from './row-major-column.js';

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
        parts.push(encodeCell(type, wireCell(p, c, v, cellField(p, c, rowAt(r)))));
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

function encodeCell(type: TSDataType, v: WireCell): Buffer {
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

/** A cell checked for its column; DATE and BOOLEAN typed columns hold their wire values (typed-date-boolean.ts). */
function wireCell(p: PreparedTablet, c: number, v: unknown, field: string): WireCell {
  const type = p.types[c];
  const given = p.columns[c];
  if (type === TSDataType.DATE && given instanceof Int32Array) return checkDateInt(field, v as number);
  if (type === TSDataType.BOOLEAN && given instanceof Uint8Array) return typedBoolean(field, v as number);
  return checkCell(type, v, field, p.precision);
}

/** What Java writes in a null slot (null-slots.ts); TEXT, STRING and BLOB an empty value. */
function placeholder(type: TSDataType): Buffer {
  switch (type) {
    case TSDataType.BOOLEAN:
      return Buffer.from([0]);
    case TSDataType.INT32:
      return fixed(4, (d) => d.setInt32(0, INT32_NULL));
    case TSDataType.DATE:
      return fixed(4, (d) => d.setInt32(0, DATE_NULL));
    case TSDataType.FLOAT:
      return fixed(4, (d) => d.setFloat32(0, FLOAT_NULL));
    case TSDataType.DOUBLE:
      return fixed(8, (d) => d.setFloat64(0, DOUBLE_NULL));
    case TSDataType.INT64:
    case TSDataType.TIMESTAMP:
      return fixed(8, (d) => d.setBigInt64(0, INT64_NULL));
    default:
      return Buffer.alloc(4);
  }
}
