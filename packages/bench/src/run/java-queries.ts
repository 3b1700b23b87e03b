import { LatencyHistogram } from '../report/histogram.js';
import type { BenchConfig, QueryFigures, QueryKind } from '../types.js';
import { sensorValuesRead } from '../workload/query-sql.js';
import { rowsAfterRounds, rowsAfterTheRun } from './client-operations.js';
import { javaConnectArgs } from './java.js';
import { runJavaQuery, type FailedPass, type ReadPass } from './java-query.js';
import { querySqls, type QueriesAfter } from './queries.js';
import { keepErrors } from './run-error.js';

/**
 * `--vs-java` with `--queries`: the Java client (java/QueryBench.java) runs the same statements as ours, each
 * type's `queryLoops` of them, on one session; all of them twice in one JVM, the second pass counted (the first
 * warms its JIT). Per type: operations, rows, rows/s and latency, as ours; a statement the server refuses is
 * counted failed, its error kept in `errors`, as ours.
 */
export async function runJavaQueries(
  c: BenchConfig,
  target: { host: string; port: number; fullRounds?: number },
  errors: string[],
): Promise<QueriesAfter> {
  const { host, port } = target;
  const rows = javaQueryRows(c, target.fullRounds);
  const statements = c.queries.map((kind) => ({ kind, sqls: querySqls(c, kind, rows) }));
  const all = statements.flatMap((s) => s.sqls);
  const database = c.model === 'table' ? c.database : undefined;
  const connect = javaConnectArgs(c);
  const passes = await runJavaQuery({ host, port, sql: all, fetchSize: 5000, reps: 2, database, connect });
  passes.splice(0, passes.length - all.length); // the second pass
  if (passes.length !== all.length) throw new Error(`java/query.sh read ${passes.length} of ${all.length} statements`);
  return javaQueryTypes(c.model, statements, passes, errors);
}

/**
 * The rows every device has after the Java client's run, what its queries range over: its plan's, or the rounds it
 * wrote to every device before its time limit stopped it (`fullRounds`, its ROUNDS line), as ours' range over theirs.
 */
export function javaQueryRows(c: BenchConfig, fullRounds: number | undefined): number {
  const planned = rowsAfterTheRun(c);
  return fullRounds === undefined ? planned : Math.min(planned, rowsAfterRounds(c, fullRounds));
}

/** The passes of `statements` (in their order) summed up by query type. */
export function javaQueryTypes(
  model: BenchConfig['model'],
  statements: readonly { kind: QueryKind; sqls: readonly string[] }[],
  passes: readonly (ReadPass | FailedPass)[],
  errors: string[],
): QueriesAfter {
  const after: QueriesAfter = { queries: {}, histograms: {} };
  let at = 0;
  for (const { kind, sqls } of statements) {
    const mine = passes.slice(at, (at += sqls.length));
    const read = mine.filter((p): p is ReadPass => !('error' in p));
    for (const p of mine) if ('error' in p) keepErrors(errors, `the Java client: ${p.error}`);
    const h = new LatencyHistogram();
    for (const p of read) h.record(p.wallS * 1e9);
    after.queries[kind] = figures(model, kind, read, mine.length - read.length, h);
    after.histograms[kind] = h;
  }
  return after;
}

function figures(
  model: BenchConfig['model'],
  kind: QueryKind,
  passes: readonly ReadPass[],
  failed: number,
  h: LatencyHistogram,
): QueryFigures {
  const rows = passes.reduce((n, p) => n + p.rows, 0);
  const points = sensorValuesRead(model, kind, { rows, points: passes.reduce((n, p) => n + p.points, 0) });
  const secs = passes.reduce((n, p) => n + p.wallS, 0);
  return { ops: passes.length, failed, rows, rowsPerS: secs > 0 ? rows / secs : 0, points, latency: h.summaryMs() };
}
