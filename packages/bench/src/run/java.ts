import { fileURLToPath } from 'node:url';
import { MAX_I32, SESSION_DEFAULTS } from '@iotdb/client';
import type { BenchConfig, LatencySummary, QueryFigures, QueryKind, RunResult, Verify } from '../types.js';
import { FAILED_PREFIX, START_LAG, UNCORRECTED_PREFIX } from '../latency-rows.js';
import { byReportOrder } from '../report/latency-matrix.js';
import { hasQueries } from '../workload/operations.js';
import { sensorValuesRead } from '../workload/query-sql.js';
import { javaPlan } from './java-plan.js';
import { errorField, keyValues } from './key-values.js';
import { runJavaScript } from './java-child.js';
import { keepErrors, warmupQueryError } from './run-error.js';
import { processGone } from './server-cpu.js';
import { queryOptions } from './session-options.js';

const script = fileURLToPath(new URL('../../java/bench.sh', import.meta.url));

/**
 * `--vs-java`: the Java client (iotdb-session 2.0.1-beta, java/Bench.java) on the same anchor workload,
 * with as many writer threads as we have writers (workers x clients) and the same number of points; for a mixed
 * or paced run (`--operation-proportion` with queries, `--target-rate`, `--rate-limit`, `--batch-interval-ms`),
 * the very operations ours' clients ran, paced as ours (java/Mixed.java, the plan from javaPlan); ours' warm-up
 * either way. Its RESULT, MATRIX, INTERVAL, QTYPE and UNCORRECTED lines become a RunResult with what Java reports (no
 * histograms); its ROUNDS line, the rounds it wrote before its time limit stopped it.
 */
export async function runJava(
  c: BenchConfig,
  host: string,
  port: number,
): Promise<{ result: RunResult; fullRounds?: number }> {
  const plan = javaRunsPlan(c) ? { key: 'plan', lines: javaPlan(c) } : undefined;
  const out = await runJavaScript(script, javaArgs(c, host, port), plan);
  return { result: javaRun(out, c), fullRounds: javaFullRounds(out) };
}

/** Whether the Java client runs ours' operations from a plan: a mixed run, or a paced one (pacing needs the plan). */
export function javaRunsPlan(c: BenchConfig): boolean {
  return hasQueries(c.operationProportion) || pacing(c).length > 0;
}

/**
 * The rounds every device was written in (warm-up rounds included) by a run that stopped at its time limit before
 * writing them all (its ROUNDS line); undefined when it wrote every one.
 */
export function javaFullRounds(out: string): number | undefined {
  const line = out.split('\n').find((l) => l.startsWith('ROUNDS '));
  return line === undefined ? undefined : Number(keyValues(line).full);
}

/** Bench.java's pacing options (its plan's) for the run `c`'s knobs, those set only. */
function pacing(c: BenchConfig): string[] {
  const knobs: [string, number][] = [
    ['targetRate', c.targetRate],
    ['rateLimit', c.rateLimit],
    ['batchIntervalMs', c.batchIntervalMs],
  ];
  return knobs.filter(([, v]) => v > 0).map(([k, v]) => `${k}=${v}`);
}

/**
 * Bench.java's key=value options for the run `c` (its writers, points, model, method, database, time limit, warm-up
 * rounds, the server's processes whose CPU it measures, and the pacing of a planned run).
 */
export function javaArgs(c: BenchConfig, host: string, port: number): string[] {
  const method = javaMethod(c);
  const several = method !== 'insertTablet';
  return [
    `host=${host}`,
    `port=${port}`,
    `threads=${c.workers * c.clients}`,
    `points=${c.deviceCount * c.sensors * c.batchSize * c.loop}`,
    `mode=${c.model}`,
    `noop=${c.serverNoop}`,
    `verify=${c.verify}`,
    `method=${method}`,
    `call=${javaCall(c)}`,
    `tabletsPerRequest=${several ? c.tabletsPerRequest : 1}`,
    `database=${c.database}`,
    `maxTimeMs=${c.testMaxTime}`,
    `warmupRounds=${c.warmupRounds}`,
    `intervalMs=${c.reportIntervalMs}`,
    ...javaServerPids(c),
    ...javaConnectArgs(c),
    ...pacing(c),
  ];
}

