import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IoTDBValidationError } from '../errors.js';
import { ByteWriter } from '../io/byte-writer.js';
import { TSDataType } from '../types/data-type.js';
import { writeInsertTabletReq } from './insert-tablet-request.js';
import { prepareTablet, prepareTableTablet } from './prepare-tablet.js';
import { plainInsertTabletReq } from './plain-tablet-encoder.js';
import type { CellValue, Tablet } from './tablet-input.js';

const types = [
  TSDataType.FLOAT,
  TSDataType.INT32,
  TSDataType.DOUBLE,
  TSDataType.INT64,
  TSDataType.TEXT,
  TSDataType.BOOLEAN,
];

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

  it('encode a part of their rows (a table tablet split by node) as the same part given by columns', () => {
    const table = {
      tableName: 't',
      columnNames: ['tag', 'v'],
      columnCategories: ['TAG', 'FIELD'] as const,
      dataTypes: ['STRING', 'DOUBLE'] as const,
      timestamps: [3, 1, 2],
    };
    const part = (p: ReturnType<typeof prepareTableTablet>) => {
      const w = new ByteWriter(256);
      writeInsertTabletReq(w, 1n, { ...p, rows: 2, order: Uint32Array.of(2, 0) });
      return w.view().toString('hex');
    };
    const byRows = prepareTableTablet({
      ...table,
      values: [
        ['a', 1.5],
        ['b', null],
        ['c', 3],
      ],
    });
    const byColumns = prepareTableTablet({
      ...table,
      columns: [
        ['a', 'b', 'c'],
        [1.5, null, 3],
      ],
    });
    expect(part(byRows)).toBe(part(byColumns));
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
    fc.constantFrom('a', '', 'ü€😀'),
    fc.constantFrom(Uint8Array.of(1, 2), new Uint8Array(0)),
    fc.constantFrom(new Date(Date.UTC(2024, 1, 29)), new Date(NaN)),
    fc.boolean(),
  );
  const columnTypes = fc.array(fc.constantFrom(...(Object.values(TSDataType) as TSDataType[])), {
    minLength: 1,
    maxLength: 6,
  });
  // the fast encoder's bytes, then the plain encoder's (enableFastSerialization: false), or the error's class
  const outcome = (t: Tablet): string => {
    try {
      const w = new ByteWriter(256);
      writeInsertTabletReq(w, 1n, prepareTablet(t));
      const plain = plainInsertTabletReq(1n, prepareTablet(t));
      return [w.view(), plain.timestamps, plain.values].map((b) => b.toString('hex')).join(' ');
    } catch (e) {
      return (e as Error).constructor.name; // messages differ: `values[r][c]` vs `columns[c] row r`
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
