import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { IoTDBValidationError } from '@iotdb/fast-serializer';
import { TSDataType, type DecodedColumn } from '@iotdb/fast-serializer';
import { RowRecord, objectKeys, rowBlock, type RowShape } from './row-record.js';

const col = (type: TSDataType, values: DecodedColumn['values'], nulls: number[] | null = null): DecodedColumn => ({
  type,
  values,
  nulls: nulls === null ? null : Uint8Array.from(nulls),
});

/** One row (row 0) of a block made of these columns; `time` null for a result without a time column. */
function rowOf(time: bigint | null, columns: DecodedColumn[], shape: Partial<RowShape> & Pick<RowShape, 'index'>) {
  const timeColumn = time === null ? null : col(TSDataType.TIMESTAMP, BigInt64Array.from([time]));
  const full: RowShape = {
    objectKeys: objectKeys([...shape.index.keys()], time !== null),
    types: columns.map((c) => c.type),
    precision: 'ms',
    int64As: 'bigint',
    timestampAs: 'bigint',
    timeZone: 'UTC',
    ...shape,
  };
  return new RowRecord(rowBlock(timeColumn, columns, full.int64As), 0, full);
}

describe('RowRecord', () => {
  const index = new Map([
    ['a', 0],
    ['b', 1],
  ]);
  const ab = () => [col(TSDataType.INT32, Int32Array.from([1])), col(TSDataType.TEXT, ['x'])];

  it('reads values by name and Time as the timestamp', () => {
    const r = rowOf(5n, ab(), { index });
    expect(r.getValue('a')).toBe(1);
    expect(r.getValue('b')).toBe('x');
    expect(r.getValue('Time')).toBe(5n);
    expect(r.toObject()).toEqual({ Time: 5n, a: 1, b: 'x' });
  });

  it('shows its columns and values when logged, not the block it reads from', () => {
    const r = rowOf(5n, ab(), { index });
    expect(inspect(r)).toBe("RowRecord { Time: 5n, a: 1, b: 'x' }");
    expect(inspect([r], { depth: 0 })).toBe('[ [RowRecord] ]');
  });

  it("reads as Java's RowRecord.toString in a string: the time, then each value as getString gives it, tab-separated", () => {
    const r = rowOf(5n, [...ab(), col(TSDataType.DOUBLE, Float64Array.from([0]), [1])], {
      index: new Map([
        ['a', 0],
        ['b', 1],
        ['c', 2],
      ]),
    });
    expect(String(r)).toBe('5\t1\tx\tnull');
    // a DATE as Java's RowRecord prints it: its yyyyMMdd number (its getString gives 2024-02-29)
    const dated = rowOf(5n, [col(TSDataType.DATE, Int32Array.from([20240229]))], { index: new Map([['d', 0]]) });
    expect(String(dated)).toBe('5\t20240229');
    expect(String(rowOf(null, ab(), { index }))).toBe('1\tx');
  });

  it('turns into JSON as its object does, a bigint as its exact digits in a string (JSON has no 64-bit integer)', () => {
    const r = rowOf(5n, ab(), { index, timestampAs: 'number' });
    expect(JSON.stringify([r])).toBe('[{"Time":5,"a":1,"b":"x"}]');
    // by default the time and an INT64 are bigints: JSON.stringify would refuse them, a number would lose digits
    const big = rowOf(5n, [col(TSDataType.INT64, BigInt64Array.from([9007199254740993n]), [0])], {
      index: new Map([['n', 0]]),
    });
    expect(JSON.stringify(big)).toBe('{"Time":"5","n":"9007199254740993"}');
    expect(big.toObject()).toEqual({ Time: 5n, n: 9007199254740993n }); // the object keeps its bigints
  });

  it('has no Time for a result without a time column', () => {
    const r = rowOf(null, ab(), { index });
    expect(r.timestamp).toBeNull();
    expect(() => r.getValue('Time')).toThrow(IoTDBValidationError);
    expect(r.toObject()).toEqual({ a: 1, b: 'x' });
  });

  it('prefers a real column named Time over the timestamp', () => {
    const r = rowOf(5n, [col(TSDataType.INT32, Int32Array.from([9]))], { index: new Map([['Time', 0]]) });
    expect(r.getValue('Time')).toBe(9);
    // its object has both: the timestamp first, as columnNames has it, the column after it under Time#2
    expect(r.toObject()).toEqual({ Time: 5n, 'Time#2': 9 });
  });

  it("drops no column from its object, console.log or JSON: a name given again (a join's t1.a, t2.a) as a#2", () => {
    // SELECT t1.a, t2.a FROM t1 JOIN t2 ...: both columns are named a; getValue('a') reads the first, as Java's
    const r = rowOf(
      null,
      [col(TSDataType.INT32, Int32Array.from([10])), col(TSDataType.INT32, Int32Array.from([20]))],
      {
        index: new Map([['a', 0]]),
        objectKeys: objectKeys(['a', 'a'], false),
      },
    );
    expect(r.getValue('a')).toBe(10);
    expect(r.toObject()).toEqual({ a: 10, 'a#2': 20 });
    expect(JSON.stringify(r)).toBe('{"a":10,"a#2":20}');
    expect(inspect(r)).toBe("RowRecord { a: 10, 'a#2': 20 }");
    // a name taken already by a column of its own is passed over
    expect(objectKeys(['a', 'a#2', 'a', 'a'], false)).toEqual(['a', 'a#2', 'a#3', 'a#4']);
    expect(objectKeys(['x', 'Time'], true)).toEqual(['x', 'Time#2']);
    expect(objectKeys(['x', 'Time'], false)).toEqual(['x', 'Time']);
  });

  it('names the known columns when asked for an unknown one', () => {
    expect(() => rowOf(1n, ab(), { index }).getValue('zz')).toThrow(/no column "zz".*a, b/);
  });

  it('is a view of its block: values are made on first read, once, INT64 beyond 2^53 exact', () => {
    const big = 2n ** 60n + 1n;
    const r = rowOf(7n, [col(TSDataType.INT64, BigInt64Array.from([big])), col(TSDataType.TEXT, ['x'])], { index });
    expect(r.values).toEqual([big, 'x']);
    expect(r.values).toBe(r.values);
    expect(r.getLong('a')).toBe(big);
    expect(
      () => rowOf(7n, [col(TSDataType.INT64, BigInt64Array.from([big]))], { index, int64As: 'number' }).values,
    ).toThrow(IoTDBValidationError);
  });

  it('gives the timestamp as timestampAs asks', () => {
    const t = 1_700_000_000_123n;
    expect(rowOf(t, [], { index: new Map() }).timestamp).toBe(t);
    expect(rowOf(t, [], { index: new Map(), timestampAs: 'number' }).timestamp).toBe(1_700_000_000_123);
    expect(rowOf(t, [], { index: new Map(), timestampAs: 'Date' }).timestamp).toEqual(new Date(1_700_000_000_123));
  });

  it('gives a timestamp as number exactly to 2^53 - 1 either way, and refuses one beyond', () => {
    const asNumber = (t: bigint) => rowOf(t, [], { index: new Map(), timestampAs: 'number' }).timestamp;
    expect(asNumber(-1n)).toBe(-1);
    expect(asNumber(2n ** 32n + 5n)).toBe(2 ** 32 + 5);
    expect(asNumber(2n ** 53n - 1n)).toBe(Number.MAX_SAFE_INTEGER);
    expect(asNumber(-(2n ** 53n - 1n))).toBe(-Number.MAX_SAFE_INTEGER);
    expect(() => asNumber(2n ** 53n)).toThrow(IoTDBValidationError);
    expect(() => asNumber(-(2n ** 63n))).toThrow(IoTDBValidationError);
  });
});

