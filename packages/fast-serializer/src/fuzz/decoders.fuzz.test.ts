import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IoTDBProtocolError } from '../errors.js';
import { ByteReader } from '../io/byte-reader.js';
import { ByteWriter } from '../io/byte-writer.js';
import {
  TSExecuteStatementRespSchema,
  TSFetchResultsRespSchema,
  TSOpenSessionRespSchema,
  TSStatusSchema,
} from '../thrift/iotdb-idl.js';
import { TApplicationError, readReplyHeader } from '../thrift/message.js';
import { readStruct, writeStruct, type StructSchema } from '../thrift/struct-codec.js';
import { MAX_EXPANDED_CELLS, decodeTsBlock } from '../tsblock/decode-tsblock.js';
import { parseVectorFile } from '../vectors/vector-file.js';

/**
 * Property tests: whatever bytes arrive, a decoder either decodes or throws IoTDBProtocolError (never a
 * RangeError, TypeError or a stack overflow), and never holds more than a bounded multiple of the bytes
 * it was given. Inputs: random bytes, and the Java-made vectors and real replies with bytes flipped, cut
 * or spliced. Fixed seeds and bounded runs keep the suite repeatable and quick.
 */
const SEED = 20261123;
const RUNS = 400;

const vectors = parseVectorFile(readFileSync(new URL('../../fixtures/vectors/tsblock.json', import.meta.url), 'utf8'));
const blocks = (vectors.kind === 'tsblock' ? vectors.cases : []).map((c) => ({
  bytes: Buffer.from(c.tsBlockHex, 'hex'),
  types: c.types,
}));

/** Mutations of a valid message: flipped bytes, overwritten int32s (sizes, counts), truncation, insertion. */
function mutated(base: readonly Buffer[]): fc.Arbitrary<Buffer> {
  const flip = fc.record({ at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) });
  const int32 = fc.record({
    at: fc.nat(),
    value: fc.oneof(fc.integer(), fc.constantFrom(0x7fffffff, -1, 0x40000000, 1 << 20, 65536)),
  });
  return fc
    .record({
      i: fc.nat(base.length - 1),
      flips: fc.array(flip, { maxLength: 4 }),
      ints: fc.array(int32, { maxLength: 2 }),
      cut: fc.option(fc.nat()),
    })
    .map(({ i, flips, ints, cut }) => {
      const b = Buffer.from(base[i]);
      for (const f of flips) if (b.length > 0) b[f.at % b.length] = f.value;
      for (const x of ints) if (b.length >= 4) b.writeInt32BE(x.value | 0, x.at % (b.length - 3));
      return cut === null ? b : b.subarray(0, cut % (b.length + 1));
    });
}

const anyBytes = fc.uint8Array({ maxLength: 256 }).map((a) => Buffer.from(a));

/** Runs `decode`; only IoTDBProtocolError (or `allowed`) may escape. */
function onlyProtocolErrors(decode: () => void, allowed: (new (...a: never[]) => Error)[] = []): void {
  try {
    decode();
  } catch (e) {
    if (e instanceof IoTDBProtocolError || allowed.some((A) => e instanceof A)) return;
    throw e;
  }
}

