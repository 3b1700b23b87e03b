import { isAscii, isUtf8 } from 'node:buffer';
import { IoTDBProtocolError } from '../errors.js';
import { ByteReader, truncatedData } from '../io/byte-reader.js';
import { TSDataType } from '../types/data-type.js';
import { readSharedAscii, type BinaryCells } from './shared-strings.js';
import { unpackBits } from './bits.js';
import { FixedArena } from './fixed-arena.js';
import { ColumnEncoding, PhysicalType, type ColumnValues, type DecodedColumn, type DecodedTsBlock } from './tsblock.js';

/**
 * Decodes one serialized TsBlock (tsfile TsBlockSerde; protocol.md 6.1):
 *   int32 valueColumnCount, byte physicalType[count], int32 positionCount, byte encoding[count+1],
 *   the time column, then each value column.
 * `logicalTypes` (from the response's dataTypeList, one per TsBlock value column) decides what the
 * values become: the header only knows physical types (TIMESTAMP arrives as INT64, DATE as INT32,
 * BLOB and STRING as TEXT). Columns it does not name are decoded by their physical type.
 */
export function decodeTsBlock(
  buf: Buffer,
  logicalTypes?: readonly (TSDataType | undefined)[],
  opts: DecodeOptions = {},
): DecodedTsBlock {
  const r = new ByteReader(buf);
  const count = r.i32();
  if (count < 0 || count > r.remaining) throw new IoTDBProtocolError(`TsBlock: bad column count ${count} at offset 0`);
  const physical = r.slice(count);
  const rows = r.i32();
  const encodings = r.slice(count + 1);
  const arena = checkPositionCount(rows, count, encodings, r);
  const block: BlockScope = { rows, arena, shareStrings: opts.shareStrings === true };
  const time = readColumn(r, encodings[0], TSDataType.INT64, block);
  const columns = new Array<DecodedColumn>(count);
  for (let i = 0; i < count; i++) {
    const type = logicalTypes?.[i] ?? physicalToLogical(physical[i]);
    columns[i] = readColumn(r, encodings[i + 1], type, block);
  }
  arena.finish();
  return { rows, times: time.values as BigInt64Array, columns };
}

export interface DecodeOptions {
  /**
   * A short all-ASCII TEXT/STRING value (at most 12 bytes) seen before, in this block or an earlier one, is given
   * as the string made for it then rather than a new one per cell; a longer one equal to the row before's (up to
   * 256 bytes), as that row's string. For a result held whole: repeated sensor text then costs a string per
   * distinct value, not per cell, and the collector has that much less to copy (10 M values held whole, one in
   * ten text: 14-25 % less CPU). For rows read and dropped, leave it off: a
   * string that dies young costs less than the lookup. A column whose values do not repeat soon stops looking.
   */
  readonly shareStrings?: boolean;
}

/** What a block's columns are read with: its row count, the arena of its fixed-width values, the strings' mode. */
interface BlockScope {
  readonly rows: number;
  readonly arena: FixedArena;
  readonly shareStrings: boolean;
}

/**
 * Most a block may expand to without the bytes to show for it: run-length and dictionary columns
 * repeat values, so a block of a few bytes may legitimately hold many rows (IoTDB sends at most
 * max_tsblock_line_number = 1000 rows per block by default). Past this, every row must be backed by
 * bytes on the wire, so that a reply of N bytes never makes the decoder allocate more than a small
 * multiple of N.
 */
export const MAX_EXPANDED_CELLS = 1 << 20;

/**
 * Checked before anything is allocated: a column that is not RLE or dictionary takes at least one bit
 * per row (a boolean, a null flag) and usually bytes, so the fixed-width and boolean ones together take at least
 * a bit per row each; the expanded columns together stay within MAX_EXPANDED_CELLS cells. Returns the arena of the
 * block's fixed-width columns (at most 64 times the bytes that back them).
 */
