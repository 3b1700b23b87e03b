import type { TEndPoint, TSStatus } from '@iotdb/fast-serializer';
import { endpointKey, type Endpoint } from './endpoint.js';

/**
 * Redirection as the Java client does it: successful writes tell which DataNode leads the device's
 * region (`redirectNode`, per entry in `subStatus` for multi-device writes); later writes of that
 * device go there directly. Keys: the tree device path, or the table name plus the TAG values.
 */
export class RouteTable {
  readonly #byDevice = new Map<string, Endpoint>();
  /** endpoints that failed recently, until when (ms): a node the server names but we cannot reach (a
   * container-internal address, say) would otherwise cost a connect attempt on every redirect */
  readonly #unreachable = new Map<string, number>();
  readonly #quarantineMs: number;

  constructor(quarantineMs = 60_000) {
    this.#quarantineMs = quarantineMs;
  }

  get size(): number {
    return this.#byDevice.size;
  }

  get(device: string): Endpoint | undefined {
    return this.#byDevice.get(device);
  }

  /** Learns from a write's status; `deviceOf(i)` names the device of sub-status i (entry or row). */
  learn(status: TSStatus, device: string | null, deviceOf: (i: number) => string | null): void {
    if (device !== null && status.redirectNode) this.#set(device, status.redirectNode);
    status.subStatus?.forEach((sub, i) => {
      const d = sub.redirectNode ? deviceOf(i) : null;
      if (d !== null && sub.redirectNode) this.#set(d, sub.redirectNode);
    });
  }

  /** Forgets every device routed to `endpoint` (its node failed): they go to the default node again, and
   * redirects to it are ignored for a while. */
  forgetEndpoint(endpoint: Endpoint): void {
    const key = endpointKey(endpoint);
    this.#unreachable.set(key, Date.now() + this.#quarantineMs);
    for (const [d, e] of this.#byDevice) if (endpointKey(e) === key) this.#byDevice.delete(d);
  }

  clear(): void {
    this.#byDevice.clear();
  }

  #set(device: string, e: TEndPoint): void {
    if (e.ip === '0.0.0.0' || !e.ip) return; // a node that does not know its own address
    const endpoint = { host: e.ip, port: e.port };
    const until = this.#unreachable.get(endpointKey(endpoint));
    if (until !== undefined) {
      if (Date.now() < until) return;
      this.#unreachable.delete(endpointKey(endpoint));
    }
    this.#byDevice.set(device, endpoint);
  }
}
