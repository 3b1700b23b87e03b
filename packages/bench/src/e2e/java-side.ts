import { javaStatementLabel, type QueryFileEntry } from '../config/query-file.js';
import { formatErrors, resultLine } from '../report/format.js';
import {
  afterTheWrites,
  cpuSPerOperation,
  mainOperation,
  samePlan,
  serverCpuPerMillion,
} from '../report/result-fields.js';
import { START_LAG, UNCORRECTED_PREFIX } from '../latency-rows.js';
import { fixed, millis, times } from '../report/numbers.js';
import { p99OverTime } from '../report/over-time.js';
import { prepareDatabase } from '../run/database.js';
import { JavaInterrupted } from '../run/java-child.js';
import { JVM_CPU_STEP_S, jvmCpuMeasured } from '../run/jvm-cpu.js';
import { runJava } from '../run/java.js';
import { runJavaQueries } from '../run/java-queries.js';
import { entryStatements } from '../run/for-each-rows.js';
import { runJavaStatement } from '../run/java-query-file.js';
import { statementNotRun } from '../run/query-file.js';
import { addQueriesAfter, noWholeRoundNote } from '../run/queries.js';
import { RunError } from '../run/run-error.js';
import type { BenchConfig, Environment, QueryFigures, RunResult } from '../types.js';
import { hasQueries, readsOnly } from '../workload/operations.js';
import { runFailed } from './run-failed.js';
import type { Named } from './run-label.js';

/**
 * `--vs-java`: the Java client on ours' workload (a mixed run's very operations) and `--queries`, into
 * `--database` made afresh (unless `freshDatabase`: a fresh server, or none needed); its RESULT line and errors.
 * `failed`: its run failed as ours would (runFailed), or the Java client itself failed, which is said in one line;
 * ours' report and files stay either way. `interrupted`: Ctrl-C ended the Java client. It runs before ours or after
 * (`javaFirst`): the ratios are printed by printRatios once both have run.
 */
export async function runJavaSide(
  config: BenchConfig,
  target: { host: string; port: number; freshDatabase: boolean },
  environment: Environment,
  named: Named,
): Promise<{ java?: RunResult; failed: boolean; interrupted?: boolean }> {
  const { host, port } = target;
  if (!target.freshDatabase) await prepareDatabase(config, host, port); // a run of queries only keeps the data
  const mixed = hasQueries(config.operationProportion);
  const threads = `${config.workers * config.clients} thread(s)`;
  const when = config.javaFirst ? ' first,' : '';
  console.log(`running the Java client${when} on the same ${mixed ? 'operations' : 'workload'} (${threads}) ...`);
  let java: RunResult;
  try {
    const { result, fullRounds } = await runJava(config, host, port);
    java = { ...result, environment };
    if (config.queries.length > 0) {
      console.log(`the Java client's queries: the same ${config.queries.length} x ${config.queryLoops} statements ...`);
      const partial = noWholeRoundNote(config, fullRounds, "the Java client's");
      if (partial !== undefined) console.log(partial);
      addQueriesAfter(java, await runJavaQueries(config, { host, port, fullRounds }, java.errors));
    }
  } catch (e) {
    if (!(e instanceof RunError)) throw e;
    console.error(`iotdb-bench: ${e.message}; no comparison (ours is reported)`);
    return { failed: true, interrupted: e instanceof JavaInterrupted };
  }
  console.log(resultLine(named(java)));
  printJavaNotes(java);
  return { java, failed: runFailed(java) };
}

/**
 * `--query-file --vs-java`: the Java client on each statement of the file as ours runs it (java/QueryFile.java),
 * into the data there is (nothing made afresh); each run's RESULT line. `failed`: a statement it never read, or the
 * Java client failing, said in one line (the statements before stay compared); `interrupted`: Ctrl-C ended it.
 */
export async function runJavaStatements(
  config: BenchConfig,
  entries: readonly QueryFileEntry[],
  target: { host: string; port: number },
  environment: Environment,
  named: Named,
): Promise<{ java: RunResult[]; failed: boolean; interrupted?: boolean }> {
  const when = config.javaFirst ? ' first,' : '';
  console.log(`running the Java client${when} on the same ${entries.length} statement(s) ...`);
  const java: RunResult[] = [];
  for (const e of entries) {
    const listed = await entryStatements(config, e, target);
    if ('error' in listed) {
      java.push({ ...statementNotRun(config, e, javaStatementLabel(e.label), listed.error), environment });
      console.log(resultLine(named(java[java.length - 1])));
      continue;
    }
    try {
      java.push({ ...(await runJavaStatement(config, e, listed.shares, target)), environment });
    } catch (err) {
      if (!(err instanceof RunError)) throw err;
      console.error(`iotdb-bench: ${err.message}; no comparison from ${e.label} on (ours is reported)`);
      return { java, failed: true, interrupted: err instanceof JavaInterrupted };
    }
    const run = java[java.length - 1];
    console.log(resultLine(named(run)));
    printJavaNotes(run);
  }
  return { java, failed: java.some((r) => r.okOps === 0) };
}

