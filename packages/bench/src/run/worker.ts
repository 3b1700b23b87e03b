import { SessionPool, TableSessionPool } from '@iotdb/client';
import type { WorkerResult, WorkerTask } from '../types.js';
import { BatchGenerator } from '../workload/generator.js';
import { sensorValuesRead } from '../workload/query-sql.js';
import { clientActivity } from './client-activity.js';
import { realClock } from './clock.js';
import { readRows } from './read-pass.js';
import { rowWriter } from './row-writer.js';
import { queryOptions, sessionOptions } from './session-options.js';
import { queryLatencies, traceClient, tracedLatencies, withPoolWait } from './trace.js';
import { WorkerRun, type Backend } from './worker-run.js';
import { writer } from './write-ops.js';

/**
 * One piscina worker: its own SessionPool (poolMaxSize sessions) shared by its `clients`; the operations
 * themselves are WorkerRun's (worker-run.ts).
 */
export default async function run(task: WorkerTask): Promise<WorkerResult> {
  const c = task.config;
  const options = { ...sessionOptions(c, task), maxSize: c.poolMaxSize };
  const perQuery = queryOptions(c);
  const pool =
    c.model === 'table' ? new TableSessionPool({ ...options, database: c.database }) : new SessionPool(options);
  const backend: Backend = {
    writer: (groupSize, send) =>
      writer(
        c,
        pool,
        Array.from({ length: groupSize }, () => new BatchGenerator(c)),
        send,
      ),
    rowWriter: (devices, send) => rowWriter(c, pool, devices, send),
    query: async (sql, kind) => {
      const started = performance.now();
      const [ds, poolWaitMs] = await withPoolWait(() => pool.executeQueryStatement(sql, perQuery));
      const firstReplyMs = performance.now() - started;
      const read = await readRows(ds);
      const totalMs = performance.now() - started;
      if (c.trace) worker.traced(queryLatencies(kind, { poolWaitMs, firstReplyMs }, totalMs, ds.readStats()));
      return { rows: read.rows, points: sensorValuesRead(c.model, kind, read) };
    },
    activity: () => clientActivity(pool.stats()),
  };
  const worker = new WorkerRun(task, backend, realClock);
  const untrace = c.trace ? traceClient((ctx) => worker.traced(tracedLatencies(ctx))) : undefined;
  const publish = setInterval(() => worker.publishActivity(), c.reportIntervalMs);
  try {
    return await worker.run();
  } finally {
    clearInterval(publish);
    untrace?.();
    await pool.close();
  }
}
