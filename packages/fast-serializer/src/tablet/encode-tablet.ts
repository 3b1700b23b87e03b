import { IoTDBValidationError } from '../errors.js';
import { TSDataType, dataTypeName } from '../types/data-type.js';
import { describe, encodeDate } from './date.js';
import type { PreparedTablet } from './prepare-tablet.js';
import { copySwapped, scratchBuffer } from './scratch.js';
import type { CellValue, ColumnInput } from './tablet-input.js';

/**
 * The fast tablet encoder: the `timestamps` and `values` binary fields of TSInsertTabletReq,
 * written straight into the request buffer in one pass per column after a sizing pass.
 *
 * `values` layout (all big-endian, see protocol.md 4.2): each column in schema order with one slot per
 * row (a null still takes a placeholder), then one flag byte per column: 0 = no nulls, or 1 followed by
 * floor(rows/8)+1 bytes of LSB-first bitmap where 1 = null. The flag bytes are always written, as Java
 * does. The server ignores bits past the last row; we still match Java there: its Tablet starts with
 * every bit marked (so they are 1), but when it had to sort the rows it rebuilds the bitmaps (so 0).
 */
export interface TabletLayout {
  readonly valuesBytes: number;
  readonly timestampsBytes: number;
  /** per column: 1 when it holds at least one null */
  readonly hasNull: Uint8Array;
}

const INT32_NULL = -2147483648; // Integer.MIN_VALUE
const FLOAT_NULL = 1.401298464324817e-45; // Float.MIN_VALUE
const DOUBLE_NULL = 5e-324; // Double.MIN_VALUE
const DATE_NULL = 10000101;
const INT64_NULL_HI = -2147483648; // Long.MIN_VALUE = 0x80000000_00000000
const TWO_32 = 4294967296;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

const FIXED_WIDTH: Record<TSDataType, number> = {
  [TSDataType.BOOLEAN]: 1,
  [TSDataType.INT32]: 4,
  [TSDataType.INT64]: 8,
  [TSDataType.FLOAT]: 4,
  [TSDataType.DOUBLE]: 8,
  [TSDataType.TEXT]: 0,
  [TSDataType.TIMESTAMP]: 8,
  [TSDataType.DATE]: 4,
  [TSDataType.BLOB]: 0,
  [TSDataType.STRING]: 0,
};

export function bitmapBytes(rows: number): number {
  return (rows >> 3) + 1; // BitMap.getSize(): floor(size/8)+1, not ceil
}

/** Sizing pass: exact byte counts, which columns have nulls; checks TEXT/STRING/BLOB cells on the way. */
export function measureTablet(p: PreparedTablet): TabletLayout {
  const { rows, types, columns } = p;
  const hasNull = new Uint8Array(types.length);
  let bytes = types.length; // one bitmap flag byte per column
  for (let c = 0; c < types.length; c++) {
    const col = columns[c];
    const width = FIXED_WIDTH[types[c]];
    let colBytes: number;
    let nulls = false;
    if (width !== 0) {
      colBytes = width * rows;
      if (Array.isArray(col)) {
        for (let r = 0; r < rows; r++) {
          if (col[r] == null) {
            nulls = true;
            break;
          }
        }
      }
    } else {
      colBytes = 4 * rows;
      if (!Array.isArray(col)) throw typedArrayMismatch(p, c);
      const isBlob = types[c] === TSDataType.BLOB;
      for (let r = 0; r < rows; r++) {
        const v: CellValue = col[r];
        if (v == null) nulls = true;
        else if (!isBlob && typeof v === 'string') colBytes += Buffer.byteLength(v, 'utf8');
        else if (isBlob && v instanceof Uint8Array) colBytes += v.length;
        else throw badCell(p, c, r, v);
      }
    }
    if (nulls) {
      hasNull[c] = 1;
      bytes += bitmapBytes(rows);
    }
    bytes += colBytes;
  }
  return { valuesBytes: bytes, timestampsBytes: 8 * rows, hasNull };
}

/** Writes `timestamps` (rows x int64) at out[pos]; returns the end offset. */
export function writeTimestamps(out: Buffer, pos: number, p: PreparedTablet): number {
  const { rows, order } = p;
  const ts = p.timestamps;
  if (ts instanceof BigInt64Array && order === null) {
    copySwapped(out, pos, ts.buffer, ts.byteOffset, rows * 8, 8);
  } else {
    writeInt64s(out, pos, ts, rows, order, -1, p);
  }
  return pos + rows * 8;
}

