import type { ByteWriter } from '../io/byte-writer.js';
import {
  CType,
  compactString,
  fieldHeader,
  listHeader,
  patchVarint32,
  varint32,
  zigzag32,
  zigzag64,
} from '../thrift/compact.js';
import { valuesUpperBound, writeTimestamps, writeValues } from './encode-tablet.js';
import { tabletsBounds } from './insert-tablet-request.js';
import type { PreparedTablet } from './prepare-tablet.js';

/**
 * TSInsertTabletReq / TSInsertTabletsReq in the compact protocol (RPC compression), written as the
 * binary-protocol fast path writes them: the `values` and `timestamps` binaries straight from the
 * tablet, the same bytes inside; only the envelope (field headers, varints) differs.
 */

function stringList(w: ByteWriter, items: readonly string[]): void {
  listHeader(w, CType.BINARY, items.length);
  for (const s of items) compactString(w, s);
}

function i32List(w: ByteWriter, items: readonly number[]): void {
  listHeader(w, CType.I32, items.length);
  for (const v of items) zigzag32(w, v);
}

/** `values` as a compact binary: a 5-byte varint length patched in once the column writer knows it. */
function valuesBinary(w: ByteWriter, p: PreparedTablet, maxBytes: number): void {
  const lengthAt = w.reserve(5);
  w.ensure(maxBytes);
  const end = writeValues(w.buf, w.pos, p);
  patchVarint32(w, lengthAt, end - w.pos);
  w.pos = end;
}

function timestampsBinary(w: ByteWriter, p: PreparedTablet): void {
  varint32(w, 8 * p.rows);
  w.ensure(8 * p.rows);
  w.pos = writeTimestamps(w.buf, w.pos, p);
}

/** The TSInsertTabletReq struct, compact (fields, then STOP). */
export function writeInsertTabletReqCompact(w: ByteWriter, sessionId: bigint, p: PreparedTablet): void {
  const maxValues = valuesUpperBound(p);
  w.ensure(96 + maxValues + 8 * p.rows);
  fieldHeader(w, 0, 1, CType.I64);
  zigzag64(w, sessionId);
  fieldHeader(w, 1, 2, CType.BINARY);
  compactString(w, p.prefixPath);
  fieldHeader(w, 2, 3, CType.LIST);
  stringList(w, p.measurements);
  fieldHeader(w, 3, 4, CType.BINARY);
  valuesBinary(w, p, maxValues);
  fieldHeader(w, 4, 5, CType.BINARY);
  timestampsBinary(w, p);
  fieldHeader(w, 5, 6, CType.LIST);
  i32List(w, p.types);
  fieldHeader(w, 6, 7, CType.I32);
  zigzag32(w, p.rows);
  fieldHeader(w, 7, 8, p.isAligned ? CType.TRUE : CType.FALSE);
  if (p.columnCategories !== null) {
    fieldHeader(w, 8, 9, CType.TRUE); // writeToTable
    fieldHeader(w, 9, 10, CType.LIST);
    listHeader(w, CType.BYTE, p.columnCategories.length);
    for (const c of p.columnCategories) w.i8(c);
  }
  w.i8(CType.STOP);
}

/** The TSInsertTabletsReq struct, compact; `names` as writeInsertTabletsReq's. */
export function writeInsertTabletsReqCompact(
  w: ByteWriter,
  sessionId: bigint,
  tablets: readonly PreparedTablet[],
  names?: readonly number[],
): void {
  const { inTablet, maxValues } = tabletsBounds(tablets, names);
  w.ensure(96 + maxValues.reduce((n, m, i) => n + m + 8 * tablets[i].rows + 64, 0));
  fieldHeader(w, 0, 1, CType.I64);
  zigzag64(w, sessionId);
  fieldHeader(w, 1, 2, CType.LIST);
  stringList(
    w,
    tablets.map((p) => p.prefixPath),
  );
  fieldHeader(w, 2, 3, CType.LIST);
  listHeader(w, CType.LIST, tablets.length);
  for (const p of tablets) stringList(w, p.measurements);
  fieldHeader(w, 3, 4, CType.LIST);
  listHeader(w, CType.BINARY, tablets.length);
  tablets.forEach((p, i) => inTablet(i, () => valuesBinary(w, p, maxValues[i])));
  fieldHeader(w, 4, 5, CType.LIST);
  listHeader(w, CType.BINARY, tablets.length);
  tablets.forEach((p, i) => inTablet(i, () => timestampsBinary(w, p)));
  fieldHeader(w, 5, 6, CType.LIST);
  listHeader(w, CType.LIST, tablets.length);
  for (const p of tablets) i32List(w, p.types);
  fieldHeader(w, 6, 7, CType.LIST);
  i32List(
    w,
    tablets.map((p) => p.rows),
  );
  fieldHeader(w, 7, 8, tablets[0]?.isAligned ? CType.TRUE : CType.FALSE);
  w.i8(CType.STOP);
}
