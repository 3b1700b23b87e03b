import { SessionPool, TableSessionPool } from '@iotdb/client';
import type { QueryFileEntry } from '../config/query-file.js';
import { LatencyHistogram, summarize } from '../report/histogram.js';
import { FAILED_PREFIX, UNCORRECTED_PREFIX } from '../report/result-fields.js';
import type { BenchConfig, HistogramData, RunResult } from '../types.js';
import { timedRead } from './queries.js';
import { RunStop } from './run-stop.js';
import { realClock } from './clock.js';
import { runStatementSessions, type ReadDone } from './statement-sessions.js';
import { clientActivity } from './client-activity.js';
import { keepErrors } from './run-error.js';
import { sessionOptions } from './session-options.js';

/**
 * One statement of a query file: `concurrency` pooled sessions each run it `repetitions` times, reading
 * every row, paced by --target-rate (open loop) or --batch-interval-ms; one RunResult with its latency and rows
 * (failures keep the server's status code and message).
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
  // the statement's successes, and its failures apart (report/result-fields.ts FAILED_PREFIX); with
  // --target-rate, the successes' latency from their due time and, apart, from their start
  const okH = new LatencyHistogram();
  const failedH = new LatencyHistogram();
  const uncorrectedH = new LatencyHistogram();
  const errors: string[] = [];
  let rows = 0;
  const sessionNs = new Array<number>(e.concurrency).fill(0);
  const done = (d: ReadDone) => {
    rows += d.rows;
    sessionNs[d.session] += d.latencyNs;
    if (d.error === undefined) {
      okH.record(d.latencyNs);
      if (d.uncorrectedNs !== undefined) uncorrectedH.record(d.uncorrectedNs);
    } else {
      failedH.record(d.latencyNs);
      keepErrors(errors, d.error);
    }
  };
  const cpu0 = process.cpuUsage();
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const stop = new RunStop(() => undefined, c.testMaxTime, interrupt);
  stop.timedPhaseStarted();
  try {
    const read = () => timedRead(() => pool.executeQueryStatement(e.sql));
    const pacing = { targetRate: c.targetRate, pauseMs: c.batchIntervalMs };
    await runStatementSessions({ ...e, read, done }, pacing, realClock, () => stop.stopped);
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
  if (uncorrectedH.count > 0) histograms[UNCORRECTED_PREFIX + e.label] = uncorrectedH.toData();
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
    slowestClientMs: { [ok > 0 ? e.label : FAILED_PREFIX + e.label]: Math.max(...sessionNs) / 1e6 },
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
