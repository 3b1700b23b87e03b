import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IoTDBValidationError, TSDataType, type DecodedColumn } from '@iotdb/fast-serializer';
import { cellValue, int64ToNumber, int64WordToNumber, int64Words } from './cell-value.js';

const col = (type: TSDataType, values: DecodedColumn['values'], nulls: number[] | null = null): DecodedColumn => ({
  type,
  values,
  nulls: nulls === null ? null : Uint8Array.from(nulls),
});

/** Every row of a column as cellValue gives it. */
const jsColumn = (c: DecodedColumn, rows: number, int64As: 'bigint' | 'number') =>
  Array.from({ length: rows }, (_, r) => cellValue(c, r, int64As));

describe('cellValue', () => {
  it('turns BOOLEAN 0/1 into false/true', () => {
    expect(jsColumn(col(TSDataType.BOOLEAN, Uint8Array.from([0, 1])), 2, 'bigint')).toEqual([false, true]);
  });

  it('gives null for a null slot, whatever the slot holds', () => {
    expect(jsColumn(col(TSDataType.INT32, Int32Array.from([0, 7]), [1, 0]), 2, 'bigint')).toEqual([null, 7]);
    expect(jsColumn(col(TSDataType.BOOLEAN, Uint8Array.from([1, 0]), [1, 0]), 2, 'bigint')).toEqual([null, false]);
    expect(jsColumn(col(TSDataType.DATE, Int32Array.from([0, 20000101]), [1, 0]), 2, 'bigint')).toEqual([
      null,
      new Date(Date.UTC(2000, 0, 1)),
    ]);
    expect(jsColumn(col(TSDataType.TEXT, ['', 'x'], [1, 0]), 2, 'bigint')).toEqual([null, 'x']);
  });

  it('turns DATE yyyymmdd into a Date at UTC midnight', () => {
    const [d] = jsColumn(col(TSDataType.DATE, Int32Array.from([20240229])), 1, 'bigint') as Date[];
    expect(d.toISOString()).toBe('2024-02-29T00:00:00.000Z');
  });

  it('gives INT64 and TIMESTAMP as bigint, or as number when asked', () => {
    for (const type of [TSDataType.INT64, TSDataType.TIMESTAMP]) {
      expect(jsColumn(col(type, BigInt64Array.from([-5n, 2n ** 63n - 1n])), 2, 'bigint')).toEqual([
        -5n,
        2n ** 63n - 1n,
      ]);
      expect(jsColumn(col(type, BigInt64Array.from([-5n, 2n ** 53n - 1n])), 2, 'number')).toEqual([
        -5,
        Number.MAX_SAFE_INTEGER,
      ]);
      // an unsafe value as a number would round: it throws instead
      expect(() => jsColumn(col(type, BigInt64Array.from([2n ** 53n + 1n])), 1, 'number')).toThrow(/int64As: 'bigint'/);
    }
  });

  it('gives other types as they are', () => {
    expect(jsColumn(col(TSDataType.STRING, ['x', 'y']), 2, 'bigint')).toEqual(['x', 'y']);
    const b = Buffer.from([1]);
    expect(jsColumn(col(TSDataType.BLOB, [b]), 1, 'bigint')[0]).toBe(b);
    expect(jsColumn(col(TSDataType.FLOAT, Float32Array.from([1.5])), 1, 'bigint')).toEqual([1.5]);
    expect(jsColumn(col(TSDataType.DOUBLE, Float64Array.from([-0])), 1, 'bigint')).toEqual([-0]);
  });
});

describe('int64ToNumber', () => {
  it('converts safe integers exactly and refuses anything beyond 2^53 - 1', () => {
    expect(int64ToNumber(9007199254740991n)).toBe(Number.MAX_SAFE_INTEGER);
    expect(int64ToNumber(-9007199254740991n)).toBe(-Number.MAX_SAFE_INTEGER);
    expect(() => int64ToNumber(9007199254740992n)).toThrow(IoTDBValidationError);
    expect(() => int64ToNumber(-9007199254740992n)).toThrow(IoTDBValidationError);
  });
});

describe('int64WordToNumber', () => {
  /** f's number, or what it threw. */
  const attempt = (f: () => number): unknown => {
    try {
      return f();
    } catch (e) {
      return e;
    }
  };
  const EDGES = [0n, 1n, -1n, 2n ** 31n, -(2n ** 31n), 2n ** 32n - 1n, 2n ** 32n, -(2n ** 32n), -(2n ** 32n) + 1n];
  const BOUNDS = [
    2n ** 53n - 1n,
    -(2n ** 53n - 1n),
    2n ** 53n,
    -(2n ** 53n),
    2n ** 53n + 1n,
    2n ** 63n - 1n,
    -(2n ** 63n),
  ];

  it('gives what int64ToNumber gives, at the word and safe-integer edges (exact, or the same error)', () => {
    const values = BigInt64Array.from([...EDGES, ...BOUNDS]);
    values.forEach((v, i) =>
      expect(
        attempt(() => int64WordToNumber(int64Words(values), i)),
        String(v),
      ).toEqual(attempt(() => int64ToNumber(v))),
    );
    expect(() => int64WordToNumber(int64Words(BigInt64Array.of(2n ** 53n)), 0)).toThrow(IoTDBValidationError);
    expect(() => int64WordToNumber(int64Words(BigInt64Array.of(-(2n ** 53n))), 0)).toThrow(/-9007199254740992/);
  });

  it('gives what int64ToNumber gives for any INT64, at any position of a column that starts past an offset', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), { minLength: 1, maxLength: 8 }),
        fc.nat(),
        (values, at) => {
          const i = at % values.length;
          const column = new BigInt64Array(new ArrayBuffer(8 * (values.length + 3)), 24, values.length);
          column.set(values);
          expect(attempt(() => int64WordToNumber(int64Words(column), i))).toEqual(
            attempt(() => int64ToNumber(values[i])),
          );
        },
      ),
    );
  });
});
