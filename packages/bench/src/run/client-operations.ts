import type { BenchConfig } from '../types.js';
import { hasQueries, pickOperation, readsOnly, storedRows, type QueryKind } from '../workload/operations.js';
import { drawTarget, querySql } from '../workload/query-sql.js';
import { unit } from '../workload/values.js';
import { everyClient } from './device-shares.js';

/** One timed operation of a client: a write of a device group for a round, or a query statement. */
export type ClientOperation = { op: 'INGESTION'; devices: number[]; round: number } | { op: QueryKind; sql: string };

// independent streams of draws from (operation index, client's first device, stream, seed)
const DRAW_OPERATION = 3;
const DRAW_DEVICE = 4;
const DRAW_START = 5;

/**
 * A client's timed operations in order: loop x (its device groups) of them, each drawn from
 * operationProportion; a write takes the next group of the next round, a query ranges over the rows the client
 * has written so far (a queries-only run: over what a write run with these knobs stored). A pure function of the
 * knobs and the seed: the harness's clients run it, and `--vs-java` hands the same operations to the Java client.
 */
export function* clientOperations(
  c: BenchConfig,
  groups: readonly number[][],
  sensors: string[],
): Generator<ClientOperation, void, undefined> {
  const stored = readsOnly(c.operationProportion) ? storedRows(c) : 0;
  const key = drawKey(groups);
  let writes = 0;
  for (let i = 0; i < c.loop * groups.length; i++) {
    const op = operationAt(c, key, i);
    const round = c.warmupRounds + Math.floor(writes / groups.length);
    if (op === 'INGESTION') {
      yield { op, devices: groups[writes++ % groups.length], round };
      continue;
    }
    const target = drawTarget(
      c,
      unit(i, key, DRAW_DEVICE, c.seed),
      unit(i, key, DRAW_START, c.seed),
      Math.max(stored, round * c.batchSize),
    );
    yield { op, sql: querySql(c, op, target, sensors) };
  }
}

/** Operation `i` of the client whose draws are keyed `key`. */
function operationAt(c: BenchConfig, key: number, i: number): ClientOperation['op'] {
  return pickOperation(c.operationProportion, unit(i, key, DRAW_OPERATION, c.seed));
}

/**
 * What a client's draws are keyed by: its first device, not its number. A client's devices are the same whichever
 * machine's share runs them (`--device-offset`), so the shares of several machines draw the operations one run over
 * all their devices with as many clients draws, and `merge` adds up to its totals; client numbers start again at 0
 * on every machine.
 */
function drawKey(groups: readonly number[][]): number {
  return groups[0]?.[0] ?? -1;
}

/**
 * The rows every device of this machine's share has once the timed run is done as planned, what `--queries` after
 * it range over: the warm-up rounds and the fewest full rounds of writes any client gave its device groups (a mixed
 * run's clients write only its INGESTION share of their operations).
 */
export function rowsAfterTheRun(c: BenchConfig): number {
  if (!hasQueries(c.operationProportion)) return storedRows(c);
  let fewestRounds = c.loop;
  for (const { groups } of everyClient(c)) {
    let writes = 0;
    const key = drawKey(groups);
    for (let i = 0; i < c.loop * groups.length; i++) if (operationAt(c, key, i) === 'INGESTION') writes++;
    if (groups.length > 0) fewestRounds = Math.min(fewestRounds, Math.floor(writes / groups.length));
  }
  return rowsAfterRounds(c, c.warmupRounds + fewestRounds);
}

/**
 * The rows every device has after a run that wrote `fullRounds` rounds to each (warm-up rounds included); a run of
 * queries only: what the write run before it stored.
 */
export function rowsAfterRounds(c: BenchConfig, fullRounds: number): number {
  return readsOnly(c.operationProportion) ? storedRows(c) : fullRounds * c.batchSize;
}
