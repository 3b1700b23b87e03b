import { describe, expect, it } from 'vitest';
import { NextDueTimes } from './pacing.js';
import { runStatementSessions, type ReadDone, type StatementPacing } from './statement-sessions.js';
import { SimulatedClock } from './test-fixture.js';

const MS = 1e6;

/**
 * Runs the sessions on simulated time, each read taking `readMs(n)` (n: the reads so far); the reads, the statements
 * read in that order and the time taken. `shape.shares`: each session's statements (default: every one `q`).
 */
async function run(
  shape: { concurrency: number; repetitions: number; shares?: string[][] },
  pacing: Partial<StatementPacing>,
  readMs: (n: number) => number,
  stopAtMs = Infinity,
  nextDue?: NextDueTimes,
) {
  const clock = new SimulatedClock();
  const t0 = clock.now();
  const reads: ReadDone[] = [];
  const statements: string[] = [];
  let n = 0;
  let stopped = false;
  if (stopAtMs < Infinity) void clock.sleep(stopAtMs * MS).then(() => (stopped = true));
  const read = async (sql: string) => {
    statements.push(sql);
    await clock.sleep(readMs(n++) * MS);
    return { rows: 7, points: 14 };
  };
  const shares = shape.shares ?? Array.from({ length: shape.concurrency }, () => ['q']);
  await clock.drive(
    runStatementSessions(
      { shares, repetitions: shape.repetitions, read, done: (d) => reads.push(d), nextDue },
      { targetRate: 0, pauseMs: 0, ...pacing },
      clock,
      () => stopped,
    ),
  );
  return { reads, statements, ms: (clock.now() - t0) / MS };
}

describe('runStatementSessions: a query-file statement read by its sessions', () => {
  it('forEach: each session reads its share of the statements in order, repetitions times over', async () => {
    const shares = [['d0', 'd2'], ['d1']];
    const { reads, statements, ms } = await run({ concurrency: 2, repetitions: 2, shares }, {}, () => 10);
    expect(reads.map((r) => r.session)).toEqual([0, 1, 0, 1, 0, 0]);
    expect(statements).toEqual(['d0', 'd1', 'd2', 'd1', 'd0', 'd2']);
    expect(ms).toBe(40); // the session of two statements: 4 reads of 10 ms
  });

  it('closed loop: each session reads its repetitions one after another, latency the read itself', async () => {
    const { reads, ms } = await run({ concurrency: 2, repetitions: 3 }, {}, () => 10);
    expect(reads.map((r) => [r.session, r.latencyNs / MS, r.uncorrectedNs, r.rows])).toEqual([
      [0, 10, undefined, 7],
      [1, 10, undefined, 7],
      [0, 10, undefined, 7],
      [1, 10, undefined, 7],
      [0, 10, undefined, 7],
      [1, 10, undefined, 7],
    ]);
    expect(ms).toBe(30);
  });

  it('--target-rate: reads start on the schedule over all sessions, staggered; the run lasts count / rate', async () => {
    // 20 reads/s over 2 sessions: one every 50 ms in all, each session's every 100 ms; the last starts at 450 ms
    const { reads, ms } = await run({ concurrency: 2, repetitions: 5 }, { targetRate: 20 }, () => 10);
    expect(reads).toHaveLength(10);
    expect(reads.every((r) => r.latencyNs === 10 * MS && r.uncorrectedNs === 10 * MS)).toBe(true);
    expect(ms).toBe(460);
  });

  it('--target-rate: a slow server shows in the latency from the due time, not in the uncorrected', async () => {
    // 10 reads/s, each taking 250 ms: the n-th starts 150 ms x n late
    const { reads } = await run({ concurrency: 1, repetitions: 5 }, { targetRate: 10 }, () => 250);
    expect(reads.map((r) => r.latencyNs / MS)).toEqual([250, 400, 550, 700, 850]);
    expect(reads.map((r) => (r.uncorrectedNs ?? 0) / MS)).toEqual([250, 250, 250, 250, 250]);
  });

  it('--target-rate: tells each session’s next due time while it has reads left, none during its last', async () => {
    // 10 reads/s, 250 ms each: as each read starts, the next is due 100 ms after it was, however late it started
    const nextDue = new NextDueTimes();
    const seen: number[] = [];
    await run(
      { concurrency: 1, repetitions: 5 },
      { targetRate: 10 },
      () => (seen.push(nextDue.earliest()), 250),
      Infinity,
      nextDue,
    );
    const t0 = seen[0] - 100 * MS; // when the first read was due
    expect(seen.slice(0, 4).map((at) => (at - t0) / MS)).toEqual([100, 200, 300, 400]);
    expect(seen[4]).toBe(0); // the last read: none due behind it
    expect(nextDue.earliest()).toBe(0);
  });

  it('--batch-interval-ms: a pause between a session’s reads, none after the last', async () => {
    const { reads, ms } = await run({ concurrency: 1, repetitions: 3 }, { pauseMs: 1000 }, () => 10);
    expect(reads).toHaveLength(3);
    expect(ms).toBe(2030);
  });

  it('a stop starts no read and ends the waits for one', async () => {
    for (const pacing of [{ targetRate: 1 }, { pauseMs: 1000 }]) {
      const { reads, ms } = await run({ concurrency: 1, repetitions: 10 }, pacing, () => 10, 2500);
      expect(reads).toHaveLength(3);
      expect(ms).toBeLessThanOrEqual(2550);
    }
  });
});
