import { Session, SessionPool, TableSession, TableSessionPool, type SessionDataSet } from '@iotdb/client';
import { plannedReads, statementCount } from '../config/for-each.js';
import { readOnly, warmUpReads, type QueryFileEntry } from '../config/query-file.js';
import { readsProgressParts } from '../report/format.js';
import { clientIntervalMs } from '../report/open-loop.js';
import { LatencyHistogram, summarize } from '../report/histogram.js';
import { FAILED_PREFIX, START_LAG, TRACED_PREFIX, UNCORRECTED_PREFIX } from '../latency-rows.js';
import type { BenchConfig, ClientActivity, HistogramData, RunResult, ServerCpuSpent } from '../types.js';
import { timedRead, untimedReads } from './queries.js';
import { ProgressPrinter } from './progress-printer.js';
import { RunStop, timeLimitLeft } from './run-stop.js';
import { realClock } from './clock.js';
import { IntervalLatency, overTime } from './interval-latency.js';
import { NextDueTimes, overdueMs } from './pacing.js';
import { ServerCoresSampler } from './server-cores.js';
import { serverCpuWindow } from './server-cpu.js';
import { runStatementSessions, type ReadDone, type StatementRead } from './statement-sessions.js';
import { queryLatencies, traceClient, withPoolWait } from './trace.js';
import { clientActivity } from './client-activity.js';
import { keepErrors, reachedNoNode } from './run-error.js';
import { queryOptions, sessionOptions } from './session-options.js';

/**
 * One statement of a query file: `concurrency` pooled sessions each run it `repetitions` times, reading
 * every row, paced by --target-rate (open loop) or --batch-interval-ms; one RunResult with its latency and rows
 * (failures keep the server's status code and message).
 * Ctrl-C (`interrupt`), --test-max-time or a read that reached no node in its retry budget ends it early: no
 * repetition starts after, those under way finish.
 */
export async function runQueryFileEntry(
  c: BenchConfig,
  e: QueryFileEntry,
  shares: string[][],
  target: { host: string; port: number },
  interrupt: AbortSignal,
): Promise<RunResult> {
  const options = { ...sessionOptions(c, target), maxSize: shares.length };
  const pool =
    e.model === 'table' ? new TableSessionPool({ ...options, database: e.database }) : new SessionPool(options);
  const tally = new StatementTally(e.label, shares.length, c.reportIntervalMs);
  await warmUp(c, e, shares[0][0], target);
  const cpu0 = process.cpuUsage();
  // with --server-pid: its CPU over the reads, and its cores busy each interval (as a write run samples them)
  const server = c.serverPid && new ServerCoresSampler(serverCpuWindow(c.serverPid));
  const sampling = server && setInterval(() => server.sample(), c.reportIntervalMs);
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  tally.timedPhaseStarts();
  const stop = new RunStop(() => undefined, c.testMaxTime, interrupt);
  stop.timedPhaseStarted();
  const endProgress = showReadsProgress(c, tally, plannedReads(shares, e.repetitions), shares.length);
  // --trace: subscribed as a tracing library would be (its cost paid), and each read's pool wait from its trace
  const untrace = c.trace ? traceClient(() => undefined) : undefined;
  let serverCpu: ServerCpuSpent | undefined;
  try {
    const read = statementRead(pool, e, tally, c, () => stop.unreachable());
    const pacing = { targetRate: c.targetRate, pauseMs: c.batchIntervalMs };
    const sessions = { shares, repetitions: e.repetitions, read, done: tally.done, nextDue: tally.nextDue };
    await runStatementSessions(sessions, pacing, realClock, () => stop.stopped);
    serverCpu = server?.sample();
  } finally {
    clearInterval(sampling);
    untrace?.();
    endProgress();
    stop.dispose();
    await pool.close();
  }
  const cpu = process.cpuUsage(cpu0);
  return entryResult(c, e, shares, tally, {
    startedAt,
    durationS: Math.max(1e-9, (performance.now() - t0) / 1000),
    clientCpuS: (cpu.user + cpu.system) / 1e6,
    serverCpu,
    serverCoresOverTime: server?.samples ?? [],
    client: clientActivity(pool.stats()),
    stop,
  });
}

