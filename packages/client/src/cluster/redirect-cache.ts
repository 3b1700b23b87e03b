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

/**
 * Redirection as the Java client does it: successful writes tell which DataNode leads the device's
 * region (`redirectNode`, per entry in `subStatus` for multi-device writes); later writes of that
 * device go there directly. Keys: the tree device path, or the table name plus the TAG values. A pool's tree
 * sessions share one cache (the device paths mean the same to each).
 */
export class RedirectCache {
  readonly #byDevice = new Map<string, Endpoint>();

  get size(): number {
    return this.#byDevice.size;
  }

  get(device: string): Endpoint | undefined {
    return this.#byDevice.get(device);
  }

  /** Learns from a write's status; `deviceOf(i)` names the device of sub-status i (entry or row). */
  learn(status: TSStatus, device: string | null, deviceOf: (i: number) => string | null, policy: RoutePolicy): void {
    if (device !== null && status.redirectNode) this.set(device, status.redirectNode, policy);
    status.subStatus?.forEach((sub, i) => {
      const d = sub.redirectNode ? deviceOf(i) : null;
      if (d !== null && sub.redirectNode) this.set(d, sub.redirectNode, policy);
    });
  }

  /** Forgets every device routed to `endpoint`: they go to the default node until a redirect names it again. */
  forgetEndpoint(endpoint: Endpoint): void {
    const key = endpointKey(endpoint);
    for (const [d, e] of this.#byDevice) if (endpointKey(e) === key) this.#byDevice.delete(d);
  }

  clear(): void {
    this.#byDevice.clear();
  }

  /** `device` is led by `e` from now on, unless the policy refuses it. */
  set(device: string, e: TEndPoint, policy: RoutePolicy): void {
    if (e.ip === '0.0.0.0' || !e.ip) return; // a node that does not know its own address
    const known = this.#byDevice.get(device);
    if (known !== undefined && known.host === e.ip && known.port === e.port) return;
    const endpoint = { host: e.ip, port: e.port };
    if (!policy.accept(endpoint)) return;
    this.#byDevice.set(device, endpoint);
    policy.routed?.(device, endpoint);
  }
}
