import type { TEndPoint, TSStatus } from '@iotdb/fast-serializer';
import { endpointKey, type Endpoint } from './endpoint.js';
import { RedirectCache, type RoutePolicy } from './redirect-cache.js';

export interface QuarantineOptions {
  /** quarantine after a node's first failure; doubles with each further failure in a row */
  readonly firstMs: number;
  /** the longest quarantine */
  readonly maxMs: number;
}

interface Health {
  failures: number;
  until: number;
}

export interface RegistryOptions {
  /** the clock of the quarantines, ms */
  readonly now?: () => number;
  /** told when a redirect sends a device's writes and queries to another node */
  readonly onRoute?: (device: string, endpoint: Endpoint) => void;
  /** the DataNodes the cluster listed so far, offered after `seeds` when the default node fails (as the Java Session fails over to them) */
  readonly learnt?: () => readonly Endpoint[];
  /** where device -> node is kept: one shared with other sessions (a pool's), else a cache of its own */
  readonly redirects?: RedirectCache;
}

/**
 * What a session knows about the cluster: the nodes it was given (`nodeUrls`) and those the cluster
 * listed (`learnt`: SHOW DATANODES, with discoverNodes), which of them failed recently, and which node
 * leads each device (the redirect cache).
 *
 * A node whose connection failed is quarantined: not chosen while others are available, and redirects
 * to it are ignored. The quarantine starts at `firstMs` and doubles for each failure in a row, up to
 * `maxMs`, so that an address the client can never reach (a container-internal IP a redirect named)
 * costs one connect attempt now and then, while a node that restarts is used again seconds after it
 * is back: its devices' writes return to it with the next redirect. A success ends the quarantine.
 */
export class NodeRegistry {
  readonly seeds: readonly Endpoint[];
  readonly #redirects: RedirectCache;
  readonly #policy: RoutePolicy;
  readonly #health = new Map<string, Health>();
  readonly #quarantine: QuarantineOptions;
  readonly #now: () => number;
  readonly #learnt: () => readonly Endpoint[];

  constructor(seeds: readonly Endpoint[], quarantine: QuarantineOptions, o: RegistryOptions = {}) {
    this.seeds = seeds;
    this.#quarantine = quarantine;
    this.#now = o.now ?? Date.now;
    this.#learnt = o.learnt ?? (() => []);
    this.#redirects = o.redirects ?? new RedirectCache();
    this.#policy = { accept: (e) => this.isAvailable(e), routed: o.onRoute };
  }

  /** Not in quarantine now. */
  isAvailable(e: Endpoint): boolean {
    if (this.#health.size === 0) return true; // nothing failed: no key to build (this runs per routed item)
    const h = this.#health.get(endpointKey(e));
    return h === undefined || this.#now() >= h.until;
  }

  /**
   * The nodes in the order to try them: `nodeUrls`, then the DataNodes learnt, from `preferred` ('host:port' of
   * the node in use; the first when it is not among them) on, available ones first, then the quarantined ones,
   * soonest released first, so that a cluster that is all down is still tried.
   */
  candidates(preferred?: string): Endpoint[] {
    const keys = new Set(this.seeds.map(endpointKey));
    const nodes = [...this.seeds, ...this.#learnt().filter((e) => !keys.has(endpointKey(e)))];
    const n = nodes.length;
    const from = Math.max(
      0,
      nodes.findIndex((e) => endpointKey(e) === preferred),
    );
    const rotated = Array.from({ length: n }, (_, k) => nodes[(from + k) % n]);
    const available = rotated.filter((e) => this.isAvailable(e));
    const quarantined = rotated.filter((e) => !this.isAvailable(e)).sort((a, b) => this.#until(a) - this.#until(b));
    return [...available, ...quarantined];
  }

  /** The node a device's writes should go to, when a redirect said so and the node is available. */
  routeOf(device: string): Endpoint | undefined {
    const e = this.#redirects.get(device);
    return e !== undefined && this.isAvailable(e) ? e : undefined;
  }

  /**
   * Learns device -> node from a successful write's status about its `count` items (protocol.md 5); `answeredAt`:
   * the node that answered, taken for the leader of the devices it acknowledged without a redirect.
   */
  learn(status: TSStatus, deviceOf: (i: number) => string, count: number, answeredAt?: Endpoint): void {
    this.#redirects.learn(status, deviceOf, count, this.#policy, answeredAt);
  }

  /** `device` is led by the node a query's reply `named`, else by the node that answered it (`answeredAt`). */
  lead(device: string, named: TEndPoint | undefined, answeredAt: Endpoint): void {
    this.#redirects.learnOne(device, named, answeredAt, this.#policy);
  }

  /** A connection to `e` failed: quarantine it and route its devices to the default node meanwhile. */
  markFailed(e: Endpoint): void {
    const key = endpointKey(e);
    const failures = (this.#health.get(key)?.failures ?? 0) + 1;
    const ms = Math.min(this.#quarantine.firstMs * 2 ** (failures - 1), this.#quarantine.maxMs);
    this.#health.set(key, { failures, until: this.#now() + ms });
    this.#redirects.forgetEndpoint(e);
  }

  /** A call to `e` worked: its quarantine is over. */
  markHealthy(e: Endpoint): void {
    if (this.#health.size > 0) this.#health.delete(endpointKey(e));
  }

  /** Devices whose node is known (a reply named it, or it acknowledged them). */
  get routeCount(): number {
    return this.#redirects.size;
  }

  /** Devices whose node a reply named: while none, writes go to the default node with no key per item. */
  get redirectCount(): number {
    return this.#redirects.namedCount;
  }

  #until(e: Endpoint): number {
    return this.#health.get(endpointKey(e))?.until ?? 0;
  }
}