/** What the Java client's RESULT line cannot say: its errors, and why the server's CPU was not measured under it. */
function printJavaNotes(java: RunResult): void {
  if (java.errors.length > 0) console.log(`the Java client's ${formatErrors(java.errors)}`);
  const note = javaServerCpuNote(java);
  if (note !== undefined) console.log(note);
}

/** Why the server's CPU under the Java client's run was not measured, when it was to be (a process gone). */
export function javaServerCpuNote(java: RunResult): string | undefined {
  const spent = java.serverCpu;
  return spent !== undefined && 'error' in spent
    ? `the Java client's run: server CPU not measured: ${spent.error}`
    : undefined;
}

/** ` (rows read differ: ours 10, Java 9)` when both sides' reads did not read the same (points when both have them). */
function readDifference(a: QueryFigures, b: QueryFigures): string {
  if (a.rows !== b.rows) return ` (rows read differ: ours ${a.rows}, Java ${b.rows})`;
  if (a.points !== undefined && b.points !== undefined && a.points !== b.points)
    return ` (points read differ: ours ${a.points}, Java ${b.points})`;
  return '';
}

/**
 * Each statement's ratios ours/Java, when both read it: reads/s, latency p50 and p99 (an open loop's also from each
 * read's start, and how late reads started), client CPU per read; and the rows (or points) each read when they
 * differ (the statement read the same data on both sides, to the end, unless the time limit ended one of them
 * early). Then, in a line of its own, its p99 over time beside the Java client's (three intervals or more).
 */
export function printStatementRatios(ours: readonly RunResult[], java: readonly RunResult[]): void {
  ours.forEach((mine, i) => {
    const theirs = java[i];
    if (theirs === undefined || mine.okOps === 0 || theirs.okOps === 0) return;
    const [a, b] = [mine.queries![mine.label], theirs.queries![theirs.label]];
    const [ua, ub] = [mine.latency[UNCORRECTED_PREFIX + mine.label], theirs.latency[UNCORRECTED_PREFIX + theirs.label]];
    const uncorrected = ua !== undefined && ub !== undefined ? `, uncorrected p50 ${times(ua.p50, ub.p50)}` : '';
    const lagRatio = startLag(mine, theirs);
    const lag = lagRatio === undefined ? '' : `, start lag ${lagRatio}`;
    const complete = [mine, theirs].every((r) => r.stopped === undefined && r.failedOps === 0);
    const rows = complete ? readDifference(a, b) : '';
    console.log(
      `ours/Java ${mine.label}: reads/s ${times(mine.opsPerS, theirs.opsPerS)}, latency p50 ${times(a.latency.p50, b.latency.p50)}, ` +
        `p99 ${times(a.latency.p99, b.latency.p99)}${uncorrected}${lag}, client CPU per read ${cpuRatio(cpuSPerOperation(mine), cpuSPerOperation(theirs), theirs)}${rows}`,
    );
    const overTime = p99Ratios(mine, theirs);
    if (overTime !== undefined) console.log(`ours/Java ${mine.label} p99 over time: ${overTime}`);
  });
}

/**
 * The server's CPU per point written (per row read, for a run of reads alone) under ours over that under the Java
 * client, with both figures; undefined unless both runs measured it (--server-pid, or the run's own local IoTDB).
 */
function serverCpuRatio(ours: RunResult, java: RunResult): string | undefined {
  const [a, b] = [serverCpuPerMillion(ours), serverCpuPerMillion(java)];
  if (a === null || b === null || a.of !== b.of) return undefined;
  const unit = a.of === 'points' ? 'point' : 'row';
  return `${unit}: ${times(a.seconds, b.seconds)} (${fixed(a.seconds, 3)} vs ${fixed(b.seconds, 3)} s per million ${a.of})`;
}

/** Ours' CPU figure over the Java client's, unless the JVM's clock measured too little of it to tell. */
function cpuRatio(ours: number, theirs: number, java: RunResult): string {
  if (jvmCpuMeasured(java.clientCpuS)) return times(ours, theirs);
  return `n/a (the Java client's ${fixed(java.clientCpuS, 2)} s: its clock counts ${JVM_CPU_STEP_S * 1000} ms steps)`;
}

/**
 * The ratios ours/Java: throughput and client CPU, then per operation. A mixed or paced run ran the very same
 * operations on both sides, so their latencies compare directly (an open loop's also from each operation's
 * actual start: `uncorrected`, and how late they started: `start lag`), and in a queries-only run their rows must
 * match (a difference is said); `--queries` after the writes compare rows/s, p50 and p99.
 */
