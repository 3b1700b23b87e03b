import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IoTDBProtocolError } from '../errors.js';
import { ByteWriter } from '../io/byte-writer.js';
import { TSDataType, type TSDataTypeName } from '../types/data-type.js';
import { parseVectorFile } from '../vectors/vector-file.js';
import { decodeTsBlock } from './decode-tsblock.js';
import { ColumnEncoding, type DecodedColumn } from './tsblock.js';

// ---------- a test-only TsBlock builder (protocol.md 6.1) ----------

type Cell = boolean | number | bigint | string | Buffer | null;
type Layout = 'array' | 'rle' | { dict: Cell[] };
interface ColSpec {
  type: TSDataTypeName;
  cells: Cell[];
  layout?: Layout;
  forceNullFlag?: boolean;
}

const PHYSICAL: Record<TSDataTypeName, number> = {
  BOOLEAN: 0,
  INT32: 1,
  DATE: 1,
  INT64: 2,
  TIMESTAMP: 2,
  FLOAT: 3,
  DOUBLE: 4,
  TEXT: 5,
  STRING: 5,
  BLOB: 5,
};
const ARRAY_ENCODING: Record<number, number> = {
  0: ColumnEncoding.BYTE_ARRAY,
  1: ColumnEncoding.INT32_ARRAY,
  2: ColumnEncoding.INT64_ARRAY,
  3: ColumnEncoding.INT32_ARRAY,
  4: ColumnEncoding.INT64_ARRAY,
  5: ColumnEncoding.BINARY_ARRAY,
};
const arrayEncoding = (t: TSDataTypeName) => ARRAY_ENCODING[PHYSICAL[t]];

/** MSB-first bits, 0x80 = position 0. */
function msbBits(flags: boolean[]): Buffer {
  const b = Buffer.alloc((flags.length + 7) >> 3);
  flags.forEach((f, i) => {
    if (f) b[i >> 3] |= 0x80 >> (i & 7);
  });
  return b;
}

function writeArrayColumn(w: ByteWriter, type: TSDataTypeName, cells: Cell[], forceNullFlag = false): void {
  const nulls = cells.map((c) => c === null);
  if (nulls.some(Boolean) || forceNullFlag) w.i8(1).bytes(msbBits(nulls));
  else w.i8(0);
  if (PHYSICAL[type] === 0) {
    w.bytes(msbBits(cells.map((c) => c === true)));
    return;
  }
  for (const c of cells) {
    if (c === null) continue;
    switch (PHYSICAL[type]) {
      case 1:
        w.i32(c as number);
        break;
      case 2:
        w.i64(c as bigint);
        break;
      case 3:
        w.f32(c as number);
        break;
      case 4:
        w.f64(c as number);
        break;
      default:
        w.lengthPrefixedBytes(typeof c === 'string' ? Buffer.from(c, 'utf8') : (c as Buffer));
    }
  }
}

function writeColumn(w: ByteWriter, col: ColSpec): number {
  const layout = col.layout ?? 'array';
  if (layout === 'array') {
    writeArrayColumn(w, col.type, col.cells, col.forceNullFlag);
    return arrayEncoding(col.type);
  }
  if (layout === 'rle') {
    w.i8(arrayEncoding(col.type));
    writeArrayColumn(w, col.type, [col.cells[0]]);
    return ColumnEncoding.RLE;
  }
  w.i8(arrayEncoding(col.type)).i32(layout.dict.length);
  writeArrayColumn(w, col.type, layout.dict);
  w.i32(col.cells.length);
  for (const c of col.cells)
    w.i32(layout.dict.findIndex((d) => d === c || (Buffer.isBuffer(d) && Buffer.isBuffer(c) && d.equals(c))));
  return ColumnEncoding.DICTIONARY;
}

function buildBlock(times: bigint[], cols: ColSpec[], timeLayout: 'array' | 'rle' = 'array'): Buffer {
  const body = new ByteWriter(64);
  const encodings = [writeColumn(body, { type: 'INT64', cells: times, layout: timeLayout })];
  for (const c of cols) encodings.push(writeColumn(body, c));
  const w = new ByteWriter(64);
  w.i32(cols.length);
  for (const c of cols) w.i8(PHYSICAL[c.type]);
  w.i32(times.length);
  for (const e of encodings) w.i8(e);
  w.bytes(body.view());
  return Buffer.from(w.view());
}