/** Writes `values` at out[pos] following `layout`; returns the end offset. */
export function writeValues(out: Buffer, pos: number, p: PreparedTablet, layout: TabletLayout): number {
  const { rows, types, columns, order } = p;
  for (let c = 0; c < types.length; c++) {
    pos = writeColumn(out, pos, p, c, columns[c], types[c], rows, order);
  }
  for (let c = 0; c < types.length; c++) {
    if (layout.hasNull[c] === 0) {
      out[pos++] = 0;
      continue;
    }
    out[pos++] = 1;
    const n = bitmapBytes(rows);
    out.fill(0, pos, pos + n);
    const col = columns[c] as readonly CellValue[];
    for (let r = 0; r < rows; r++) {
      if (col[order === null ? r : order[r]] == null) out[pos + (r >> 3)] |= 1 << (r & 7);
    }
    if (order === null) for (let r = rows; r < n * 8; r++) out[pos + (r >> 3)] |= 1 << (r & 7);
    pos += n;
  }
  return pos;
}

function writeColumn(
  out: Buffer,
  pos: number,
  p: PreparedTablet,
  c: number,
  col: ColumnInput,
  type: TSDataType,
  rows: number,
  order: Uint32Array | null,
): number {
  switch (type) {
    case TSDataType.BOOLEAN: {
      if (!Array.isArray(col)) throw typedArrayMismatch(p, c);
      for (let r = 0; r < rows; r++) {
        const src = order === null ? r : order[r];
        const v: CellValue = col[src];
        if (v === true) out[pos + r] = 1;
        else if (v === false || v == null) out[pos + r] = 0;
        else throw badCell(p, c, src, v);
      }
      return pos + rows;
    }
    case TSDataType.INT32:
    case TSDataType.DATE: {
      if (col instanceof Int32Array && type === TSDataType.INT32 && order === null) {
        copySwapped(out, pos, col.buffer, col.byteOffset, rows * 4, 4);
        return pos + rows * 4;
      }
      const buf = scratchBuffer(rows * 4);
      const s = new Int32Array(buf, 0, rows);
      const isDate = type === TSDataType.DATE;
      for (let r = 0; r < rows; r++) {
        const src = order === null ? r : order[r];
        const v = col[src];
        if (v == null) s[r] = isDate ? DATE_NULL : INT32_NULL;
        else if (isDate) s[r] = encodeDate(cellField(p, c, src), v);
        else if (typeof v === 'number' && (v | 0) === v) s[r] = v;
        else throw badCell(p, c, src, v);
      }
      copySwapped(out, pos, buf, 0, rows * 4, 4);
      return pos + rows * 4;
    }
    case TSDataType.FLOAT: {
      if (col instanceof Float32Array && order === null) {
        copySwapped(out, pos, col.buffer, col.byteOffset, rows * 4, 4);
        return pos + rows * 4;
      }
      const buf = scratchBuffer(rows * 4);
      const s = new Float32Array(buf, 0, rows);
      for (let r = 0; r < rows; r++) {
        const src = order === null ? r : order[r];
        const v = col[src];
        if (typeof v === 'number') s[r] = v;
        else if (v == null) s[r] = FLOAT_NULL;
        else throw badCell(p, c, src, v);
      }
      copySwapped(out, pos, buf, 0, rows * 4, 4);
      return pos + rows * 4;
    }
    case TSDataType.DOUBLE: {
      if (col instanceof Float64Array && order === null) {
        copySwapped(out, pos, col.buffer, col.byteOffset, rows * 8, 8);
        return pos + rows * 8;
      }
      const buf = scratchBuffer(rows * 8);
      const s = new Float64Array(buf, 0, rows);
      for (let r = 0; r < rows; r++) {
        const src = order === null ? r : order[r];
        const v = col[src];
        if (typeof v === 'number') s[r] = v;
        else if (v == null) s[r] = DOUBLE_NULL;
        else throw badCell(p, c, src, v);
      }
      copySwapped(out, pos, buf, 0, rows * 8, 8);
      return pos + rows * 8;
    }
    case TSDataType.INT64:
    case TSDataType.TIMESTAMP: {
      if (col instanceof BigInt64Array && order === null) {
        copySwapped(out, pos, col.buffer, col.byteOffset, rows * 8, 8);
      } else {
        writeInt64s(out, pos, col, rows, order, c, p);
      }
      return pos + rows * 8;
    }
    case TSDataType.TEXT:
    case TSDataType.STRING:
    case TSDataType.BLOB: {
      const cells = col as readonly CellValue[];
      for (let r = 0; r < rows; r++) {
        const v = cells[order === null ? r : order[r]];
        let n = 0;
        if (typeof v === 'string') n = out.write(v, pos + 4, 'utf8');
        else if (v instanceof Uint8Array) {
          out.set(v, pos + 4);
          n = v.length;
        }
        out.writeInt32BE(n, pos);
        pos += 4 + n;
      }
      return pos;
    }
  }
}