/** What a statement's timed reads measured beside its tally: when and how long, the CPU, the pool, why it stopped. */
interface EntryMeasures {
  startedAt: string;
  durationS: number;
  clientCpuS: number;
  serverCpu: ServerCpuSpent | undefined;
  /** [seconds into the reads, the server's cores busy over the interval before] (none without --server-pid) */
  serverCoresOverTime: [number, number][];
  client: ClientActivity;
  stop: RunStop;
}

/** The statement's run: its reads' counts, rows, latency and rate from `tally`, and what else was measured. */
function entryResult(
  c: BenchConfig,
  e: QueryFileEntry,
  shares: string[][],
  tally: StatementTally,
  m: EntryMeasures,
): RunResult {
  const { startedAt, durationS, serverCpu, stop } = m;
  const [ok, failed] = [tally.ok.count, tally.failed.count];
  const histograms = tally.histograms();
  const slowestMs = Math.max(...tally.sessionNs) / 1e6;
  const query = tally.answered === null ? undefined : tally.answered === 'result set';
  return {
    ...statementRun(c, e, e.label, { startedAt, durationS, ok, failed, slowestMs, query }, shares),
    latency: summarize(histograms),
    histograms,
    ...overTime([tally.overTime.tally()], c.reportIntervalMs),
    clientCpuS: m.clientCpuS,
    ...(serverCpu && { serverCpu }),
    ...(m.serverCoresOverTime.length > 0 && { serverCoresOverTime: m.serverCoresOverTime }),
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    errors: tally.errors,
    queries: {
      [e.label]: {
        ops: ok,
        failed,
        rows: tally.rows,
        rowsPerS: tally.rows / durationS,
        points: tally.points,
        latency: tally.ok.summaryMs(),
      },
    },
    client: m.client,
    ...(stop.reason && { stopped: stop.reason }),
    ...(stop.signal && { interruptedBy: stop.signal }),
  };
}

/**
 * What every run of a query-file statement says alike, ours' or the Java client's (labelled `label`): its statement's
 * model and sessions (one per share of its statements), its time, its reads ok and failed and their rate, nothing
 * written, the slowest session's time in its reads, on the statement's row (its failures' when none succeeded), and
 * the statement (`query`: whether the server answered it with a result set, once it answered; with forEach, how
 * many statements it stood for: `shares`, absent when it read none).
 */
export function statementRun(
  c: BenchConfig,
  e: QueryFileEntry,
  label: string,
  r: { startedAt: string; durationS: number; ok: number; failed: number; slowestMs: number; query?: boolean },
  shares?: readonly (readonly string[])[],
) {
  const sessions = shares?.length ?? e.concurrency;
  return {
    label,
    config: { ...c, model: e.model, database: e.database, workers: 1, clients: sessions },
    startedAt: r.startedAt,
    durationS: r.durationS,
    points: 0,
    okOps: r.ok,
    failedOps: r.failed,
    pointsPerS: 0,
    opsPerS: r.ok / r.durationS,
    slowestClientMs: { [r.ok > 0 ? label : FAILED_PREFIX + label]: r.slowestMs },
    clientCpuSPerMpts: 0,
    throughput: [] as [number, number][],
    queryFile: {
      sql: e.sql,
      row: label,
      concurrency: sessions,
      repetitions: e.repetitions,
      line: e.line,
      ...(e.forEach !== undefined && { forEach: e.forEach }),
      ...(e.forEach !== undefined && shares !== undefined && { statements: statementCount(shares) }),
      ...(r.query !== undefined && { query: r.query }),
    },
  } satisfies Partial<RunResult>;
}

/**
 * An entry that read nothing: forEach's query failed or gave no statement (`error` says which). Its run has no
 * reads, the error, and exits the run with 1 as a statement whose reads all failed.
 */
