import type { TEndPoint, TSStatus } from '@iotdb/fast-serializer';
import { endpointKey, type Endpoint } from './endpoint.js';

/**
 * What one session lets into a redirect cache: `accept` says whether a node may be routed to now (not while it is
 * quarantined), `routed` hears of each device sent to another node (for stats and logs).
 */
export interface RoutePolicy {
  accept(e: Endpoint): boolean;
  routed?(device: string, e: Endpoint): void;
}

/** Whether a reply names a node to go to (IoTDB fills in 0.0.0.0 where it has none). */
function names(node: TEndPoint | undefined): node is TEndPoint {
  return node !== undefined && !!node.ip && node.ip !== '0.0.0.0';
}

/** Whether a write's status names another node than the one that answered, for the write or one of its items. */
export function namesNode(status: TSStatus): boolean {
  return names(status.redirectNode) || (status.subStatus?.some((s) => names(s.redirectNode)) ?? false);
}

/**
 * Redirection as the Java client does it: successful writes tell which DataNode leads the device's
 * region (`redirectNode`, per entry in `subStatus` for multi-device writes); later writes of that
 * device go there directly. A device acknowledged without a redirect is led by the node that answered (for its
 * queries). Keys: the tree device path, or a table's device (TableDevices: its database, table and TAG values). A
 * pool's sessions share one cache (a key means the same to each).
 */
export class RedirectCache {
  readonly #byDevice = new Map<string, Endpoint>();
  /** the devices whose node a reply named (not taken from the node that answered) */
  readonly #named = new Set<string>();
  /** one object per node, the route of each of its devices ('host:port' -> it) */
  readonly #nodes = new Map<string, Endpoint>();

  get size(): number {
    return this.#byDevice.size;
  }

  /** How many devices' nodes a reply named: while none, every known node is one that answered (writes need no key). */
  get namedCount(): number {
    return this.#named.size;
  }

  get(device: string): Endpoint | undefined {
    return this.#byDevice.get(device);
  }

  /**
   * Learns from a successful write's status about its `count` items (`deviceOf(i)`: the device of item i, which
   * sub-status i answers): the node each redirect names and, given `answeredAt`, the node that answered for the
   * devices it acknowledged without naming another (IoTDB names a node only when the device is led elsewhere).
   */
  learn(
    status: TSStatus,
    deviceOf: (i: number) => string,
    count: number,
    policy: RoutePolicy,
    answeredAt?: Endpoint,
  ): void {
    const subs = status.subStatus;
    if (count === 1)
      return this.learnOne(deviceOf(0), status.redirectNode ?? subs?.[0]?.redirectNode, answeredAt, policy);
    if (subs !== undefined) {
      for (let i = 0; i < Math.min(count, subs.length); i++)
        this.learnOne(deviceOf(i), subs[i].redirectNode, answeredAt, policy);
    } else if (answeredAt !== undefined) {
      // all acknowledged there; a table's rows: a device's rows mostly one after another
      for (let i = 0, last: string | undefined; i < count; i++) {
        const device = deviceOf(i);
        if (device !== last) this.#set((last = device), answeredAt, policy, false);
      }
    }
  }

  /** `device` is led by the node a reply `named`, else (given) by the node that `answeredAt` without naming one. */
  learnOne(device: string, named: TEndPoint | undefined, answeredAt: Endpoint | undefined, policy: RoutePolicy): void {
    if (named !== undefined) {
      if (names(named)) this.#set(device, { host: named.ip, port: named.port }, policy, true);
    } else if (answeredAt !== undefined) {
      this.#set(device, answeredAt, policy, false);
    }
  }

  /** Forgets every device routed to `endpoint`: they go to the default node until a redirect names it again. */
  forgetEndpoint(endpoint: Endpoint): void {
    const node = this.#nodes.get(endpointKey(endpoint)); // every route to it is this object
    if (node === undefined) return;
    for (const [d, e] of this.#byDevice) {
      if (e !== node) continue;
      this.#byDevice.delete(d);
      this.#named.delete(d);
    }
  }

  /** The one object standing for `e`'s node. */
  #node(e: Endpoint): Endpoint {
    const key = endpointKey(e);
    const known = this.#nodes.get(key);
    if (known !== undefined) return known;
    this.#nodes.set(key, e);
    return e;
  }

  /** `device` is led by `e` from now on, unless the policy refuses it; `redirected`: a reply named `e` (logged). */
  #set(device: string, e: Endpoint, policy: RoutePolicy, redirected: boolean): void {
    const known = this.#byDevice.get(device);
    if (known !== undefined && known.host === e.host && known.port === e.port) return;
    if (!policy.accept(e)) return;
    this.#byDevice.set(device, this.#node(e));
    if (!redirected) return void this.#named.delete(device);
    this.#named.add(device);
    policy.routed?.(device, e);
  }
}