/**
 * int64 cells (INT64, TIMESTAMP, or the timestamps when c = -1) as [hi, lo] int32 pairs in scratch,
 * then one copy + swap32: each pair becomes the big-endian int64. Numbers must be safe integers;
 * bigint must fit int64; a Date (TIMESTAMP only) counts as its epoch milliseconds.
 */
function writeInt64s(
  out: Buffer,
  pos: number,
  col: ArrayLike<unknown>,
  rows: number,
  order: Uint32Array | null,
  c: number,
  p: PreparedTablet,
): void {
  const buf = scratchBuffer(rows * 8);
  const s = new Int32Array(buf, 0, rows * 2);
  const allowDate = c >= 0 && p.types[c] === TSDataType.TIMESTAMP;
  for (let r = 0; r < rows; r++) {
    const src = order === null ? r : order[r];
    let v = col[src];
    if (allowDate && v instanceof Date) v = v.getTime();
    if (typeof v === 'number') {
      if (!Number.isSafeInteger(v)) throw badCell(p, c, src, v);
      const hi = Math.floor(v / TWO_32);
      s[2 * r] = hi;
      s[2 * r + 1] = v - hi * TWO_32;
    } else if (typeof v === 'bigint') {
      if (v < INT64_MIN || v > INT64_MAX) throw badCell(p, c, src, v);
      s[2 * r] = Number(v >> 32n);
      s[2 * r + 1] = Number(BigInt.asUintN(32, v));
    } else if (v == null && c >= 0) {
      s[2 * r] = INT64_NULL_HI;
      s[2 * r + 1] = 0;
    } else {
      throw badCell(p, c, src, v);
    }
  }
  copySwapped(out, pos, buf, 0, rows * 8, 4);
}

const EXPECTED: Record<TSDataType, string> = {
  [TSDataType.BOOLEAN]: 'a boolean',
  [TSDataType.INT32]: 'an integer number in the int32 range',
  [TSDataType.INT64]: 'a bigint in the int64 range or a safe integer number',
  [TSDataType.FLOAT]: 'a number',
  [TSDataType.DOUBLE]: 'a number',
  [TSDataType.TEXT]: 'a string',
  [TSDataType.TIMESTAMP]: 'a bigint, a safe integer number or a Date',
  [TSDataType.DATE]: "a Date or a 'YYYY-MM-DD' string",
  [TSDataType.BLOB]: 'a Buffer or Uint8Array',
  [TSDataType.STRING]: 'a string',
};

function cellField(p: PreparedTablet, c: number, row: number): string {
  if (c < 0) return `timestamps[${row}]`;
  return p.rowMajor ? `values[${row}][${c}] ("${p.measurements[c]}")` : `columns[${c}] ("${p.measurements[c]}") row ${row}`;
}

function badCell(p: PreparedTablet, c: number, row: number, v: unknown): IoTDBValidationError {
  if (c < 0) return new IoTDBValidationError(cellField(p, c, row), `needs a safe integer number or an int64 bigint, got ${describe(v)}`);
  const t = p.types[c];
  return new IoTDBValidationError(cellField(p, c, row), `${dataTypeName(t)} needs ${EXPECTED[t]}, got ${describe(v)}`);
}

function typedArrayMismatch(p: PreparedTablet, c: number): IoTDBValidationError {
  const t = p.types[c];
  return new IoTDBValidationError(
    `columns[${c}] ("${p.measurements[c]}")`,
    `a ${describe(p.columns[c])} cannot hold ${dataTypeName(t)} values; use a plain array`,
  );
}
