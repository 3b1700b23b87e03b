import type { ByteWriter, TSStatus } from '@iotdb/fast-serializer';
import { IoTDBValidationError } from '@iotdb/fast-serializer';
import type { WritePlan } from './write-plan.js';

/**
 * A write of tablets or records, one device each. `routed` false: one request to the default node as
 * given (the testInsert* calls, which never store anything and so never redirect).
 */
export function itemPlan<T, N>(
  what: string,
  items: readonly T[],
  deviceOf: (item: T) => string,
  send: (node: N, group: readonly T[], encoded?: ByteWriter) => Promise<TSStatus>,
  routed = true,
  indexesOf: (k: number) => readonly number[] = (k) => [k],
): WritePlan<N> {
  return {
    what,
    count: routed ? items.length : 1,
    deviceOf: (k) => (routed ? deviceOf(items[k]) : ''),
    labelOf: (k) => (routed ? deviceOf(items[k]) : `${items.length} items`),
    indexesOf,
    send: (ns, ks, encoded) =>
      send(ns, !routed || ks.length === items.length ? items : ks.map((k) => items[k]), encoded),
  };
}

/**
 * A plan over the records that have something to write. A record whose values are all null has none:
 * it is skipped, as Java does, and reported as succeeded (`settled`); null when no record has any.
 * `compare` orders the records sent (stable); indexes stay the caller's.
 */
export function recordPlan<T extends { readonly measurements: readonly unknown[] }, N>(
  what: string,
  records: readonly T[],
  deviceOf: (record: T) => string,
  send: (node: N, group: readonly T[]) => Promise<TSStatus>,
  compare?: (a: T, b: T) => number,
): WritePlan<N> | null {
  const kept: number[] = [];
  const settled: number[] = [];
  records.forEach((r, i) => (r.measurements.length > 0 ? kept : settled).push(i));
  if (kept.length === 0) return null;
  if (compare !== undefined) kept.sort((a, b) => compare(records[a], records[b]) || a - b);
  const items = kept.length === records.length && compare === undefined ? records : kept.map((i) => records[i]);
  return { ...itemPlan(what, items, deviceOf, send, true, (k) => [kept[k]]), settled };
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