describe('decodeTsBlock under hostile bytes', () => {
  it('decodes or throws IoTDBProtocolError, holding no more than its bytes can back', () => {
    fc.assert(
      fc.property(fc.oneof(mutated(blocks.map((b) => b.bytes)), anyBytes), fc.nat(blocks.length - 1), (bytes, k) => {
        onlyProtocolErrors(() => {
          const block = decodeTsBlock(bytes, blocks[k].types);
          const cells = block.rows * (block.columns.length + 1);
          expect(cells).toBeLessThanOrEqual(
            Math.max(MAX_EXPANDED_CELLS, 8 * bytes.length) * (block.columns.length + 1),
          );
        });
      }),
      { seed: SEED, numRuns: RUNS * 4 },
    );
  });

  it('refuses a block of a few bytes whose run-length columns announce more rows than allowed', () => {
    // all-RLE blocks: well formed, but each row backed by no byte; past the limit they must not expand
    const rle = fc.record({
      rows: fc.integer({ min: MAX_EXPANDED_CELLS + 1, max: 4 * MAX_EXPANDED_CELLS }),
      columns: fc.integer({ min: 0, max: 3 }),
    });
    fc.assert(
      fc.property(rle, ({ rows, columns }) => {
        const header = Buffer.alloc(4 + columns + 4);
        header.writeInt32BE(columns, 0);
        header.fill(1, 4, 4 + columns); // INT32 columns
        header.writeInt32BE(rows, 4 + columns);
        const time = Buffer.from([2, 0, 0, 0, 0, 0, 0, 0, 0, 7]); // RLE of one INT64_ARRAY value
        const value = Buffer.from([1, 0, 0, 0, 0, 9]); // RLE of one INT32_ARRAY value
        const bytes = Buffer.concat([
          header,
          Buffer.alloc(columns + 1, 4),
          time,
          ...Array.from({ length: columns }, () => value),
        ]);
        expect(() => decodeTsBlock(bytes)).toThrow(/position count/);
      }),
      { seed: SEED, numRuns: 20 },
    );
  });

  it('refuses, before allocating their arena, fixed-width columns announcing more rows than their bytes can hold', () => {
    // each column's bits alone would be backed (rows <= 8 x its bytes), but not all of them together
    const shape = fc.record({ columns: fc.integer({ min: 2, max: 300 }), type: fc.constantFrom(0, 1, 2) });
    fc.assert(
      fc.property(shape, ({ columns, type }) => {
        const bitmapBytes = 64;
        const rows = 8 * bitmapBytes;
        const header = Buffer.alloc(4 + columns + 4);
        header.writeInt32BE(columns, 0);
        header.fill(type, 4, 4 + columns); // BOOLEAN, INT32 or INT64 columns
        header.writeInt32BE(rows, 4 + columns);
        const encodings = Buffer.from([2, ...new Array<number>(columns).fill(type)]); // INT64_ARRAY times
        const allNull = Buffer.concat([Buffer.from([1]), Buffer.alloc(bitmapBytes, 0xff)]); // one column's worth
        const bytes = Buffer.concat([header, encodings, allNull]);
        expect(() => decodeTsBlock(bytes)).toThrow(/position count/);
      }),
      { seed: SEED, numRuns: 30 },
    );
  });

  it('still decodes a legitimate all-RLE block (a table-model time column of a constant result)', () => {
    const bytes = Buffer.concat([
      Buffer.from([0, 0, 0, 1, 1, 0, 0, 3, 0xe8, 4, 4]),
      Buffer.from([2, 0, 0, 0, 0, 0, 0, 0, 0, 7]),
      Buffer.from([1, 0, 0, 0, 0, 9]),
    ]);
    const block = decodeTsBlock(bytes);
    expect(block.rows).toBe(1000);
    expect(block.columns[0].values[999]).toBe(9);
  });
});

const replies: [StructSchema, Buffer][] = [
  [
    TSStatusSchema,
    encode(TSStatusSchema, {
      code: 302,
      message: 'm',
      subStatus: [{ code: 200, redirectNode: { ip: '10.0.0.1', port: 6667 } }, { code: 507 }],
    }),
  ],
  [
    TSOpenSessionRespSchema,
    encode(TSOpenSessionRespSchema, {
      status: { code: 200 },
      serverProtocolVersion: 2,
      sessionId: 9n,
      configuration: new Map([['timestamp_precision', 'ms']]),
    }),
  ],
  [
    TSExecuteStatementRespSchema,
    encode(TSExecuteStatementRespSchema, {
      status: { code: 200 },
      queryId: 1n,
      columns: ['a', 'b'],
      dataTypeList: ['INT32', 'TEXT'],
      columnNameIndexMap: new Map([['a', 0]]),
      queryResult: blocks.slice(0, 2).map((b) => b.bytes),
      moreData: true,
      columnIndex2TsBlockColumnIndexList: [0, 1],
    }),
  ],
  [
    TSFetchResultsRespSchema,
    encode(TSFetchResultsRespSchema, {
      status: { code: 200 },
      hasResultSet: true,
      isAlign: true,
      queryResult: [blocks[0].bytes],
    }),
  ],
];

