import type { Clock } from './clock.js';

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
  ) {
    this.#due = firstDueNs;
  }

  /** Waits until the next operation is due (not at all when late) and returns when it was due, ns. */
  async next(): Promise<number> {
    const due = this.#due;
    this.#due += this.intervalNs;
    // timers run on a millisecond clock and may fire a little early: never start before due
    for (let now = this.clock.now(); now < due; now = this.clock.now()) await this.clock.sleep(due - now);
    return due;
  }
}

/** `--rate-limit`: a worker's writes spaced so that its points/s stays at `pointsPerS`. */
export class PointRateLimit {
  #nextAt = -Infinity;

  constructor(
    private readonly clock: Clock,
    private readonly pointsPerS: number,
  ) {}

  async wait(points: number): Promise<void> {
    if (this.pointsPerS <= 0) return;
    const now = this.clock.now();
    const at = Math.max(now, this.#nextAt);
    this.#nextAt = at + (points / this.pointsPerS) * 1e9;
    if (at > now) await this.clock.sleep(at - now);
  }
}
