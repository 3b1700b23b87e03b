import { Session, TableSession, type BaseSession, type SessionDataSet } from '@iotdb/client';
import { LatencyHistogram } from '../report/histogram.js';
import type { BenchConfig, RunResult } from '../types.js';
import { drawTarget, querySql } from '../workload/query-sql.js';
import { unit } from '../workload/values.js';

/** Reads a query's result to the end, row by row as an application would; returns the rows. */
export async function readRows(ds: SessionDataSet): Promise<number> {
  let rows = 0;
  for await (const _row of ds) rows++;
  return rows;
}

/**
 * `--queries` after the writes: `queryLoops` runs of each query type, one after another on one session,
 * over all the rows written.
 */
export async function runQueries(
  c: BenchConfig,
  host: string,
  port: number,
): Promise<NonNullable<RunResult['queries']>> {
  const session: BaseSession =
    c.model === 'table'
      ? new TableSession({ host, port, nodeUrls: c.nodeUrls, database: c.database })
      : new Session({ host, port, nodeUrls: c.nodeUrls });
  await session.open();
  const writtenRows = (c.warmupRounds + c.loop) * c.batchSize;
  const out: NonNullable<RunResult['queries']> = {};
  try {
    for (const kind of c.queries) {
      const h = new LatencyHistogram();
      let rows = 0;
      const t0 = performance.now();
      for (let i = 0; i < c.queryLoops; i++) {
        const target = drawTarget(c, unit(i, 1, 11, c.seed), unit(i, 2, 11, c.seed), writtenRows);
        const a = process.hrtime.bigint();
        const read = await readRows(await session.executeQueryStatement(querySql(c, kind, target)));
        rows += read;
        h.record(Number(process.hrtime.bigint() - a));
      }
      const secs = (performance.now() - t0) / 1000;
      out[kind] = { ops: c.queryLoops, rows, rowsPerS: rows / secs, latency: h.summaryMs() };
    }
  } finally {
    await session.close();
  }
  return out;
}
