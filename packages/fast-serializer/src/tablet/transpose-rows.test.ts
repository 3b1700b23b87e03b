import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IoTDBValidationError } from '../errors.js';
import { ByteWriter } from '../io/byte-writer.js';
import { TSDataType } from '../types/data-type.js';
import { writeInsertTabletReq } from './insert-tablet-request.js';
import { prepareTablet } from './prepare-tablet.js';
import type { CellValue, Tablet } from './tablet-input.js';
import { transposeRows } from './transpose-rows.js';

const types = [
  TSDataType.FLOAT,
  TSDataType.INT32,
  TSDataType.DOUBLE,
  TSDataType.INT64,
  TSDataType.TEXT,
  TSDataType.BOOLEAN,
];

describe('transposeRows', () => {
  it('gathers numeric columns of plain numbers into typed arrays, the rest into arrays', () => {
    const rows: CellValue[][] = [
      [1.5, 7, 0.25, 12, 'a', true],
      [2.5, -3, 1e300, -4, 'b', false],
    ];
    const cols = transposeRows(rows, types, 2);
    expect(cols.map((c) => c.constructor.name)).toEqual([
      'Float32Array',
      'Int32Array',
      'Float64Array',
      'Float64Array',
      'Array',
      'Array',
    ]);
    expect(cols.map((c) => Array.from(c))).toEqual([
      [1.5, 2.5],
      [7, -3],
      [0.25, 1e300],
      [12, -4],
      ['a', 'b'],
      [true, false],
    ]);
  });

  it('gathers the typed columns into views of one allocation, each aligned to its width', () => {
    const rows: CellValue[][] = [0, 1, 2].map((r) => [r + 0.5, r, r / 4, r * 10, 't', true]);
    const cols = transposeRows(rows, types, 3) as (Float32Array | Int32Array | Float64Array)[];
    const typed = cols.slice(0, 4);
    expect(new Set(typed.map((c) => c.buffer)).size).toBe(1);
    expect(typed.every((c) => c.byteOffset % c.BYTES_PER_ELEMENT === 0)).toBe(true);
    expect(typed.map((c) => Array.from(c))).toEqual([
      [0.5, 1.5, 2.5],
      [0, 1, 2],
      [0, 0.25, 0.5],
      [0, 10, 20],
    ]);
  });

  it('leaves a column as it came when a cell does not fit its typed array unchanged', () => {
    const rows: CellValue[][] = [
      [1e39, 1.5, null, 2n ** 60n, null, null], // float overflow, a fraction in INT32, a null, a bigint
      [1, 2, 3, 4, 'x', true],
    ];
    const cols = transposeRows(rows, types, 2);
    expect(cols.every((c) => Array.isArray(c))).toBe(true);
    expect(cols[3]).toEqual([2n ** 60n, 4]);
  });
});

describe('row-major tablets', () => {
  const columns: CellValue[][] = [
    [1.5, null, 3.25],
    [1, 2, -2147483648],
    [0.1, 0.2, -0],
    [2n ** 60n + 1n, 5, null],
    ['a', null, 'ccc'],
    [true, false, null],
  ];
  const base = {
    deviceId: 'root.sg.d',
    measurements: ['f', 'i', 'd', 'l', 't', 'b'],
    dataTypes: types,
    timestamps: [3, 1, 2],
  };
  const bytes = (t: Tablet) => {
    const w = new ByteWriter(256);
    writeInsertTabletReq(w, 1n, prepareTablet(t));
    return w.view().toString('hex');
  };

  it('encode to the same bytes as the same data by columns, nulls, bigints and unsorted times included', () => {
    const values = [0, 1, 2].map((r) => columns.map((c) => c[r]));
    expect(bytes({ ...base, values })).toBe(bytes({ ...base, columns }));
    const numeric = [0, 1, 2].map((r) => [r + 0.5, r, r * 2, r * 3, 't', true]);
    const byColumn = types.map((_, c) => numeric.map((row) => row[c]));
    expect(bytes({ ...base, values: numeric })).toBe(bytes({ ...base, columns: byColumn }));
  });

  it('refuse a bad cell by its row and column, before any byte is written', () => {
    const values = [0, 1, 2].map((r) => columns.map((c) => c[r]));
    values[1][1] = 2.5;
    expect(() => bytes({ ...base, values })).toThrow(IoTDBValidationError);
    expect(() => bytes({ ...base, values })).toThrow(/values\[1\]\[1\] \("i"\)/);
  });
});

describe('row-major tablets, any cells', () => {
  // the cells an application may hand over: fitting and unfitting numbers, nulls, bigints, text, booleans
  const cell = fc.oneof(
    fc.integer({ min: -5, max: 5 }),
    fc.double(),
    fc.constantFrom(1e39, -1e39, 2 ** 31, 0.1, -0, NaN, Infinity),
    fc.constant(null),
    fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }),
    fc.constantFrom('a', ''),
    fc.boolean(),
  );
  const columnTypes = fc.array(
    fc.constantFrom(TSDataType.FLOAT, TSDataType.INT32, TSDataType.DOUBLE, TSDataType.INT64, TSDataType.BOOLEAN),
    { minLength: 1, maxLength: 6 },
  );
  const outcome = (t: Tablet): string => {
    try {
      const w = new ByteWriter(256);
      writeInsertTabletReq(w, 1n, prepareTablet(t));
      return w.view().toString('hex');
    } catch (e) {
      return `${(e as Error).constructor.name}`;
    }
  };

  it('encode to the bytes of the same cells given by columns, or are refused as those are', () => {
    const tablet = columnTypes.chain((dataTypes) =>
      fc.record({
        dataTypes: fc.constant(dataTypes),
        values: fc.array(fc.array(cell, { minLength: dataTypes.length, maxLength: dataTypes.length }), {
          minLength: 1,
          maxLength: 8,
        }),
      }),
    );
    fc.assert(
      fc.property(tablet, ({ dataTypes, values }) => {
        const base = {
          deviceId: 'root.sg.d',
          measurements: dataTypes.map((_, c) => `s${c}`),
          dataTypes,
          timestamps: values.map((_, r) => values.length - r),
        };
        const columns = dataTypes.map((_, c) => values.map((row) => row[c]));
        expect(outcome({ ...base, values })).toBe(outcome({ ...base, columns }));
      }),
      { seed: 20261125, numRuns: 500 },
    );
  });
});
