import { describe, expect, it } from 'vitest';
import type { SessionDataSet } from '@iotdb/client';
import { LatencyHistogram } from '../report/histogram.js';
import { noneSucceeded, timedRead } from './queries.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('timedRead', () => {
  it('times the statement from its call to its last row: the reply awaited and every row read', async () => {
    // a reply after 30 ms, whose one row comes 30 ms later
    const slowRows = async function* () {
      await sleep(30);
      yield { values: [1, null, 2] };
    };
    const execute = async () => {
      await sleep(30);
      return slowRows() as unknown as SessionDataSet;
    };
    const read = await timedRead(execute);
    expect(read).toMatchObject({ rows: 1, points: 2 });
    expect(read.ns).toBeGreaterThanOrEqual(55e6); // timers may fire a little early, never 5 ms
  });

  it('gives the error of a statement the server refuses instead of throwing it, with the time it took', async () => {
    const refused = await timedRead(() => Promise.reject(new Error('[701] UDF NOSUCH has not been registered')));
    expect(refused).toMatchObject({ rows: 0, points: 0, error: '[701] UDF NOSUCH has not been registered' });
    expect(refused.ns).toBeGreaterThanOrEqual(0);
  });
});

describe('noneSucceeded', () => {
  const type = (ops: number, failed: number) => ({
    ops,
    failed,
    rows: 0,
    rowsPerS: 0,
    latency: new LatencyHistogram().summaryMs(),
  });
  it('is true when a query type ran and every statement of it failed', () => {
    expect(noneSucceeded({ AGG_RANGE: type(0, 2), TIME_RANGE: type(2, 0) })).toBe(true);
  });
  it('is false when every type read something, or nothing ran', () => {
    expect(noneSucceeded({ AGG_RANGE: type(1, 1), TIME_RANGE: type(2, 0) })).toBe(false);
    expect(noneSucceeded({ AGG_RANGE: type(0, 0) })).toBe(false);
    expect(noneSucceeded(undefined)).toBe(false);
  });
});