function checkPositionCount(rows: number, count: number, encodings: Buffer, r: ByteReader): FixedArena {
  if (rows < 0) throw new IoTDBProtocolError(`TsBlock: bad position count ${rows} at offset ${4 + count}`);
  let expanded = 0;
  let columns8 = 0;
  let columns4 = 0;
  let columns1 = 0;
  for (const e of encodings) {
    if (e === ColumnEncoding.RLE || e === ColumnEncoding.DICTIONARY) expanded++;
    else if (e === ColumnEncoding.INT64_ARRAY) columns8++;
    else if (e === ColumnEncoding.INT32_ARRAY) columns4++;
    else if (e === ColumnEncoding.BYTE_ARRAY) columns1++;
  }
  const backed = encodings.length > expanded;
  if (
    (backed && rows > 8 * r.remaining) ||
    (columns8 + columns4 + columns1) * ((rows + 7) >> 3) > r.remaining ||
    rows * expanded > Math.max(MAX_EXPANDED_CELLS, 8 * r.remaining)
  ) {
    throw new IoTDBProtocolError(`TsBlock: position count ${rows} is more than its ${r.remaining} bytes can hold`);
  }
  return new FixedArena(rows, columns8, columns4, columns1);
}

function physicalToLogical(p: number): TSDataType {
  if (p < PhysicalType.BOOLEAN || p > PhysicalType.TEXT)
    throw new IoTDBProtocolError(`TsBlock: unknown column type ${p}`);
  return p as TSDataType; // physical codes 0-5 equal the logical ones
}

function readColumn(r: ByteReader, encoding: number, type: TSDataType, block: BlockScope): DecodedColumn {
  switch (encoding) {
    case ColumnEncoding.RLE:
      return readRle(r, type, block.rows);
    case ColumnEncoding.DICTIONARY:
      return readDictionary(r, type, block.rows);
    default:
      return readArrayColumn(r, encoding, type, block);
  }
}

/** An RLE column: one value (a 1-row inner column, no null indicator of its own) repeated `rows` times. */
function readRle(r: ByteReader, type: TSDataType, rows: number): DecodedColumn {
  const inner = readInnerColumn(r, r.u8(), type, 1);
  const values = allocValues(type, rows); // 0s, or nulls for the binary types: what a null row holds
  if (inner.nulls !== null) return { type, values, nulls: new Uint8Array(rows).fill(1) };
  // one fill, not a gather through an id per row: a block of two 5000-row RLE columns 84-102 -> 44-48 us
  (values as unknown[]).fill(inner.values[0]);
  const bytes = inner.rawText?.get(0);
  if (bytes === undefined) return { type, values, nulls: null };
  return { type, values, nulls: null, rawText: new Map(Array.from({ length: rows }, (_, i) => [i, bytes])) };
}

function readDictionary(r: ByteReader, type: TSDataType, rows: number): DecodedColumn {
  const innerEncoding = r.u8();
  const dictSize = r.i32();
  if (dictSize < 0 || dictSize > 8 * r.remaining)
    throw new IoTDBProtocolError(`TsBlock: bad dictionary size ${dictSize} at offset ${r.pos - 4}`);
  const dict = readInnerColumn(r, innerEncoding, type, dictSize);
  const idCount = r.i32();
  if (idCount !== rows) throw new IoTDBProtocolError(`TsBlock: dictionary has ${idCount} ids for ${rows} rows`);
  if (4 * rows > r.remaining)
    throw new IoTDBProtocolError(`TsBlock: ${rows} dictionary ids need ${4 * rows} bytes, ${r.remaining} left`);
  const ids = new Int32Array(rows);
  for (let i = 0; i < rows; i++) {
    const id = r.i32();
    if (id < 0 || id >= dictSize) throw new IoTDBProtocolError(`TsBlock: dictionary id ${id} out of range`);
    ids[i] = id;
  }
  return gather(dict, ids);
}

