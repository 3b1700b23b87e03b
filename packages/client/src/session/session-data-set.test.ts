import { describe, expect, it } from 'vitest';
import { ByteWriter, TSDataType } from '@iotdb/fast-serializer';
import { SessionDataSet } from './session-data-set.js';

/** A TsBlock of one INT32 column (INT32_ARRAY, no nulls) with times 0..n-1, built by hand (protocol.md 6.1). */
function block(values: number[], firstTime: number): Buffer {
  const w = new ByteWriter(64);
  w.i32(1).i8(TSDataType.INT32).i32(values.length).i8(2).i8(1); // 1 column INT32, positions, encodings: time INT64_ARRAY, value INT32_ARRAY
  w.i8(0);
  values.forEach((_, i) => w.i64(firstTime + i));
  w.i8(0);
  for (const v of values) w.i32(v);
  return Buffer.from(w.view());
}

/** A data set over given blocks with no query id: nothing is sent to any server. */
function dataSet(blocks: Buffer[]): SessionDataSet {
  return new SessionDataSet(
    {
      connection: undefined as never,
      sessionId: 0n,
      statementId: 0n,
      sql: '',
      fetchSize: 10,
      timeoutMs: 0,
      int64As: 'bigint',
      timestampAs: 'bigint',
      precision: 'ms',
    },
    { status: { code: 200 }, columns: ['root.sg.d.s'], dataTypeList: ['INT32'], queryResult: blocks, moreData: false },
  );
}

describe('SessionDataSet without a server', () => {
  it('streams one columnar batch per block, rows in order', async () => {
    const ds = dataSet([block([1, 2, 3], 0), block([4, 5], 3)]);
    const got: number[][] = [];
    for await (const b of ds.batches()) got.push(Array.from(b.values[0] as Int32Array));
    expect(got).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    expect(ds.isClosed).toBe(true);
  });

  it('gives in batches only the rows the iterator has not read yet', async () => {
    const ds = dataSet([block([1, 2, 3], 0), block([4, 5], 3)]);
    expect((await ds.next()).values).toEqual([1]);
    const batches = [];
    for await (const b of ds.batches())
      batches.push({ times: Array.from(b.timestamps!), values: Array.from(b.values[0] as Int32Array) });
    expect(batches).toEqual([
      { times: [1n, 2n], values: [2, 3] },
      { times: [3n, 4n], values: [4, 5] },
    ]);
  });

  it('joins every block into one columnar result', async () => {
    const c = await dataSet([block([1, 2], 0), block([3], 2)]).toColumnar();
    expect(c.rowCount).toBe(3);
    expect(Array.from(c.values[0] as Int32Array)).toEqual([1, 2, 3]);
    expect(Array.from(c.timestamps!)).toEqual([0n, 1n, 2n]);
  });
});
