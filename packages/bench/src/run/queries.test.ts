import { describe, expect, it } from 'vitest';
import { LatencyHistogram } from '../report/histogram.js';
import { noneSucceeded, timedRead } from './queries.js';

describe('timedRead', () => {
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
