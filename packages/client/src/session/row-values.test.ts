import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IoTDBValidationError, TSDataType, type DecodedColumn } from '@iotdb/fast-serializer';
import { cellValue } from './cell-value.js';
import type { Int64Mode } from './options.js';
import { RowValues } from './row-values.js';

const MAX_ROWS = 300; // beyond the runs that double up to the longest (8 + 16 + ... + 128 rows)

/** One cell's raw slot value for a column of this type (what a decoded block holds). */
function slot(type: TSDataType): fc.Arbitrary<number | bigint | string | Buffer> {
  switch (type) {
    case TSDataType.BOOLEAN:
      return fc.integer({ min: 0, max: 1 });
    case TSDataType.INT32:
      return fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
    case TSDataType.FLOAT:
      return fc.float({ noDefaultInfinity: false }).map(Math.fround);
    case TSDataType.DOUBLE:
      return fc.double();
    case TSDataType.DATE:
      return fc
        .date({ min: new Date(Date.UTC(1000, 0, 1)), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true })
        .map((d) => d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate());
    case TSDataType.INT64:
    case TSDataType.TIMESTAMP: // mostly within 2^53 (a number when asked), sometimes not (then that row throws)
      return fc.oneof(
        { weight: 8, arbitrary: fc.bigInt({ min: -(2n ** 53n), max: 2n ** 53n }) },
        { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }) },
      );
    case TSDataType.BLOB:
      return fc.uint8Array({ maxLength: 4 }).map((b) => Buffer.from(b));
    default:
      return fc.string({ maxLength: 6 });
  }
}

function columnOf(
  type: TSDataType,
  slots: (number | bigint | string | Buffer)[],
  nulls: boolean[] | null,
): DecodedColumn {
  const values = (() => {
    switch (type) {
      case TSDataType.BOOLEAN:
        return Uint8Array.from(slots as number[]);
      case TSDataType.INT32:
      case TSDataType.DATE:
        return Int32Array.from(slots as number[]);
      case TSDataType.FLOAT:
        return Float32Array.from(slots as number[]);
      case TSDataType.DOUBLE:
        return Float64Array.from(slots as number[]);
      case TSDataType.INT64:
      case TSDataType.TIMESTAMP:
        return BigInt64Array.from(slots as bigint[]);
      default:
        return slots as string[];
    }
  })();
  return { type, values, nulls: nulls === null ? null : Uint8Array.from(nulls, (n) => (n ? 1 : 0)) };
}

const TYPES = Object.values(TSDataType);

/** A block: its row count and columns of any types, some with null cells. */
const block = fc.integer({ min: 1, max: MAX_ROWS }).chain((rows) =>
  fc.record({
    rows: fc.constant(rows),
    columns: fc.array(
      fc
        .constantFrom(...TYPES)
        .chain((type) =>
          fc
            .tuple(
              fc.array(slot(type), { minLength: rows, maxLength: rows }),
              fc.option(fc.array(fc.boolean(), { minLength: rows, maxLength: rows }), { nil: null }),
            )
            .map(([slots, nulls]) => columnOf(type, slots, nulls)),
        ),
      { minLength: 1, maxLength: 6 },
    ),
  }),
);

/** Reads in any order: stretches read in order (from anywhere, of any length), with jumps between them. */
const reads = (rows: number) =>
  fc
    .array(fc.record({ from: fc.nat(rows - 1), length: fc.integer({ min: 1, max: rows }) }), {
      minLength: 1,
      maxLength: 8,
    })
    .map((stretches) =>
      stretches.flatMap(({ from, length }) =>
        Array.from({ length: Math.min(length, rows - from) }, (_, i) => from + i),
      ),
    );

/** What row r reads cell by cell: its values, or the error one of them throws. */
function expectedRow(columns: readonly DecodedColumn[], r: number, int64As: Int64Mode) {
  try {
    return { values: columns.map((c) => cellValue(c, r, int64As)) };
  } catch (e) {
    return { error: e };
  }
}

describe('RowValues', () => {
  it('gives every row the values its cells give one by one, in any read order; an unsafe INT64 throws for its row only', () => {
    fc.assert(
      fc.property(
        block.chain((b) => fc.tuple(fc.constant(b), reads(b.rows), fc.constantFrom<Int64Mode>('bigint', 'number'))),
        ([{ rows, columns }, order, int64As]) => {
          const values = new RowValues(columns, rows, int64As);
          for (const r of order) {
            const expected = expectedRow(columns, r, int64As);
            if ('error' in expected) {
              expect(expected.error).toBeInstanceOf(IoTDBValidationError);
              expect(() => values.of(r)).toThrow(IoTDBValidationError);
            } else {
              expect(values.of(r)).toEqual(expected.values);
            }
          }
        },
      ),
      // shrinking blocks of hundreds of rows built by chain() takes minutes: the first counterexample is reported
      { numRuns: 150, endOnFailure: true },
    );
  });

  it('reads rows in order a run at a time: the rows of one run are made together, as they are read', () => {
    const n = 40;
    const column: DecodedColumn = {
      type: TSDataType.INT32,
      values: Int32Array.from({ length: n }, (_, r) => r),
      nulls: null,
    };
    const values = new RowValues([column], n, 'bigint');
    const first = values.of(0);
    // the next rows of the run are already made: the same arrays come back however often they are asked for
    expect(values.of(1)).toBe(values.of(1));
    expect(values.of(0)).toBe(first);
    // a row read out of order is made on its own
    expect(values.of(30)).not.toBe(values.of(30));
    expect(values.of(30)).toEqual([30]);
  });
});
