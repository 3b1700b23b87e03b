import { describe, expect, it } from 'vitest';
import { IoTDBValidationError } from '../errors.js';
import { ByteReader } from '../io/byte-reader.js';
import { ByteWriter } from '../io/byte-writer.js';
import { TSInsertTabletReqSchema, type TSInsertTabletReq } from '../thrift/iotdb-idl.js';
import { readStruct } from '../thrift/struct-codec.js';
import { TSDataType, type TSDataTypeName } from '../types/data-type.js';
import { writeInsertTabletsReqCompact } from './insert-tablet-request-compact.js';
import { writeInsertTabletReq, writeInsertTabletsReq } from './insert-tablet-request.js';
import { encodeTabletPlain } from './plain-tablet-encoder.js';
import { prepareTablet, prepareTableTablet } from './prepare-tablet.js';
import type { CellValue, ColumnInput, Tablet, TimestampsInput } from './tablet-input.js';

// ---------- seeded PRNG and random tablets ----------

function rng(seed: number) {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0; // mulberry32
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number): number => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)];
  const u64 = (): bigint => BigInt.asIntN(64, (BigInt(int(0, 0xffffffff)) << 32n) | BigInt(int(0, 0xffffffff)));
  return { next, int, pick, u64, chance: (p: number) => next() < p };
}
type Rng = ReturnType<typeof rng>;

const ALL: readonly TSDataTypeName[] = [
  'BOOLEAN',
  'INT32',
  'INT64',
  'FLOAT',
  'DOUBLE',
  'TEXT',
  'TIMESTAMP',
  'DATE',
  'BLOB',
  'STRING',
];
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const CHARS = ['a', 'Z', '0', ' ', 'é', 'ß', '中', '文', '😀', '\u0000', '"'];

function randomCell(r: Rng, type: TSDataTypeName): CellValue {
  switch (type) {
    case 'BOOLEAN':
      return r.chance(0.5);
    case 'INT32':
      return r.chance(0.3) ? r.pick([-2147483648, 2147483647, 0, -0, -1]) : r.int(-2147483648, 2147483647);
    case 'INT64':
    case 'TIMESTAMP':
      if (type === 'TIMESTAMP' && r.chance(0.1)) return new Date(r.int(-1e12, 4e12));
      if (r.chance(0.3))
        return r.pick<bigint | number>([
          INT64_MIN,
          INT64_MAX,
          0n,
          -1,
          Number.MAX_SAFE_INTEGER,
          Number.MIN_SAFE_INTEGER,
        ]);
      return r.chance(0.5) ? r.u64() : r.int(-1e15, 1e15);
    case 'FLOAT':
      return r.chance(0.3)
        ? r.pick([NaN, Infinity, -Infinity, -0, 0.1, 3.4028234663852886e38, 1e-45])
        : Math.fround((r.next() - 0.5) * 1e6);
    case 'DOUBLE':
      return r.chance(0.3) ? r.pick([NaN, Infinity, -Infinity, -0, 5e-324, Number.MAX_VALUE]) : (r.next() - 0.5) * 1e12;
    case 'TEXT':
    case 'STRING':
      return Array.from({ length: r.chance(0.2) ? 0 : r.int(1, 8) }, () => r.pick(CHARS)).join('');
    case 'DATE': {
      const [y, m, d] = r.chance(0.1) ? [2024, 2, 29] : [r.int(1000, 9999), r.int(1, 12), r.int(1, 28)];
      if (r.chance(0.3)) return new Date(Date.UTC(y, m - 1, d, r.int(0, 23)));
      return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
    }
    case 'BLOB': {
      const b = Uint8Array.from({ length: r.int(0, 6) }, () => r.int(0, 255));
      return r.chance(0.5) ? Buffer.from(b) : b;
    }
  }
}

interface Spec {
  types: TSDataTypeName[];
  timestamps: (number | bigint)[];
  columns: CellValue[][];
}

function randomSpec(seed: number, rows: number, opts: { nulls: boolean; sorted: boolean }): Spec {
  const r = rng(seed);
  const types = [...ALL, ...Array.from({ length: r.int(0, 4) }, () => r.pick(ALL))].sort(() => r.next() - 0.5);
  const columns = types.map((t) => {
    const rate = opts.nulls ? r.pick([0, 0, 0.1, 0.5, 1]) : 0;
    return Array.from({ length: rows }, () => (r.chance(rate) ? r.pick([null, undefined]) : randomCell(r, t)));
  });
  let t = r.int(-1e6, 1e6);
  const timestamps = Array.from({ length: rows }, () => {
    const v = opts.sorted ? (t += r.int(0, 2)) : r.int(-rows, rows); // duplicates on purpose
    return r.chance(0.5) ? BigInt(v) : v;
  });
  return { types, timestamps, columns };
}

// ---------- the three input forms ----------

const tablet = (
  s: Spec,
  data: Pick<Tablet, 'values' | 'columns'>,
  timestamps: TimestampsInput = s.timestamps,
): Tablet => ({
  deviceId: 'root.sg.d1',
  measurements: s.types.map((_, i) => `s${i}`),
  dataTypes: s.types,
  timestamps,
  ...data,
});
const rowMajor = (s: Spec) => tablet(s, { values: s.timestamps.map((_, r) => s.columns.map((c) => c[r])) });
const columnMajor = (s: Spec) => tablet(s, { columns: s.columns });

