import type { Clock } from './clock.js';

/** How often a wait for an operation's turn looks whether the run was stopped (Ctrl-C, --test-max-time). */
const STOP_CHECK_NS = 50e6;

/**
 * Sleeps until `at` on the clock, or until `ended()` (looked at every STOP_CHECK_NS): an operation waiting for
 * its turn does not hold up the end of a stopped run. Timers may fire a little early: never returns before `at`.
 */
async function sleepUntil(clock: Clock, at: number, ended: () => boolean): Promise<void> {
  for (let now = clock.now(); now < at && !ended(); now = clock.now())
    await clock.sleep(Math.min(at - now, STOP_CHECK_NS));
}

/**
 * Open loop (`--target-rate`): a client's operations are due at start, start + interval, ... whatever
 * the earlier ones took. Latency is then measured from when an operation was due, so that a stall counts
 * for every operation it delayed (coordinated omission corrected, as wrk2 and HdrHistogram do).
 */
export class OpenLoopSchedule {
  #due: number;

  constructor(
    private readonly clock: Clock,
    private readonly intervalNs: number,
    firstDueNs: number,
    private readonly ended: () => boolean,
  ) {
    this.#due = firstDueNs;
  }

  /** When the operation after the one next() last returned is due, ns. */
  get nextDue(): number {
    return this.#due;
  }

  /** Waits until the next operation is due (not at all when late, less when the run ends) and returns when it was due, ns. */
  async next(): Promise<number> {
    const due = this.#due;
    this.#due += this.intervalNs;
    await sleepUntil(this.clock, due, this.ended);
    return due;
  }
}

/**
 * Open loop: each client's (or statement session's) due time of its next operation, while it has operations left;
 * the earliest of them says how far behind its schedule a run is (the progress line's `behind`).
 */
export class NextDueTimes {
  readonly #due = new Map<number, number>();

  /** `id`'s next operation is due `at`, ns (undefined: it has none left). */
  set(id: number, at: number | undefined): void {
    if (at === undefined) this.#due.delete(id);
    else this.#due.set(id, at);
  }

  /** The earliest, ns; 0 when no one has an operation left. */
  earliest(): number {
    let earliest = 0;
    for (const due of this.#due.values()) if (earliest === 0 || due < earliest) earliest = due;
    return earliest;
  }
}

/** How long past due `dueNs` is at `nowNs`, ms: 0 when it is not yet due, or when there is none (0, as earliest()'s). */
export function overdueMs(dueNs: number, nowNs: number): number {
  return dueNs === 0 ? 0 : Math.max(0, (nowNs - dueNs) / 1e6);
}

/** `--rate-limit`: a worker's writes spaced so that its points/s stays at `pointsPerS`. */
export class PointRateLimit {
  #nextAt = -Infinity;

  constructor(
    private readonly clock: Clock,
    private readonly pointsPerS: number,
    private readonly ended: () => boolean,
  ) {}

  /** Waits for the turn of a write of `points` points (less when the run ends). */
  async wait(points: number): Promise<void> {
    if (this.pointsPerS <= 0) return;
    const at = Math.max(this.clock.now(), this.#nextAt);
    this.#nextAt = at + (points / this.pointsPerS) * 1e9;
    await sleepUntil(this.clock, at, this.ended);
  }
}

/**
 * `--batch-interval-ms`: a pause of `ms` between the end of one operation (`done`) and the start of the next
 * (`wait`); none before the first, nothing left to wait once the run ends.
 */
export class PauseBetween {
  #lastEnd: number | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly ms: number,
    private readonly ended: () => boolean,
  ) {}

  async wait(): Promise<void> {
    if (this.#lastEnd !== undefined && this.ms > 0)
      await sleepUntil(this.clock, this.#lastEnd + this.ms * 1e6, this.ended);
  }

  /** An operation ended at `at` (clock ns): the next one waits from there. */
  done(at: number): void {
    this.#lastEnd = at;
  }
}

/**
 * What paces one client's (or one statement session's) operations, met in this order before each: its open-loop
 * due time (--target-rate), the rate limit (--rate-limit), the pause after the operation before (--batch-interval-ms).
 */
interface Pacing {
  readonly schedule?: OpenLoopSchedule;
  readonly rateLimit?: PointRateLimit;
  readonly pause: PauseBetween;
}

/** Waits for the turn of an operation of `points` points; returns when it was due on the open loop, if it has one. */
export async function turn(p: Pacing, points: number): Promise<number | undefined> {
  const due = await p.schedule?.next();
  await p.rateLimit?.wait(points);
  await p.pause.wait();
  return due;
}

/**
 * An operation's latency, ns: from when it was due on the open loop (else from its start), and with a due time
 * the uncorrected one, from its start.
 */
export function latencies(
  due: number | undefined,
  startNs: number,
  endNs: number,
): { latencyNs: number; uncorrectedNs?: number } {
  return due === undefined
    ? { latencyNs: endNs - startNs }
    : { latencyNs: endNs - due, uncorrectedNs: endNs - startNs };
}