/** Row i takes source row ids[i]. */
function gather(src: DecodedColumn, ids: Int32Array): DecodedColumn {
  const n = ids.length;
  const values = allocValues(src.type, n);
  const nulls = src.nulls === null ? null : new Uint8Array(n);
  const from = src.values as ArrayLike<unknown> & Record<number, unknown>;
  const to = values as unknown as Record<number, unknown>;
  let anyNull = false;
  for (let i = 0; i < n; i++) {
    to[i] = from[ids[i]];
    if (nulls !== null && src.nulls![ids[i]] === 1) {
      nulls[i] = 1;
      anyNull = true;
    }
  }
  const column = { type: src.type, values, nulls: anyNull ? nulls : null };
  if (src.rawText === undefined) return column;
  const rawText = new Map<number, Buffer>();
  for (let i = 0; i < n; i++) {
    const bytes = src.rawText.get(ids[i]);
    if (bytes !== undefined) rawText.set(i, bytes);
  }
  return { ...column, rawText };
}

function allocValues(type: TSDataType, n: number): ColumnValues {
  switch (type) {
    case TSDataType.BOOLEAN:
      return new Uint8Array(n);
    case TSDataType.INT32:
    case TSDataType.DATE:
      return new Int32Array(n);
    case TSDataType.INT64:
    case TSDataType.TIMESTAMP:
      return new BigInt64Array(n);
    case TSDataType.FLOAT:
      return new Float32Array(n);
    case TSDataType.DOUBLE:
      return new Float64Array(n);
    case TSDataType.TEXT:
    case TSDataType.STRING:
    case TSDataType.BLOB:
      return new Array<null>(n).fill(null); // filled with strings or Buffers by the caller
  }
}

/** Null indicators: a mayHaveNull byte, then ceil(n/8) bytes MSB-first (0x80 = row 0), 1 = null. */
function readNulls(r: ByteReader, rows: number, arena: FixedArena): { nulls: Uint8Array | null; nonNull: number } {
  if (r.u8() === 0) return { nulls: null, nonNull: rows };
  const nulls = arena.nullFlags(rows);
  const nonNull = rows - unpackBits(r.buf, r.advance((rows + 7) >> 3), nulls);
  return { nulls: nonNull === rows ? null : nulls, nonNull };
}

/** The array encoding a column of each logical type arrives in. */
const ARRAY_ENCODING: Record<TSDataType, number> = {
  [TSDataType.BOOLEAN]: ColumnEncoding.BYTE_ARRAY,
  [TSDataType.INT32]: ColumnEncoding.INT32_ARRAY,
  [TSDataType.DATE]: ColumnEncoding.INT32_ARRAY,
  [TSDataType.FLOAT]: ColumnEncoding.INT32_ARRAY,
  [TSDataType.INT64]: ColumnEncoding.INT64_ARRAY,
  [TSDataType.TIMESTAMP]: ColumnEncoding.INT64_ARRAY,
  [TSDataType.DOUBLE]: ColumnEncoding.INT64_ARRAY,
  [TSDataType.TEXT]: ColumnEncoding.BINARY_ARRAY,
  [TSDataType.STRING]: ColumnEncoding.BINARY_ARRAY,
  [TSDataType.BLOB]: ColumnEncoding.BINARY_ARRAY,
};

/** An inner column (an RLE value, a dictionary), not in the block's arena: in one of its own. */
function readInnerColumn(r: ByteReader, encoding: number, type: TSDataType, rows: number): DecodedColumn {
  const arena = new FixedArena(
    rows,
    encoding === ColumnEncoding.INT64_ARRAY ? 1 : 0,
    encoding === ColumnEncoding.INT32_ARRAY ? 1 : 0,
    encoding === ColumnEncoding.BYTE_ARRAY ? 1 : 0,
  );
  // one value, or a dictionary: its values are shared by the rows already
  const column = readArrayColumn(r, encoding, type, { rows, arena, shareStrings: false });
  arena.finish();
  return column;
}

