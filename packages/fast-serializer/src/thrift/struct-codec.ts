import { IoTDBProtocolError } from '../errors.js';
import { ByteReader } from '../io/byte-reader.js';
import { ByteWriter } from '../io/byte-writer.js';
import { TType } from './ttype.js';

/**
 * A small schema-driven Thrift TBinaryProtocol codec: our own IDL, written as data (see iotdb-idl.ts),
 * instead of generated classes. Structs are plain objects; i64 reads as bigint; binary reads as a
 * Buffer view on the frame (no copy). Unknown fields are skipped, as Thrift requires.
 */
export type ScalarType = 'bool' | 'byte' | 'i16' | 'i32' | 'i64' | 'double' | 'string' | 'binary';

/** A field's Thrift type. `{ struct: 'self' }` refers to the enclosing struct (TSStatus.subStatus). */
export type FieldType =
  | ScalarType
  | { readonly list: FieldType }
  | { readonly map: readonly [FieldType, FieldType] }
  | { readonly struct: StructSchema | 'self' };

export interface FieldSpec {
  readonly id: number;
  readonly name: string;
  readonly type: FieldType;
  readonly required?: boolean;
}

export interface StructSchema {
  readonly name: string;
  readonly fields: readonly FieldSpec[];
}

/** Declares a schema with its literal types kept, so that its TypeScript types can be derived from it. */
export function schema<const S extends StructSchema>(s: S): S {
  return s;
}

/** What each scalar decodes to (i64 as bigint, exact; binary as a view on the frame), and what the encoder takes. */
interface Scalars {
  decoded: {
    bool: boolean;
    byte: number;
    i16: number;
    i32: number;
    i64: bigint;
    double: number;
    string: string;
    binary: Buffer;
  };
  input: {
    bool: boolean;
    byte: number;
    i16: number;
    i32: number;
    i64: bigint | number;
    double: number;
    string: string;
    binary: Uint8Array;
  };
}
type Side = keyof Scalars;

/** A value of Thrift type T, decoded or as input (`Self`: the enclosing struct's type, for `{ struct: 'self' }`). */
type Value<T, Self, D extends Side> = T extends ScalarType
  ? Scalars[D][T]
  : T extends { readonly list: infer E }
    ? D extends 'input'
      ? readonly Value<E, Self, D>[]
      : Value<E, Self, D>[]
    : T extends { readonly map: readonly [infer K, infer V] }
      ? D extends 'input'
        ? ReadonlyMap<Value<K, Self, D>, Value<V, Self, D>>
        : Map<Value<K, Self, D>, Value<V, Self, D>>
      : T extends { readonly struct: 'self' }
        ? Self
        : T extends { readonly struct: infer S extends StructSchema }
          ? D extends 'input'
            ? StructInput<S>
            : StructOf<S>
          : never;

/** The decoded value of a field of type T. */
export type ValueOf<T, Self> = Value<T, Self, 'decoded'>;
/** The value of a field of type T as the encoder accepts it. */
export type InputOf<T, Self> = Value<T, Self, 'input'>;

type Fields<S extends StructSchema> = S['fields'][number];
type RequiredName<F> = F extends { readonly required: true; readonly name: infer N extends string } ? N : never;
type OptionalName<F> = F extends { readonly required: true }
  ? never
  : F extends { readonly name: infer N extends string }
    ? N
    : never;

/** The object `readStruct(r, S)` returns: required fields present, the others optional. */
export type StructOf<S extends StructSchema> = {
  -readonly [F in Fields<S> as RequiredName<F>]: ValueOf<F['type'], StructOf<S>>;
} & {
  -readonly [F in Fields<S> as OptionalName<F>]?: ValueOf<F['type'], StructOf<S>>;
};

/** The object `writeStruct(w, S, value)` accepts. */
export type StructInput<S extends StructSchema> = {
  readonly [F in Fields<S> as RequiredName<F>]: InputOf<F['type'], StructInput<S>>;
} & {
  readonly [F in Fields<S> as OptionalName<F>]?: InputOf<F['type'], StructInput<S>> | null;
};

/**
 * Whether a value of this type decodes to views of its frame (a binary anywhere in it), which outlive the decode:
 * the frame's memory must not be used again while the value is read. `{ struct: 'self' }` adds nothing: its fields
 * are the enclosing struct's, looked at already.
 */