const toBig = (v: CellValue): bigint => (v instanceof Date ? BigInt(v.getTime()) : BigInt(v as number | bigint));
/** A typed array at a non-zero byte offset of a larger buffer (the copy must honour byteOffset). */
function offsetView<T extends Float32Array | Float64Array | Int32Array | BigInt64Array>(
  make: (n: number) => T,
  src: ArrayLike<number | bigint>,
): T {
  const big = make(src.length + 3);
  (big as unknown as { set(a: ArrayLike<number | bigint>, o: number): void }).set(src, 1);
  return big.subarray(1, src.length + 1) as T;
}
/**
 * The spec as toColumnar() gives a result: a typed array for each type that has one (BOOLEAN 0/1, DATE yyyymmdd),
 * 0 in its null slots and the nulls in `nulls`; plain arrays for the others.
 */
function typedForm(s: Spec, seed: number): Tablet {
  const nulls: (Uint8Array | null)[] = [];
  const columns: ColumnInput[] = s.columns.map((col, c) => {
    const mask = col.some((v) => v == null) ? Uint8Array.from(col, (v) => (v == null ? 1 : 0)) : null;
    const typed = typedColumn(s.types[c], col);
    nulls.push(typed === col ? null : mask);
    return typed;
  });
  const ts =
    seed % 2 === 0
      ? offsetView((n) => new BigInt64Array(n), s.timestamps.map(toBig))
      : Float64Array.from(s.timestamps, Number);
  return { ...tablet(s, { columns }, ts), nulls };
}

function typedColumn(type: TSDataTypeName, col: readonly CellValue[]): ColumnInput {
  const or0 = <T>(f: (v: CellValue) => T, zero: T) => col.map((v) => (v == null ? zero : f(v)));
  switch (type) {
    case 'FLOAT':
      return offsetView((n) => new Float32Array(n), or0(Number, 0));
    case 'DOUBLE':
      return offsetView((n) => new Float64Array(n), or0(Number, 0));
    case 'INT32':
      return offsetView((n) => new Int32Array(n), or0(Number, 0));
    case 'DATE':
      return offsetView((n) => new Int32Array(n), or0(yyyymmdd, 0));
    case 'BOOLEAN':
      return Uint8Array.from(or0((v) => (v ? 1 : 0), 0));
    case 'INT64':
    case 'TIMESTAMP':
      return offsetView((n) => new BigInt64Array(n), or0(toBig, 0n));
    default:
      return col;
  }
}

const yyyymmdd = (v: CellValue): number =>
  v instanceof Date
    ? v.getUTCFullYear() * 10000 + (v.getUTCMonth() + 1) * 100 + v.getUTCDate()
    : Number((v as string).replaceAll('-', ''));

function encodeReq(t: Tablet): Buffer {
  const w = new ByteWriter(16); // small on purpose: the writer must grow
  writeInsertTabletReq(w, 7n, prepareTablet(t));
  return Buffer.from(w.view());
}
function decodeReq(b: Buffer): TSInsertTabletReq {
  const r = new ByteReader(b);
  const req = readStruct(r, TSInsertTabletReqSchema);
  expect(r.remaining).toBe(0);
  return req;
}

// ---------- independent reference encoder (protocol.md 4.2, plain DataView) ----------

function reference(s: Spec): { timestamps: Buffer; values: Buffer } {
  const n = s.timestamps.length;
  const ts = s.timestamps.map((t) => BigInt(t));
  const sorted = ts.every((t, i) => i === 0 || ts[i - 1] <= t);
  const order = [...Array(n).keys()];
  if (!sorted) order.sort((a, b) => (ts[a] < ts[b] ? -1 : ts[a] > ts[b] ? 1 : 0)); // Array#sort is stable
  const out: number[] = [];
  const dv = new DataView(new ArrayBuffer(8));
  const put = (width: number, set: (d: DataView) => void) => {
    set(dv);
    for (let i = 0; i < width; i++) out.push(dv.getUint8(i));
  };
  const i32 = (v: number) => put(4, (d) => d.setInt32(0, v));
  const i64 = (v: bigint) => put(8, (d) => d.setBigInt64(0, v));
  const bytes = (b: Uint8Array) => {
    i32(b.length);
    out.push(...b);
  };
  for (const i of order) i64(ts[i]);
  const timestamps = Buffer.from(out.splice(0));
  s.columns.forEach((col, c) => {
    for (const row of order) {
      const v = col[row];
      switch (s.types[c]) {
        case 'BOOLEAN':
          out.push(v === true ? 1 : 0);
          break;
        case 'INT32':
          i32(v == null ? -2147483648 : (v as number));
          break;
        case 'DATE': {
          i32(v == null ? 10000101 : yyyymmdd(v));
          break;
        }
        case 'INT64':
        case 'TIMESTAMP':
          i64(v == null ? INT64_MIN : toBig(v));
          break;
        case 'FLOAT':
          if (v == null) i32(1);
          else put(4, (d) => d.setFloat32(0, v as number));
          break;
        case 'DOUBLE':
          if (v == null) i64(1n);
          else put(8, (d) => d.setFloat64(0, v as number));
          break;
        case 'BLOB':
          bytes(v == null ? new Uint8Array(0) : (v as Uint8Array));
          break;
        default:
          bytes(new TextEncoder().encode(v == null ? '' : (v as string)));
      }
    }
  });
  for (const col of s.columns) {
    if (!col.some((v) => v == null)) {
      out.push(0);
      continue;
    }
    const bitmap = new Uint8Array(Math.floor(n / 8) + 1);
    for (let i = 0; i < bitmap.length * 8; i++) {
      const isNull = i < n ? col[order[i]] == null : sorted; // padding bits: 1 if sorted, 0 if rebuilt after sorting
      if (isNull) bitmap[i >> 3] |= 1 << (i % 8);
    }
    out.push(1, ...bitmap);
  }
  return { timestamps, values: Buffer.from(out) };
}

