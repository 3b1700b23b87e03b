import type { TSStatus } from '@iotdb/fast-serializer';
import { IoTDBValidationError } from '@iotdb/fast-serializer';
import type { WritePlan } from './write-router.js';

/**
 * A write of tablets or records, one device each. `routed` false: one request to the default node as
 * given (the testInsert* calls, which never store anything and so never redirect).
 */
export function itemPlan<T, N>(
  what: string,
  items: readonly T[],
  deviceOf: (item: T) => string,
  send: (node: N, group: readonly T[]) => Promise<TSStatus>,
  routed = true,
  indexOf: (k: number) => number = (k) => k,
): WritePlan<N> {
  return {
    what,
    count: routed ? items.length : 1,
    deviceOf: (k) => (routed ? deviceOf(items[k]) : ''),
    labelOf: (k) => (routed ? deviceOf(items[k]) : `${items.length} items`),
    indexOf,
    send: (ns, ks) => send(ns, !routed || ks.length === items.length ? items : ks.map((k) => items[k])),
  };
}

/** Orders int64 times given as number or bigint. */
export function compareTime(a: number | bigint, b: number | bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Items of one multi-item call must agree on isAligned (one request carries one flag). */
export function sameAlignment(items: readonly { readonly isAligned: boolean }[], field: string): void {
  const aligned = items[0].isAligned;
  items.forEach((x, i) => {
    if (x.isAligned !== aligned) {
      throw new IoTDBValidationError(`${field}[${i}].isAligned`, `all ${field} of one call must agree on isAligned`);
    }
  });
}