/**
 * How the Java client connects as ours does (java/Connect.java): the compact protocol, TLS through its trust store,
 * the query timeout of --query-timeout-ms, and its queries on its node alone (enableAutoFetch off) when ours do not
 * spread theirs or learn the nodes (the Java client knows its one node only: it spreads over the nodes it learns),
 * and its writes on its node too (enableRedirection off) when ours do not follow redirects. It waits for a reply as
 * long as ours waits for a query's (its socket timeout; the Java Session's default is none, and a read a server never
 * answered, as one sent at the instant another DataNode died, held its thread, and so the run, without end).
 */
export function javaConnectArgs(
  c: Pick<BenchConfig, 'rpcCompression' | 'tls' | 'javaTrustStore'> &
    Partial<Pick<BenchConfig, 'queryTimeoutMs' | 'spreadQueries' | 'discoverNodes' | 'redirection'>>,
): string[] {
  return [
    ...(c.spreadQueries === false || c.discoverNodes === false ? ['autoFetch=false'] : []),
    ...(c.redirection === false ? ['redirection=false'] : []),
    ...(c.rpcCompression ? ['compression=true'] : []),
    ...(c.tls && c.javaTrustStore !== undefined ? [`trustStore=${c.javaTrustStore}`] : []),
    ...(c.queryTimeoutMs !== undefined ? [`queryTimeout=${c.queryTimeoutMs}`] : []),
    `replyTimeout=${replyWaitMs(c.queryTimeoutMs)}`,
  ];
}

/** How long ours waits for a query's reply (0: without end), as a Java int. */
function replyWaitMs(queryTimeoutMs: number | undefined): number {
  const ms = queryOptions({ queryTimeoutMs }).timeoutMs ?? SESSION_DEFAULTS.requestTimeoutMs;
  return Math.min(ms, MAX_I32);
}

/**
 * The Java client's call for ours' method, which names its writes: one insertTablets or insertRecords call of
 * --tablets-per-request devices, as ours; it has no call writing several devices in parallel
 * (insertTabletsParallel) nor a batching writer: insertTablet, a call per device.
 */
function javaMethod(c: BenchConfig): 'insertTablet' | 'insertTablets' | 'insertRecords' {
  return c.method === 'insertTablets' || c.method === 'insertRecords' ? c.method : 'insertTablet';
}

/**
 * What the Java client's writes are named, as ours are by our call: its method's, and in the table model its
 * ITableSession.insert (ours' TableSession.insert), whichever method groups an operation's devices.
 */
function javaCall(c: BenchConfig): string {
  return c.model === 'table' ? 'insert' : javaMethod(c);
}

/**
 * The RunResult of java/bench.sh's output: its RESULT, MATRIX (latency ms, peak RSS) and VERIFY lines, FAILED and
 * QERROR lines (a kind of operation that failed: its failures' latencies, its first error), and a mixed run's QTYPE
 * lines (a query type's figures).
 */
