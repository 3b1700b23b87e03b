import { IoTDBValidationError } from '../errors.js';
import { isArray } from '../types/is-array.js';
import { writeUtf8 } from '../io/utf8.js';
import { TSDataType, dataTypeName } from '../types/data-type.js';
import { cellError, cellField, floatRangeError } from './cell.js';
import { dateToTime } from './time-unit.js';
import { dateIntOf, encodeDate } from './date.js';
import { describe } from '../types/describe.js';
import type { PreparedTablet } from './prepare-tablet.js';
import { copySwapped, scratchBuffer } from './scratch.js';
import type { CellValue, ColumnInput } from './tablet-input.js';
import { StridedColumn } from './strided-column.js';
import { RowMajorColumn, type PreparedColumn } from './row-major-column.js';
import { TWO_32, fitsInt64 } from '../types/int64.js';
import { DATE_NULL, DOUBLE_NULL, FLOAT_NULL, INT32_NULL, INT64_NULL, fillNullSlots, markNulls } from './null-slots.js';
import { writeTypedBooleans, writeTypedDates } from './typed-date-boolean.js';

/**
 * The fast tablet encoder: the `timestamps` and `values` binary fields of TSInsertTabletReq written
 * straight into the request buffer, one pass per column, no allocation per value.
 *
 * `values` layout (all big-endian, protocol.md 4.2): each column in schema order with one slot per row
 * (a null still takes a placeholder), then one flag byte per column: 0 = no nulls, or 1 followed by
 * floor(rows/8)+1 bytes of LSB-first bitmap, 1 = null. The flag bytes are always written, as Java does.
 * The server ignores bits past the last row; we still match Java there: its Tablet starts with every
 * bit marked (so they are 1), but when it had to sort the rows it rebuilds the bitmaps (so 0).
 *
 * Sizes: the caller reserves `valuesUpperBound()` bytes and learns the real length from the return
 * value, which spares a UTF-8 sizing pass over every string (a string takes at most 3 bytes per
 * UTF-16 unit).
 */

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

/** The bytes one value of `type` takes in a tablet's values, or 0 for TEXT, STRING and BLOB (a length, then bytes). */
export function fixedWidth(type: TSDataType): number {
  return FIXED_WIDTH[type];
}

/** BitMap.getSize(): floor(size/8)+1 bytes, not ceil. */
export function bitmapBytes(rows: number): number {
  return (rows >> 3) + 1;
}

/**
 * Bytes that `writeValues` may need at most. Checks the cells of TEXT/STRING/BLOB columns on the way
 * (their sizes depend on them); other cells are checked while they are written.
 */
export function valuesUpperBound(p: PreparedTablet): number {
  const { rows, types, columns } = p;
  let bytes = types.length * (1 + bitmapBytes(rows));
  for (let c = 0; c < types.length; c++) {
    const width = FIXED_WIDTH[types[c]];
    if (width !== 0) {
      bytes += width * rows;
      continue;
    }
    const col = columns[c];
    if (!isCellList(col)) throw typedArrayMismatch(p, c);
    // every cell of the column, also when only some rows are sent (`order` a subset): still an upper bound
    bytes += 4 * rows + binaryColumnBytes(cellsOf(col), types[c] === TSDataType.BLOB, p, c);
  }
  return bytes;
}

/** The most bytes a TEXT, STRING or BLOB column's cells take; throws on a cell the column does not take. */
function binaryColumnBytes({ of, k }: Cells, isBlob: boolean, p: PreparedTablet, c: number): number {
  let bytes = 0;
  // two loops, not one choosing per cell: see Cells
  if (k < 0) {
    for (let r = 0; r < of.length; r++) {
      const n = binaryBytes(of[r] as CellValue, isBlob);
      if (n < 0) throw badCell(p, c, r, of[r]);
      bytes += n;
    }
  } else {
    for (let r = 0; r < of.length; r++) {
      const n = binaryBytes((of[r] as Row)[k], isBlob);
      if (n < 0) throw badCell(p, c, r, (of[r] as Row)[k]);
      bytes += n;
    }
  }
  return bytes;
}

