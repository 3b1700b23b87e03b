import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IoTDBValidationError, TSDataType, type DecodedColumn } from '@iotdb/fast-serializer';
import { cellValue } from './cell-value.js';
import type { Int64Mode } from './options.js';
import { compileFunction, type Compile } from '../codegen/compiled-functions.js';
import { RowMakers, cellByCell, rowMaker, rowSource, type RowMaker } from './row-maker.js';

const MAX_ROWS = 40;

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

/** What row r reads cell by cell: its values, or the error one of them throws. */
function expectedRow(columns: readonly DecodedColumn[], r: number, int64As: Int64Mode) {
  try {
    return { values: columns.map((c) => cellValue(c, r, int64As)) };
  } catch (e) {
    return { error: e };
  }
}

/** Every row of `rows` as `make` gives it matches what its cells give one by one, or throws as they do. */
function expectRowsAsCells(make: RowMaker, columns: readonly DecodedColumn[], rows: number, int64As: Int64Mode) {
  for (let r = 0; r < rows; r++) {
    const expected = expectedRow(columns, r, int64As);
    if ('error' in expected) {
      expect(expected.error).toBeInstanceOf(IoTDBValidationError);
      expect(() => make(r)).toThrow(IoTDBValidationError);
    } else {
      expect(make(r)).toEqual(expected.values);
    }
  }
}

const anyBlock = block.chain((b) => fc.tuple(fc.constant(b), fc.constantFrom<Int64Mode>('bigint', 'number')));

describe('rowMaker', () => {
  it('gives every row the values its cells give one by one; an unsafe INT64 as number throws for its row only', () => {
    fc.assert(
      fc.property(anyBlock, ([{ rows, columns }, int64As]) =>
        expectRowsAsCells(rowMaker(columns, int64As), columns, rows, int64As),
      ),
      { numRuns: 300, endOnFailure: true },
    );
  });

  it('makes a new array for each call, so that a caller may keep or change a row', () => {
    const column: DecodedColumn = { type: TSDataType.INT32, values: Int32Array.of(7, 8), nulls: null };
    const make = rowMaker([column], 'bigint');
    const first = make(0);
    first[0] = 99;
    expect(make(0)).toEqual([7]);
    expect(make(1)).toEqual([8]);
  });

  it('uses one compiled function per column layout: another block of the same types and nulls reads its own arrays', () => {
    const of = (v: number, nulls: Uint8Array | null): DecodedColumn => ({
      type: TSDataType.DOUBLE,
      values: Float64Array.of(v),
      nulls,
    });
    const compiled: string[] = [];
    const compile: Compile = (params, body) => {
      compiled.push(body);
      return compileFunction(params, body);
    };
    const makers = new RowMakers(compile);
    const layout = (v: number) => [of(v, null), of(v, Uint8Array.of(0))];
    expect(makers.of(layout(1), 'number')(0)).toEqual([1, 1]);
    expect(makers.of(layout(2), 'number')(0)).toEqual([2, 2]);
    expect(compiled).toHaveLength(1);
    expect(makers.of(layout(3), 'bigint')(0)).toEqual([3, 3]); // int64As is part of the layout
    expect(makers.of([of(4, null), of(4, null)], 'number')(0)).toEqual([4, 4]); // so are the nulls
    expect(compiled).toHaveLength(3);
  });

  it('makes rows cell by cell where compiling is refused (node --disallow-code-generation-from-strings)', () => {
    let refused = 0;
    const refuse: Compile = () => {
      refused++;
      throw new EvalError('Code generation from strings disallowed for this context');
    };
    const makers = new RowMakers(refuse);
    const columns: DecodedColumn[] = [
      { type: TSDataType.FLOAT, values: Float32Array.of(1.5), nulls: null },
      { type: TSDataType.TEXT, values: ['x'], nulls: Uint8Array.of(1) },
      { type: TSDataType.BOOLEAN, values: Uint8Array.of(1), nulls: null },
      { type: TSDataType.DATE, values: Int32Array.of(20240229), nulls: null },
      { type: TSDataType.INT64, values: BigInt64Array.of(2n ** 60n), nulls: null },
    ];
    expect(makers.of(columns, 'bigint')(0)).toEqual([1.5, null, true, new Date(Date.UTC(2024, 1, 29)), 2n ** 60n]);
    expect(makers.of(columns.slice(1), 'bigint')(0)).toHaveLength(4);
    expect(refused).toBe(1); // refused for the process: not tried again for another layout
  });

  it('makes rows of very wide results (past 1024 columns) cell by cell, without compiling', () => {
    let compiled = 0;
    const makers = new RowMakers((params, body) => {
      compiled++;
      return compileFunction(params, body);
    });
    const column = (k: number): DecodedColumn => ({ type: TSDataType.INT32, values: Int32Array.of(k), nulls: null });
    const wide = Array.from({ length: 1100 }, (_, k) => column(k));
    expect(makers.of(wide, 'bigint')(0)).toEqual(wide.map((_, k) => k));
    expect(compiled).toBe(0);
    expect(makers.of(wide.slice(0, 1024), 'bigint')(0)).toHaveLength(1024);
    expect(compiled).toBe(1);
  });

  it('cell by cell gives what the compiled rows give', () => {
    fc.assert(
      fc.property(anyBlock, ([{ rows, columns }, int64As]) =>
        expectRowsAsCells(cellByCell(columns, int64As), columns, rows, int64As),
      ),
      { numRuns: 100, endOnFailure: true },
    );
  });

  it('compiles nothing from the data: the source holds only positions and fixed code', () => {
    const columns: DecodedColumn[] = [
      { type: TSDataType.TEXT, values: ["'); process.exit(1); ('"], nulls: null },
      { type: TSDataType.INT64, values: BigInt64Array.of(1n), nulls: Uint8Array.of(0) },
    ];
    const source = rowSource(columns, 'number');
    expect(source).not.toContain('process');
    expect(source).toContain('const c1 = words(values[1]), n1 = nulls[1];'); // INT64 as number: read as two words
    expect(source).toContain('return function row(r) { return [c0[r], n1[r] === 1 ? null : toNumber(c1, r)]; };');
  });
});
