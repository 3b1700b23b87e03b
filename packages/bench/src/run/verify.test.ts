import { describe, expect, it } from 'vitest';
import { sampleConfig } from '../report/test-fixture.js';
import { verifyPoints } from './verify.js';

describe('verify', () => {
  it('says why it could not read the points back, instead of ending the run and losing its figures', async () => {
    // nothing listens on port 1: the count cannot be read (as after a fault, when the server is not back yet)
    const v = await verifyPoints(sampleConfig({ retryMaxMs: 0 }), '127.0.0.1', 1, 2_501_000);
    expect(v).toMatchObject({ expected: 2_501_000, ok: false });
    expect('error' in v && v.error).toMatch(/ECONNREFUSED|connect/i);
    expect(v).not.toHaveProperty('actual'); // nothing read back: no count to show
  });
});
