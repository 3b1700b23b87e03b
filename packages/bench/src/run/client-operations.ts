import type { BenchConfig } from '../types.js';
import { pickOperation, readsOnly, storedRows, type QueryKind } from '../workload/operations.js';
import { drawTarget, querySql } from '../workload/query-sql.js';
import { unit } from '../workload/values.js';

/** One timed operation of a client: a write of a device group for a round, or a query statement. */
export type ClientOperation = { op: 'INGESTION'; devices: number[]; round: number } | { op: QueryKind; sql: string };

// independent streams of draws from (operation index, client, stream, seed)
const DRAW_OPERATION = 3;
const DRAW_DEVICE = 4;
const DRAW_START = 5;

/**
 * Client `id`'s timed operations in order: loop x (its device groups) of them, each drawn from
 * operationProportion; a write takes the next group of the next round, a query ranges over the rows the client
 * has written so far (a queries-only run: over what a write run with these knobs stored). A pure function of the
 * knobs and the seed: the harness's clients run it, and `--vs-java` hands the same operations to the Java client.
 */
export function* clientOperations(
  c: BenchConfig,
  id: number,
  groups: readonly number[][],
  sensors: string[],
): Generator<ClientOperation, void, undefined> {
  const stored = readsOnly(c.operationProportion) ? storedRows(c) : 0;
  let writes = 0;
  for (let i = 0; i < c.loop * groups.length; i++) {
    const op = pickOperation(c.operationProportion, unit(i, id, DRAW_OPERATION, c.seed));
    const round = c.warmupRounds + Math.floor(writes / groups.length);
    if (op === 'INGESTION') {
      yield { op, devices: groups[writes++ % groups.length], round };
      continue;
    }
    const target = drawTarget(
      c,
      unit(i, id, DRAW_DEVICE, c.seed),
      unit(i, id, DRAW_START, c.seed),
      Math.max(stored, round * c.batchSize),
    );
    yield { op, sql: querySql(c, op, target, sensors) };
  }
}
