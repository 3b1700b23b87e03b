import { SessionPool, TableSessionPool } from '@iotdb/client';
import type { QueryFileEntry } from '../config/query-file.js';
import { LatencyHistogram, summarize } from '../report/histogram.js';
import { FAILED_PREFIX } from '../report/result-fields.js';
import type { BenchConfig, HistogramData, RunResult } from '../types.js';
import { timedRead } from './queries.js';
import { RunStop } from './run-stop.js';
import { clientActivity } from './client-activity.js';
import { keepErrors } from './run-error.js';
import { sessionOptions } from './session-options.js';

/**
 * One statement of a query file: `concurrency` pooled sessions each run it `repetitions` times, reading
 * every row; one RunResult with its latency and rows (failures keep the server's status code and message).
 * Ctrl-C (`interrupt`) or --test-max-time ends it early: no repetition starts after, those under way finish.
 */
export async function runQueryFileEntry(
  c: BenchConfig,
  e: QueryFileEntry,
  target: { host: string; port: number },
  interrupt: AbortSignal,
): Promise<RunResult> {
  const options = { ...sessionOptions(c, target), maxSize: e.concurrency };
  const pool =
    e.model === 'table' ? new TableSessionPool({ ...options, database: e.database }) : new SessionPool(options);
  // the statement's successes, and its failures apart (report/result-fields.ts FAILED_PREFIX)
  const okH = new LatencyHistogram();
  const failedH = new LatencyHistogram();
  const errors: string[] = [];
  let rows = 0;
  const cpu0 = process.cpuUsage();
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const stop = new RunStop(() => undefined, c.testMaxTime, interrupt);
  stop.timedPhaseStarted();
  let slowestNs = 0;
  const session = async () => {
    let totalNs = 0;
    for (let i = 0; i < e.repetitions && !stop.stopped; i++) {
      const read = await timedRead(() => pool.executeQueryStatement(e.sql));
      rows += read.rows;
      if (read.error === undefined) okH.record(read.ns);
      else {
        failedH.record(read.ns);
        keepErrors(errors, read.error);
      }
      totalNs += read.ns;
    }
    slowestNs = Math.max(slowestNs, totalNs);
  };
  try {
    await Promise.all(Array.from({ length: e.concurrency }, session));
  } finally {
    stop.dispose();
    await pool.close();
  }
  const client = clientActivity(pool.stats());
  const durationS = Math.max(1e-9, (performance.now() - t0) / 1000);
  const cpu = process.cpuUsage(cpu0);
  const [ok, failed] = [okH.count, failedH.count];
  // rows for what happened: the statement's own when some succeeded, 'failed <label>' when some failed
  const histograms: Record<string, HistogramData> = {};
  if (ok > 0) histograms[e.label] = okH.toData();
  if (failed > 0) histograms[FAILED_PREFIX + e.label] = failedH.toData();
  return {
    label: e.label,
    config: { ...c, model: e.model, database: e.database, workers: 1, clients: e.concurrency },
    startedAt,
    durationS,
    points: 0,
    okOps: ok,
    failedOps: failed,
    pointsPerS: 0,
    opsPerS: (ok + failed) / durationS,
    latency: summarize(histograms),
    histograms,
    // a session's time over all its repetitions, on the statement's row (its failures' when none succeeded)
    slowestClientMs: { [ok > 0 ? e.label : FAILED_PREFIX + e.label]: slowestNs / 1e6 },
    clientCpuS: (cpu.user + cpu.system) / 1e6,
    clientCpuSPerMpts: 0,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    throughput: [],
    errors,
    queries: { [e.label]: { ops: ok, failed, rows, rowsPerS: rows / durationS, latency: okH.summaryMs() } },
    queryFile: { sql: e.sql, concurrency: e.concurrency, repetitions: e.repetitions, line: e.line },
    client,
    ...(stop.reason && { stopped: stop.reason }),
  };
}
