import type { TSStatus } from '@iotdb/fast-serializer';
import { IoTDBBatchError, IoTDBServerError, type BatchFailure } from '../errors.js';
import { StatusCode, isSuccess } from '../protocol/status.js';
import type { WritePlan, WriteTargets } from './write-plan.js';

// What a write's replies say of its items: each item's error, and the error the call throws.

/** The items of a write that failed, by item, with why. */
export type ItemErrors = Map<number, Error>;

/** `node`'s reply's status, spread over the items it answers. */
export function mergeStatus<N>(
  plan: WritePlan<N>,
  targets: WriteTargets<N>,
  node: N,
  ks: readonly number[],
  status: TSStatus,
): ItemErrors {
  const errors: ItemErrors = new Map();
  if (isSuccess(status.code)) {
    targets.learn(node, status, (i) => plan.deviceOf(ks[i]), ks.length);
    return errors;
  }
  const subs = status.subStatus;
  if (status.code === StatusCode.MULTIPLE_ERROR && subs !== undefined && subs.length === ks.length) {
    ks.forEach((k, i) => {
      const sub = subs[i];
      if (!isSuccess(sub.code)) errors.set(k, new IoTDBServerError(sub, `${plan.what} ${plan.labelOf(k)}`));
    });
    return errors;
  }
  return allFailed(ks, new IoTDBServerError(status, statusLabel(plan, ks)));
}

/** What a status answering items `ks` is about: the operation, and their label when they share one. */
function statusLabel<N>(plan: WritePlan<N>, ks: readonly number[]): string {
  const label = plan.labelOf(ks[0]);
  // the caller's items: records sent as their devices' tablets count as the records
  const items = ks.reduce((n, k) => n + plan.indexesOf(k).length, 0);
  if (items === 1) return `${plan.what} ${label}`;
  return ks.every((k) => plan.labelOf(k) === label)
    ? `${plan.what} ${label} (${items} items)`
    : `${plan.what} (${items} items)`;
}

export function allFailed(ks: readonly number[], error: unknown): ItemErrors {
  const e = error instanceof Error ? error : new Error(String(error));
  return new Map(ks.map((k) => [k, e]));
}

export function outcomeError<N>(plan: WritePlan<N>, final: ItemErrors): Error {
  const distinct = new Set(final.values());
  if (plan.count === 1 || (final.size === plan.count && distinct.size === 1)) return distinct.values().next().value!;
  const failures: BatchFailure[] = [...final].flatMap(([k, error]) =>
    plan.indexesOf(k).map((index) => ({
      index,
      error,
      device: plan.labelOf(k),
      ...(error instanceof IoTDBServerError ? { statusCode: error.statusCode } : {}),
    })),
  );
  failures.sort((a, b) => a.index - b.index);
  const succeeded: number[] = [];
  for (let k = 0; k < plan.count; k++) if (!final.has(k)) succeeded.push(...plan.indexesOf(k));
  succeeded.push(...(plan.settled ?? []));
  succeeded.sort((a, b) => a - b);
  return new IoTDBBatchError(plan.what, failures, succeeded);
}
