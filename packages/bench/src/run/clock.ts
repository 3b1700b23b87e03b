import { PreciseTimer } from './precise-timer.js';

/** Time for the operation loop: the real one, or a test's, in which sleeping moves time forward. */
export interface Clock {
  /** monotonic, ns */
  now(): number;
  sleep(ns: number): Promise<void>;
}

const timer = new PreciseTimer();

/** process.hrtime, the clock the timer's thread keeps. */
export const realClock: Clock = {
  now: () => timer.now(),
  sleep: (ns) => timer.sleepUntil(timer.now() + ns),
};
