import type { Clock } from './clock.js';

/**
 * [1] of the shared Int32Array: the run goes on, a worker failed, it was stopped (Ctrl-C, --test-max-time), or an
 * operation reached no node for its whole retry budget.
 */
const RUNNING = 0;
const ABORTED = 1;
const STOPPED = 2;
const UNREACHABLE = 3;

/**
 * The start of the timed phase, shared by the workers through an Int32Array: [0] counts the workers whose
 * clients are all past warm-up, [1] says whether the run goes on (RUNNING, ABORTED, STOPPED). Timing starts
 * when every worker has arrived.
 */
export class StartBarrier {
  readonly #shared: Int32Array;
  #arrived = 0;
  #release!: () => void;
  readonly #released = new Promise<void>((resolve) => (this.#release = resolve));
  timed = false;
  /** when timing started, ms on the clock */
  timedStartMs = 0;

  constructor(
    shared: SharedArrayBuffer,
    private readonly workers: number,
    private readonly clients: number,
    private readonly clock: Clock,
  ) {
    this.#shared = new Int32Array(shared);
  }

  /**
   * Stops a run from outside its workers (the main thread): no operation starts after it, those in flight
   * finish. A run that already ended (a worker failed) stays as it is.
   */
  static stop(shared: Int32Array): void {
    Atomics.compareExchange(shared, 1, RUNNING, STOPPED);
    Atomics.notify(shared, 0);
  }

  /** Whether the run ended because an operation reached no node (`unreachable()`), read by the main thread. */
  static unreachable(shared: Int32Array): boolean {
    return Atomics.load(shared, 1) === UNREACHABLE;
  }

  /** a worker failed, or the run was stopped: start no more operations */
  get ended(): boolean {
    return Atomics.load(this.#shared, 1) !== RUNNING;
  }

  /** An operation reached no node for its whole retry budget: the others would spend theirs alike; none starts. */
  unreachable(): void {
    Atomics.compareExchange(this.#shared, 1, RUNNING, UNREACHABLE);
    Atomics.notify(this.#shared, 0);
  }

  abort(): void {
    Atomics.compareExchange(this.#shared, 1, RUNNING, ABORTED);
    Atomics.notify(this.#shared, 0);
  }

  /** Resolves when every client of every worker has arrived (or the run has ended). */
  async arrive(): Promise<void> {
    if (++this.#arrived === this.clients) {
      Atomics.add(this.#shared, 0, 1);
      Atomics.notify(this.#shared, 0);
      for (let n = Atomics.load(this.#shared, 0); n < this.workers && !this.ended; n = Atomics.load(this.#shared, 0)) {
        const w = Atomics.waitAsync(this.#shared, 0, n, 1000);
        if (w.async) await w.value;
      }
      this.timed = true;
      this.timedStartMs = this.clock.now() / 1e6;
      this.#release();
    }
    await this.#released;
  }
}