/** The most bytes a TEXT, STRING or BLOB cell takes (0 for null), or -1 for a cell the column does not take. */
function binaryBytes(v: CellValue, isBlob: boolean): number {
  if (v == null) return 0;
  if (!isBlob && typeof v === 'string') return 3 * v.length; // well-formed: checked as it is written (putBinary)
  if (v instanceof Uint8Array) return v.length; // TEXT and STRING take bytes too (sent as they are)
  return -1;
}

/** Writes `timestamps` (rows x int64) at out[pos]; returns the end offset. */
export function writeTimestamps(out: Buffer, pos: number, p: PreparedTablet): number {
  const { rows, order } = p;
  const ts = p.timestamps;
  if (ts instanceof BigInt64Array && order === null) copySwapped(out, pos, ts.buffer, ts.byteOffset, rows * 8, 8);
  else writeInt64s(out, pos, { of: ts, k: -1 }, rows, p, -1, NO_NULLS);
  return pos + rows * 8;
}

/** Writes `values` at out[pos] (with valuesUpperBound(p) bytes free); returns the end offset. */
export function writeValues(out: Buffer, pos: number, p: PreparedTablet): number {
  const { rows, types } = p;
  const found: NullRows = new Array<Uint8Array | null>(types.length).fill(null);
  const starts = new Int32Array(types.length); // where each column's values are: a masked one's null slots are filled
  for (let c = 0; c < types.length; c++) {
    starts[c] = pos;
    pos = writeColumn(out, pos, p, c, rows, found);
  }
  for (let c = 0; c < types.length; c++) {
    const mask = p.nullMasks?.[c] ?? null;
    const met = found[c];
    if (mask === null && met === null) {
      out[pos++] = 0;
      continue;
    }
    out[pos++] = 1;
    const n = bitmapBytes(rows);
    out.fill(0, pos, pos + n);
    if (mask !== null) {
      markNulls(out, pos, mask, p.order, rows);
      fillNullSlots(out, starts[c], types[c], pos, rows); // from the bitmap just marked
    } else {
      markNulls(out, pos, met!, null, rows); // its rows in the order they went out
    }
    if (p.order === null) for (let r = rows; r < n * 8; r++) out[pos + (r >> 3)] |= 1 << (r & 7);
    pos += n;
  }
  return pos;
}

/**
 * The rows of each column whose cells were null, in the order the rows go out (1 = null; null while none was met),
 * marked by the writers as they meet them: the bitmaps are then built from these, eight rows to a byte, where
 * reading every cell again (a row-major cell through its row) cost about 1 ns a cell.
 */
type NullRows = (Uint8Array | null)[];

/** Writes a column's cells at out[pos], its null rows marked in `found`; returns the end offset. */
type CellWriter = (
  out: Buffer,
  pos: number,
  cells: Cells,
  rows: number,
  p: PreparedTablet,
  c: number,
  found: NullRows,
) => number;

/** A time column takes no nulls (its writer refuses them). */
const NO_NULLS: NullRows = [];

/** Marks output row r of column c null. */
function nullAt(found: NullRows, c: number, r: number, rows: number): void {
  (found[c] ??= new Uint8Array(rows))[r] = 1;
}

/**
 * A column's cells for the loops that check and write them one by one: a plain (or typed) array, k = -1, or
 * row-major input read in place, `of` the rows and k the column's place in each row. Each writer has a loop for
 * each, both calling the same inlined `put` of the type: one loop choosing per cell made V8 box every number of a
 * plain array to merge it with the rows' cells (plain columns then took 1.1x the time), and one shared function
 * reading any column's cells meets every array kind at one element load (both measured slower than the copy of
 * the rows into columns this replaced; docs/PERFORMANCE.md "Row-major tablets read in place").
 */
interface Cells {
  readonly of: ArrayLike<unknown>;
  readonly k: number;
}

type Row = readonly CellValue[];

