import { describe, expect, it } from 'vitest';
import type { Clock } from './clock.js';
import { OpenLoopSchedule } from './pacing.js';

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