/** A column of one array encoding; the block's arena takes its fixed-width values, booleans and null flags. */
function readArrayColumn(r: ByteReader, encoding: number, type: TSDataType, block: BlockScope): DecodedColumn {
  const { rows, arena } = block;
  if (encoding !== ARRAY_ENCODING[type]) {
    throw new IoTDBProtocolError(`TsBlock: encoding ${encoding} does not fit a column of type ${type}`);
  }
  const { nulls, nonNull } = readNulls(r, rows, arena);
  switch (encoding) {
    case ColumnEncoding.BYTE_ARRAY: {
      const values = arena.bytes(rows);
      unpackBits(r.buf, r.advance((rows + 7) >> 3), values); // written for every row, nulls included
      return { type, values, nulls };
    }
    case ColumnEncoding.INT32_ARRAY:
    case ColumnEncoding.INT64_ARRAY: {
      const width = encoding === ColumnEncoding.INT32_ARRAY ? 4 : 8;
      const values = readFixed(r.slice(nonNull * width), type, rows, width, nulls, arena);
      return { type, values, nulls };
    }
    default:
      return readBinaries(r, type, rows, nulls, nonNull, block.shareStrings);
  }
}

/** Rows of the scratch kept between columns (the server's blocks have at most 1000 by default). */
const KEPT_BOUNDS = 1 << 16;
let bounds = { starts: new Int32Array(1024), lengths: new Int32Array(1024) };

/**
 * Scratch for the starts and lengths of a binary column's values, reused from column to column (a block's
 * columns are decoded one after the other, and nothing keeps these): two arrays allocated per column were a
 * tenth of a 400-row block's text decode. A column of more rows than KEPT_BOUNDS gets arrays of its own.
 */
function valueBounds(rows: number): { starts: Int32Array; lengths: Int32Array } {
  if (bounds.starts.length >= rows) return bounds;
  const fresh = { starts: new Int32Array(rows), lengths: new Int32Array(rows) };
  if (rows <= KEPT_BOUNDS) bounds = fresh;
  return fresh;
}

/**
 * BINARY_ARRAY: int32 length + bytes per non-null row. TEXT/STRING become strings: when the column's
 * bytes (length prefixes included) are all ASCII, one latin1 decode of the whole region plus a
 * substring per value is about twice as fast as a Buffer#toString per value (measured: 31 vs 68 ns for
 * 8-character strings); otherwise each value is decoded as UTF-8 (a cell whose bytes are not UTF-8 keeps them in
 * `rawText`). BLOB values are copied out, so that they do not pin the response frame.
 */
function readBinaries(
  r: ByteReader,
  type: TSDataType,
  rows: number,
  nulls: Uint8Array | null,
  nonNull: number,
  share: boolean,
): DecodedColumn {
  const cells = binaryCells(r, rows, nulls, nonNull);
  const { buf, starts, lengths, regionStart, regionEnd } = cells;
  const values = new Array<string | Buffer | null>(rows);
  const isNull = (i: number) => nulls !== null && nulls[i] === 1; // the starts and lengths of null rows are stale
  if (type === TSDataType.BLOB) {
    for (let i = 0; i < rows; i++)
      values[i] = isNull(i) ? null : Buffer.from(buf.subarray(starts[i], starts[i] + lengths[i]));
  } else if (isAscii(buf.subarray(regionStart, regionEnd))) {
    const region = buf.toString('latin1', regionStart, regionEnd);
    if (share) readSharedAscii(cells, region, values as (string | null)[]);
    else
      for (let i = 0; i < rows; i++) {
        const at = starts[i] - regionStart;
        values[i] = isNull(i) ? null : region.substring(at, at + lengths[i]);
      }
  } else {
    for (let i = 0; i < rows; i++)
      values[i] = isNull(i) ? null : buf.toString('utf8', starts[i], starts[i] + lengths[i]);
    const rawText = bytesNotUtf8(cells, values as (string | null)[]);
    if (rawText !== null) return { type, values: values as ColumnValues, nulls, rawText };
  }
  return { type, values: values as ColumnValues, nulls };
}