/** A column whose cells are JS values (a plain array, or rows read in place), not a typed array. */
function isCellList(col: PreparedColumn): col is readonly CellValue[] | RowMajorColumn {
  return isArray(col) || col instanceof RowMajorColumn;
}

function cellsOf(col: ColumnInput | RowMajorColumn): Cells {
  return col instanceof RowMajorColumn ? { of: col.rows, k: col.index } : { of: col, k: -1 };
}

/** Writes one column, its null cells marked in `found`; returns its end offset. */
function writeColumn(out: Buffer, pos: number, p: PreparedTablet, c: number, rows: number, found: NullRows): number {
  const col = p.columns[c];
  const type = p.types[c];
  if (col instanceof StridedColumn) return writeStrided(out, pos, col, type, rows, p.order);
  if (type === TSDataType.DATE && col instanceof Int32Array) return writeTypedDates(out, pos, col, p, c);
  if (type === TSDataType.BOOLEAN && col instanceof Uint8Array) return writeTypedBooleans(out, pos, col, p, c);
  if (p.order === null && isTypedColumnOf(col, type)) {
    const width = FIXED_WIDTH[type] as 4 | 8;
    copySwapped(out, pos, col.buffer, col.byteOffset, rows * width, width);
    return pos + rows * width;
  }
  const cells = cellsOf(col);
  switch (type) {
    case TSDataType.BOOLEAN:
      if (!isCellList(col)) throw typedArrayMismatch(p, c);
      return writeBooleans(out, pos, cells, rows, p, c, found);
    case TSDataType.INT32:
    case TSDataType.DATE:
      return writeInt32s(out, pos, cells, rows, p, c, found);
    case TSDataType.FLOAT:
      return writeFloats(out, pos, cells, rows, p, c, found);
    case TSDataType.DOUBLE:
      return writeDoubles(out, pos, cells, rows, p, c, found);
    case TSDataType.INT64:
    case TSDataType.TIMESTAMP:
      return writeInt64s(out, pos, cells, rows, p, c, found);
    default:
      return writeBinaries(out, pos, cells, rows, p, c, found);
  }
}

/** A typed array whose elements go on the wire as they are (byte-swapped) for this column type. */
function isTypedColumnOf(
  col: ColumnInput | RowMajorColumn,
  type: TSDataType,
): col is Int32Array | Float32Array | Float64Array | BigInt64Array {
  switch (type) {
    case TSDataType.INT32:
      return col instanceof Int32Array;
    case TSDataType.FLOAT:
      return col instanceof Float32Array;
    case TSDataType.DOUBLE:
      return col instanceof Float64Array;
    case TSDataType.INT64:
    case TSDataType.TIMESTAMP:
      return col instanceof BigInt64Array;
    default:
      return false;
  }
}

const writeBooleans: CellWriter = (out, pos, cells, rows, p, c, found) => {
  const { of, k } = cells;
  const order = p.order;
  if (k < 0) {
    for (let r = 0; r < rows; r++) {
      const src = order === null ? r : order[r];
      if (putBoolean(out, pos + r, of[src] as CellValue, p, c, src)) nullAt(found, c, r, rows);
    }
  } else {
    for (let r = 0; r < rows; r++) {
      const src = order === null ? r : order[r];
      if (putBoolean(out, pos + r, (of[src] as Row)[k], p, c, src)) nullAt(found, c, r, rows);
    }
  }
  return pos + rows;
};

/** A BOOLEAN cell (row `src` of the input) as its byte at out[at]; true when it is null. */
function putBoolean(out: Buffer, at: number, v: CellValue, p: PreparedTablet, c: number, src: number): boolean {
  if (v === true) out[at] = 1;
  else if (v === false) out[at] = 0;
  else if (v == null) {
    out[at] = 0;
    return true;
  } else throw badCell(p, c, src, v);
  return false;
}

