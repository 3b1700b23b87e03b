import { endpointKey, type Endpoint } from './endpoint.js';

/**
 * The DataNodes a session's queries take turns on: `nodeUrls` at first, then the cluster's own list
 * (SHOW DATANODES, learnt again every `refreshMs`) once it has one. Each query goes to the next node
 * in turn that `isAvailable` (not quarantined), as the Java Session's round-robin query policy does.
 * A pool's sessions share one; each pool or session of its own starts at a random place, so that
 * processes started together do not all call the same node first.
 */
export class QueryNodes {
  #nodes: readonly Endpoint[];
  #turn: number;
  #learntAt = -Infinity;
  #learning = false;
  readonly #refreshMs: number;

  constructor(seeds: readonly Endpoint[], refreshMs: number, start = Math.floor(Math.random() * 1024)) {
    this.#nodes = seeds;
    this.#turn = start;
    this.#refreshMs = refreshMs;
  }

  /** 'host:port' of every node in the turn. */
  get keys(): string[] {
    return this.#nodes.map(endpointKey);
  }

  /** The nodes in the turn. */
  get endpoints(): readonly Endpoint[] {
    return this.#nodes;
  }

  /** The next node in turn that is available; undefined when none is. */
  next(isAvailable: (e: Endpoint) => boolean): Endpoint | undefined {
    const n = this.#nodes.length;
    for (let k = 0; k < n; k++) {
      const e = this.#nodes[this.#turn++ % n];
      if (isAvailable(e)) return e;
    }
    return undefined;
  }

  /** Time to ask the cluster for its DataNodes again (and nobody is asking now): marks the asking begun. */
  startLearning(now: number): boolean {
    if (this.#learning || now - this.#learntAt < this.#refreshMs) return false;
    this.#learning = true;
    this.#learntAt = now;
    return true;
  }

  /** The asking was cut short (its session closed): the next query may ask again at once. */
  abandoned(): void {
    this.#learning = false;
    this.#learntAt = -Infinity;
  }

  /** The asking ended: `nodes` is the cluster's list (an empty one keeps the list in use), or undefined if it failed. */
  learnt(nodes: readonly Endpoint[] | undefined): boolean {
    this.#learning = false;
    if (nodes === undefined || nodes.length === 0) return false;
    const changed = nodes.map(endpointKey).join() !== this.keys.join();
    this.#nodes = nodes;
    return changed;
  }
}
