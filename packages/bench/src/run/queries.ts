import { Session, TableSession, type BaseSession, type SessionDataSet } from '@iotdb/client';
import { AFTER_THE_WRITES } from '../latency-rows.js';
import { LatencyHistogram } from '../report/histogram.js';
import type { BenchConfig, QueryFigures, QueryKind, RunResult } from '../types.js';
import { drawTarget, querySql, sensorValuesRead } from '../workload/query-sql.js';
import { unit } from '../workload/values.js';
import { readsOnly } from '../workload/operations.js';
import { readRows } from './read-pass.js';
import { keepErrors, reachedNoNode } from './run-error.js';
import { grouped } from '../report/numbers.js';
import { queryOptions, sessionOptions } from './session-options.js';

/** A statement's read: its time, rows and points, or the message of the error it failed with (and the error). */
interface TimedRead {
  ns: number;
  rows: number;
  points: number;
  error?: string;
  cause?: unknown;
}

/** One statement run and read to its end, timed: its rows and points, or the message of the error it failed with. */
export async function timedRead(execute: () => Promise<SessionDataSet>): Promise<TimedRead> {
  const started = process.hrtime.bigint();
  const ns = () => Number(process.hrtime.bigint() - started);
  try {
    const read = await readRows(await execute()); // read before the clock is read: the time is the whole read's
    return { ns: ns(), ...read };
  } catch (e) {
    return { ns: ns(), rows: 0, points: 0, error: (e as Error).message, cause: e };
  }
}

/**
 * Reads untimed, in turn (a warm-up: a refused one is the timed reads' to count). The first that reached no node in its
 * retry budget ends them, the next would wait as long: returned, with how many ran (it included).
 */
export async function untimedReads(
  executes: Iterable<() => Promise<SessionDataSet>>,
  retryMaxMs: number,
): Promise<{ ran: number; unreachable?: TimedRead }> {
  let ran = 0;
  for (const execute of executes) {
    const read = await timedRead(execute);
    ran++;
    if (reachedNoNode(read.cause, retryMaxMs)) return { ran, unreachable: read };
  }
  return { ran };
}

/**
 * The statements of `--queries` for one type: `queryLoops` of them over the `rows` every device has after the run
 * (the same draws for every client, Java's too).
 */
export function querySqls(c: BenchConfig, kind: QueryKind, rows: number): string[] {
  return Array.from({ length: c.queryLoops }, (_, i) =>
    querySql(c, kind, drawTarget(c, unit(i, 1, 11, c.seed), unit(i, 2, 11, c.seed), rows)),
  );
}

/**
 * A line before --queries after the writes of a run (ours, or the Java client's: `whose`) that its time limit
 * stopped before any round reached every device (`fullRounds` 0, warm-up rounds included): its queries range over
 * the first round, which some devices lack, and read fewer rows than over a whole one (a cold JVM on a busy machine
 * wrote under a round in a second). Undefined otherwise.
 */
export function noWholeRoundNote(c: BenchConfig, fullRounds: number | undefined, whose: string): string | undefined {
  if (c.queries.length === 0 || fullRounds !== 0 || readsOnly(c.operationProportion)) return undefined;
  return (
    `note: ${whose} queries after the writes: no round reached every device before the time limit ` +
    '(--test-max-time), so they read the first, which some devices lack: their rows are fewer than a whole ' +
    "round's (--warmup-rounds 1 writes one, untimed)"
  );
}

/**
 * What `--queries` after the writes came to, ours or the Java client's: each query type's figures and the latency
 * histogram of its statements that were read (kept in the run as a mixed run's are: its matrix, compare, merge).
 */
export interface QueriesAfter {
  queries: Record<string, QueryFigures>;
  histograms: Record<string, LatencyHistogram>;
}

/**
 * `--queries` after the writes: `queryLoops` runs of each query type, one after another on one session,
 * over the `deviceRows` every device has (with --vs-java after an untimed pass of them all, as Java's). A statement
 * that fails is counted as failed with its error (the first MAX_ERRORS kept), and the others go on.
 */