/** A decoded column as plain cells: null where `nulls` says so, booleans for BOOLEAN. */
function cells(col: DecodedColumn): Cell[] {
  return Array.from(col.values as ArrayLike<Cell>, (v, i) =>
    col.nulls !== null && col.nulls[i] === 1 ? null : col.type === TSDataType.BOOLEAN ? v === 1 : v,
  );
}

const TIMES = [10n, 20n, 30n, 40n, 50n, 60n, 70n, 80n, 90n];
const SAMPLES: Record<TSDataTypeName, Cell[]> = {
  BOOLEAN: [true, false, true, true, false, false, true, false, true],
  INT32: [0, -1, 2147483647, -2147483648, 7, 8, 9, 10, 11],
  DATE: [20240229, 10000101, 99991231, 19700101, 20000101, 20240101, 20240102, 20240103, 20240104],
  INT64: [0n, -1n, 2n ** 63n - 1n, -(2n ** 63n), 5n, 6n, 7n, 8n, 9n],
  TIMESTAMP: [1700000000000n, 0n, -1n, 2n ** 63n - 1n, 1n, 2n, 3n, 4n, 5n],
  FLOAT: [Math.fround(1.1), NaN, Infinity, -Infinity, -0, Math.fround(1e-45), 0, 2.5, -3.5],
  DOUBLE: [1.1, NaN, Infinity, -Infinity, -0, 5e-324, Number.MAX_VALUE, 2.5, -3.5],
  TEXT: ['', 'a', 'é中😀', 'x'.repeat(300), 'b', 'c', 'd', 'e', 'f'],
  STRING: ['s', '', 'ß', 't', 'u', 'v', 'w', 'x', 'y'],
  BLOB: [
    Buffer.from([]),
    Buffer.from([0, 255]),
    Buffer.from('cafe', 'hex'),
    Buffer.from([1]),
    Buffer.from([2]),
    Buffer.from([3]),
    Buffer.from([4]),
    Buffer.from([5]),
    Buffer.from([6]),
  ],
};
const NAMES = Object.keys(SAMPLES) as TSDataTypeName[];
const logical = (cols: ColSpec[]) => cols.map((c) => TSDataType[c.type]);
const withNulls = (xs: Cell[], at: number[]) => xs.map((x, i) => (at.includes(i) ? null : x));

