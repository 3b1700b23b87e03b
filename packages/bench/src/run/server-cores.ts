import type { ServerCpuSpent } from '../types.js';

/**
 * The server's cores busy over each report interval of a timed phase (--server-pid), from its CPU since the phase
 * started (`spentSinceStart`: a serverCpuWindow): the samples report.html draws beside throughput or reads, on the
 * main thread's own timer. A process gone ends the samples; those before it stand.
 */
export class ServerCoresSampler {
  /** [seconds since the start, the server's cores busy over the interval before] */
  readonly samples: [number, number][] = [];
  readonly #spentSinceStart: () => ServerCpuSpent;
  readonly #startedAt: number;
  #lastAt: number;
  /** the server's CPU seconds at the last sample; undefined once a process is gone */
  #lastS: number | undefined = 0;

  constructor(spentSinceStart: () => ServerCpuSpent, startedAt = performance.now()) {
    this.#spentSinceStart = spentSinceStart;
    this.#startedAt = startedAt;
    this.#lastAt = startedAt;
  }

  /** Samples the interval since the last sample, ending `now`; returns the server's CPU since the start. */
  sample(now = performance.now()): ServerCpuSpent {
    const spent = this.#spentSinceStart();
    if (this.#lastS === undefined || now <= this.#lastAt) return spent;
    if ('error' in spent) {
      this.#lastS = undefined;
      return spent;
    }
    const cores = (spent.seconds - this.#lastS) / ((now - this.#lastAt) / 1000);
    this.samples.push([(now - this.#startedAt) / 1000, cores]);
    this.#lastS = spent.seconds;
    this.#lastAt = now;
    return spent;
  }

  /** The server's CPU since the start, sampling nothing. */
  spent(): ServerCpuSpent {
    return this.#spentSinceStart();
  }
}