export async function runQueries(
  c: BenchConfig,
  target: { host: string; port: number },
  deviceRows: number,
): Promise<QueryPasses> {
  const options = sessionOptions(c, target);
  const perQuery = queryOptions(c);
  const session: BaseSession =
    c.model === 'table' ? new TableSession({ ...options, database: c.database }) : new Session(options);
  await session.open();
  const statements = c.queries.map((kind) => ({ kind, sqls: querySqls(c, kind, deviceRows) }));
  try {
    return await queryPasses(c, statements, (sql) => session.executeQueryStatement(sql, perQuery));
  } finally {
    await session.close();
  }
}

/** What --queries came to, and whether they ended at a read that reached no node (queryPasses). */
interface QueryPasses {
  after: QueriesAfter;
  errors: string[];
  reachedNoNode: boolean;
}

/**
 * Each type's statements read in turn through `execute`, timed (with --vs-java after an untimed first pass, as the
 * Java side's). A read that reached no node in its retry budget ends them: every read after it would wait as long.
 */
export async function queryPasses(
  c: BenchConfig,
  statements: readonly { kind: QueryKind; sqls: readonly string[] }[],
  execute: (sql: string) => Promise<SessionDataSet>,
): Promise<QueryPasses> {
  const after: QueriesAfter = { queries: {}, histograms: {} };
  const errors: string[] = [];
  const total = statements.reduce((n, s) => n + s.sqls.length, 0) * (c.vsJava ? 2 : 1);
  let done = 0;
  /** The reads end at `read`, which reached no node: its error and why the rest did not run are kept. */
  const stopAt = (kind: QueryKind, read: TimedRead): QueryPasses => {
    const retry = `--retry-max-ms ${grouped(c.retryMaxMs)} ms`;
    const note = `--queries stopped at ${kind}: a read reached no node in ${retry}; ${grouped(total - done)} reads not run`;
    keepErrors(errors, read.error ?? '', note);
    return { after, errors, reachedNoNode: true };
  };
  // with --vs-java every statement runs once untimed first, as the Java side's first pass (JIT, server caches);
  // a failure there is the timed pass's to count, but for a server no read can reach
  if (c.vsJava)
    for (const { kind, sqls } of statements) {
      const pass = await untimedReads(
        sqls.map((sql) => () => execute(sql)),
        c.retryMaxMs,
      );
      done += pass.ran;
      if (pass.unreachable !== undefined) return stopAt(kind, pass.unreachable);
    }
  for (const { kind, sqls } of statements) {
    const h = new LatencyHistogram();
    let rows = 0;
    let points = 0;
    let failed = 0;
    let unreachable: TimedRead | undefined;
    const t0 = performance.now();
    for (const sql of sqls) {
      const read = await timedRead(() => execute(sql));
      done++;
      rows += read.rows;
      points += sensorValuesRead(c.model, kind, read);
      if (read.error === undefined) h.record(read.ns);
      else {
        failed++;
        keepErrors(errors, read.error);
        if (reachedNoNode(read.cause, c.retryMaxMs)) {
          unreachable = read;
          break;
        }
      }
    }
    const secs = (performance.now() - t0) / 1000;
    after.queries[kind] = { ops: h.count, failed, rows, rowsPerS: rows / secs, points, latency: h.summaryMs() };
    after.histograms[kind] = h;
    if (unreachable !== undefined) return stopAt(kind, unreachable);
  }
  return { after, errors, reachedNoNode: false };
}

/**
 * `--queries`' figures added to `run`: each query type beside the run's own operations, its latency matrix and
 * histogram with them, and the session's time in it as its slowest client's (one session ran them all). After a
 * mixed run's own queries they are `<type> after the writes`, told apart by name.
 */
export function addQueriesAfter(run: RunResult, after: QueriesAfter): void {
  const name = (k: string) => (run.queries === undefined ? k : k + AFTER_THE_WRITES);
  const queries = { ...run.queries };
  for (const [kind, figures] of Object.entries(after.queries)) {
    const n = name(kind);
    queries[n] = figures;
    const h = after.histograms[kind];
    if (h === undefined || h.count === 0) continue;
    run.latency[n] = figures.latency;
    run.histograms[n] = h.toData();
    (run.slowestClientMs ??= {})[n] = figures.latency.avg * h.count;
  }
  run.queries = queries;
}

/** Whether a query type ran and none of its statements succeeded: that fails the run, as no write ok does. */
export function noneSucceeded(queries: RunResult['queries']): boolean {
  return Object.values(queries ?? {}).some((q) => q.ops === 0 && q.failed > 0);
}