export function statementNotRun(c: BenchConfig, e: QueryFileEntry, label: string, error: string): RunResult {
  const r = { startedAt: new Date().toISOString(), durationS: 1e-9, ok: 0, failed: 0, slowestMs: 0 };
  return {
    ...statementRun(c, e, label, r),
    latency: {},
    histograms: {},
    clientCpuS: 0,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    errors: [error],
    queries: {},
  };
}

/**
 * warmUpReads(c) untimed reads on a session of their own before the timed ones, as the Java client's
 * (java/QueryFile.java): the (first) statement when it only reads, else SHOW VERSION. They warm the client and the server
 * alike, and each timed session still connects with its first read.
 */
async function warmUp(
  c: BenchConfig,
  e: QueryFileEntry,
  first: string,
  target: { host: string; port: number },
): Promise<void> {
  const reads = warmUpReads(c);
  if (reads === 0) return;
  const options = sessionOptions(c, target);
  const session = e.model === 'table' ? new TableSession({ ...options, database: e.database }) : new Session(options);
  const sql = readOnly(first) ? first : 'SHOW VERSION';
  try {
    await session.open();
    const perQuery = queryOptions(c);
    const read = () => session.executeQueryStatement(sql, perQuery);
    await untimedReads(
      Array.from({ length: reads }, () => read),
      c.retryMaxMs,
    );
  } catch {
    // a session that does not open: the timed reads say why
  } finally {
    await session.close().catch(() => undefined);
  }
}

/**
 * The statement's progress line (reads done of all, their rate, rows, whether an open loop keeps its schedule,
 * errors, ETA), sampled every --report-interval-ms and shown as ProgressPrinter says (as a write run's). Returns
 * what ends it.
 */
function showReadsProgress(c: BenchConfig, tally: StatementTally, totalReads: number, sessions: number): () => void {
  const printer = new ProgressPrinter(c.progress);
  const t0 = performance.now();
  let last = { t: t0, reads: 0 };
  const timer = setInterval(() => {
    const now = performance.now();
    const reads = tally.ok.count + tally.failed.count;
    const nowReadsPerS = ((reads - last.reads) * 1000) / Math.max(1, now - last.t);
    last = { t: now, reads };
    const elapsedS = (now - t0) / 1000;
    // an open loop: behind once later than a session's interval between reads (its sessions are its clients)
    const schedule = c.targetRate > 0 && {
      schedule: { behindMs: tally.behindMs(), slackMs: clientIntervalMs({ ...c, workers: 1, clients: sessions }) },
    };
    printer.print(() =>
      readsProgressParts({
        reads,
        totalReads,
        rows: tally.rows,
        elapsedS,
        nowReadsPerS,
        errors: tally.failed.count,
        ...schedule,
        ...timeLimitLeft(c.testMaxTime, elapsedS),
      }),
    );
  }, c.reportIntervalMs);
  return () => {
    clearInterval(timer);
    printer.end();
  };
}

/**
 * A read of the statement to its end (under --query-timeout-ms); what the server answered with goes to the tally,
 * and with --trace its first reply, decode, fetch waits and the rest; `reachedNoNodeAt` is called when it reached no
 * node in its retry budget.
 */
function statementRead(
  pool: SessionPool | TableSessionPool,
  e: QueryFileEntry,
  tally: StatementTally,
  c: Pick<BenchConfig, 'trace' | 'queryTimeoutMs' | 'retryMaxMs'>,
  reachedNoNodeAt: () => void,
): StatementRead {
  const perQuery = queryOptions(c);
  return async (sql) => {
    const started = performance.now();
    let firstReplyMs = 0;
    let poolWaitMs = 0;
    let ds: SessionDataSet | undefined;
    const read = await timedRead(async () => {
      [ds, poolWaitMs] = await withPoolWait(() => pool.executeQueryStatement(sql, perQuery));
      firstReplyMs = performance.now() - started;
      // a statement that is not a query leaves nothing open on the server: its data set is closed from the start
      tally.answered ??= ds.isClosed ? 'no result set' : 'result set';
      return ds;
    });
    const totalMs = performance.now() - started;
    if (reachedNoNode(read.cause, c.retryMaxMs)) reachedNoNodeAt();
    if (c.trace && ds !== undefined && read.error === undefined)
      for (const [kind, ms] of queryLatencies(e.label, { poolWaitMs, firstReplyMs }, totalMs, ds.readStats()))
        (tally.traced[TRACED_PREFIX + kind] ??= new LatencyHistogram()).record(ms * 1e6);
    return read;
  };
}

