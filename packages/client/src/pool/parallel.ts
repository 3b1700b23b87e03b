import { IoTDBBatchError, type BatchFailure } from '../errors.js';
import { batchFailure } from '../errors.js';

/**
 * Runs `run(i)` for i in [0, count) with at most `concurrency` at once. Every item runs; failures are
 * collected, not thrown at the first: if any failed, IoTDBBatchError lists each failure with its
 * index (with `deviceOf(i)`, the item's device or table, for writes; the server's status code when it refused the
 * item), the indexes that succeeded and their results.
 */
export async function runAll<T>(
  what: string,
  count: number,
  concurrency: number,
  run: (i: number) => Promise<T>,
  deviceOf?: (i: number) => unknown,
): Promise<T[]> {
  const results = new Array<T | undefined>(count);
  const failures: BatchFailure[] = [];
  const succeeded: number[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      try {
        results[i] = await run(i);
        succeeded.push(i);
      } catch (e) {
        failures.push(batchFailure(i, e, deviceOf?.(i)));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, worker));
  if (failures.length > 0) {
    failures.sort((a, b) => a.index - b.index);
    throw new IoTDBBatchError(
      what,
      failures,
      succeeded.sort((a, b) => a - b),
      results,
    );
  }
  return results as T[];
}

/** FNV-1a: a stable slot for a device id (device binding). */
export function slotOf(key: string, slots: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return (h >>> 0) % slots;
}