describe('RowRecord typed getters (as Java DataIterator)', () => {
  const types = [
    TSDataType.BOOLEAN,
    TSDataType.INT32,
    TSDataType.INT64,
    TSDataType.FLOAT,
    TSDataType.DOUBLE,
    TSDataType.TEXT,
    TSDataType.TIMESTAMP,
    TSDataType.DATE,
    TSDataType.BLOB,
    TSDataType.STRING,
  ];
  const names = types.map((_, i) => `c${i}`);
  const index = new Map(names.map((n, i) => [n, i]));
  const columns = [
    col(TSDataType.BOOLEAN, Uint8Array.from([1])),
    col(TSDataType.INT32, Int32Array.from([7])),
    col(TSDataType.INT64, BigInt64Array.from([2n ** 60n])),
    col(TSDataType.FLOAT, Float32Array.from([1.5])),
    col(TSDataType.DOUBLE, Float64Array.from([2.25])),
    col(TSDataType.TEXT, ['txt']),
    col(TSDataType.TIMESTAMP, BigInt64Array.from([1_700_000_000_123_456n])),
    col(TSDataType.DATE, Int32Array.from([20240229])),
    col(TSDataType.BLOB, [Buffer.from([1, 2])]),
    col(TSDataType.STRING, ['str']),
  ];
  const row = rowOf(1_700_000_000_123_456n, columns, { index, precision: 'us' });

  it('reads each type by name and by 1-based position counting the time column as 1', () => {
    expect(row.getBoolean('c0')).toBe(true);
    expect(row.getBoolean(2)).toBe(true);
    expect(row.getInt('c1')).toBe(7);
    expect(row.getLong(4)).toBe(2n ** 60n);
    expect(row.getFloat('c3')).toBe(1.5);
    expect(row.getDouble('c3')).toBe(1.5);
    expect(row.getDouble('c4')).toBe(2.25);
    expect(row.getString('c5')).toBe('txt');
    expect(row.getString('c1')).toBe('7');
    expect(row.getTimestamp('c6')).toEqual(new Date(1_700_000_000_123));
    expect(row.getTimestamp(1)).toEqual(new Date(1_700_000_000_123)); // the time column, in us
    expect(row.getLong('Time')).toBe(1_700_000_000_123_456n);
    expect(row.getDate('c7')).toEqual(new Date(Date.UTC(2024, 1, 29)));
    expect(row.getBlob('c8')).toEqual(Buffer.from([1, 2]));
    expect(row.getString(11)).toBe('str');
  });

  it('getString: text as it is, null for a null text cell, other types in their string form (as Java)', () => {
    expect([row.getString('c7'), row.getString('c8'), row.getString('c6')]).toEqual([
      '2024-02-29',
      '0x0102',
      '2023-11-14T22:13:20.123456Z', // a TIMESTAMP in the session's zone, to the server's unit
    ]);
    expect(row.getString(1)).toBe('1700000000123456'); // the time column as its number, as Java's
    const shanghai = rowOf(1n, [col(TSDataType.TIMESTAMP, BigInt64Array.from([1_709_164_800_001n]))], {
      index: new Map([['ts', 0]]),
      timeZone: 'Asia/Shanghai',
    });
    expect(shanghai.getString('ts')).toBe('2024-02-29T08:00:00.001+08:00');
    expect(String(shanghai)).toBe('1\t1709164800001'); // Java's RowRecord prints it as its number
    const nullText = rowOf(1n, [col(TSDataType.TEXT, ['', 'x'], [1, 0]), col(TSDataType.STRING, [''], [1])], {
      index: new Map(),
    });
    expect([nullText.getString(2), nullText.getString(3)]).toEqual([null, null]);
  });

  it("getString and toString print FLOAT and DOUBLE as the Java client does (0.034, 1.0, 1.0E7), not as JS's doubles", () => {
    const numbers = rowOf(
      5n,
      [col(TSDataType.FLOAT, Float32Array.of(0.034)), col(TSDataType.DOUBLE, Float64Array.of(1e7))],
      {
        index: new Map([
          ['f', 0],
          ['d', 1],
        ]),
      },
    );
    expect([numbers.getString('f'), numbers.getString('d')]).toEqual(['0.034', '1.0E7']);
    expect(String(numbers)).toBe('5\t0.034\t1.0E7');
  });

  it('converts times by the server precision, flooring before 1970', () => {
    expect(rowOf(-1n, [], { index: new Map(), precision: 'ns' }).getTimestamp(1)).toEqual(new Date(-1));
    expect(rowOf(5_000_000n, [], { index: new Map(), precision: 'ns' }).getTimestamp('Time')).toEqual(new Date(5));
  });

  it('gives null for a null cell and says so with isNull', () => {
    const r = rowOf(
      1n,
      [col(TSDataType.INT32, Int32Array.from([0]), [1]), col(TSDataType.INT32, Int32Array.from([1]))],
      {
        index: new Map([
          ['a', 0],
          ['b', 1],
        ]),
      },
    );
    expect(r.getInt('a')).toBeNull();
    expect(r.isNull('a')).toBe(true);
    expect(r.isNull(3)).toBe(false);
    expect(r.isNull(1)).toBe(false); // the time column
    expect(r.values).toEqual([null, 1]);
  });

  it("getBlob reads a TEXT or STRING cell as its bytes, those that are not UTF-8 too (as Java's Field.getBinaryV)", () => {
    const notUtf8 = Buffer.from([0xff, 0x41]);
    const text: DecodedColumn = { ...col(TSDataType.TEXT, ['\uFFFDA']), rawText: new Map([[0, notUtf8]]) };
    const cells = rowOf(1n, [text, col(TSDataType.STRING, ['é\uFFFD']), col(TSDataType.TEXT, [null], [1])], {
      index: new Map([
        ['t', 0],
        ['s', 1],
        ['n', 2],
      ]),
    });
    expect(cells.getBlob('t')).toEqual(notUtf8);
    expect(cells.getString('t')).toBe('\uFFFDA'); // as Java's getString
    expect(cells.getBlob('s')).toEqual(Buffer.from('é\uFFFD', 'utf8'));
    expect(cells.getBlob(3)).toEqual(Buffer.from('é\uFFFD', 'utf8'));
    expect(cells.getBlob('n')).toBeNull();
    expect(() => cells.getBlob('Time')).toThrow(/getBlob\("Time"\): the column is TIMESTAMP/);
  });

  it('refuses a getter of the wrong type or a column that is not there with IoTDBValidationError', () => {
    expect(() => row.getInt('c0')).toThrow(/getInt\("c0"\): the column is BOOLEAN/);
    expect(() => row.getFloat('c4')).toThrow(IoTDBValidationError);
    expect(() => row.getBoolean(0)).toThrow(IoTDBValidationError);
    expect(() => row.getBoolean(12)).toThrow(IoTDBValidationError);
    expect(() => row.getLong('nope')).toThrow(IoTDBValidationError);
    expect(() => row.getInt(2.5)).toThrow(/no column 2.5 in this result \(1 to 11\)/);
  });
});