export function holdsViews(type: FieldType): boolean {
  if (typeof type === 'string') return type === 'binary';
  if ('list' in type) return holdsViews(type.list);
  if ('map' in type) return holdsViews(type.map[0]) || holdsViews(type.map[1]);
  return type.struct !== 'self' && type.struct.fields.some((f) => holdsViews(f.type));
}

type Obj = Record<string, unknown>;

const SCALAR_TTYPE = {
  bool: TType.BOOL,
  byte: TType.BYTE,
  i16: TType.I16,
  i32: TType.I32,
  i64: TType.I64,
  double: TType.DOUBLE,
  string: TType.STRING,
  binary: TType.STRING,
} as const;

export function ttypeOf(t: FieldType): TType {
  if (typeof t === 'string') return SCALAR_TTYPE[t];
  if ('list' in t) return TType.LIST;
  if ('map' in t) return TType.MAP;
  return TType.STRUCT;
}

export function writeStruct<S extends StructSchema>(w: ByteWriter, schema: S, value: StructInput<S>): void {
  writeFields(w, schema, value);
}

function writeFields(w: ByteWriter, schema: StructSchema, obj: Obj): void {
  for (const f of schema.fields) {
    const v = obj[f.name];
    if (v === undefined || v === null) {
      if (f.required) throw new TypeError(`${schema.name}.${f.name} is required`);
      continue;
    }
    w.i8(ttypeOf(f.type)).i16(f.id);
    writeValue(w, f.type, v, schema);
  }
  w.i8(TType.STOP);
}

/** Writes one value of type `t`; `self` resolves `{ struct: 'self' }`. */
export function writeValue(w: ByteWriter, t: FieldType, v: unknown, self?: StructSchema): void {
  switch (t) {
    case 'bool':
      w.i8(v ? 1 : 0);
      return;
    case 'byte':
      w.i8(v as number);
      return;
    case 'i16':
      w.i16(v as number);
      return;
    case 'i32':
      w.i32(v as number);
      return;
    case 'i64':
      w.i64(v as bigint | number);
      return;
    case 'double':
      w.f64(v as number);
      return;
    case 'string':
      w.lengthPrefixedUtf8(v as string);
      return;
    case 'binary':
      w.lengthPrefixedBytes(v as Uint8Array);
      return;
  }
  if ('list' in t) {
    const items = v as readonly unknown[];
    w.i8(ttypeOf(t.list)).i32(items.length);
    for (const item of items) writeValue(w, t.list, item, self);
  } else if ('map' in t) {
    const entries = v instanceof Map ? [...(v as Map<unknown, unknown>)] : Object.entries(v as Obj);
    w.i8(ttypeOf(t.map[0])).i8(ttypeOf(t.map[1])).i32(entries.length);
    for (const [k, val] of entries) {
      writeValue(w, t.map[0], k, self);
      writeValue(w, t.map[1], val, self);
    }
  } else {
    writeFields(w, structOf(t.struct, self), v as Obj);
  }
}

const byIdCache = new WeakMap<StructSchema, Map<number, FieldSpec>>();
/** A schema's fields by id (cached per schema). */
export function fieldsById(schema: StructSchema): Map<number, FieldSpec> {
  let m = byIdCache.get(schema);
  if (!m) byIdCache.set(schema, (m = new Map(schema.fields.map((f) => [f.id, f]))));
  return m;
}

/** Structs, lists and maps nest at most this deep in a reply; deeper is a protocol error, not a stack overflow. */
export const MAX_NESTING = 64;

export function readStruct<S extends StructSchema>(r: ByteReader, schema: S): StructOf<S> {
  return readFields(r, schema, 0) as StructOf<S>;
}

function readFields(r: ByteReader, schema: StructSchema, depth: number): Obj {
  nested(r, depth);
  const out: Obj = {};
  const byId = fieldsById(schema);
  for (;;) {
    const type = r.u8();
    if (type === TType.STOP) break;
    const id = r.i16();
    const spec = byId.get(id);
    if (spec !== undefined && ttypeOf(spec.type) === type) out[spec.name] = readValue(r, spec.type, schema, depth + 1);
    else skipValue(r, type, depth + 1);
  }
  for (const f of schema.fields) {
    if (f.required && out[f.name] === undefined) {
      throw new IoTDBProtocolError(`${schema.name}.${f.name} is required but missing in the response`);
    }
  }
  return out;
}

