import type { Clock } from './clock.js';

/**
 * The start of the timed phase, shared by the workers through an Int32Array: [0] counts the workers whose
 * clients are all past warm-up, [1] = 1 aborts the run. Timing starts when every worker has arrived.
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

  get aborted(): boolean {
    return Atomics.load(this.#shared, 1) === 1;
  }

  abort(): void {
    Atomics.store(this.#shared, 1, 1);
    Atomics.notify(this.#shared, 0);
  }

  /** Resolves when every client of every worker has arrived (or the run is aborted). */
  async arrive(): Promise<void> {
    if (++this.#arrived === this.clients) {
      Atomics.add(this.#shared, 0, 1);
      Atomics.notify(this.#shared, 0);
      for (
        let n = Atomics.load(this.#shared, 0);
        n < this.workers && !this.aborted;
        n = Atomics.load(this.#shared, 0)
      ) {
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