/**
 * The bytes of the cells that are not UTF-8, copied out, by row; null when there are none. When the column's bytes,
 * length prefixes included, are UTF-8 as a whole (one simdutf pass) and no value is 128 bytes long or more, so is
 * every value: a prefix is then four ASCII bytes, which no multi-byte sequence spans (a longer value's last prefix
 * byte might lead one into it). Otherwise only a string holding U+FFFD, which the decoder puts in place of bytes that
 * are not UTF-8, is looked at again (text may hold U+FFFD itself). Measured on a 1000-row block of non-ASCII text:
 * looking at every string made the decode 5-10 % slower, the whole-column pass 1 %.
 */
function bytesNotUtf8(cells: BinaryCells, values: readonly (string | null)[]): Map<number, Buffer> | null {
  const { buf, starts, lengths } = cells;
  if (cells.longest < 128 && isUtf8(buf.subarray(cells.regionStart, cells.regionEnd))) return null;
  let rawText: Map<number, Buffer> | null = null;
  for (let i = 0; i < values.length; i++) {
    const s = values[i];
    if (s === null || s.indexOf('\uFFFD') === -1) continue;
    const bytes = buf.subarray(starts[i], starts[i] + lengths[i]);
    if (!isUtf8(bytes)) (rawText ??= new Map()).set(i, Buffer.from(bytes));
  }
  return rawText;
}

/**
 * Where each non-null row's bytes are, every length checked against what is left; the reader moves past them.
 * The lengths are read byte by byte: `readInt32BE` per value took 3-4x as long (its own bounds checks), a third of
 * a text column's decode.
 */
function binaryCells(r: ByteReader, rows: number, nulls: Uint8Array | null, nonNull: number): BinaryCells {
  if (4 * nonNull > r.remaining)
    throw new IoTDBProtocolError(
      `TsBlock: ${nonNull} binary values need at least ${4 * nonNull} bytes, ${r.remaining} left`,
    );
  const { buf, end } = r;
  const { starts, lengths } = valueBounds(rows);
  const regionStart = r.pos;
  let pos = regionStart;
  let longest = 0;
  for (let i = 0; i < rows; i++) {
    if (nulls !== null && nulls[i] === 1) continue;
    if (end - pos < 4) throw truncatedData(4, pos, end);
    const n = (buf[pos] << 24) | (buf[pos + 1] << 16) | (buf[pos + 2] << 8) | buf[pos + 3];
    if (n < 0) throw new IoTDBProtocolError(`TsBlock: negative binary length ${n} at offset ${pos}`);
    pos += 4;
    if (n > end - pos) throw truncatedData(n, pos, end);
    starts[i] = pos;
    lengths[i] = n;
    if (n > longest) longest = n;
    pos += n;
  }
  r.pos = pos;
  return { buf, starts, lengths, nulls, regionStart, regionEnd: pos, longest };
}

/** Big-endian fixed-width values for the non-null rows, in place (and nulls spread) once the arena is finished. */
function readFixed(
  src: Buffer,
  type: TSDataType,
  rows: number,
  width: 4 | 8,
  nulls: Uint8Array | null,
  arena: FixedArena,
): ColumnValues {
  return view(arena.buffer, arena.put(src, width, rows, nulls), type, rows);
}

function view(buf: ArrayBuffer, at: number, type: TSDataType, rows: number): ColumnValues {
  switch (type) {
    case TSDataType.FLOAT:
      return new Float32Array(buf, at, rows);
    case TSDataType.DOUBLE:
      return new Float64Array(buf, at, rows);
    case TSDataType.INT64:
    case TSDataType.TIMESTAMP:
      return new BigInt64Array(buf, at, rows);
    default:
      return new Int32Array(buf, at, rows);
  }
}
