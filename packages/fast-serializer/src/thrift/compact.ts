import { IoTDBProtocolError } from '../errors.js';
import type { ByteReader } from '../io/byte-reader.js';
import type { ByteWriter } from '../io/byte-writer.js';
import { TApplicationError, TApplicationExceptionSchema, type ReplyHeader } from './message.js';
import {
  MAX_NESTING,
  fieldsById,
  structOf,
  ttypeOf,
  type FieldType,
  type StructSchema,
  type StructInput,
  type StructOf,
} from './struct-codec.js';
import { FRAME_HEADER_BYTES, TMessageType, TType } from './ttype.js';

/**
 * Thrift's compact protocol (what IoTDB speaks with `dn_rpc_thrift_compression_enable=true`, Java's
 * `Session.open(true)`): varints with zigzag for integers, field ids as deltas in the type byte,
 * booleans in the field header, little-endian doubles. Framing stays TFramedTransport's 4-byte length.
 * Tablet payloads and TsBlocks are binary fields inside it, untouched.
 */
export const CType = {
  STOP: 0,
  TRUE: 1,
  FALSE: 2,
  BYTE: 3,
  I16: 4,
  I32: 5,
  I64: 6,
  DOUBLE: 7,
  BINARY: 8,
  LIST: 9,
  SET: 10,
  MAP: 11,
  STRUCT: 12,
} as const;

const PROTOCOL_ID = 0x82;
const VERSION = 1;

/** Binary-protocol type codes to compact ones (a bool in a collection is 1 per element). */
const TO_COMPACT: Record<number, number> = {
  [TType.BOOL]: CType.TRUE,
  [TType.BYTE]: CType.BYTE,
  [TType.I16]: CType.I16,
  [TType.I32]: CType.I32,
  [TType.I64]: CType.I64,
  [TType.DOUBLE]: CType.DOUBLE,
  [TType.STRING]: CType.BINARY,
  [TType.LIST]: CType.LIST,
  [TType.SET]: CType.SET,
  [TType.MAP]: CType.MAP,
  [TType.STRUCT]: CType.STRUCT,
};

export function ctypeOf(t: FieldType): number {
  return TO_COMPACT[ttypeOf(t)];
}

// ---------- writing ----------