/**
 * What a statement's reads came to: its successes' latency (from the due time with --target-rate; from the start
 * apart, as 'uncorrected'; how late each read started, as 'start lag'), its failures' apart
 * (report/result-fields.ts), --trace's phases, rows, points, errors, and each session's time spent in its reads (from
 * their start: not the wait for their turn).
 */
export class StatementTally {
  readonly ok = new LatencyHistogram();
  readonly failed = new LatencyHistogram();
  readonly uncorrected = new LatencyHistogram();
  /** with --target-rate, how late each read started (failed ones too) */
  readonly startLag = new LatencyHistogram();
  /** with --target-rate, each session's next due time while it has reads left */
  readonly nextDue = new NextDueTimes();
  /** the reads, per --report-interval-ms: the successes' latency, the failures counted apart */
  readonly overTime: IntervalLatency;
  /** when the timed reads started (realClock) */
  #startNs = realClock.now();
  /** 'traced <label>: first reply', ... */
  readonly traced: Record<string, LatencyHistogram> = {};
  readonly errors: string[] = [];
  rows = 0;
  /** the non-null values read */
  points = 0;
  /** what the server answered the statement with, once it answered */
  answered: 'result set' | 'no result set' | null = null;
  readonly sessionNs: number[];

  constructor(
    private readonly label: string,
    concurrency: number,
    intervalMs: number,
  ) {
    this.sessionNs = new Array<number>(concurrency).fill(0);
    this.overTime = new IntervalLatency(intervalMs);
  }

  /** The timed reads start now: latency over time counts from here. */
  timedPhaseStarts(): void {
    this.#startNs = realClock.now();
  }

  readonly done = (d: ReadDone): void => {
    this.rows += d.rows;
    this.points += d.points;
    this.sessionNs[d.session] += d.uncorrectedNs ?? d.latencyNs; // the time it spent reading, not waiting its turn
    if (d.uncorrectedNs !== undefined) this.startLag.record(Math.max(0, d.latencyNs - d.uncorrectedNs));
    const sinceStartMs = (realClock.now() - this.#startNs) / 1e6;
    if (d.error === undefined) {
      this.ok.record(d.latencyNs);
      this.overTime.record(d.latencyNs, sinceStartMs);
      if (d.uncorrectedNs !== undefined) this.uncorrected.record(d.uncorrectedNs);
    } else {
      this.failed.record(d.latencyNs);
      this.overTime.fail(sinceStartMs);
      keepErrors(this.errors, d.error);
    }
  };

  /** How far behind its schedule the statement's reads are now (its earliest due read not started), ms. */
  behindMs(): number {
    return overdueMs(this.nextDue.earliest(), realClock.now());
  }

  /** Rows for what happened: the statement's own when some succeeded, 'failed <label>' when some failed, ... */
  histograms(): Record<string, HistogramData> {
    const rows: Record<string, HistogramData> = {};
    if (this.ok.count > 0) rows[this.label] = this.ok.toData();
    if (this.failed.count > 0) rows[FAILED_PREFIX + this.label] = this.failed.toData();
    if (this.uncorrected.count > 0) rows[UNCORRECTED_PREFIX + this.label] = this.uncorrected.toData();
    for (const [kind, h] of Object.entries(this.traced)) rows[kind] = h.toData();
    if (this.startLag.count > 0) rows[START_LAG] = this.startLag.toData();
    return rows;
  }
}