export function javaRun(out: string, c: BenchConfig): RunResult {
  const lines = out.split('\n');
  const line = (word: string) => {
    const found = lines.find((l) => l.startsWith(`${word} `));
    if (found === undefined) throw new Error(`java/bench.sh printed no ${word} line:\n${out}`);
    return keyValues(found);
  };
  const kv = line('RESULT');
  const matrix = line('MATRIX');
  const num = (k: string) => Number(kv[k] ?? NaN);
  const writes = latencyOf(matrix);
  const durationS = num('wall_s');
  const errors: string[] = [];
  const queries = queryTypes(lines, durationS, c.model, errors);
  const failures = failedKinds(lines);
  const okOps = writes.count + Object.values(queries).reduce((n, q) => n + q.ops, 0);
  const failedOps = Object.values(failures).reduce((n, f) => n + f.count, 0);
  const verify = javaVerify(lines);
  return {
    ...(verify !== undefined && { verify }),
    label: 'java',
    config: c,
    // about its timed phase's start: its output is read after that phase (and the untimed verify and flush)
    startedAt: new Date(Date.now() - (Number.isFinite(durationS) ? durationS * 1000 : 0)).toISOString(),
    durationS,
    points: num('points'),
    okOps,
    failedOps,
    pointsPerS: num('points_per_s'),
    opsPerS: okOps / durationS,
    latency: {
      // a queries-only run has no write row, as ours
      ...((writes.count > 0 || Object.keys(queries).length === 0) && { [javaCall(c)]: writes }),
      ...Object.fromEntries(Object.entries(queries).flatMap(([k, q]) => (q.ops > 0 ? [[k, q.latency]] : []))),
      ...failures,
      ...uncorrected(lines),
      ...startLag(lines),
    },
    histograms: {},
    clientCpuS: num('client_cpu_s'),
    clientCpuSPerMpts: num('client_cpu_s_per_Mpts'),
    ...javaServerCpu(kv, c.serverPid),
    ...javaServerCores(lines),
    peakRssMb: Number(matrix.peak_rss_mb), // NaN where the JVM had no /proc ("n/a")
    ...javaOverTime(lines),
    errors,
    ...(Object.keys(queries).length > 0 && { queries }),
    ...(kv.stopped === 'test-max-time' && { stopped: 'test-max-time' as const }),
  };
}

/** The server's processes whose CPU the Java client measures over its timed phase, as ours' run does. */
export function javaServerPids(c: Pick<BenchConfig, 'serverPid'>): string[] {
  return c.serverPid === undefined ? [] : [`serverPids=${c.serverPid.join(',')}`];
}

/**
 * The server's CPU over the Java client's timed phase, as its RESULT (or QSTMT) line gives it (server_cpu_s, or
 * server_cpu_gone=PID@start|end for a process it could not read), when it was given the server's `pids`.
 */
export function javaServerCpu(kv: Record<string, string>, pids: number[] | undefined): Pick<RunResult, 'serverCpu'> {
  if (pids === undefined) return {};
  const gone = /^(\d+)@(start|end)$/.exec(kv.server_cpu_gone ?? '');
  if (gone !== null) return { serverCpu: { pids, error: processGone(Number(gone[1]), gone[2]) } };
  const seconds = Number(kv.server_cpu_s);
  return Number.isFinite(seconds) ? { serverCpu: { pids, seconds } } : {};
}

/**
 * The SERVER lines (Bench.java's ServerSampler: the server's cores per interval of its timed phase, or of a query-file
 * statement's reads); none: none.
 */
export function javaServerCores(lines: readonly string[]): Pick<RunResult, 'serverCoresOverTime'> {
  const samples = lines
    .filter((l) => l.startsWith('SERVER '))
    .map(keyValues)
    .map((kv): [number, number] => [Number(kv.at_s), Number(kv.cores)]);
  return samples.length > 0 ? { serverCoresOverTime: samples } : {};
}

/**
 * The INTERVAL lines (java/Timeline.java: the operations that ended in each --report-interval-ms of the timed phase)
 * as ours' latency and failures over time (at the interval's end) and points/s over the run (at the end of its part
 * in the phase, as ours' last sample); none printed (output from before them): none of them.
 */
export function javaOverTime(
  lines: readonly string[],
): Pick<RunResult, 'latencyOverTime' | 'failuresOverTime' | 'throughput'> {
  const intervals = lines.filter((l) => l.startsWith('INTERVAL ')).map(keyValues);
  const latencyOverTime = intervals
    .filter((kv) => Number(kv.ops) > 0) // failures alone: no latency
    .map((kv): NonNullable<RunResult['latencyOverTime']>[number] => {
      const n = (k: string) => Number(kv[k]);
      return [n('at_s'), n('ops'), n('p50'), n('p99'), n('max')];
    });
  const failuresOverTime = intervals
    .filter((kv) => Number(kv.failed) > 0)
    .map((kv): [number, number] => [Number(kv.at_s), Number(kv.failed)]);
  return {
    ...(intervals.length > 0 && { latencyOverTime, failuresOverTime }),
    // as ours' samples, an interval that wrote nothing has none
    throughput: intervals
      .filter((kv) => Number(kv.points) > 0)
      .map((kv): [number, number] => [Number(kv.to_s), Number(kv.points_per_s)]),
  };
}