/** Reads one value of type `t`; `self` resolves `{ struct: 'self' }`; `depth`: how deep in the reply it is. */
export function readValue(r: ByteReader, t: FieldType, self?: StructSchema, depth = 0): unknown {
  switch (t) {
    case 'bool':
      return r.u8() !== 0;
    case 'byte':
      return r.i8();
    case 'i16':
      return r.i16();
    case 'i32':
      return r.i32();
    case 'i64':
      return r.i64();
    case 'double':
      return r.f64();
    case 'string':
      return r.utf8(r.i32());
    case 'binary':
      return r.slice(r.i32());
  }
  if ('list' in t) {
    nested(r, depth);
    elementType(r, t.list);
    const n = count(r, 1);
    const items = new Array<unknown>(n);
    for (let i = 0; i < n; i++) items[i] = readValue(r, t.list, self, depth + 1);
    return items;
  }
  if ('map' in t) {
    nested(r, depth);
    elementType(r, t.map[0]);
    elementType(r, t.map[1]);
    const n = count(r, 2);
    const m = new Map<unknown, unknown>();
    for (let i = 0; i < n; i++) {
      const k = readValue(r, t.map[0], self, depth + 1);
      m.set(k, readValue(r, t.map[1], self, depth + 1));
    }
    return m;
  }
  return readFields(r, structOf(t.struct, self), depth);
}

function nested(r: ByteReader, depth: number): void {
  if (depth > MAX_NESTING)
    throw new IoTDBProtocolError(`values nested deeper than ${MAX_NESTING} levels at offset ${r.pos}`);
}

/** The element type a list or map announces must be the schema's. */
function elementType(r: ByteReader, expected: FieldType): void {
  const at = r.pos;
  const got = r.u8();
  if (got !== ttypeOf(expected))
    throw new IoTDBProtocolError(`element type ${got} where ${ttypeOf(expected)} belongs, at offset ${at}`);
}

/** The schema of a `{ struct }` field type, `'self'` resolved to the enclosing one. */
export function structOf(s: StructSchema | 'self', self: StructSchema | undefined): StructSchema {
  if (s !== 'self') return s;
  if (self === undefined) throw new TypeError("{ struct: 'self' } outside a struct");
  return self;
}

/** A list/map size: never negative, and each element takes at least `minBytes` bytes. Checked before anything is allocated. */
function count(r: ByteReader, minBytes: number): number {
  const n = r.i32();
  if (n < 0 || n * minBytes > r.remaining)
    throw new IoTDBProtocolError(`bad collection size ${n} at offset ${r.pos - 4} (${r.remaining} bytes left)`);
  return n;
}

const FIXED_WIDTH: Partial<Record<number, number>> = {
  [TType.BOOL]: 1,
  [TType.BYTE]: 1,
  [TType.DOUBLE]: 8,
  [TType.I16]: 2,
  [TType.I32]: 4,
  [TType.I64]: 8,
};

/** Skips a value of wire type `type` (a field the schema does not know); nesting is limited like reads. */
export function skipValue(r: ByteReader, type: number, depth = 0): void {
  const width = FIXED_WIDTH[type];
  if (width !== undefined) {
    r.advance(width);
    return;
  }
  nested(r, depth);
  switch (type) {
    case TType.STRING:
      r.advance(r.i32());
      return;
    case TType.STRUCT:
      for (let t = r.u8(); t !== TType.STOP; t = r.u8()) {
        r.i16();
        skipValue(r, t, depth + 1);
      }
      return;
    case TType.MAP: {
      const kt = r.u8();
      const vt = r.u8();
      for (let n = count(r, 2); n > 0; n--) {
        skipValue(r, kt, depth + 1);
        skipValue(r, vt, depth + 1);
      }
      return;
    }
    case TType.SET:
    case TType.LIST: {
      const et = r.u8();
      for (let n = count(r, 1); n > 0; n--) skipValue(r, et, depth + 1);
      return;
    }
    default:
      throw new IoTDBProtocolError(`unknown Thrift type ${type} at offset ${r.pos}`);
  }
}