/** INT32 and DATE (yyyyMMdd as an int32) through scratch. */
const writeInt32s: CellWriter = (out, pos, cells, rows, p, c, found) => {
  const { of, k } = cells;
  const order = p.order;
  const s = new Int32Array(scratchBuffer(rows * 4), 0, rows);
  const isDate = p.types[c] === TSDataType.DATE;
  if (k < 0) {
    for (let r = 0; r < rows; r++) {
      const src = order === null ? r : order[r];
      if (putInt32(s, r, of[src] as CellValue, isDate, p, c, src)) nullAt(found, c, r, rows);
    }
  } else {
    for (let r = 0; r < rows; r++) {
      const src = order === null ? r : order[r];
      if (putInt32(s, r, (of[src] as Row)[k], isDate, p, c, src)) nullAt(found, c, r, rows);
    }
  }
  copySwapped(out, pos, s.buffer, 0, rows * 4, 4);
  return pos + rows * 4;
};

/** isDate is the caller's to look up (looked up here for every cell it cost INT32 columns 1.5x the time). */
function putInt32(
  s: Int32Array,
  r: number,
  v: CellValue,
  isDate: boolean,
  p: PreparedTablet,
  c: number,
  src: number,
): boolean {
  if (typeof v === 'number' && !isDate && (v | 0) === v) s[r] = v;
  else if (v == null) {
    s[r] = isDate ? DATE_NULL : INT32_NULL;
    return true;
  } else if (isDate) {
    const day = dateIntOf(v); // the cell's name made only for a bad value: building it cost more than the check
    s[r] = day >= 0 ? day : encodeDate(cellField(p, c, src), v);
  } else throw badCell(p, c, src, v);
  return false;
}

const writeFloats: CellWriter = (out, pos, cells, rows, p, c, found) => {
  const { of, k } = cells;
  const order = p.order;
  const s = new Float32Array(scratchBuffer(rows * 4), 0, rows);
  if (k < 0) {
    for (let r = 0; r < rows; r++) {
      const src = order === null ? r : order[r];
      if (putFloat(s, r, of[src] as CellValue, p, c, src)) nullAt(found, c, r, rows);
    }
  } else {
    for (let r = 0; r < rows; r++) {
      const src = order === null ? r : order[r];
      if (putFloat(s, r, (of[src] as Row)[k], p, c, src)) nullAt(found, c, r, rows);
    }
  }
  copySwapped(out, pos, s.buffer, 0, rows * 4, 4);
  return pos + rows * 4;
};

function putFloat(s: Float32Array, r: number, v: CellValue, p: PreparedTablet, c: number, src: number): boolean {
  if (typeof v === 'number') {
    s[r] = v;
    const f = s[r]; // the float32 it became: infinite only when v already was, or overflowed
    if ((f === Infinity || f === -Infinity) && f !== v) throw floatRangeError(cellField(p, c, src), v);
  } else if (v == null) {
    s[r] = FLOAT_NULL;
    return true;
  } else throw badCell(p, c, src, v);
  return false;
}

const writeDoubles: CellWriter = (out, pos, cells, rows, p, c, found) => {
  const { of, k } = cells;
  const order = p.order;
  const s = new Float64Array(scratchBuffer(rows * 8), 0, rows);
  if (k < 0) {
    for (let r = 0; r < rows; r++) {
      const src = order === null ? r : order[r];
      if (putDouble(s, r, of[src] as CellValue, p, c, src)) nullAt(found, c, r, rows);
    }
  } else {
    for (let r = 0; r < rows; r++) {
      const src = order === null ? r : order[r];
      if (putDouble(s, r, (of[src] as Row)[k], p, c, src)) nullAt(found, c, r, rows);
    }
  }
  copySwapped(out, pos, s.buffer, 0, rows * 8, 8);
  return pos + rows * 8;
};

function putDouble(s: Float64Array, r: number, v: CellValue, p: PreparedTablet, c: number, src: number): boolean {
  if (typeof v === 'number') s[r] = v;
  else if (v == null) {
    s[r] = DOUBLE_NULL;
    return true;
  } else throw badCell(p, c, src, v);
  return false;
}

/**
 * TEXT, STRING, BLOB: cells were checked by valuesUpperBound, but for a string UTF-8 cannot carry (a lone surrogate),
 * which putBinary finds as it writes it (an ASCII string proves itself in writeUtf8's loop; the others are asked).
 */