describe('decodeTsBlock: array encodings', () => {
  it.each(NAMES)('decodes a %s column without nulls (typed values, nulls = null)', (type) => {
    const cols: ColSpec[] = [{ type, cells: SAMPLES[type] }];
    const block = decodeTsBlock(buildBlock(TIMES, cols), logical(cols));
    expect(block.rows).toBe(9);
    expect([...block.times]).toEqual(TIMES);
    expect(block.columns[0].type).toBe(TSDataType[type]);
    expect(block.columns[0].nulls).toBeNull();
    expect(cells(block.columns[0])).toEqual(SAMPLES[type]);
  });

  it.each(NAMES)('decodes a %s column with nulls at the first, a middle and the last (9th) row', (type) => {
    const cols: ColSpec[] = [{ type, cells: withNulls(SAMPLES[type], [0, 4, 8]) }];
    const col = decodeTsBlock(buildBlock(TIMES, cols), logical(cols)).columns[0];
    expect([...col.nulls!]).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
    expect(cells(col)).toEqual(cols[0].cells);
    if (!Array.isArray(col.values)) expect(col.values[4]).toBe(type === 'INT64' || type === 'TIMESTAMP' ? 0n : 0); // null slots hold 0
  });

  it('returns the typed array kind of the logical type', () => {
    const cols: ColSpec[] = NAMES.map((type) => ({ type, cells: SAMPLES[type] }));
    const kinds = decodeTsBlock(buildBlock(TIMES, cols), logical(cols)).columns.map((c) => c.values.constructor.name);
    expect(kinds).toEqual([
      'Uint8Array',
      'Int32Array',
      'Int32Array',
      'BigInt64Array',
      'BigInt64Array',
      'Float32Array',
      'Float64Array',
      'Array',
      'Array',
      'Array',
    ]);
  });

  it('gives every column with nulls its flags as a Uint8Array (not a Buffer), the columns sharing no bytes', () => {
    const cols: ColSpec[] = NAMES.map((type, k) => ({ type, cells: withNulls(SAMPLES[type], [k % 9]) }));
    const columns = decodeTsBlock(buildBlock(TIMES, cols), logical(cols)).columns;
    expect(columns.map((c) => c.nulls!.constructor.name)).toEqual(NAMES.map(() => 'Uint8Array'));
    columns.forEach((c, k) => expect([...c.nulls!].indexOf(1)).toBe(k % 9));
  });

  it('uses the physical header types when no logical types are given', () => {
    const cols: ColSpec[] = [
      { type: 'TIMESTAMP', cells: SAMPLES.TIMESTAMP },
      { type: 'BLOB', cells: [null, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'] },
    ];
    const block = decodeTsBlock(buildBlock(TIMES, cols));
    expect(block.columns.map((c) => c.type)).toEqual([TSDataType.INT64, TSDataType.TEXT]);
    expect(cells(block.columns[1]).slice(0, 2)).toEqual([null, 'a']);
  });

  it('treats mayHaveNull = 1 with no bit set as a column without nulls', () => {
    const cols: ColSpec[] = [{ type: 'INT32', cells: SAMPLES.INT32, forceNullFlag: true }];
    const col = decodeTsBlock(buildBlock(TIMES, cols), logical(cols)).columns[0];
    expect(col.nulls).toBeNull();
    expect(cells(col)).toEqual(SAMPLES.INT32);
  });

  it('decodes an empty block', () => {
    const cols: ColSpec[] = [
      { type: 'DOUBLE', cells: [] },
      { type: 'TEXT', cells: [] },
    ];
    const block = decodeTsBlock(buildBlock([], cols), logical(cols));
    expect(block.rows).toBe(0);
    expect(block.columns.map((c) => c.values.length)).toEqual([0, 0]);
  });
});

describe('decodeTsBlock: any null pattern', () => {
  // rows across several bit bytes, nulls anywhere: the null bits and booleans are unpacked a byte at a
  // time and the fixed-width values spread to their rows, so every row count and pattern must land
  it.each(NAMES)('decodes a %s column of 0-70 rows with nulls anywhere to the cells it was built from', (type) => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 70 }), (isNull) => {
        const column = isNull.map((n, r) => (n ? null : SAMPLES[type][r % 9]));
        const cols: ColSpec[] = [{ type, cells: column }];
        const times = column.map((_, r) => BigInt(r));
        const col = decodeTsBlock(buildBlock(times, cols), logical(cols)).columns[0];
        expect(cells(col)).toEqual(column);
        expect(col.nulls === null).toBe(!isNull.includes(true));
      }),
    );
  });
});

describe('decodeTsBlock: shareStrings', () => {
  const decodeText = (column: (string | null)[], shareStrings: boolean) => {
    const cols: ColSpec[] = [{ type: 'TEXT', cells: column }];
    const block = buildBlock(
      column.map((_, r) => BigInt(r)),
      cols,
    );
    return cells(decodeTsBlock(block, logical(cols), { shareStrings }).columns[0]);
  };
  // short ASCII values (the ones looked up), values differing only by trailing NULs or by one byte in any of the
  // three words, non-ASCII ones (not looked up), nulls
  const text = fc.oneof(
    fc.constantFrom('', 'a', 'abc', 'abc\0', 'abc\0\0', 'value-07', 'value-70', 'abcdefghijkl', 'abcdefghijkm'),
    fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)), maxLength: 14 }),
    fc.constantFrom('é', 'x'.repeat(13), null),
    // longer values (compared with the row before's): equal, differing in one byte or in length, past the limit
    fc.constantFrom('root.sg.d_0001', 'root.sg.d_0002', 'root.sg.d_00010', 'y'.repeat(300), 'y'.repeat(299) + 'z'),
  );

  it('decodes any column to the values it decodes to without sharing, blocks after blocks', () => {
    fc.assert(
      fc.property(fc.array(fc.array(text, { maxLength: 300 }), { maxLength: 4 }), (blocks) => {
        for (const column of blocks) expect(decodeText(column, true)).toEqual(column);
      }),
    );
  });

  it('tells apart values that meet in its table and differ only in length or in one of their words', () => {
    // more values than the table has slots, each twice in a row (so the column keeps looking): every family
    // differs in one part of the key only, and a family's values meet in the same slots
    const n = (i: number) => String(i).padStart(4, '0');
    const families = [
      (i: number) => `${n(i)}efghijkl`, // the first word
      (i: number) => `abcd${n(i)}ijkl`, // the second
      (i: number) => `abcdefgh${n(i)}`, // the third
    ];
    const twice = (f: (i: number) => string, count: number) =>
      Array.from({ length: count }, (_, i) => [f(i), f(i)]).flat();
    // a value and the same with a NUL more: the same words, another length (in the hash too: they meet less often)
    const column = [
      ...families.flatMap((f) => twice(f, 6000)),
      ...twice((i) => `k${i >> 1}` + '\0'.repeat(i & 1), 100_000),
    ];
    expect(decodeText(column, true)).toEqual(column);
  });
});

