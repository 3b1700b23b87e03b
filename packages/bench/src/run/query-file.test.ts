import { describe, expect, it } from 'vitest';
import { StatementTally, readOnly } from './query-file.js';

describe('StatementTally', () => {
  it("counts a session's time spent in its reads from their start, not from when they were due (open loop)", () => {
    const tally = new StatementTally('q', 2);
    // session 0's reads each took 100 ms, due 400 ms before they ended: the server fell behind the rate
    tally.done({ session: 0, latencyNs: 400e6, uncorrectedNs: 100e6, rows: 1 });
    tally.done({ session: 0, latencyNs: 500e6, uncorrectedNs: 100e6, rows: 1, error: 'refused' });
    // closed loop: the latency is the time spent
    tally.done({ session: 1, latencyNs: 150e6, rows: 1 });
    expect(tally.sessionNs).toEqual([200e6, 150e6]);
    expect(tally.ok.summaryMs().max).toBeCloseTo(400, -1);
  });
});

describe('readOnly', () => {
  it('takes the statements that only read, and no statement that changes something', () => {
    for (const sql of [
      'SELECT 1',
      '  select * from t',
      'SHOW DATABASES',
      'count timeseries root.**',
      'EXPLAIN SELECT 1',
    ])
      expect(readOnly(sql), sql).toBe(true);
    for (const sql of ['INSERT INTO root.a.b(time, s) VALUES (1, 1)', 'FLUSH', 'CREATE DATABASE root.x', 'selected'])
      expect(readOnly(sql), sql).toBe(false);
  });
});
