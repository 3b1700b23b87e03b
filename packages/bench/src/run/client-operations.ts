import type { BenchConfig } from '../types.js';
import {
  hasQueries,
  pickOperation,
  readsOnly,
  storedRows,
  weightedQueries,
  type QueryKind,
} from '../workload/operations.js';
import { drawTarget, querySql, type QuerySensor } from '../workload/query-sql.js';
import { unit } from '../workload/values.js';
import { everyClient } from './device-shares.js';

/** One operation of a client: a write of a device group for a round, or a query statement. */
type ClientOperation = ClientWrite | { op: QueryKind; sql: string };

/** A write of a device group for a round; `completesRound`: every group of the client is now written through it. */
export interface ClientWrite {
  op: 'INGESTION';
  devices: number[];
  round: number;
  completesRound: boolean;
}

// independent streams of draws from (round, device group's first device, stream, seed)
const DRAW_OPERATION = 3;
const DRAW_DEVICE = 4;
const DRAW_START = 5;
// the warm-up's queries', keyed by (warm-up round, query type)
const DRAW_WARMUP_DEVICE = 6;
const DRAW_WARMUP_START = 7;

/**
 * A client's untimed warm-up, `warmupRounds` rounds: each writes the next round of every one of its device groups
 * (not in a run of queries only), then runs each query type of the mix once over the rows written so far (a run of
 * queries only: what the write run stored), so that the timed operations, queries as writes, start on warm code and
 * a warm server; none for a client without devices (it has no timed operation). A pure function of the knobs and the
 * seed, as clientOperations: the Java client's plan has the same.
 */
export function* warmupOperations(
  c: BenchConfig,
  groups: readonly number[][],
  sensors: QuerySensor[],
): Generator<ClientOperation, void, undefined> {
  if (groups.length === 0) return; // a client without devices: no timed operation to warm up for
  const reads = readsOnly(c.operationProportion);
  const queries = weightedQueries(c.operationProportion);
  for (let round = 0; round < c.warmupRounds; round++) {
    if (!reads)
      for (let g = 0; g < groups.length; g++)
        yield { op: 'INGESTION', devices: groups[g], round, completesRound: g === groups.length - 1 };
    const rows = reads ? storedRows(c) : (round + 1) * c.batchSize;
    for (const [k, op] of queries.entries()) {
      const target = drawTarget(
        c,
        unit(round, k, DRAW_WARMUP_DEVICE, c.seed),
        unit(round, k, DRAW_WARMUP_START, c.seed),
        rows,
      );
      yield { op, sql: querySql(c, op, target, sensors) };
    }
  }
}

/**
 * A client's timed operations in order: for each of `loop` rounds, one for each of its device groups in turn, drawn
 * from operationProportion; a write writes the group's next round, a query ranges over the rows the client has
 * written to all its groups so far (a queries-only run: over what a write run with these knobs stored). A pure
 * function of the knobs and the seed: the harness's clients run it, and `--vs-java` hands the same operations to the
 * Java client.
 */
export function* clientOperations(
  c: BenchConfig,
  groups: readonly number[][],
  sensors: QuerySensor[],
): Generator<ClientOperation, void, undefined> {
  const stored = readsOnly(c.operationProportion) ? storedRows(c) : 0;
  const rounds = new RoundsWritten(groups.length, c.warmupRounds);
  for (let round = 0; round < c.loop; round++) {
    for (let g = 0; g < groups.length; g++) {
      const key = drawKey(groups[g]);
      const op = operationAt(c, key, round);
      if (op === 'INGESTION') {
        yield { op, devices: groups[g], ...rounds.next(g) };
        continue;
      }
      const target = drawTarget(
        c,
        unit(round, key, DRAW_DEVICE, c.seed),
        unit(round, key, DRAW_START, c.seed),
        Math.max(stored, rounds.full * c.batchSize),
      );
      yield { op, sql: querySql(c, op, target, sensors) };
    }
  }
}

/**
 * The rounds written to each of a client's device groups, and how many every one of them has (`full`, the warm-up's
 * included): a group's writes are drawn apart from the others', so one may be rounds ahead of another.
 */
class RoundsWritten {
  readonly #next: number[];
  #full: number;
  /** groups with `full` rounds written and not one more */
  #behind: number;

  constructor(groups: number, warmupRounds: number) {
    this.#next = new Array<number>(groups).fill(warmupRounds);
    this.#full = warmupRounds;
    this.#behind = groups;
  }

  get full(): number {
    return this.#full;
  }

  /**
   * The round group `g` writes now (counted written), and whether that makes it the round every group is written
   * through (the group that wrote is then at `full` exactly, so one step at a time is enough).
   */
  next(g: number): { round: number; completesRound: boolean } {
    const round = this.#next[g]++;
    if (round !== this.#full || --this.#behind > 0) return { round, completesRound: false };
    this.#full++;
    this.#behind = this.#next.filter((n) => n === this.#full).length;
    return { round, completesRound: true };
  }
}

/** Operation of `round` for the device group whose draws are keyed `key`. */
function operationAt(c: BenchConfig, key: number, round: number): ClientOperation['op'] {
  return pickOperation(c.operationProportion, unit(round, key, DRAW_OPERATION, c.seed));
}

/**
 * What a device group's draws are keyed by: its first device, not its client's number or place. A device is the same
 * whichever client and machine's share writes it (`--device-offset`), so every split of the devices over machines,
 * workers and clients draws the same operations of each device (insertTablet; a group of several devices is each
 * split's own), and `merge` adds up to one run's totals.
 */
function drawKey(group: readonly number[]): number {
  return group[0] ?? -1;
}

/**
 * The rows every device of this machine's share has once the timed run is done as planned, what `--queries` after
 * it range over: the warm-up rounds and the fewest rounds any device group is written (a mixed run writes only the
 * INGESTION share of its operations).
 */
export function rowsAfterTheRun(c: BenchConfig): number {
  if (!hasQueries(c.operationProportion)) return storedRows(c);
  let fewestRounds = c.loop;
  for (const { groups } of everyClient(c))
    for (const group of groups) {
      const key = drawKey(group);
      let writes = 0;
      for (let round = 0; round < c.loop; round++) if (operationAt(c, key, round) === 'INGESTION') writes++;
      fewestRounds = Math.min(fewestRounds, writes);
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