describe('decodeTsBlock: shareStrings, what a result held whole keeps', () => {
  // the heap's growth by what `make` returns, between two full collections (gc exposed at run time); a few hundred
  // KB either way from one run to the next
  setFlagsFromString('--expose_gc');
  const gc = runInNewContext('gc') as () => void;
  const heldBytes = (make: () => unknown): number => {
    gc();
    const before = process.memoryUsage().heapUsed;
    const kept = make();
    gc();
    const held = process.memoryUsage().heapUsed - before;
    expect(kept).toBeDefined(); // kept alive to here
    return held;
  };
  const rows = 400_000;
  const blocks = (column: (r: number) => string) =>
    Array.from({ length: rows / 400 }, (_, b) => {
      const cols: ColSpec[] = [{ type: 'TEXT', cells: Array.from({ length: 400 }, (_, r) => column(b * 400 + r)) }];
      return buildBlock(new Array<bigint>(400).fill(1n), cols);
    });
  /** what decoding `encoded` keeps beyond the value arrays' slots (8 bytes a row): the strings */
  const stringsHeld = (encoded: Buffer[]) => {
    const decode = () => encoded.map((b) => decodeTsBlock(b, [TSDataType.TEXT], { shareStrings: true }).columns[0]);
    for (let i = 0; i < 3; i++) decode(); // compiled before it is measured
    return heldBytes(decode) - 8 * rows;
  };

  it('keeps one string for each of a hundred short values repeated, whichever of them meet in its table', () => {
    // 'value-00' to 'value-99' (24 bytes a string made): held once each, a few KB
    const held = stringsHeld(blocks((r) => `value-${String(r % 100).padStart(2, '0')}`)); // 3.6 MB before
    expect(held).toBeLessThan(1_500_000);
  });

  it('keeps one string for a longer value repeated on the rows after it (a device on each row of its own)', () => {
    // ALIGN BY DEVICE's Device column: 'root.sg.device_0001' on 400 rows, 1,000 devices (a string each, and not the
    // column's region its substring would keep)
    const held = stringsHeld(blocks((r) => `root.sg.device_${String(Math.floor(r / 400)).padStart(4, '0')}`)); // 22 MB before
    expect(held).toBeLessThan(1_500_000);
  });
});

describe('decodeTsBlock: RLE and DICTIONARY', () => {
  it.each(NAMES)('repeats the single RLE value of a %s column on every row', (type) => {
    const cols: ColSpec[] = [{ type, cells: Array<Cell>(9).fill(SAMPLES[type][2]), layout: 'rle' }];
    const col = decodeTsBlock(buildBlock(TIMES, cols), logical(cols)).columns[0];
    expect(col.nulls).toBeNull();
    expect(cells(col)).toEqual(cols[0].cells);
  });

  it.each(NAMES)('decodes an all-null RLE %s column as nulls on every row', (type) => {
    const cols: ColSpec[] = [{ type, cells: Array<Cell>(9).fill(null), layout: 'rle' }];
    const col = decodeTsBlock(buildBlock(TIMES, cols), logical(cols)).columns[0];
    expect([...col.nulls!]).toEqual(Array(9).fill(1));
    expect(cells(col)).toEqual(Array(9).fill(null));
  });

  it('decodes an RLE time column', () => {
    const t = Array<bigint>(5).fill(123n);
    expect([...decodeTsBlock(buildBlock(t, [], 'rle')).times]).toEqual(t);
  });

  it.each<[TSDataTypeName, Cell[]]>([
    ['TEXT', ['a', null, 'b']],
    ['STRING', ['x', 'é', null]],
    ['BLOB', [Buffer.from('00', 'hex'), null, Buffer.from('ff', 'hex')]],
    ['INT32', [5, null, -5]],
  ])('maps DICTIONARY ids of a %s column to entries, nulls included', (type, dict) => {
    const rows = [dict[0], dict[1], dict[2], dict[1], dict[0], dict[0]];
    const cols: ColSpec[] = [{ type, cells: rows, layout: { dict } }];
    const col = decodeTsBlock(buildBlock(TIMES.slice(0, 6), cols), logical(cols)).columns[0];
    expect(cells(col)).toEqual(rows);
    expect([...col.nulls!]).toEqual(rows.map((r) => (r === null ? 1 : 0)));
  });

  it('rejects a dictionary id out of range and an id count that is not the row count', () => {
    const good = buildBlock([1n], [{ type: 'TEXT', cells: ['a'], layout: { dict: ['a'] } }]);
    const badId = Buffer.from(good);
    badId.writeInt32BE(1, badId.length - 4);
    expect(() => decodeTsBlock(badId)).toThrow(IoTDBProtocolError);
    const badCount = Buffer.from(good);
    badCount.writeInt32BE(2, badCount.length - 8);
    expect(() => decodeTsBlock(badCount)).toThrow(/2 ids for 1 rows/);
  });
});

