import type { TEndPoint, TSStatus } from '@iotdb/fast-serializer';
import type { Endpoint } from './endpoint.js';

/**
 * Redirection as the Java client does it: successful writes tell which DataNode leads the device's
 * region (`redirectNode`, per entry in `subStatus` for multi-device writes); later writes of that
 * device go there directly. Keys: the tree device path, or the table name plus the TAG values.
 */
export class RouteTable {
  readonly #byDevice = new Map<string, Endpoint>();

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

  /** Forgets every device routed to `key` (its node failed): they go to the default node again. */
  forgetEndpoint(key: (e: Endpoint) => boolean): void {
    for (const [d, e] of this.#byDevice) if (key(e)) this.#byDevice.delete(d);
  }

  clear(): void {
    this.#byDevice.clear();
  }

  #set(device: string, e: TEndPoint): void {
    if (e.ip === '0.0.0.0' || !e.ip) return; // a node that does not know its own address
    this.#byDevice.set(device, { host: e.ip, port: e.port });
  }
}