/** A MATRIX or QTYPE line's latency matrix (ms). */
export function latencyOf(kv: Record<string, string>): LatencySummary {
  const ms = (k: keyof LatencySummary) => Number(kv[k] ?? NaN);
  return {
    count: Number(kv.ops),
    min: ms('min'),
    avg: ms('avg'),
    p10: ms('p10'),
    p25: ms('p25'),
    p50: ms('p50'),
    p75: ms('p75'),
    p90: ms('p90'),
    p95: ms('p95'),
    p99: ms('p99'),
    p999: ms('p999'),
    max: ms('max'),
  };
}

/** The VERIFY line: the count read back against the points expected, or why it could not be read. */
function javaVerify(lines: readonly string[]): Verify | undefined {
  const line = lines.find((l) => l.startsWith('VERIFY '));
  if (line === undefined) return undefined;
  const kv = keyValues(line);
  const expected = Number(kv.expected);
  if (kv.error !== undefined) return { expected, ok: false, error: `the Java client: ${errorField(line)}` };
  return { expected, actual: Number(kv.count), ok: kv.count === kv.expected };
}

/** The latencies of each kind of operation that failed (FAILED lines), named as ours' ("failed insertTablet"). */
function failedKinds(lines: readonly string[]): Record<string, LatencySummary> {
  const rows = lines.filter((l) => l.startsWith('FAILED ')).map(keyValues);
  return Object.fromEntries(rows.map((kv) => [FAILED_PREFIX + kv.kind, latencyOf(kv)]));
}

/** An open-loop run's latencies from each operation's actual start (UNCORRECTED lines), named as ours'. */
function uncorrected(lines: readonly string[]): Record<string, LatencySummary> {
  const rows = lines.filter((l) => l.startsWith('UNCORRECTED ')).map(keyValues);
  return Object.fromEntries(rows.map((kv) => [UNCORRECTED_PREFIX + kv.kind, latencyOf(kv)]));
}

/** An open-loop run's START_LAG line (how late its operations started) as ours' row. */
function startLag(lines: readonly string[]): Record<string, LatencySummary> {
  const line = lines.find((l) => l.startsWith('START_LAG '));
  return line === undefined ? {} : { [START_LAG]: latencyOf(keyValues(line)) };
}

/**
 * A mixed run's query types (QTYPE lines; rows/s over the run, as ours'); QERROR lines, and WERROR lines (a query of
 * the warm-up that failed), kept in `errors`.
 */
function queryTypes(
  lines: readonly string[],
  durationS: number,
  model: BenchConfig['model'],
  errors: string[],
): Record<string, QueryFigures> {
  const out: Record<string, QueryFigures> = {};
  for (const l of lines) {
    if (l.startsWith('QERROR ')) {
      keepErrors(errors, `the Java client: ${keyValues(l).kind}: ${errorField(l)}`);
    }
    if (l.startsWith('WERROR ')) {
      keepErrors(errors, `the Java client: ${warmupQueryError(keyValues(l).kind)}: ${errorField(l)}`);
    }
    if (!l.startsWith('QTYPE ')) continue;
    const kv = keyValues(l);
    const rows = Number(kv.rows);
    const { points } = pointsOf(kv);
    out[kv.kind] = {
      ops: Number(kv.ops),
      failed: Number(kv.failed),
      rows,
      rowsPerS: rows / durationS,
      ...(points !== undefined && { points: sensorValuesRead(model, kv.kind as QueryKind, { rows, points }) }),
      latency: latencyOf(kv),
    };
  }
  // in the report's order, as ours' (Mixed.java prints them by name): the tables and the ratios list them alike
  return Object.fromEntries(byReportOrder(Object.keys(out)).map((kind) => [kind, out[kind]]));
}

/** A Java line's `points=` (the non-null values its reads looked at), when it printed one. */
export function pointsOf(kv: Record<string, string>): { points?: number } {
  return kv.points === undefined ? {} : { points: Number(kv.points) };
}
