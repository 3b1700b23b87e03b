import { prefixField } from '../errors.js';
import { ByteWriter } from '../io/byte-writer.js';
import { TType } from '../thrift/ttype.js';
import { valuesUpperBound, writeTimestamps, writeValues } from './encode-tablet.js';
import type { PreparedTablet } from './prepare-tablet.js';

/**
 * TSInsertTabletReq / TSInsertTabletsReq written field by field into the caller's writer, the big
 * binary fields straight from the tablet (no intermediate Buffers, no generic struct walk).
 * Field ids and order follow client.thrift; the bytes equal the Java client's (see fixtures/vectors).
 */

function utf8Len(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

function stringListBytes(items: readonly string[]): number {
  let n = 5; // element type + count
  for (const s of items) n += 4 + utf8Len(s);
  return n;
}

function writeStringList(w: ByteWriter, id: number, items: readonly string[]): void {
  w.i8(TType.LIST).i16(id).i8(TType.STRING).i32(items.length);
  for (const s of items) w.lengthPrefixedUtf8(s);
}

function writeI32List(w: ByteWriter, id: number, items: readonly number[]): void {
  w.i8(TType.LIST).i16(id).i8(TType.I32).i32(items.length);
  for (const v of items) w.i32(v);
}

/** `values` as a Thrift binary: the length is patched in once the column writer knows it. */
function writeValuesBinary(w: ByteWriter, p: PreparedTablet, maxBytes: number): void {
  const lengthAt = w.reserve(4);
  w.ensure(maxBytes);
  const end = writeValues(w.buf, w.pos, p);
  w.buf.writeInt32BE(end - w.pos, lengthAt);
  w.pos = end;
}

function writeTimestampsBinary(w: ByteWriter, p: PreparedTablet): void {
  w.i32(8 * p.rows);
  w.ensure(8 * p.rows);
  w.pos = writeTimestamps(w.buf, w.pos, p);
}

/** Upper bound of the struct's size, so that the writer grows at most once. */
function tabletReqBytes(p: PreparedTablet, maxValues: number): number {
  const fixed = 64; // field headers, sessionId, size, flags, list headers
  return fixed + utf8Len(p.prefixPath) + stringListBytes(p.measurements) + maxValues + 8 * p.rows + 5 * p.types.length;
}

/** The TSInsertTabletReq struct (fields, then STOP). */
export function writeInsertTabletReq(w: ByteWriter, sessionId: bigint, p: PreparedTablet): void {
  const maxValues = valuesUpperBound(p);
  w.ensure(tabletReqBytes(p, maxValues));
  w.i8(TType.I64).i16(1).i64(sessionId);
  w.i8(TType.STRING).i16(2).lengthPrefixedUtf8(p.prefixPath);
  writeStringList(w, 3, p.measurements);
  w.i8(TType.STRING).i16(4);
  writeValuesBinary(w, p, maxValues);
  w.i8(TType.STRING).i16(5);
  writeTimestampsBinary(w, p);
  writeI32List(w, 6, p.types);
  w.i8(TType.I32).i16(7).i32(p.rows);
  w.i8(TType.BOOL)
    .i16(8)
    .i8(p.isAligned ? 1 : 0);
  if (p.columnCategories !== null) {
    w.i8(TType.BOOL).i16(9).i8(1); // writeToTable
    w.i8(TType.LIST).i16(10).i8(TType.BYTE).i32(p.columnCategories.length);
    for (const c of p.columnCategories) w.i8(c);
  }
  w.i8(TType.STOP);
}

/** Runs `fn` for tablet i, naming it `tablets[names[i]]` (default `tablets[i]`) in a validation error's field. */
type InTablet = <T>(i: number, fn: () => T) => T;

/**
 * What both protocols' TSInsertTabletsReq writers start with: `inTablet` (errors name tablet i `tablets[names[i]]`,
 * by default `tablets[i]`) and each tablet's values bound, its cells checked as it is found.
 */
export function tabletsBounds(
  tablets: readonly PreparedTablet[],
  names?: readonly number[],
): { inTablet: InTablet; maxValues: number[] } {
  const inTablet: InTablet = (i, fn) => {
    try {
      return fn();
    } catch (e) {
      throw prefixField(e, `tablets[${names === undefined ? i : names[i]}]`);
    }
  };
  return { inTablet, maxValues: tablets.map((p, i) => inTablet(i, () => valuesUpperBound(p))) };
}

/**
 * The TSInsertTabletsReq struct: several tree tablets in one request. The request has one
 * `isAligned` for all, so the tablets must agree on it (the caller checks). Errors name tablet i
 * `tablets[names[i]]` (the caller's index of a part's tablet), by default `tablets[i]`.
 */
export function writeInsertTabletsReq(
  w: ByteWriter,
  sessionId: bigint,
  tablets: readonly PreparedTablet[],
  names?: readonly number[],
): void {
  const { inTablet, maxValues } = tabletsBounds(tablets, names);
  let total = 64;
  tablets.forEach((p, i) => (total += tabletReqBytes(p, maxValues[i])));
  w.ensure(total);
  w.i8(TType.I64).i16(1).i64(sessionId);
  writeStringList(
    w,
    2,
    tablets.map((p) => p.prefixPath),
  );
  w.i8(TType.LIST).i16(3).i8(TType.LIST).i32(tablets.length);
  for (const p of tablets) {
    w.i8(TType.STRING).i32(p.measurements.length);
    for (const m of p.measurements) w.lengthPrefixedUtf8(m);
  }
  w.i8(TType.LIST).i16(4).i8(TType.STRING).i32(tablets.length);
  tablets.forEach((p, i) => inTablet(i, () => writeValuesBinary(w, p, maxValues[i])));
  w.i8(TType.LIST).i16(5).i8(TType.STRING).i32(tablets.length);
  tablets.forEach((p, i) => inTablet(i, () => writeTimestampsBinary(w, p)));
  w.i8(TType.LIST).i16(6).i8(TType.LIST).i32(tablets.length);
  for (const p of tablets) {
    w.i8(TType.I32).i32(p.types.length);
    for (const t of p.types) w.i32(t);
  }
  writeI32List(
    w,
    7,
    tablets.map((p) => p.rows),
  );
  w.i8(TType.BOOL)
    .i16(8)
    .i8(tablets[0]?.isAligned ? 1 : 0);
  w.i8(TType.STOP);
}