function expectSameBytes(actual: Uint8Array, expected: Uint8Array, what: string): void {
  const a = Buffer.from(actual);
  const b = Buffer.from(expected);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  expect(a.equals(b), `${what}: first difference at byte ${i} (lengths ${a.length} vs ${b.length})`).toBe(true);
}

// ---------- tests ----------

const CASES = [
  ...[1, 2, 7, 8, 9, 15, 16, 17, 10000].map((rows, i) => ({ seed: 100 + i, rows })),
  ...Array.from({ length: 24 }, (_, i) => ({ seed: 1000 + i, rows: rng(i).int(1, 300) })),
].flatMap(({ seed, rows }) =>
  [true, false].flatMap((nulls) => [true, false].map((sorted) => ({ seed, rows, nulls, sorted }))),
);

describe('tablet encoder: equivalence of input forms and the reference layout', () => {
  it.each(CASES)('seed $seed, $rows rows, nulls=$nulls, sorted=$sorted', ({ seed, rows, nulls, sorted }) => {
    const s = randomSpec(seed, rows, { nulls, sorted });
    const fromRows = encodeReq(rowMajor(s));
    expectSameBytes(encodeReq(columnMajor(s)), fromRows, 'columns vs values');
    const typed = typedForm(s, seed);
    expectSameBytes(encodeReq(typed), fromRows, 'typed arrays and nulls vs values');
    const req = decodeReq(fromRows);
    const ref = reference(s);
    expect(req.size).toBe(rows);
    expect(req.types).toEqual(s.types.map((t) => TSDataType[t]));
    expectSameBytes(req.timestamps, ref.timestamps, 'timestamps');
    expectSameBytes(req.values, ref.values, 'values');
    // the legacy path (enableFastSerialization: false) writes the same bytes
    const plain = encodeTabletPlain(prepareTablet(rowMajor(s)));
    expectSameBytes(plain.timestamps, req.timestamps, 'plain encoder timestamps');
    expectSameBytes(plain.values, req.values, 'plain encoder values');
    expectSameBytes(encodeTabletPlain(prepareTablet(typed)).values, req.values, 'plain encoder, typed arrays');
  });

  it('sorts rows by time before encoding, keeping equal times in input order', () => {
    const s: Spec = {
      types: ['INT32', 'TEXT'],
      timestamps: [INT64_MAX, 5, INT64_MIN, 5n],
      columns: [
        [1, 2, 3, null],
        ['a', 'b', 'c', 'd'],
      ],
    };
    const req = decodeReq(encodeReq(columnMajor(s)));
    expect(Buffer.from(req.timestamps).toString('hex')).toBe(
      '8000000000000000' + '0000000000000005'.repeat(2) + '7fffffffffffffff',
    );
    expect(Buffer.from(req.values).subarray(0, 16).toString('hex')).toBe(
      '00000003' + '00000002' + '80000000' + '00000001',
    );
    expect(Buffer.from(req.values).subarray(-3).toString('hex')).toBe('010400'); // null moved to row 2; padding bits 0
  });

  it('marks the bitmap padding bits past the last row when the rows were already sorted', () => {
    const s: Spec = { types: ['BOOLEAN'], timestamps: [1, 2, 3], columns: [[null, true, false]] };
    expect(Buffer.from(decodeReq(encodeReq(columnMajor(s))).values).toString('hex')).toBe('000100' + '01' + 'f9');
  });
});

/** The values bytes of `t`, by the fast encoder; the plain encoder must write the same. */
function encodeBoth(t: Tablet): Buffer {
  const fast = Buffer.from(decodeReq(encodeReq(t)).values);
  expect(Buffer.from(encodeTabletPlain(prepareTablet(t)).values)).toEqual(fast);
  return fast;
}

function rejection(t: Tablet): IoTDBValidationError {
  try {
    encodeReq(t);
  } catch (e) {
    if (e instanceof IoTDBValidationError) return e;
    throw e;
  }
  throw new Error('expected an IoTDBValidationError, but the tablet was encoded');
}
const one = (
  dataType: Tablet['dataTypes'][number],
  cells: CellValue[] | ColumnInput,
  extra: Partial<Tablet> = {},
): Tablet => ({
  deviceId: 'root.sg.d1',
  measurements: ['s'],
  dataTypes: [dataType],
  timestamps: Array.from({ length: cells.length }, (_, i) => i),
  columns: [cells],
  ...extra,
});
const CELL = 'columns[0] ("s") row 0';

