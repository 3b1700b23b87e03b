import { Worker } from 'node:worker_threads';

/** The deadline slot's value while no one sleeps. */
const NONE = -1n;
/**
 * The event loop hears the thread tens to hundreds of microseconds after it fires (the wake of a thread, a task
 * posted to the loop): the thread fires that lead early, and the loop waits out what is left, aiming to be this
 * early (ns), so that a deadline is met on time rather than by the lead late.
 */
const AIM_EARLY_NS = 20_000;
/** The most the lead moves after one wake (ns): a pause of the event loop (a collection) hardly moves it. */
const LEAD_STEP_NS = 200_000;
/** The lead's bound (ns): the most the event loop ever waits on the CPU for a deadline. */
const MAX_LEAD_NS = 1_000_000;

/*
 * The thread that keeps time (an eval'd script, CommonJS or ES module as the process runs them: hence the
 * dynamic import). Shared: [the earliest sleeper's deadline, the next one's, the deadline the thread waits for, the
 * lead, the deadline last fired (ns, BigInt64, -1 for none)][changes, fired (Int32)]. It waits on the change counter
 * until the lead before the earlier of the two deadlines it has not fired yet (Atomics.wait takes a fractional
 * timeout, kept to tens of microseconds by the OS), then bumps the fired counter, which wakes the event loop's
 * Atomics.waitAsync, and goes on to the next deadline without being told: with several sleepers the event loop
 * seldom has to wake it.
 */
const THREAD = `
import('node:worker_threads').then(({ workerData: shared }) => {
  const slots = new BigInt64Array(shared, 0, 5), counters = new Int32Array(shared, 40, 2);
  let fired = -1n;
  for (;;) {
    const changes = Atomics.load(counters, 0);
    let at = ${NONE}n;
    for (let i = 0; i < 2; i++) {
      const d = Atomics.load(slots, i);
      if (d > fired && (at < 0n || d < at)) at = d;
    }
    Atomics.store(slots, 2, at);
    const left = at < 0n ? Infinity : Number(at - Atomics.load(slots, 3) - process.hrtime.bigint()) / 1e6;
    if (left > 0) Atomics.wait(counters, 0, changes, left);
    else {
      fired = at;
      Atomics.store(slots, 4, at);
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
 * count as the server's; this timer's is some 10-60 us at the median. One thread per event loop sleeps for the
 * earliest sleepers, firing a learnt lead ahead of them, the event loop waits out the rest on the CPU (some 20-40
 * us a deadline), and the thread keeps the process alive while someone sleeps (no longer). Until the thread runs
 * (it takes some 20 ms to start), or should it stop, the event loop's own timer keeps time, to the millisecond.
 */
export class PreciseTimer {
  readonly #shared = new SharedArrayBuffer(48);
  /** the two earliest sleepers' deadlines, the one the thread waits for, how early it fires, the one it last fired */
  readonly #slots = new BigInt64Array(this.#shared, 0, 5);
  readonly #counters = new Int32Array(this.#shared, 40, 2);
  /** how long before a deadline the thread fires, ns (learnt: see AIM_EARLY_NS) */
  #leadNs = 0;
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

  /** `leadNs`: how long before a deadline the thread fires until it has learnt how long the event loop takes. */
  constructor(leadNs = 0) {
    this.#slots.fill(NONE);
    this.#leadNs = leadNs;
    this.#slots[3] = BigInt(leadNs);
  }

  /** The thread's clock: process.hrtime, ns. */
  now(): number {
    return Number(process.hrtime.bigint());
  }

  /** Resolves once `now()` has reached `at` (ns), never before. */
  sleepUntil(at: number): Promise<void> {
    if (this.now() >= at) return Promise.resolve();
    return new Promise((wake) => {
      const later = this.#sleepers.findIndex((s) => s.at > at);
      const place = later < 0 ? this.#sleepers.length : later;
      this.#sleepers.splice(place, 0, { at, wake });
      if (place < 2) this.#arm(); // one of the two deadlines the thread holds
    });
  }

  /** How many sleepers the thread woke, and how many the fallback timer did (a thread that keeps time: few). */
  woken(): { thread: number; fallback: number } {
    return { ...this.#woken };
  }

  /** How long before a deadline the thread fires, ns. */
  leadNs(): number {
    return this.#leadNs;
  }

  /**
   * Gives the thread the two earliest sleepers' deadlines (or the fallback timer the earliest, while the thread does
   * not run). The change counter always moves, so that a thread about to wait on what it read before looks again;
   * the thread is woken only when it waits for another deadline than the earliest.
   */
  #arm(): void {
    const thread = (this.#thread ??= this.#startThread());
    const [first, second] = this.#sleepers;
    const earliest = BigInt(Math.ceil(first.at));
    Atomics.store(this.#slots, 0, earliest);
    Atomics.store(this.#slots, 1, second === undefined ? NONE : BigInt(Math.ceil(second.at)));
    Atomics.add(this.#counters, 0, 1);
    if (Atomics.load(this.#slots, 2) !== earliest) Atomics.notify(this.#counters, 0);
    clearTimeout(this.#fallback);
    if (this.#threadRuns) thread.ref();
    // a time already passed is due at once (Node 24 warns of a negative delay)
    else this.#fallback = setTimeout(() => this.#wake('fallback'), Math.max(0, (first.at - this.now()) / 1e6));
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
    if (by === 'thread') this.#waitOutLead();
    const now = this.now();
    let due = 0;
    while (due < this.#sleepers.length && this.#sleepers[due].at <= now) due++;
    this.#woken[by] += due;
    for (const s of this.#sleepers.splice(0, due)) s.wake();
    if (this.#sleepers.length > 0) return this.#arm();
    Atomics.store(this.#slots, 0, NONE);
    Atomics.store(this.#slots, 1, NONE);
    clearTimeout(this.#fallback);
    this.#thread?.unref();
  }

  /**
   * Woken by the thread, which fires the lead before a deadline: waits on the CPU until the deadline it last fired
   * (every sleeper it fired for is then due; no longer than the lead), and moves the lead by how early the wake
   * came against AIM_EARLY_NS.
   */
  #waitOutLead(): void {
    const fired = Number(Atomics.load(this.#slots, 4));
    let now = this.now();
    const early = fired - now;
    const step = Math.max(-LEAD_STEP_NS, Math.min(LEAD_STEP_NS, AIM_EARLY_NS - early));
    this.#leadNs = Math.max(0, Math.min(MAX_LEAD_NS, this.#leadNs + step / 8));
    Atomics.store(this.#slots, 3, BigInt(Math.round(this.#leadNs)));
    while (now < fired) now = this.now();
  }

  #startThread(): Worker {
    const thread = new Worker(THREAD, { eval: true, workerData: this.#shared });
    thread.unref(); // referenced only while someone sleeps
    // from now on the thread keeps time; should it ever stop, the fallback timer does again
    const keeper = (runs: boolean) => () => {
      this.#threadRuns = runs;
      if (this.#sleepers.length > 0) this.#arm();
    };
    thread.on('online', keeper(true));
    thread.on('exit', keeper(false));
    thread.on('error', () => undefined);
    return thread;
  }
}
