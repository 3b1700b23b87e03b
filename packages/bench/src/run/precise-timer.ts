import { Worker } from 'node:worker_threads';

/** The deadline slot's value while no one sleeps. */
const NONE = -1n;

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
 * count as the server's; this timer's is 0.1-0.3 ms. One thread per event loop sleeps for the earliest sleeper,
 * and keeps the process alive while someone sleeps (no longer). Until the thread runs (it takes some 20 ms to
 * start), or should it stop, the event loop's own timer keeps time, to the millisecond.
 */
export class PreciseTimer {
  readonly #shared = new SharedArrayBuffer(16);
  readonly #deadline = new BigInt64Array(this.#shared, 0, 1);
  readonly #counters = new Int32Array(this.#shared, 8, 2);
  #thread: Worker | undefined;
  /** the thread is running: it keeps time (else the fallback timer does) */
  #threadRuns = false;
  /** by `at`, earliest first */
  readonly #sleepers: Sleeper[] = [];
  #fallback: NodeJS.Timeout | undefined;
  #listening = false;
  /** the thread's fired count the last wake handled */
  #handled = 0;
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

  /** How many sleepers the thread woke, and how many the fallback timer did (a thread that keeps time: few). */
  woken(): { thread: number; fallback: number } {
    return { ...this.#woken };
  }

  /** Sets the deadline to the earliest sleeper's, `at`: the thread's, or the fallback timer's while it does not run. */
  #arm(at: number): void {
    const thread = (this.#thread ??= this.#startThread());
    Atomics.store(this.#deadline, 0, BigInt(Math.ceil(at)));
    Atomics.add(this.#counters, 0, 1);
    Atomics.notify(this.#counters, 0);
    clearTimeout(this.#fallback);
    if (this.#threadRuns) thread.ref();
    else this.#fallback = setTimeout(() => this.#wake('fallback'), (at - this.now()) / 1e6);
    if (!this.#listening) void this.#listen();
  }

  /**
   * Wakes the sleepers whenever the thread fires, until none is left. It waits for the fired count to move from the
   * one it last handled, not from the count it reads when it waits: the thread may fire again between a wake's
   * re-arming and the next wait, and that fire would be lost (the sleepers then waiting for ever).
   */
  async #listen(): Promise<void> {
    this.#listening = true;
    while (this.#sleepers.length > 0) {
      const wait = Atomics.waitAsync(this.#counters, 1, this.#handled);
      if (wait.async) await wait.value;
      this.#handled = Atomics.load(this.#counters, 1);
      this.#wake('thread');
    }
    this.#listening = false;
  }

  /** Wakes the sleepers whose time has come; arms for the next one. */
  #wake(by: 'thread' | 'fallback'): void {
    const now = this.now();
    let due = 0;
    while (due < this.#sleepers.length && this.#sleepers[due].at <= now) due++;
    this.#woken[by] += due;
    for (const s of this.#sleepers.splice(0, due)) s.wake();
    if (this.#sleepers.length > 0) return this.#arm(this.#sleepers[0].at);
    Atomics.store(this.#deadline, 0, NONE);
    clearTimeout(this.#fallback);
    this.#thread?.unref();
  }

  #startThread(): Worker {
    const thread = new Worker(THREAD, { eval: true, workerData: this.#shared });
    thread.unref(); // referenced only while someone sleeps
    // from now on the thread keeps time; should it ever stop, the fallback timer does again
    const keeper = (runs: boolean) => () => {
      this.#threadRuns = runs;
      if (this.#sleepers.length > 0) this.#arm(this.#sleepers[0].at);
    };
    thread.on('online', keeper(true));
    thread.on('exit', keeper(false));
    thread.on('error', () => undefined);
    return thread;
  }
}