export function varint32(w: ByteWriter, n: number): void {
  let v = n >>> 0;
  w.ensure(5);
  while (v >= 0x80) {
    w.buf[w.pos++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  w.buf[w.pos++] = v;
}

function varint64(w: ByteWriter, n: bigint): void {
  let v = BigInt.asUintN(64, n);
  w.ensure(10);
  while (v >= 0x80n) {
    w.buf[w.pos++] = Number(v & 0x7fn) | 0x80;
    v >>= 7n;
  }
  w.buf[w.pos++] = Number(v);
}

export const zigzag32 = (w: ByteWriter, n: number): void => varint32(w, (n << 1) ^ (n >> 31));
export const zigzag64 = (w: ByteWriter, n: bigint | number): void => {
  const v = BigInt(n);
  varint64(w, (v << 1n) ^ (v >> 63n));
};

/**
 * Writes `n` into 5 bytes reserved earlier as a varint with continuation bits (a length known only once
 * the payload after it is written; readers take the padded form, Java's TCompactProtocol included).
 */
export function patchVarint32(w: ByteWriter, at: number, n: number): void {
  for (let i = 0; i < 4; i++) w.buf[at + i] = ((n >>> (7 * i)) & 0x7f) | 0x80;
  w.buf[at + 4] = (n >>> 28) & 0x0f;
}

export function compactString(w: ByteWriter, s: string): void {
  const n = Buffer.byteLength(s, 'utf8');
  varint32(w, n);
  w.ensure(n);
  w.pos += w.buf.write(s, w.pos, n, 'utf8');
}

function compactBytes(w: ByteWriter, b: Uint8Array): void {
  varint32(w, b.length);
  w.bytes(b);
}

/** A field header: the id as a delta from the last one when it fits in 4 bits. */
export function fieldHeader(w: ByteWriter, last: number, id: number, ctype: number): number {
  const delta = id - last;
  if (delta > 0 && delta <= 15) w.i8((delta << 4) | ctype);
  else {
    w.i8(ctype);
    zigzag32(w, id);
  }
  return id;
}

export function listHeader(w: ByteWriter, ctype: number, n: number): void {
  if (n < 15) w.i8((n << 4) | ctype);
  else {
    w.i8(0xf0 | ctype);
    varint32(w, n);
  }
}

export function writeStructCompact<S extends StructSchema>(w: ByteWriter, schema: S, value: StructInput<S>): void {
  writeFields(w, schema, value);
}

function writeFields(w: ByteWriter, schema: StructSchema, obj: Record<string, unknown>): void {
  let last = 0;
  for (const f of schema.fields) {
    const v = obj[f.name];
    if (v === undefined || v === null) {
      if (f.required) throw new TypeError(`${schema.name}.${f.name} is required`);
      continue;
    }
    if (f.type === 'bool') last = fieldHeader(w, last, f.id, v ? CType.TRUE : CType.FALSE);
    else {
      last = fieldHeader(w, last, f.id, ctypeOf(f.type));
      writeValueCompact(w, f.type, v, schema);
    }
  }
  w.i8(CType.STOP);
}

export function writeValueCompact(w: ByteWriter, t: FieldType, v: unknown, self?: StructSchema): void {
  switch (t) {
    case 'bool':
      w.i8(v ? CType.TRUE : CType.FALSE);
      return;
    case 'byte':
      w.i8(v as number);
      return;
    case 'i16':
    case 'i32':
      zigzag32(w, v as number);
      return;
    case 'i64':
      zigzag64(w, v as bigint | number);
      return;
    case 'double':
      w.ensure(8);
      w.pos = w.buf.writeDoubleLE(v as number, w.pos);
      return;
    case 'string':
      compactString(w, v as string);
      return;
    case 'binary':
      compactBytes(w, v as Uint8Array);
      return;
  }
  if ('list' in t) {
    const items = v as readonly unknown[];
    listHeader(w, ctypeOf(t.list), items.length);
    for (const item of items) writeValueCompact(w, t.list, item, self);
  } else if ('map' in t) {
    const entries = [...(v as ReadonlyMap<unknown, unknown>)];
    if (entries.length === 0) {
      w.i8(0);
      return;
    }
    varint32(w, entries.length);
    w.i8((ctypeOf(t.map[0]) << 4) | ctypeOf(t.map[1]));
    for (const [k, val] of entries) {
      writeValueCompact(w, t.map[0], k, self);
      writeValueCompact(w, t.map[1], val, self);
    }
  } else {
    writeFields(w, structOf(t.struct, self), v as Record<string, unknown>);
  }
}

/** A framed compact CALL up to the args struct's field 1 header; returns the frame's offset (for `endCall`). */
export function beginCallCompact(w: ByteWriter, method: string, seqid: number, argType: FieldType): number {
  const frameAt = w.reserve(FRAME_HEADER_BYTES);
  writeMessageHeaderCompact(w, TMessageType.CALL, method, seqid);
  fieldHeader(w, 0, 1, ctypeOf(argType));
  return frameAt;
}

/** A compact message header (`type`: TMessageType): what readMessageHeaderCompact reads. */
export function writeMessageHeaderCompact(w: ByteWriter, type: number, method: string, seqid: number): void {
  w.i8(PROTOCOL_ID).i8((type << 5) | VERSION);
  varint32(w, seqid);
  compactString(w, method);
}

// ---------- reading ----------

export function readVarint32(r: ByteReader): number {
  let result = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    const b = r.u8();
    result |= (b & 0x7f) << shift;
    if ((b & 0x80) === 0) return result >>> 0;
  }
  throw new IoTDBProtocolError(`varint longer than 5 bytes at offset ${r.pos}`);
}

function readVarint64(r: ByteReader): bigint {
  let result = 0n;
  for (let shift = 0n; shift < 70n; shift += 7n) {
    const b = r.u8();
    result |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return result;
  }
  throw new IoTDBProtocolError(`varint longer than 10 bytes at offset ${r.pos}`);
}

const unzigzag32 = (n: number): number => (n >>> 1) ^ -(n & 1);
const unzigzag64 = (n: bigint): bigint => BigInt.asIntN(64, (n >> 1n) ^ -(n & 1n));

/** A compact message header; leaves the reader at the body. */
export function readMessageHeaderCompact(r: ByteReader): { method: string; seqid: number; type: number } {
  const id = r.u8();
  const vt = r.u8();
  if (id !== PROTOCOL_ID || (vt & 0x1f) !== VERSION)
    throw new IoTDBProtocolError(`bad compact message header 0x${id.toString(16)} 0x${vt.toString(16)}`);
  const seqid = readVarint32(r) | 0;
  const method = r.utf8(count(r, 1));
  return { method, seqid, type: vt >> 5 };
}

/** As readReplyHeader, in the compact protocol: an EXCEPTION message is thrown as TApplicationError. */
export function readReplyHeaderCompact(r: ByteReader): ReplyHeader {
  const h = readMessageHeaderCompact(r);
  if (h.type === TMessageType.EXCEPTION) {
    const e = readStructCompact(r, TApplicationExceptionSchema);
    throw new TApplicationError(`${h.method}: ${e.message ?? 'server exception'}`, e.type ?? 0);
  }
  if (h.type !== TMessageType.REPLY) throw new IoTDBProtocolError(`unexpected Thrift message type ${h.type}`);
  return { method: h.method, seqid: h.seqid };
}

/** A size read from the wire, checked against the bytes left (each element takes `minBytes`). */
function count(r: ByteReader, minBytes: number): number {
  const n = readVarint32(r);
  if (n > 0x7fffffff || n * minBytes > r.remaining)
    throw new IoTDBProtocolError(`bad size ${n} at offset ${r.pos} (${r.remaining} bytes left)`);
  return n;
}

export function readStructCompact<S extends StructSchema>(r: ByteReader, schema: S): StructOf<S> {
  return readFields(r, schema, 0) as StructOf<S>;
}

function nested(r: ByteReader, depth: number): void {
  if (depth > MAX_NESTING)
    throw new IoTDBProtocolError(`values nested deeper than ${MAX_NESTING} levels at offset ${r.pos}`);
}

function readFields(r: ByteReader, schema: StructSchema, depth: number): Record<string, unknown> {
  nested(r, depth);
  const out: Record<string, unknown> = {};
  const byId = fieldsById(schema);
  let last = 0;
  for (;;) {
    const head = r.u8();
    const ctype = head & 0x0f;
    if (ctype === CType.STOP) break;
    const delta = head >> 4;
    const id = delta === 0 ? unzigzag32(readVarint32(r)) : last + delta;
    last = id;
    const spec = byId.get(id);
    const isBool = ctype === CType.TRUE || ctype === CType.FALSE;
    if (spec !== undefined && spec.type === 'bool' && isBool) out[spec.name] = ctype === CType.TRUE;
    else if (spec !== undefined && !isBool && ctypeOf(spec.type) === ctype)
      out[spec.name] = readValueCompact(r, spec.type, schema, depth + 1);
    else skipCompact(r, ctype, depth + 1, true);
  }
  for (const f of schema.fields) {
    if (f.required && out[f.name] === undefined)
      throw new IoTDBProtocolError(`${schema.name}.${f.name} is required but missing in the response`);
  }
  return out;
}

function readValueCompact(r: ByteReader, t: FieldType, self: StructSchema, depth: number): unknown {
  switch (t) {
    case 'bool':
      return r.u8() === CType.TRUE;
    case 'byte':
      return r.i8();
    case 'i16':
    case 'i32':
      return unzigzag32(readVarint32(r));
    case 'i64':
      return unzigzag64(readVarint64(r));
    case 'double':
      return r.buf.readDoubleLE(r.advance(8));
    case 'string':
      return r.utf8(count(r, 1));
    case 'binary':
      return r.slice(count(r, 1));
  }
  nested(r, depth);
  if ('list' in t) {
    const head = r.u8();
    const n = head >> 4 === 15 ? count(r, 1) : head >> 4;
    if ((head & 0x0f) !== ctypeOf(t.list))
      throw new IoTDBProtocolError(
        `list element type ${head & 0x0f} where ${ctypeOf(t.list)} belongs, at offset ${r.pos - 1}`,
      );
    if (n > r.remaining) throw new IoTDBProtocolError(`bad list size ${n} at offset ${r.pos}`);
    const items = new Array<unknown>(n);
    for (let i = 0; i < n; i++) items[i] = readValueCompact(r, t.list, self, depth + 1);
    return items;
  }
  if ('map' in t) {
    const n = count(r, 2);
    const m = new Map<unknown, unknown>();
    if (n === 0) return m;
    r.u8(); // key and value types: the schema's
    for (let i = 0; i < n; i++) {
      const k = readValueCompact(r, t.map[0], self, depth + 1);
      m.set(k, readValueCompact(r, t.map[1], self, depth + 1));
    }
    return m;
  }
  return readFields(r, structOf(t.struct, self), depth);
}

/** Skips a value of compact type `ctype`; `inField`: a bool field's value lives in its header. */
function skipCompact(r: ByteReader, ctype: number, depth: number, inField = false): void {
  nested(r, depth);
  switch (ctype) {
    case CType.TRUE:
    case CType.FALSE:
      if (!inField) r.u8();
      return;
    case CType.BYTE:
      r.advance(1);
      return;
    case CType.I16:
    case CType.I32:
      readVarint32(r);
      return;
    case CType.I64:
      readVarint64(r);
      return;
    case CType.DOUBLE:
      r.advance(8);
      return;
    case CType.BINARY:
      r.advance(count(r, 1));
      return;
    case CType.STRUCT:
      for (let head = r.u8(); (head & 0x0f) !== CType.STOP; head = r.u8()) {
        if (head >> 4 === 0) readVarint32(r);
        skipCompact(r, head & 0x0f, depth + 1, true);
      }
      return;
    case CType.LIST:
    case CType.SET: {
      const head = r.u8();
      const n = head >> 4 === 15 ? count(r, 1) : head >> 4;
      for (let i = 0; i < n; i++) skipCompact(r, head & 0x0f, depth + 1);
      return;
    }
    case CType.MAP: {
      const n = count(r, 2);
      if (n === 0) return;
      const kv = r.u8();
      for (let i = 0; i < n; i++) {
        skipCompact(r, kv >> 4, depth + 1);
        skipCompact(r, kv & 0x0f, depth + 1);
      }
      return;
    }
    default:
      throw new IoTDBProtocolError(`unknown compact type ${ctype} at offset ${r.pos}`);
  }
}