describe('tablet validation', () => {
  it.each<[string, Tablet, string]>([
    [
      'values with fewer rows than timestamps',
      one('INT32', [1], { timestamps: [1, 2], columns: undefined, values: [[1]] }),
      'values',
    ],
    [
      'a row with the wrong number of cells',
      one('INT32', [1], { timestamps: [1, 2], columns: undefined, values: [[1], []] }),
      'values[1]',
    ],
    ['a column with fewer values than timestamps', one('INT32', [1], { timestamps: [1, 2] }), 'columns[0]'],
    [
      'a typed column with more values than timestamps',
      one('DOUBLE', new Float64Array(3), { timestamps: [1, 2] }),
      'columns[0]',
    ],
    ['dataTypes of the wrong length', one('INT32', [1], { dataTypes: ['INT32', 'INT32'] }), 'dataTypes'],
    ['a string in INT32', one('INT32', ['1']), CELL],
    ['1.5 in INT32', one('INT32', [1.5]), CELL],
    ['2**31 in INT32', one('INT32', [2 ** 31]), CELL],
    ['a bigint in INT32', one('INT32', [1n]), CELL],
    ['a number beyond 2^53 in INT64', one('INT64', [2 ** 53]), CELL],
    ['a bigint beyond int64 in INT64', one('INT64', [2n ** 63n]), CELL],
    ['a bigint below int64 in TIMESTAMP', one('TIMESTAMP', [INT64_MIN - 1n]), CELL],
    [
      '2^64 (0 once wrapped to int64) in INT64',
      one('INT64', [1n, 2n ** 64n], { timestamps: [1, 2] }),
      'columns[0] ("s") row 1',
    ],
    [
      'a bigint below int64 in a row-major INT64 cell',
      one('INT64', [1], { columns: undefined, values: [[INT64_MIN - 1n]] }),
      'values[0][0] ("s")',
    ],
    ['a string in DOUBLE', one('DOUBLE', ['1.0']), CELL],
    ['a number in BOOLEAN', one('BOOLEAN', [1]), CELL],
    ['a number in TEXT', one('TEXT', [1]), CELL],
    ['a string in BLOB', one('BLOB', ['00']), CELL],
    ['a finite FLOAT beyond the float32 range', one('FLOAT', [1e40]), CELL],
    ['a negative FLOAT beyond the float32 range', one('FLOAT', new Float64Array([-1e39])), CELL],
    ['an invalid Date in TIMESTAMP', one('TIMESTAMP', [new Date('x')]), CELL],
    ['an invalid Date in DATE', one('DATE', [new Date('x')]), CELL],
    ['an impossible DATE 2024-02-30', one('DATE', ['2024-02-30']), CELL],
    ['a DATE in year 999', one('DATE', ['0999-12-31']), CELL],
    ['a DATE before year 1000 as a Date', one('DATE', [new Date(Date.UTC(999, 0, 1))]), CELL],
    ['a DATE not in YYYY-MM-DD form', one('DATE', ['2024-2-3']), CELL],
    ['unknown data type 7', one(7 as unknown as TSDataType, [1]), 'dataTypes[0]'],
    ['unknown data type FOO', one('FOO' as TSDataTypeName, [1]), 'dataTypes[0]'],
    ['a fractional timestamp', one('INT32', [1, 2], { timestamps: [1, 1.5] }), 'timestamps[1]'],
    ['a NaN timestamp', one('INT32', [1, 2], { timestamps: [1, NaN] }), 'timestamps[1]'],
    [
      'an Infinity timestamp in a Float64Array',
      one('INT32', [1, 2], { timestamps: Float64Array.of(1, Infinity) }),
      'timestamps[1]',
    ],
    ['a timestamp beyond 2^53', one('INT32', [1], { timestamps: [2 ** 60] }), 'timestamps[0]'],
    ['a bigint timestamp beyond int64', one('INT32', [1], { timestamps: [2n ** 63n] }), 'timestamps[0]'],
    ['a bigint timestamp below int64', one('INT32', [1], { timestamps: [INT64_MIN - 1n] }), 'timestamps[0]'],
    ['empty timestamps', one('INT32', [], { timestamps: [] }), 'timestamps'],
    ['no measurements', one('INT32', [1], { measurements: [] }), 'measurements'],
    ['an empty measurement name', one('INT32', [1], { measurements: [''] }), 'measurements[0]'],
    [
      'duplicate measurement names',
      { ...one('INT32', [1]), measurements: ['a', 'a'], dataTypes: ['INT32', 'INT32'], columns: [[1], [2]] },
      'measurements[1]',
    ],
    [
      'one measurement spelt plain and in backquotes (one series to IoTDB: it refused the tablet, [701])',
      { ...one('INT32', [1]), measurements: ['s1', '`s1`'], dataTypes: ['INT32', 'INT32'], columns: [[1], [2]] },
      'measurements[1]',
    ],
    ['both values and columns', one('INT32', [1], { values: [[1]] }), 'values'],
    ['neither values nor columns', one('INT32', [1], { columns: undefined }), 'values'],
    ['an empty device id', one('INT32', [1], { deviceId: '' }), 'deviceId'],
    ['a device id that is only root', one('INT32', [1], { deviceId: 'root' }), 'deviceId'],
    ['a device id not under root.', one('INT32', [1], { deviceId: 'sg.d1' }), 'deviceId'],
    [
      'a device id whose node ends in a space (IoTDB trims it)',
      one('INT32', [1], { deviceId: 'root.sg.d1 ' }),
      'deviceId',
    ],
    [
      'a device id under ROOT. (the server takes root. only)',
      one('INT32', [1], { deviceId: 'ROOT.sg.d1' }),
      'deviceId',
    ],
    [
      'a string in a row-major INT32 cell',
      one('INT32', [1], { columns: undefined, values: [['x']] }),
      'values[0][0] ("s")',
    ],
  ])('rejects %s', (_what, t, field) => {
    expect(rejection(t).field).toBe(field);
  });

  it.each<[string, TSDataTypeName, ColumnInput]>([
    ['a Float64Array for TEXT', 'TEXT', new Float64Array(1)],
    ['an Int32Array for STRING', 'STRING', new Int32Array(1)],
    ['a Float32Array for BLOB', 'BLOB', new Float32Array(1)],
    ['an Int32Array for BOOLEAN', 'BOOLEAN', new Int32Array(1)],
    ['an Int32Array for DATE', 'DATE', new Int32Array(1)],
    ['a BigInt64Array for DOUBLE', 'DOUBLE', new BigInt64Array(1)],
  ])('rejects %s', (_what, type, col) => {
    expect(rejection(one(type, col)).field).toMatch(/^columns\[0\]/);
  });

  it.each<[string, Tablet, string, RegExp]>([
    [
      'a DATE in an Int32Array that is no day',
      one('DATE', Int32Array.of(20240101, 20241301), { timestamps: [1, 2] }),
      'columns[0] ("s") row 1',
      /not a valid DATE \(years 1000-9999\): 20241301 \(yyyymmdd\)$/,
    ],
    [
      'a DATE in an Int32Array before year 1000',
      one('DATE', Int32Array.of(9991231)),
      CELL,
      /years 1000-9999\): 9991231 \(yyyymmdd\)$/,
    ],
    ['an impossible DATE string, as given', one('DATE', ['2023-02-29']), CELL, /: string "2023-02-29"$/],
    [
      'a Date before year 1000, as given',
      one('DATE', [new Date(Date.UTC(999, 0, 1))]),
      CELL,
      /: Date 0999-01-01T00:00:00\.000Z$/,
    ],
    ['a BOOLEAN byte other than 0 and 1', one('BOOLEAN', Uint8Array.of(2)), CELL, /0 or 1, got 2/],
    [
      'an Int16Array, which no type takes',
      one('INT32', Int16Array.of(1) as unknown as ColumnInput),
      'columns[0]',
      /Int32Array.*Uint8Array/,
    ],
    ['a Uint8Array for TEXT', one('TEXT', Uint8Array.of(1)), 'columns[0] ("s")', /Uint8Array.*BOOLEAN/],
    [
      'nulls with row-major values',
      one('INT32', [1], { columns: undefined, values: [[1]], nulls: [Uint8Array.of(1)] }),
      'nulls',
      /columns/,
    ],
    ['nulls of the wrong length', one('INT32', Int32Array.of(1), { nulls: [] }), 'nulls', /one per column \(1\)/],
    [
      'a null mask shorter than the rows',
      one('INT32', Int32Array.of(1, 2), { timestamps: [1, 2], nulls: [Uint8Array.of(0)] }),
      'nulls[0]',
      /2 rows/,
    ],
    [
      'a null mask byte other than 0 and 1 among many (the mask read four bytes at a time)',
      one('INT32', new Int32Array(13), {
        timestamps: Array.from({ length: 13 }, (_, r) => r),
        nulls: [Uint8Array.from({ length: 13 }, (_, r) => (r === 6 ? 2 : r % 3 === 0 ? 1 : 0))],
      }),
      'nulls[0]',
      /row 6: needs 0 or 1 \(1 = null\), got 2/,
    ],
    [
      'a null mask that is not a Uint8Array',
      one('INT32', Int32Array.of(1), { nulls: [[1] as never] }),
      'nulls[0]',
      /Uint8Array/,
    ],
    [
      'a null mask byte other than 0 and 1',
      one('INT32', Int32Array.of(1), { nulls: [Uint8Array.of(2)] }),
      'nulls[0]',
      /0 or 1/,
    ],
    [
      'a null mask marking a value of a plain array',
      one('INT32', [1, null], { timestamps: [1, 2], nulls: [Uint8Array.of(1, 1)] }),
      'nulls[0]',
      /row 0.*columns\[0\]\[0\] holds number 1/,
    ],
  ])('rejects %s', (_what, t, field, message) => {
    const e = rejection(t);
    expect(e.field).toBe(field);
    expect(e.message).toMatch(message);
  });

  it.each<[string, Tablet, string, RegExp]>([
    [
      '`aligned` for isAligned',
      one('INT32', [1], { aligned: true } as Partial<Tablet>),
      'aligned',
      /did you mean isAligned\?/,
    ],
    [
      '`nullMask` for nulls',
      one('INT32', Int32Array.of(1), { nullMask: [null] } as Partial<Tablet>),
      'nullMask',
      /unknown key/,
    ],
    [
      '`timestamp` beside timestamps',
      one('INT32', [1], { timestamp: 1 } as Partial<Tablet>),
      'timestamp',
      /did you mean timestamps\?/,
    ],
  ])('refuses a key a tablet does not have: %s (it would be dropped unsaid)', (_what, t, field, message) => {
    const e = rejection(t);
    expect(e.field).toBe(field);
    expect(e.message).toMatch(message);
  });

  it("refuses a tree tablet's deviceId in a table tablet", () => {
    const t = {
      tableName: 't',
      deviceId: 'root.sg.d1',
      columnNames: ['v'],
      columnCategories: ['FIELD' as const],
      dataTypes: ['INT32' as const],
      timestamps: [1],
      values: [[1]],
    };
    expect(() => prepareTableTablet(t)).toThrow(/^deviceId: unknown key/);
  });

  it('writes a toColumnar() result back: BOOLEAN 0/1 bytes, DATE yyyymmdd ints and nulls as masks', () => {
    const t = (columns: ColumnInput[], nulls?: (Uint8Array | null)[]): Tablet => ({
      deviceId: 'root.sg.d1',
      measurements: ['b', 'd', 'x', 't'],
      dataTypes: ['BOOLEAN', 'DATE', 'DOUBLE', 'TEXT'],
      timestamps: [3, 1, 2],
      columns,
      nulls,
    });
    const given = t([
      [true, null, false],
      ['2024-02-29', '1000-01-01', null],
      [null, 1.5, -0],
      ['a', null, 'c'],
    ]);
    const asColumnar = t(
      [Uint8Array.of(1, 0, 0), Int32Array.of(20240229, 10000101, 0), Float64Array.of(0, 1.5, -0), ['a', null, 'c']],
      [Uint8Array.of(0, 1, 0), Uint8Array.of(0, 0, 1), Uint8Array.of(1, 0, 0), Uint8Array.of(0, 1, 0)],
    );
    expectSameBytes(encodeBoth(asColumnar), encodeBoth(given), 'typed columns with masks vs plain arrays');
  });

  it("takes a type or category named in any case, as IoTDB's SQL and the encodings of createTimeseries do", () => {
    const spelt = (dataType: string) => encodeBoth(one(dataType as TSDataTypeName, [1.5, 2.5], { timestamps: [1, 2] }));
    expect(spelt('double')).toEqual(spelt('DOUBLE'));
    expect(spelt('Double')).toEqual(spelt('DOUBLE'));
    const table = (categories: string[]) =>
      prepareTableTablet({
        tableName: 't',
        columnNames: ['dev', 'v'],
        dataTypes: ['string', 'int64'] as never,
        columnCategories: categories as never,
        timestamps: [1],
        values: [['a', 2n]],
      });
    expect(table(['tag', 'Field']).columnCategories).toEqual(table(['TAG', 'FIELD']).columnCategories);
    expect(table(['tag', 'Field']).types).toEqual([TSDataType.STRING, TSDataType.INT64]);
    expect(() => table(['tag', 'measurement'])).toThrow(/^columnCategories\[1\]: unknown column category/);
  });

  it('takes a mask without a 1 as no nulls (no bitmap, as Java sends for a column without a null)', () => {
    const bare = encodeBoth(one('INT32', Int32Array.of(1, 2), { timestamps: [1, 2] }));
    expect(encodeBoth(one('INT32', Int32Array.of(1, 2), { timestamps: [1, 2], nulls: [new Uint8Array(2)] }))).toEqual(
      bare,
    );
  });

  it('rejects a TAG or ATTRIBUTE column of another type than STRING, as IoTDB does (it failed on such a tag with a cast error)', () => {
    const table = (dataTypes: TSDataTypeName[]) => () =>
      prepareTableTablet({
        tableName: 't',
        columnNames: ['dev', 'model', 'v'],
        dataTypes,
        columnCategories: ['TAG', 'ATTRIBUTE', 'FIELD'],
        timestamps: [1],
        values: [['a', 'm', 2]],
      });
    expect(table(['INT32', 'STRING', 'DOUBLE'])).toThrow(
      /^dataTypes\[0\]: a TAG column needs STRING \(IoTDB's rule\), got INT32$/,
    );
    expect(table(['STRING', 'TEXT', 'DOUBLE'])).toThrow(/^dataTypes\[1\]: an ATTRIBUTE column needs STRING/);
    expect(table(['STRING', 'STRING', 'TEXT'])).not.toThrow(); // a FIELD of any type
  });

  it("rejects a TAG given as bytes that are not UTF-8 (IoTDB keeps a device's tags as text: it stored U+FFFD), row-major and column-major", () => {
    const tablet = (dev: Buffer, model: Buffer, columnMajor: boolean) => () =>
      prepareTableTablet({
        tableName: 't',
        columnNames: ['dev', 'model', 'v'],
        dataTypes: ['STRING', 'STRING', 'BLOB'],
        columnCategories: ['TAG', 'ATTRIBUTE', 'FIELD'],
        timestamps: [1, 2],
        ...(columnMajor
          ? {
              columns: [
                ['a', dev],
                ['m', model],
                [dev, dev],
              ],
            }
          : {
              values: [
                ['a', 'm', dev],
                [dev, model, dev],
              ],
            }),
      });
    const notUtf8 = Buffer.from([0xfe, 0x41]);
    expect(tablet(notUtf8, notUtf8, false)).toThrow(
      /^values\[1\]\[0\] \("dev"\): a TAG value needs UTF-8: IoTDB .*U\+FFFD .*got bytes fe41$/,
    );
    expect(tablet(notUtf8, notUtf8, true)).toThrow(/^columns\[0\] \("dev"\) row 1: a TAG value needs UTF-8/);
    const long = Buffer.concat([Buffer.alloc(40, 0x61), notUtf8]);
    expect(tablet(long, notUtf8, true)).toThrow(/got bytes (61){32}\.\.\. \(42 bytes\)$/);
    expect(tablet(Buffer.from('é'), notUtf8, false)).not.toThrow(); // UTF-8 bytes; an attribute or field keeps any
    expect(tablet(Buffer.from('é'), notUtf8, true)).not.toThrow();
  });

  /** Prepares a small table tablet named `tableName`. */
  const named = (tableName: string) => () =>
    prepareTableTablet({
      tableName,
      columnNames: ['region', 'v'],
      dataTypes: ['STRING', 'DOUBLE'],
      columnCategories: ['TAG', 'FIELD'],
      timestamps: [1],
      values: [['a', 1]],
    });

  it('rejects a table name with whitespace: IoTDB reads it as a path and stores the rows in another table', () => {
    // IoTDB 2.0.1-beta: "My Table" went into a table "root.ble", " t" into "t", "x y z" into "root."
    for (const name of ['My Table', ' t', 't ', 'a\tb', 'a\nb', 'a\u00a0b']) {
      expect(named(name)).toThrow(IoTDBValidationError);
      expect(named(name)).toThrow(/^tableName: .*whitespace/);
    }
    expect(named('My_Table')).not.toThrow();
    expect(named('中文')).not.toThrow();
  });

  it('rejects a table name IoTDB would refuse or store elsewhere (it reads the name as a path), naming it', () => {
    // IoTDB 2.0.1-beta, probed: "123456" went into a table "root.6", "abcdef-g" into "root.f-g", "timestamp" into
    // "root.tamp"; "a-b", "123", "time" and "::" were refused ([509])
    for (const name of [
      '123456',
      'abcdef-g',
      'timestamp',
      'TimeStamp',
      'a-b',
      '123',
      'time',
      '::',
      'é',
      'a..b',
      'a.',
      '`w`',
      'x`y',
      'Zroot.root',
    ])
      expect(named(name)).toThrow(
        `tableName: ${JSON.stringify(name)} is not a table name IoTDB keeps as given: 2.0.1-beta reads a written table's name as a path, and refuses one that is not ("a-b") or stores its rows in another table ("abcdef-g" in "root.f-g"); use letters, digits, _, :, @, #, $, {, } and CJK characters, not a number, time, timestamp or root, or write such a table with SQL`,
      );
    for (const name of [
      't',
      'My_Table',
      '中文',
      'root',
      'a.b',
      'a.b.c',
      'root.x',
      'root.-',
      'times',
      'timestamps',
      'TIME_',
      '1d',
      '0d',
      'x:y',
      'Z:',
      'select',
    ])
      expect(named(name)).not.toThrow();
  });

  it("rejects a '*' in a table's name: IoTDB looks the table's devices up with it as a wildcard", () => {
    // IoTDB 2.0.1-beta: SHOW DEVICES FROM "*" listed every table's devices, SELECT * FROM "a$*" none of its rows
    for (const name of ['*', '**', '@*', '*d0', 'd*', 'a$*', 'root.*', 'a.*.b', 'x*y']) {
      expect(named(name)).toThrow(IoTDBValidationError);
      expect(named(name)).toThrow(
        `tableName: ${JSON.stringify(name)} holds a *, which IoTDB reads as a wildcard where it looks up the table's devices (SHOW DEVICES FROM "*" listed every table's devices, SELECT * FROM "a$*" none of its rows); name the table without one`,
      );
    }
  });

  it("rejects a table's column names that differ in case only: IoTDB folds them into one column", () => {
    const table = (columnNames: string[]) => () =>
      prepareTableTablet({
        tableName: 't',
        columnNames,
        dataTypes: ['STRING', 'DOUBLE', 'DOUBLE'],
        columnCategories: ['TAG', 'FIELD', 'FIELD'],
        timestamps: [1],
        values: [['a', 1, 2]],
      });
    expect(table(['region', 'temp', 'TEMP'])).toThrow(IoTDBValidationError);
    expect(table(['region', 'temp', 'TEMP'])).toThrow(
      /^columnNames\[2\]: duplicate name "TEMP": the same column as "temp" \(table names are case-insensitive\)/,
    );
    expect(table(['region', 'temp', 'temp2'])).not.toThrow();
    // tree measurements are case-sensitive: two series
    expect(() =>
      prepareTablet({
        deviceId: 'root.sg.d',
        measurements: ['a', 'A'],
        dataTypes: ['INT32', 'INT32'],
        timestamps: [1],
        values: [[1, 2]],
      }),
    ).not.toThrow();
  });

  it('refuses a measurement IoTDB would refuse (the whole tablet: [509]), naming it: time and timestamp, unquoted root, a-b', () => {
    const tree = (measurements: string[]) => () =>
      prepareTablet({
        deviceId: 'root.sg.d',
        measurements,
        dataTypes: ['INT32', 'INT32'],
        timestamps: [1],
        values: [[1, 2]],
      });
    for (const name of ['time', 'Time', 'TIMESTAMP', '`time`', '`Timestamp`']) {
      expect(tree(['v', name])).toThrow(IoTDBValidationError);
      expect(tree(['v', name])).toThrow(
        `measurements[1]: ${JSON.stringify(name)} is not a legal name in IoTDB: time and timestamp (in any case, backquoted too) name the time column`,
      );
    }
    for (const name of ['root', 'ROOT'])
      expect(tree(['v', name])).toThrow(
        `measurements[1]: ${JSON.stringify(name)} is not a legal name in IoTDB: unquoted, it names the root of the tree; put it in backquotes (\`${name}\`)`,
      );
    expect(tree(['v', 'a-b'])).toThrow(/^measurements\[1\]: "a-b" is not a legal name in IoTDB: unquoted/);
    for (const name of ['`root`', 'times', 'time_', 'timestamps', 'device', '`a-b`'])
      expect(tree(['v', name])).not.toThrow();
    const table = (columnNames: string[]) => () =>
      prepareTableTablet({
        tableName: 't',
        columnNames,
        dataTypes: ['STRING', 'DOUBLE'],
        columnCategories: ['TAG', 'FIELD'],
        timestamps: [1],
        values: [['a', 1]],
      });
    for (const name of ['time', 'Time'])
      expect(table(['region', name])).toThrow(
        `columnNames[1]: ${JSON.stringify(name)} is the table's time column (IoTDB folds names to lower case): its values go in timestamps`,
      );
    for (const name of ['timestamp', 'root', '`time`']) expect(table(['region', name])).not.toThrow();
  });

  it('says which FLOAT value, row and column is beyond float32', () => {
    const e = rejection(one('FLOAT', [1, 2, 3e38 * 10], { timestamps: [1, 2, 3] }));
    expect(e.message).toMatch(/^columns\[0\] \("s"\) row 2: FLOAT value 3\S* is beyond the float32 range/);
  });

  it('writes a Buffer or Uint8Array in TEXT and STRING as its bytes, the same as the string', () => {
    for (const type of ['TEXT', 'STRING'] as const) {
      const asString = encodeBoth(one(type, ['héllo', null]));
      const asBytes = encodeBoth(one(type, [Buffer.from('héllo'), null]));
      const asUint8 = encodeBoth(one(type, [new Uint8Array(Buffer.from('héllo')), null]));
      expect(asBytes).toEqual(asString);
      expect(asUint8).toEqual(asString);
    }
  });

  it('refuses a string UTF-8 cannot carry (a lone surrogate: it would be stored as U+FFFD), in both encoders', () => {
    for (const type of ['TEXT', 'STRING'] as const) {
      // the second half of a pair alone, as slicing an emoji leaves it; column-major and row-major
      for (const t of [
        one(type, ['ok', 'a\ud83d'], { timestamps: [1, 2] }),
        one(type, [], { timestamps: [1, 2], columns: undefined, values: [['ok'], ['a\ud83d']] }),
      ]) {
        const e = rejection(t);
        expect(e.message).toMatch(
          new RegExp(`row 1|\\[1\\]\\[0\\]`), // the row named as given
        );
        expect(e.message).toMatch(
          new RegExp(
            `: ${type} value is not well-formed Unicode: a lone surrogate \\(U\\+D83D\\) at index 1, which UTF-8 cannot carry \\(it would be stored as U\\+FFFD\\)$`,
          ),
        );
        expect(() => encodeTabletPlain(prepareTablet(t))).toThrow(e.message);
      }
    }
    // a whole pair is one character, sent as its 4 bytes
    expect(() => encodeBoth(one('TEXT', ['a😀']))).not.toThrow();
  });

  it('keeps NaN and ±Infinity in FLOAT (they are floats), and the largest float32', () => {
    expect(() =>
      encodeBoth(one('FLOAT', [NaN, Infinity, -Infinity, 3.4028234663852886e38], { timestamps: [1, 2, 3, 4] })),
    ).not.toThrow();
  });

  it('names the input row of a bad cell, not its position after sorting', () => {
    expect(rejection(one('INT32', [1, 2, 'x'], { timestamps: [3, 2, 1] })).field).toBe('columns[0] ("s") row 2');
  });

  it("names a tablet of several by the index it is given (the caller's index of a part), in both protocols", () => {
    const good = prepareTablet({
      deviceId: 'root.sg.a',
      measurements: ['s'],
      dataTypes: ['INT32'],
      timestamps: [1],
      values: [[1]],
    });
    const bad = prepareTablet({
      deviceId: 'root.sg.b',
      measurements: ['s'],
      dataTypes: ['INT32'],
      timestamps: [1],
      values: [['x']],
    });
    for (const write of [writeInsertTabletsReq, writeInsertTabletsReqCompact]) {
      const field = (names?: number[]) => {
        try {
          write(new ByteWriter(64), 1n, [good, bad], names);
        } catch (e) {
          return (e as IoTDBValidationError).field;
        }
      };
      expect(field()).toBe('tablets[1].values[0][0] ("s")');
      expect(field([3, 7])).toBe('tablets[7].values[0][0] ("s")');
    }
  });
});
