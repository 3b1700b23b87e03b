import { describe, expect, it } from 'vitest';
import { TSDataType, type DecodedColumn } from '@iotdb/fast-serializer';
import { joinBlocks, joinColumn, joinTimes, type ColumnPiece } from './columnar.js';

const col = (type: TSDataType, values: DecodedColumn['values'], nulls: number[] | null = null): DecodedColumn => ({
  type,
  values,
  nulls: nulls === null ? null : Uint8Array.from(nulls),
});
const whole = (column: DecodedColumn): ColumnPiece => ({ column, from: 0, to: column.values.length });

describe('joinColumn', () => {
  it('hands one whole piece over as it is, without a copy', () => {
    const c = col(TSDataType.INT32, Int32Array.from([1, 2, 3]), [0, 1, 0]);
    const j = joinColumn(TSDataType.INT32, [whole(c)]);
    expect(j.values).toBe(c.values);
    expect(j.nulls).toBe(c.nulls);
  });

  it('copies the rows [from, to) of one partial piece', () => {
    const c = col(TSDataType.DOUBLE, Float64Array.from([1, 2, 3, 4]));
    const j = joinColumn(TSDataType.DOUBLE, [{ column: c, from: 1, to: 3 }]);
    expect(j.values).toEqual(Float64Array.from([2, 3]));
    expect(j.values).not.toBe(c.values);
    expect(j.nulls).toBeNull();
  });

  it('joins typed pieces in order, keeping the array type', () => {
    const a = col(TSDataType.INT64, BigInt64Array.from([1n, 2n, 3n]));
    const b = col(TSDataType.INT64, BigInt64Array.from([4n, 5n]));
    const j = joinColumn(TSDataType.INT64, [{ column: a, from: 1, to: 3 }, whole(b)]);
    expect(j.values).toEqual(BigInt64Array.from([2n, 3n, 4n, 5n]));
  });

  it('keeps the bytes of text that is not UTF-8 (rawText) by row of the joined column, and hands a whole piece its own', () => {
    const ff = Buffer.from([0xff]);
    const c3 = Buffer.from([0xc3]);
    const a: DecodedColumn = {
      ...col(TSDataType.TEXT, ['\uFFFD', 'b', '\uFFFD']),
      rawText: new Map([
        [0, ff],
        [2, c3],
      ]),
    };
    const b: DecodedColumn = { ...col(TSDataType.TEXT, ['\uFFFD']), rawText: new Map([[0, ff]]) };
    expect(joinColumn(TSDataType.TEXT, [whole(a)]).rawText).toBe(a.rawText);
    const j = joinColumn(TSDataType.TEXT, [{ column: a, from: 1, to: 3 }, whole(b)]);
    expect([...j.rawText!]).toEqual([
      [1, c3],
      [2, ff],
    ]);
    expect(joinColumn(TSDataType.TEXT, [{ column: a, from: 1, to: 2 }]).rawText).toBeNull();
    // the wide-result join keeps them in its joined block, for the rows read from it later
    const block = (column: DecodedColumn) => ({ rows: 3, times: BigInt64Array.from([0n, 1n, 2n]), columns: [column] });
    const joined = joinBlocks([
      { block: block(a), from: 2 },
      { block: block(a), from: 0 },
    ]);
    expect([...joined.block.columns[0].rawText!]).toEqual([
      [0, c3],
      [1, ff],
      [3, c3],
    ]);
  });

  it('joins text pieces into one array', () => {
    const a = col(TSDataType.TEXT, ['a', null, 'c'], [0, 1, 0]);
    const b = col(TSDataType.TEXT, ['d']);
    const j = joinColumn(TSDataType.TEXT, [{ column: a, from: 1, to: 3 }, whole(b)]);
    expect(j.values).toEqual([null, 'c', 'd']);
    expect(j.nulls).toEqual(Uint8Array.from([1, 0, 0]));
  });

  it('marks the nulls of the pieces that have them and zeros for pieces that have none', () => {
    const a = col(TSDataType.FLOAT, Float32Array.from([1, 2]));
    const b = col(TSDataType.FLOAT, Float32Array.from([0, 4]), [1, 0]);
    const c = col(TSDataType.FLOAT, Float32Array.from([5]));
    const j = joinColumn(TSDataType.FLOAT, [whole(a), whole(b), whole(c)]);
    expect(j.values).toEqual(Float32Array.from([1, 2, 0, 4, 5]));
    expect(j.nulls).toEqual(Uint8Array.from([0, 0, 1, 0, 0]));
  });

  it.each([
    [TSDataType.BOOLEAN, Uint8Array],
    [TSDataType.INT32, Int32Array],
    [TSDataType.DATE, Int32Array],
    [TSDataType.INT64, BigInt64Array],
    [TSDataType.TIMESTAMP, BigInt64Array],
    [TSDataType.FLOAT, Float32Array],
    [TSDataType.DOUBLE, Float64Array],
  ])('gives an empty column of type %i the documented array type', (type, Ctor) => {
    const j = joinColumn(type, []);
    expect(j.values).toBeInstanceOf(Ctor);
    expect(j.values.length).toBe(0);
    expect(j.nulls).toBeNull();
  });

  it.each([TSDataType.TEXT, TSDataType.STRING, TSDataType.BLOB])(
    'gives an empty column of type %i an empty array',
    (type) => {
      expect(joinColumn(type, []).values).toEqual([]);
    },
  );
});

describe('joinTimes', () => {
  it('hands one whole piece over as it is', () => {
    const t = BigInt64Array.from([1n, 2n]);
    expect(joinTimes([{ times: t, from: 0, to: 2 }])).toBe(t);
  });

  it('joins partial pieces in order', () => {
    const a = BigInt64Array.from([1n, 2n, 3n]);
    const b = BigInt64Array.from([4n, 5n, 6n]);
    expect(
      joinTimes([
        { times: a, from: 2, to: 3 },
        { times: b, from: 0, to: 2 },
      ]),
    ).toEqual(BigInt64Array.from([3n, 4n, 5n]));
  });

  it('gives an empty array for no pieces', () => {
    expect(joinTimes([])).toEqual(new BigInt64Array(0));
  });
});
