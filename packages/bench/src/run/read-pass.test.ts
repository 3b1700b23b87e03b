import { describe, expect, it } from 'vitest';
import { SessionDataSet } from '@iotdb/client';
import { anchorQueryReply, noServerContext } from '../workload/anchor-reply.js';
import { readRows } from './read-pass.js';

describe('readRows', () => {
  it("reads every value of every row, as the Java client's reads do: its rows and the values not null", async () => {
    // 30 rows of 10 columns, a third of each column's cells null
    const { block, reply } = anchorQueryReply(30, 10, 3);
    const ds = new SessionDataSet(noServerContext(30), { ...reply, queryResult: [block] });
    expect(await readRows(ds)).toEqual({ rows: 30, points: 200 });
  });
});
