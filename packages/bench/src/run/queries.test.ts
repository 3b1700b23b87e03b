import { describe, expect, it } from 'vitest';
import { timedRead } from './queries.js';

describe('timedRead', () => {
  it('gives the error of a statement the server refuses instead of throwing it, with the time it took', async () => {
    const refused = await timedRead(() => Promise.reject(new Error('[701] UDF NOSUCH has not been registered')));
    expect(refused).toMatchObject({ rows: 0, error: '[701] UDF NOSUCH has not been registered' });
    expect(refused.ns).toBeGreaterThanOrEqual(0);
  });
});
