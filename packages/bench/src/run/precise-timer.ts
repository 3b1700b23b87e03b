import { Worker } from 'node:worker_threads';

/** The deadline slot's value while no one sleeps. */
const NONE = -1n;
/** How long after a deadline the event loop's own timer wakes its sleepers if the running thread has not (ms). */
const FALLBACK_MS = 2;

/*
 * The thread that keeps time (an eval'd script, CommonJS or ES module as the process runs them: hence the
 * dynamic import): it waits on the deadline slot's change counter until the deadline (Atomics.wait
 * takes a fractional timeout, kept to tens of microseconds by the OS), then clears the deadline and bumps the
 * fired counter, which wakes the event loop's Atomics.waitAsync. Shared: [deadline ns (BigInt64)][changes, fired (Int32)].
 */
const THREAD = `
import('node:worker_threads').then(({ workerData: shared }) => {
  const deadline = new BigInt64Array(shared, 0, 1), counters = new Int32Array(shared, 8, 2);
  for (;;) {
    const changes = Atomics.load(counters, 0), at = Atomics.load(deadline, 0);
    const left = at < 0n ? Infinity : Number(at - process.hrtime.bigint()) / 1e6;
    if (left > 0) Atomics.wait(counters, 0, changes, left);
    else if (Atomics.compareExchange(deadline, 0, at, ${NONE}n) === at) {
      Atomics.add(counters, 1, 1);
      Atomics.notify(counters, 1);
    }
  }
});`;

interface Sleeper {
  readonly at: number;
  readonly wake: () => void;
}

/**
 * Sleeps to the microsecond where setTimeout keeps to the millisecond: an open-loop schedule (--target-rate)
 * timed by setTimeout starts its operations 0.1-1.3 ms late (p50 0.65 ms), a lag every corrected latency would
 * count as the server's; this timer's is 0.1-0.3 ms. One thread per event loop sleeps for the earliest sleeper.
 * The event loop's own timer keeps the process alive while someone sleeps and wakes the sleepers should the
 * thread be late (FALLBACK_MS after the deadline), not started yet or stopped (at the deadline).
 */
export class PreciseTimer {
  readonly #shared = new SharedArrayBuffer(16);
  readonly #deadline = new BigInt64Array(this.#shared, 0, 1);
  readonly #counters = new Int32Array(this.#shared, 8, 2);
  #threadStarted = false;
  /** by `at`, earliest first */
  readonly #sleepers: Sleeper[] = [];
  /** the thread is running (else the fallback timer keeps time alone, at the deadline) */
  #threadRuns = false;
  #fallback: NodeJS.Timeout | undefined;
  #listening = false;
  /** sleepers woken by the thread, and by the fallback timer */
  #woken = { thread: 0, fallback: 0 };

  constructor(private readonly now: () => number) {
    this.#deadline[0] = NONE;
  }

  /** Resolves once `now()` has reached `at` (ns), never before. */
  sleepUntil(at: number): Promise<void> {
    if (this.now() >= at) return Promise.resolve();
    return new Promise((wake) => {
      const i = this.#sleepers.findIndex((s) => s.at > at);
      this.#sleepers.splice(i < 0 ? this.#sleepers.length : i, 0, { at, wake });
      if (this.#sleepers[0].at === at) this.#arm(at);
    });
  }

  /** Sets the thread's and the fallback's deadline to the earliest sleeper's, `at`. */
  #arm(at: number): void {
    if (!this.#threadStarted) this.#startThread();
    Atomics.store(this.#deadline, 0, BigInt(Math.ceil(at)));
    Atomics.add(this.#counters, 0, 1);
    Atomics.notify(this.#counters, 0);
    clearTimeout(this.#fallback);
    const afterMs = this.#threadRuns ? FALLBACK_MS : 0;
    this.#fallback = setTimeout(() => this.#wake('fallback'), (at - this.now()) / 1e6 + afterMs);
    if (!this.#listening) void this.#listen();
  }

  /** Wakes the sleepers whenever the thread fires, until none is left. */
  async #listen(): Promise<void> {
    this.#listening = true;
    while (this.#sleepers.length > 0) {
      const wait = Atomics.waitAsync(this.#counters, 1, Atomics.load(this.#counters, 1));
      if (wait.async) await wait.value;
      this.#wake('thread');
    }
    this.#listening = false;
  }

  /** How many sleepers the thread woke, and how many the fallback timer did (a thread that keeps time: few). */
  woken(): { thread: number; fallback: number } {
    return { ...this.#woken };
  }

  /** Wakes the sleepers whose time has come; arms for the next one. */
  #wake(by: 'thread' | 'fallback'): void {
    const now = this.now();
    let due = 0;
    while (due < this.#sleepers.length && this.#sleepers[due].at <= now) due++;
    this.#woken[by] += due;
    for (const s of this.#sleepers.splice(0, due)) s.wake();
    if (this.#sleepers.length > 0) this.#arm(this.#sleepers[0].at);
    else {
      clearTimeout(this.#fallback);
      Atomics.store(this.#deadline, 0, NONE);
    }
  }

  #startThread(): void {
    this.#threadStarted = true;
    const thread = new Worker(THREAD, { eval: true, workerData: this.#shared });
    thread.unref(); // a waiting thread does not keep the process alive: the fallback timer does
    thread.on('online', () => (this.#threadRuns = true));
    // should it ever stop, the fallback timer keeps time (to the millisecond, as before)
    thread.on('exit', () => (this.#threadRuns = false));
    thread.on('error', () => undefined);
  }
}