function encode<S extends StructSchema>(schema: S, value: Parameters<typeof writeStruct<S>>[2]): Buffer {
  const w = new ByteWriter(64);
  writeStruct(w, schema, value);
  return Buffer.from(w.view());
}

describe('readStruct under hostile bytes', () => {
  it('decodes or throws IoTDBProtocolError for every reply struct the client reads', () => {
    fc.assert(
      fc.property(fc.nat(replies.length - 1), fc.oneof(mutated(replies.map((r) => r[1])), anyBytes), (k, bytes) => {
        onlyProtocolErrors(() => readStruct(new ByteReader(bytes), replies[k][0]));
      }),
      { seed: SEED, numRuns: RUNS * 4 },
    );
  });

  it('refuses statuses nested deeper than 64 levels with IoTDBProtocolError, not a stack overflow', () => {
    for (const depth of [65, 6000, 100_000]) {
      // { 1: code, 3: [ { 1: code, 3: [ ... ] } ] }: each level is 12 bytes
      const level = Buffer.from([8, 0, 1, 0, 0, 0, 200, 15, 0, 3, 12, 0, 0, 0, 1]);
      const bytes = Buffer.concat([
        ...Array.from({ length: depth }, () => level),
        Buffer.from([8, 0, 1, 0, 0, 0, 200, 0]),
        Buffer.alloc(depth, 0),
      ]);
      expect(() => readStruct(new ByteReader(bytes), TSStatusSchema)).toThrow(/nested deeper than 64/);
    }
  });

  it('skips unknown fields nested past the limit with IoTDBProtocolError too', () => {
    const deep = Buffer.concat([
      Buffer.from([8, 0, 1, 0, 0, 0, 200]),
      ...Array.from({ length: 5000 }, () => Buffer.from([12, 0, 99])),
      Buffer.alloc(5001, 0),
    ]);
    expect(() => readStruct(new ByteReader(deep), TSStatusSchema)).toThrow(IoTDBProtocolError);
  });

  it('refuses a list that announces more elements than bytes before allocating it', () => {
    // TSExecuteStatementResp.columns (field 3, list<string>) announcing 2^31-1 strings in a few bytes
    const bytes = Buffer.from([12, 0, 1, 8, 0, 1, 0, 0, 0, 200, 0, 15, 0, 3, 11, 0x7f, 0xff, 0xff, 0xff, 0]);
    expect(() => readStruct(new ByteReader(bytes), TSExecuteStatementRespSchema)).toThrow(/bad collection size/);
  });
});

describe('readReplyHeader under hostile bytes', () => {
  it('reads a header, or throws IoTDBProtocolError (or a well-formed TApplicationError)', () => {
    const reply = Buffer.concat([
      Buffer.from([0x80, 1, 0, 2, 0, 0, 0, 4]),
      Buffer.from('ping'),
      Buffer.from([0, 0, 0, 1]),
    ]);
    const exception = Buffer.concat([
      Buffer.from([0x80, 1, 0, 3, 0, 0, 0, 1, 0x6d, 0, 0, 0, 1]),
      Buffer.from([11, 0, 1, 0, 0, 0, 1, 0x78, 8, 0, 2, 0, 0, 0, 6, 0]),
    ]);
    fc.assert(
      fc.property(fc.oneof(mutated([reply, exception]), anyBytes), (bytes) => {
        onlyProtocolErrors(() => readReplyHeader(new ByteReader(bytes)), [TApplicationError]);
      }),
      { seed: SEED, numRuns: RUNS * 2 },
    );
  });
});
