import { LatencyHistogram } from '../report/histogram.js';
import type { BenchConfig, RunResult } from '../types.js';
import { runJavaQuery, type ReadPass } from './java-query.js';
import { querySqls } from './queries.js';

/**
 * `--vs-java` with `--queries`: the Java client (java/QueryBench.java) runs the same statements as ours, each
 * type's `queryLoops` of them, on one session; all of them twice in one JVM, the second pass counted (the first
 * warms its JIT). Per type: operations, rows, rows/s and latency, as ours.
 */
export function runJavaQueries(c: BenchConfig, host: string, port: number): NonNullable<RunResult['queries']> {
  const statements = c.queries.map((kind) => ({ kind, sqls: querySqls(c, kind) }));
  const all = statements.flatMap((s) => s.sqls);
  const database = c.model === 'table' ? c.database : undefined;
  const passes = runJavaQuery({ host, port, sql: all, fetchSize: 5000, reps: 2, database }).slice(-all.length);
  if (passes.length !== all.length) throw new Error(`java/query.sh read ${passes.length} of ${all.length} statements`);
  let at = 0;
  return Object.fromEntries(
    statements.map(({ kind, sqls }) => {
      const mine = passes.slice(at, (at += sqls.length));
      return [kind, summary(mine)];
    }),
  );
}

function summary(passes: readonly ReadPass[]): NonNullable<RunResult['queries']>[string] {
  const h = new LatencyHistogram();
  for (const p of passes) h.record(p.wallS * 1e9);
  const rows = passes.reduce((n, p) => n + p.rows, 0);
  const secs = passes.reduce((n, p) => n + p.wallS, 0);
  return { ops: passes.length, failed: 0, rows, rowsPerS: secs > 0 ? rows / secs : 0, latency: h.summaryMs() };
}