export function printRatios(ours: RunResult, java: RunResult): void {
  const planned = samePlan(ours);
  console.log(
    planned
      ? `ours/Java ops/s: ${times(ours.opsPerS, java.opsPerS)}, points/s: ${times(ours.pointsPerS, java.pointsPerS)}, client CPU per operation: ${cpuRatio(cpuSPerOperation(ours), cpuSPerOperation(java), java)}`
      : `ours/Java points/s: ${times(ours.pointsPerS, java.pointsPerS)}, client CPU per point: ${cpuRatio(ours.clientCpuSPerMpts, java.clientCpuSPerMpts, java)}`,
  );
  // the writes: ours' method (insertTablet, insertRecords, ...) beside the Java client's calls of them
  const [write, javaWrite] = [mainOperation(ours)?.kind, mainOperation(java)?.kind];
  if (planned && write !== undefined && javaWrite !== undefined) printLatencyRatio(ours, java, [write, javaWrite], '');
  const server = serverCpuRatio(ours, java);
  if (server !== undefined) console.log(`ours/Java server CPU per ${server}`);
  const lag = startLag(ours, java);
  if (lag !== undefined) console.log(`ours/Java start lag: ${lag}`);
  const overTime = p99Ratios(ours, java);
  if (overTime !== undefined) console.log(`ours/Java p99 over time: ${overTime}`);
  for (const [kind, q] of Object.entries(java.queries ?? {})) {
    const mine = ours.queries?.[kind];
    if (mine === undefined || mine.ops === 0 || q.ops === 0) continue;
    if (afterTheWrites(ours, kind)) {
      const [a, b] = [mine.latency, q.latency];
      const latency = `p50 ${times(a.p50, b.p50)}, p99 ${times(a.p99, b.p99)}`;
      console.log(`ours/Java ${kind}: rows/s ${times(mine.rowsPerS, q.rowsPerS)}, ${latency}`);
      continue;
    }
    printLatencyRatio(ours, java, [kind, kind], sameRows(ours, java) ? readDifference(mine, q) : '');
  }
}

/**
 * `ours/Java <op>: latency p50 .., p99 ..[, uncorrected p50 ..]` of an operation named `op` in ours' latency and
 * `javaOp` in the Java client's, when both have it.
 */
function printLatencyRatio(ours: RunResult, java: RunResult, [op, javaOp]: [string, string], note: string): void {
  const [a, b] = [ours.latency[op], java.latency[javaOp]];
  if (a === undefined || b === undefined || a.count === 0 || b.count === 0) return;
  const [ua, ub] = [ours.latency[UNCORRECTED_PREFIX + op], java.latency[UNCORRECTED_PREFIX + javaOp]];
  const uncorrected = ua !== undefined && ub !== undefined ? `, uncorrected p50 ${times(ua.p50, ub.p50)}` : '';
  console.log(`ours/Java ${op}: latency p50 ${times(a.p50, b.p50)}, p99 ${times(a.p99, b.p99)}${uncorrected}${note}`);
}

/**
 * How late each side's open loop started its operations, when both recorded it: `p50 2.63x (0.402 vs 0.153 ms), p99
 * ...` (the times too: a ratio of fractions of a millisecond says little alone).
 */
function startLag(ours: RunResult, java: RunResult): string | undefined {
  const [a, b] = [ours.latency[START_LAG], java.latency[START_LAG]];
  if (a === undefined || b === undefined || a.count === 0 || b.count === 0) return undefined;
  return `${sideBySide('p50', a.p50, b.p50)}, ${sideBySide('p99', a.p99, b.p99)}`;
}

/**
 * Each side's typical and worst interval's p99 (p99OverTime), when both kept enough intervals: `typical 0.81x (4.150
 * vs 5.100 ms), worst 0.46x (...)`: whether one side's tail held where the other's had a spell.
 */
function p99Ratios(ours: RunResult, java: RunResult): string | undefined {
  const [a, b] = [p99OverTime(ours), p99OverTime(java)];
  if (a === null || b === null) return undefined;
  return `${sideBySide('typical', a.typicalMs, b.typicalMs)}, ${sideBySide('worst', a.worstMs, b.worstMs)}`;
}

/** `p50 2.63x (0.402 vs 0.153 ms)`: ours' ms against the Java client's, the times beside their ratio. */
function sideBySide(name: string, oursMs: number, javaMs: number): string {
  return `${name} ${times(oursMs, javaMs)} (${millis(oursMs)} vs ${millis(javaMs)} ms)`;
}

/**
 * Whether both sides must have read the same rows: a queries-only run read data that did not change, to the end.
 * With writes in the mix a range may take in rows the other clients are writing, which depends on their timing;
 * a run stopped early (--test-max-time, Ctrl-C) ran a different share of the operations.
 */
function sameRows(ours: RunResult, java: RunResult): boolean {
  return readsOnly(ours.config.operationProportion) && ours.stopped === undefined && java.stopped === undefined;
}
