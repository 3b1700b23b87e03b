import { describe, expect, it } from 'vitest';
import { StatementTally } from './query-file.js';

describe('StatementTally', () => {
  it("counts a session's time spent in its reads from their start, not from when they were due (open loop)", () => {
    const tally = new StatementTally('q', 2, 1000);
    // session 0's reads each took 100 ms, due 400 ms before they ended: the server fell behind the rate
    tally.done({ session: 0, latencyNs: 400e6, uncorrectedNs: 100e6, rows: 1, points: 2 });
    tally.done({ session: 0, latencyNs: 500e6, uncorrectedNs: 100e6, rows: 0, points: 0, error: 'refused' });
    // closed loop: the latency is the time spent
    tally.done({ session: 1, latencyNs: 150e6, rows: 1, points: 3 });
    expect(tally.sessionNs).toEqual([200e6, 150e6]);
    expect(tally.ok.summaryMs().max).toBeCloseTo(400, -1);
    expect([tally.rows, tally.points]).toEqual([2, 5]);
  });

  it('keeps how late each paced read started, failed ones too, in a start lag row; none in a closed loop', () => {
    const tally = new StatementTally('q', 1, 1000);
    tally.done({ session: 0, latencyNs: 400e6, uncorrectedNs: 100e6, rows: 1, points: 2 });
    tally.done({ session: 0, latencyNs: 500e6, uncorrectedNs: 100e6, rows: 0, points: 0, error: 'refused' });
    const lag = tally.histograms()['start lag'];
    expect([lag.count, lag.min, lag.max]).toEqual([2, 300e6, 400e6]);
    const closed = new StatementTally('q', 1, 1000);
    closed.done({ session: 0, latencyNs: 150e6, rows: 1, points: 3 });
    expect(Object.keys(closed.histograms())).toEqual(['q']);
  });

  it('counts the reads that succeeded in the interval they ended in, from the start of the timed reads, failures apart', () => {
    const tally = new StatementTally('q', 1, 60_000);
    tally.timedPhaseStarts();
    tally.done({ session: 0, latencyNs: 4e6, rows: 1, points: 1 });
    tally.done({ session: 0, latencyNs: 6e6, rows: 1, points: 1 });
    tally.done({ session: 0, latencyNs: 9e6, rows: 0, points: 0, error: 'refused' });
    const [[interval, data]] = tally.overTime.data();
    expect([interval, data.count, data.max]).toEqual([0, 2, 6e6]);
    expect(tally.overTime.failures()).toEqual([[0, 1]]); // the refused one apart
  });
});
