import { PreciseTimer } from './precise-timer.js';

/** Time for the operation loop: the real one, or a test's, in which sleeping moves time forward. */
export interface Clock {
  /** monotonic, ns */
  now(): number;
  sleep(ns: number): Promise<void>;
}

const now = (): number => Number(process.hrtime.bigint());
const timer = new PreciseTimer(now);

export const realClock: Clock = {
  now,
  sleep: (ns) => timer.sleepUntil(now() + ns),
};