const writeBinaries: CellWriter = (out, pos, cells, rows, p, c, found) => {
  const { of, k } = cells;
  const order = p.order;
  if (k < 0) {
    for (let r = 0; r < rows; r++) {
      const src = order === null ? r : order[r];
      const v = of[src] as CellValue;
      if (v == null) nullAt(found, c, r, rows);
      pos = putBinary(out, pos, v);
      if (pos < 0) throw badCell(p, c, src, v);
    }
  } else {
    for (let r = 0; r < rows; r++) {
      const src = order === null ? r : order[r];
      const v = (of[src] as Row)[k];
      if (v == null) nullAt(found, c, r, rows);
      pos = putBinary(out, pos, v);
      if (pos < 0) throw badCell(p, c, src, v);
    }
  }
  return pos;
};

/**
 * A TEXT, STRING or BLOB cell at out[pos], its length first (0 for null); returns the end offset, or -1 for a string
 * UTF-8 cannot carry (it would arrive as U+FFFD).
 */
function putBinary(out: Buffer, pos: number, v: CellValue): number {
  let n = 0;
  if (typeof v === 'string') {
    n = writeUtf8(out, pos + 4, v);
    if (n < 0) return -1;
  } else if (v instanceof Uint8Array) {
    out.set(v, pos + 4);
    n = v.length;
  }
  out[pos] = n >>> 24;
  out[pos + 1] = n >>> 16;
  out[pos + 2] = n >>> 8;
  out[pos + 3] = n;
  return pos + 4 + n;
}

/** A strided column (checked when it was staged; nulls are in the tablet's masks) gathered through scratch. */
function writeStrided(
  out: Buffer,
  pos: number,
  col: StridedColumn,
  type: TSDataType,
  rows: number,
  order: Uint32Array | null,
): number {
  const { data, stride, offset } = col;
  const width = type === TSDataType.FLOAT || type === TSDataType.INT32 ? 4 : 8;
  const buf = scratchBuffer(rows * width);
  switch (type) {
    case TSDataType.FLOAT: {
      const s = new Float32Array(buf, 0, rows);
      for (let r = 0; r < rows; r++) s[r] = data[offset + (order === null ? r : order[r]) * stride];
      break;
    }
    case TSDataType.INT32: {
      const s = new Int32Array(buf, 0, rows);
      for (let r = 0; r < rows; r++) s[r] = data[offset + (order === null ? r : order[r]) * stride];
      break;
    }
    case TSDataType.DOUBLE: {
      const s = new Float64Array(buf, 0, rows);
      for (let r = 0; r < rows; r++) s[r] = data[offset + (order === null ? r : order[r]) * stride];
      break;
    }
    default: {
      // INT64, TIMESTAMP: safe integers, as [hi, lo] int32 words
      const s = new Int32Array(buf, 0, rows * 2);
      for (let r = 0; r < rows; r++) {
        setWords(s, r, data[offset + (order === null ? r : order[r]) * stride]);
      }
      copySwapped(out, pos, buf, 0, rows * 8, 4);
      return pos + rows * 8;
    }
  }
  copySwapped(out, pos, buf, 0, rows * width, width);
  return pos + rows * width;
}

/**
 * int64 cells (INT64, TIMESTAMP, or the timestamps when c = -1) through scratch, then one copy and
 * byte swap. A column of bigints goes through a BigInt64Array (no allocation per value); a column of
 * numbers as [hi, lo] int32 pairs swapped word by word (no bigint per value). A Date (TIMESTAMP)
 * counts as its epoch milliseconds.
 */