describe('decodeTsBlock: text whose bytes are not UTF-8', () => {
  const notUtf8 = Buffer.from([0xff, 0x41]); // decodes to '\uFFFDA'
  const lone = Buffer.from([0xc3]); // a lead byte without its continuation

  it.each<Layout>(['array', 'rle', { dict: [lone, notUtf8] }])(
    "keeps such a cell's bytes in rawText beside its U+FFFD string (%o)",
    (layout) => {
      const rows = layout === 'rle' ? [notUtf8, notUtf8, notUtf8] : [notUtf8, 'ok é', lone];
      const dictRows = typeof layout === 'object' ? [notUtf8, lone, notUtf8] : rows;
      const cols: ColSpec[] = [{ type: 'TEXT', cells: dictRows, layout }];
      const col = decodeTsBlock(buildBlock(TIMES.slice(0, 3), cols), logical(cols)).columns[0];
      expect(cells(col)).toEqual(dictRows.map((c) => (Buffer.isBuffer(c) ? c.toString('utf8') : c)));
      const raw = [...(col.rawText ?? new Map<number, Buffer>())].map(([row, bytes]) => [row, bytes.toString('hex')]);
      const want = dictRows.flatMap((c, row) => (Buffer.isBuffer(c) ? [[row, c.toString('hex')]] : []));
      expect(raw).toEqual(want);
    },
  );

  it('finds a long cell that is not UTF-8 though the column is, with its length prefix before it', () => {
    // 195 bytes: the prefix ends in 0xC3, which with the cell's first byte 0xA9 makes 'é' across the boundary
    const long = Buffer.concat([Buffer.from([0xa9]), Buffer.alloc(194, 0x61)]);
    const cols: ColSpec[] = [{ type: 'TEXT', cells: ['ü', long] }];
    const block = buildBlock(TIMES.slice(0, 2), cols);
    const col = decodeTsBlock(block, logical(cols)).columns[0];
    expect(col.rawText?.get(1)?.equals(long)).toBe(true);
    expect(col.rawText?.size).toBe(1);
  });

  it('has no rawText when every cell is UTF-8, U+FFFD written as itself included', () => {
    const cols: ColSpec[] = [{ type: 'STRING', cells: ['a\uFFFDb', 'é', null, '\uFFFD'] }];
    const col = decodeTsBlock(buildBlock(TIMES.slice(0, 4), cols), logical(cols)).columns[0];
    expect(cells(col)).toEqual(['a\uFFFDb', 'é', null, '\uFFFD']);
    expect(col.rawText).toBeUndefined();
    expect(Object.keys(col)).toEqual(['type', 'values', 'nulls']);
  });

  it('copies the bytes out of the reply (a later reply may reuse its buffer)', () => {
    const cols: ColSpec[] = [{ type: 'TEXT', cells: [notUtf8] }];
    const block = buildBlock([1n], cols);
    const col = decodeTsBlock(block, logical(cols)).columns[0];
    block.fill(0);
    expect(col.rawText?.get(0)?.toString('hex')).toBe('ff41');
  });
});

