import { IoTDBBatchError, IoTDBServerError, batchFailure, type BatchFailure } from '../errors.js';

/**
 * Runs `run(i)` for i in [0, count), one after another, as the Java Session's one request of a list is answered:
 * an item the server refuses (an IoTDBServerError) is listed and the next is tried; any other failure (a lost
 * connection, a timeout, an abort) stops there, the items after it not tried. If any failed, IoTDBBatchError lists
 * each failure by index (with `itemOf(i)`, the item's path) and the indexes that succeeded.
 */
export async function runInOrder(
  what: string,
  count: number,
  run: (i: number) => Promise<unknown>,
  itemOf: (i: number) => unknown,
): Promise<void> {
  const failures: BatchFailure[] = [];
  const succeeded: number[] = [];
  for (let i = 0; i < count; i++) {
    try {
      await run(i);
      succeeded.push(i);
    } catch (e) {
      failures.push(batchFailure(i, e, itemOf(i)));
      if (!(e instanceof IoTDBServerError)) break;
    }
  }
  if (failures.length > 0) throw new IoTDBBatchError(what, failures, succeeded);
}
