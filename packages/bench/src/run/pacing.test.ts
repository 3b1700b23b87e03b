import { describe, expect, it } from 'vitest';
import type { Clock } from './clock.js';
import { NextDueTimes, OpenLoopSchedule, PauseBetween, PointRateLimit, latencies, turn } from './pacing.js';

/** A clock whose timers fire `early` ns before they are due, as a millisecond timer may. */
function earlyClock(early: number): Clock & { at: number } {
  const clock = {
    at: 0,
    now: () => clock.at,
    sleep: (ns: number) => {
      clock.at += Math.max(1, ns - early);
      return Promise.resolve();
    },
  };
  return clock;
}

describe('OpenLoopSchedule', () => {
  it('hands out due times one interval apart, and never returns before the time is due', async () => {
    const clock = earlyClock(300_000);
    const schedule = new OpenLoopSchedule(clock, 1_000_000, 5_000_000, () => false);
    for (const due of [5_000_000, 6_000_000, 7_000_000]) {
      expect(await schedule.next()).toBe(due);
      expect(clock.now()).toBeGreaterThanOrEqual(due);
    }
  });

  it('does not wait when late: the due time stays where the schedule put it', async () => {
    const clock = earlyClock(0);
    const schedule = new OpenLoopSchedule(clock, 1_000_000, 0, () => false);
    clock.at = 10_500_000; // an operation took 10.5 ms
    expect([await schedule.next(), await schedule.next()]).toEqual([0, 1_000_000]);
    expect(clock.now()).toBe(10_500_000);
  });

  it('stops waiting soon after the run ends: a far due time does not hold up a stopped run', async () => {
    const clock = earlyClock(0);
    const schedule = new OpenLoopSchedule(clock, 60e9, 60e9, () => clock.at >= 1e9); // due in a minute, stopped at 1 s
    await schedule.next();
    expect(clock.now()).toBeLessThan(1.1e9);
  });
});

describe('turn', () => {
  it('waits until the due time, the rate limit and the pause after the operation before all allow; returns the due time', async () => {
    const clock = earlyClock(0);
    const never = () => false;
    const pacing = {
      schedule: new OpenLoopSchedule(clock, 1e9, 2e9, never), // due at 2 s
      rateLimit: new PointRateLimit(clock, 1000, never), // 1000 points a second
      pause: new PauseBetween(clock, 500, never), // 0.5 s after the operation before
    };
    expect(await turn(pacing, 1000)).toBe(2e9);
    expect(clock.now()).toBe(2e9); // the first write: no limit yet, no operation before
    pacing.pause.done(clock.now());
    // due at 3 s; the limit lets the next 1000 points go at 3 s (1 s after the first); the pause ended at 2.5 s
    expect(await turn(pacing, 1000)).toBe(3e9);
    expect(clock.now()).toBe(3e9);
    pacing.pause.done(3.9e9); // the operation took 0.9 s: the pause holds the next one to 4.4 s
    expect(await turn(pacing, 1000)).toBe(4e9);
    expect(clock.now()).toBe(4.4e9);
  });

  it('without a schedule, returns no due time; latencies then count from the start only', async () => {
    const clock = earlyClock(0);
    expect(await turn({ pause: new PauseBetween(clock, 0, () => false) }, 10)).toBeUndefined();
    expect(latencies(undefined, 5, 12)).toEqual({ latencyNs: 7 });
    expect(latencies(1, 5, 12)).toEqual({ latencyNs: 11, uncorrectedNs: 7 });
  });
});

describe('NextDueTimes', () => {
  it('gives the earliest next due time of those with operations left, 0 once none has', () => {
    const due = new NextDueTimes();
    expect(due.earliest()).toBe(0);
    due.set(1, 300);
    due.set(2, 200);
    expect(due.earliest()).toBe(200);
    due.set(2, 400); // client 2 went on to its next operation
    expect(due.earliest()).toBe(300);
    due.set(1, undefined);
    due.set(2, undefined);
    expect(due.earliest()).toBe(0);
  });
});