describe('decodeTsBlock: malformed input', () => {
  const sample = buildBlock(
    TIMES,
    NAMES.map((type, i) => ({ type, cells: withNulls(SAMPLES[type], [i % 9]) })),
  );

  it('rejects an encoding that does not fit the column type and an unknown encoding', () => {
    for (const enc of [ColumnEncoding.BYTE_ARRAY, ColumnEncoding.BINARY_ARRAY, 9]) {
      const b = Buffer.from(sample);
      b[4 + 10 + 4 + 2] = enc; // encoding byte of value column 1 (INT32)
      expect(() => decodeTsBlock(b)).toThrow(IoTDBProtocolError);
    }
  });

  it('rejects logical types whose count differs from the block', () => {
    expect(() => decodeTsBlock(sample, [TSDataType.INT32])).toThrow(IoTDBProtocolError);
  });

  it('rejects an unknown physical type and a negative column or row count', () => {
    const b = Buffer.from(sample);
    b[4] = 7;
    expect(() => decodeTsBlock(b)).toThrow(IoTDBProtocolError);
    expect(() => decodeTsBlock(Buffer.from('ffffffff', 'hex'))).toThrow(IoTDBProtocolError);
    expect(() => decodeTsBlock(Buffer.from('00000000ffffffff02', 'hex'))).toThrow(IoTDBProtocolError);
  });

  it('rejects a binary length that is negative or runs past the block, saying where', () => {
    const good = buildBlock([1n, 2n], [{ type: 'TEXT', cells: ['ab', 'cd'] }]);
    const secondLength = good.length - 6; // the second value's int32 length, before its 2 bytes
    const negative = Buffer.from(good);
    negative.writeInt32BE(-1, secondLength);
    expect(() => decodeTsBlock(negative)).toThrow(`negative binary length -1 at offset ${secondLength}`);
    const long = Buffer.from(good);
    long.writeInt32BE(3, secondLength);
    // the block ends before the third byte, though the buffer it is part of goes on
    const inLarger = Buffer.concat([long, Buffer.from('ffffffff', 'hex')]).subarray(0, long.length);
    expect(() => decodeTsBlock(inLarger)).toThrow(`truncated data: need 3 bytes at offset ${secondLength + 4}, have 2`);
  });

  const vectors = parseVectorFile(
    readFileSync(new URL('../../fixtures/vectors/tsblock.json', import.meta.url), 'utf8'),
  );
  if (vectors.kind !== 'tsblock') throw new Error('tsblock.json is not a tsblock vector file');
  const blocks: [string, Buffer][] = [
    ['built: every type with nulls', sample],
    [
      'built: RLE and DICTIONARY',
      buildBlock(
        TIMES.slice(0, 3),
        [
          { type: 'TEXT', cells: ['a', null, 'a'], layout: { dict: ['a', null] } },
          { type: 'DOUBLE', cells: [null, null, null], layout: 'rle' },
        ],
        'rle',
      ),
    ],
    ...vectors.cases.map((c): [string, Buffer] => [`vector: ${c.name}`, Buffer.from(c.tsBlockHex, 'hex')]),
  ];

  it.each(blocks)('throws IoTDBProtocolError for every proper prefix of %s', (_name, block) => {
    expect(() => decodeTsBlock(block)).not.toThrow();
    for (let n = 0; n < block.length; n++) {
      const prefix = Buffer.from(block.subarray(0, n)); // its own buffer: no bytes beyond the end to read
      expect(() => decodeTsBlock(prefix), `prefix of ${n} bytes`).toThrow(IoTDBProtocolError);
    }
  });

  it.each(vectors.cases.map((c) => [c.name, c] as const))(
    'decodes vector %s the same from a subarray at an odd offset',
    (_name, c) => {
      const block = Buffer.from(c.tsBlockHex, 'hex');
      const big = Buffer.alloc(block.length + 10, 0xa5);
      block.copy(big, 3);
      const atOdd = big.subarray(3, 3 + block.length);
      expect(atOdd.byteOffset % 2).toBe(1);
      const expected = decodeTsBlock(block, c.types);
      expect(decodeTsBlock(atOdd, c.types)).toEqual(expected);
      expect([...decodeTsBlock(atOdd, c.types).times]).toEqual(c.times);
    },
  );
});