const writeInt64s: CellWriter = (out, pos, cells, rows, p, c, found) => {
  const { of, k } = cells;
  const order = p.order;
  const buf = scratchBuffer(rows * 8);
  let first: unknown = null;
  for (let r = 0; r < rows && first == null; r++) first = k < 0 ? of[r] : (of[r] as Row)[k];
  if (typeof first === 'bigint') {
    const s = new BigInt64Array(buf, 0, rows);
    if (k < 0) {
      for (let r = 0; r < rows; r++) {
        const src = order === null ? r : order[r];
        if (putBigInt64(s, r, of[src], p, c, src)) nullAt(found, c, r, rows);
      }
    } else {
      for (let r = 0; r < rows; r++) {
        const src = order === null ? r : order[r];
        if (putBigInt64(s, r, (of[src] as Row)[k], p, c, src)) nullAt(found, c, r, rows);
      }
    }
    copySwapped(out, pos, buf, 0, rows * 8, 8);
    return pos + rows * 8;
  }
  const s = new Int32Array(buf, 0, rows * 2);
  for (let r = 0; r < rows; r++) {
    const src = order === null ? r : order[r];
    const v = k < 0 ? of[src] : (of[src] as Row)[k];
    if (v == null && c >= 0) {
      s[2 * r] = -2147483648; // Long.MIN_VALUE's high word
      s[2 * r + 1] = 0;
      nullAt(found, c, r, rows);
    } else {
      const n = typeof v === 'bigint' && fitsInt64(v) ? v : int64Value(p, c, src, v);
      if (typeof n === 'bigint') setBigWords(s, r, n);
      else setWords(s, r, n);
    }
  }
  copySwapped(out, pos, buf, 0, rows * 8, 4);
  return pos + rows * 8;
};

/** An int64 cell into a BigInt64Array; returns whether it was null (time columns, c < 0, take no nulls). */
function putBigInt64(s: BigInt64Array, r: number, v: unknown, p: PreparedTablet, c: number, src: number): boolean {
  if (typeof v === 'bigint' && fitsInt64(v)) s[r] = v;
  else if (v == null && c >= 0) {
    s[r] = INT64_NULL;
    return true;
  } else s[r] = BigInt(int64Value(p, c, src, v));
  return false;
}

/** An int64 bigint as its [hi, lo] int32 words, at pair r of `s`. */
function setBigWords(s: Int32Array, r: number, n: bigint): void {
  s[2 * r] = Number(n >> 32n);
  s[2 * r + 1] = Number(BigInt.asUintN(32, n));
}

/** A safe integer as the [hi, lo] int32 words of its int64, at pair r of `s`. */
function setWords(s: Int32Array, r: number, n: number): void {
  const hi = Math.floor(n / TWO_32);
  s[2 * r] = hi;
  s[2 * r + 1] = n - hi * TWO_32;
}

/** An int64 cell that is not a bigint in range: a safe integer number, or a TIMESTAMP Date in the server's unit. */
function int64Value(p: PreparedTablet, c: number, row: number, v: unknown): number | bigint {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  if (c >= 0 && p.types[c] === TSDataType.TIMESTAMP && v instanceof Date && !Number.isNaN(v.getTime())) {
    return dateToTime(v, p.precision, () => cellField(p, c, row));
  }
  throw badCell(p, c, row, v);
}

function badCell(p: PreparedTablet, c: number, row: number, v: unknown): IoTDBValidationError {
  if (c < 0)
    return new IoTDBValidationError(
      cellField(p, c, row),
      `needs a safe integer number or an int64 bigint, got ${describe(v)}`,
    );
  return cellError(cellField(p, c, row), p.types[c], v);
}

const TYPED_ARRAY_OF: Partial<Record<TSDataType, string>> = {
  [TSDataType.BOOLEAN]: 'a Uint8Array of 0/1',
  [TSDataType.DATE]: 'an Int32Array of yyyymmdd',
};

function typedArrayMismatch(p: PreparedTablet, c: number): IoTDBValidationError {
  const type = p.types[c];
  const col = p.columns[c];
  const typed = TYPED_ARRAY_OF[type];
  return new IoTDBValidationError(
    `columns[${c}] ("${p.measurements[c]}")`,
    `${describe(col)} cannot hold ${dataTypeName(type)} values: give ${typed ? `${typed} or ` : ''}a plain array` +
      (col instanceof Uint8Array ? ' (a Uint8Array is a BOOLEAN column of 0/1)' : ''),
  );
}
