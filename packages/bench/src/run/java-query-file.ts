import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { plannedReads } from '../config/for-each.js';
import { javaStatementLabel, type QueryFileEntry } from '../config/query-file.js';
import { FAILED_PREFIX, START_LAG, UNCORRECTED_PREFIX } from '../latency-rows.js';
import type { BenchConfig, RunResult } from '../types.js';
import { runJavaScript } from './java-child.js';
import {
  javaConnectArgs,
  javaOverTime,
  javaServerCores,
  javaServerCpu,
  javaServerPids,
  latencyOf,
  pointsOf,
} from './java.js';
import { errorField, keyValues } from './key-values.js';
import { readOnly, warmUpReads } from '../config/query-file.js';
import { statementRun } from './query-file.js';

const script = fileURLToPath(new URL('../../java/query-file.sh', import.meta.url));

/**
 * The Java client on one statement of the query file (java/QueryFile.java), as ours runs it: its sessions (each
 * its share of forEach's statements), repetitions, paced by --target-rate or --batch-interval-ms, ended by
 * --test-max-time.
 */
export async function runJavaStatement(
  c: BenchConfig,
  e: QueryFileEntry,
  shares: string[][],
  target: { host: string; port: number },
): Promise<RunResult> {
  const dir = e.forEach === undefined ? undefined : mkdtempSync(join(tmpdir(), 'iotdb-bench-'));
  try {
    const sharesFile = dir === undefined ? undefined : writeShares(join(dir, 'statements.txt'), shares);
    const out = await runJavaScript(script, javaStatementArgs(c, e, target, sharesFile));
    return javaStatementRun(out, c, e, shares);
  } finally {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }
}

/** forEach's statements for QueryFile.java: a line each, `<session> <the statement in base64>` (any text goes). */
function writeShares(path: string, shares: readonly (readonly string[])[]): string {
  const lines = shares.flatMap((share, k) => share.map((sql) => `${k} ${Buffer.from(sql).toString('base64')}\n`));
  writeFileSync(path, lines.join(''));
  return path;
}

/**
 * QueryFile.java's key=value options for the statement `e` of the run `c`; `sharesFile`: forEach's statements
 * (writeShares), read instead of `sql=`, one session per share.
 */
export function javaStatementArgs(
  c: BenchConfig,
  e: QueryFileEntry,
  target: { host: string; port: number },
  sharesFile?: string,
): string[] {
  return [
    `host=${target.host}`,
    `port=${target.port}`,
    ...(sharesFile === undefined ? [`threads=${e.concurrency}`] : [`statements=${sharesFile}`]),
    `reps=${e.repetitions}`,
    ...javaConnectArgs(c),
    ...javaServerPids(c),
    ...(e.model === 'table' ? ['table=true', `database=${e.database}`] : []),
    ...(c.targetRate > 0 ? [`rate=${c.targetRate}`] : []),
    ...(c.batchIntervalMs > 0 ? [`pause=${c.batchIntervalMs}`] : []),
    ...(c.testMaxTime > 0 ? [`maxms=${c.testMaxTime}`] : []),
    `intervalMs=${c.reportIntervalMs}`,
    `warm=${warmUpReads(c)}`,
    // a statement that changes something: the Java client's call for it, SHOW VERSION to warm up
    ...(readOnly(e.sql) ? [] : ['query=false']),
    ...(sharesFile === undefined ? [`sql=${e.sql}`] : []),
  ];
}

/**
 * The RunResult of QueryFile.java's output, named as ours' run of the statement is (its rows under
 * `javaStatementLabel`): its QSTMT line (counts, time, CPU and the matrix of the reads that succeeded), its INTERVAL
 * lines (latency over time), and its QSTMT_UNCORRECTED, QSTMT_START_LAG, FAILED and QERROR lines when it
 * printed them.
 */
export function javaStatementRun(
  out: string,
  c: BenchConfig,
  e: QueryFileEntry,
  shares: readonly (readonly string[])[],
): RunResult {
  const lines = out.split('\n');
  const found = (word: string) => lines.find((l) => l.startsWith(`${word} `));
  const stmt = found('QSTMT');
  if (stmt === undefined) throw new Error(`java/query-file.sh printed no QSTMT line:\n${out}`);
  const kv = keyValues(stmt);
  const label = javaStatementLabel(e.label);
  const [ok, failed, rows, durationS] = [Number(kv.ok), Number(kv.failed), Number(kv.rows), Number(kv.wall_s)];
  const [uncorrected, failures, error] = [found('QSTMT_UNCORRECTED'), found('FAILED'), found('QERROR')];
  const lag = found('QSTMT_START_LAG');
  const latency = {
    ...(ok > 0 && { [label]: latencyOf(kv) }),
    ...(uncorrected !== undefined && ok > 0 && { [UNCORRECTED_PREFIX + label]: latencyOf(keyValues(uncorrected)) }),
    ...(failures !== undefined && { [FAILED_PREFIX + label]: latencyOf(keyValues(failures)) }),
    ...(lag !== undefined && ok + failed > 0 && { [START_LAG]: latencyOf(keyValues(lag)) }),
  };
  const startedAt = new Date(Date.now() - durationS * 1000).toISOString();
  const { latencyOverTime, failuresOverTime } = javaOverTime(lines); // reads: no points/s over the run, as ours
  return {
    ...statementRun(c, e, label, { startedAt, durationS, ok, failed, slowestMs: Number(kv.slowest_s) * 1000 }, shares),
    latency,
    ...(latencyOverTime !== undefined && { latencyOverTime, failuresOverTime }),
    histograms: {},
    clientCpuS: Number(kv.client_cpu_s),
    ...javaServerCpu(kv, c.serverPid),
    ...javaServerCores(lines),
    peakRssMb: Number(kv.peak_rss_mb), // NaN where the JVM had no /proc ("n/a")
    errors: error === undefined ? [] : [`the Java client: ${errorField(error)}`],
    queries: {
      [label]: { ops: ok, failed, rows, rowsPerS: rows / durationS, ...pointsOf(kv), latency: latencyOf(kv) },
    },
    // --test-max-time ended it: fewer reads than its sessions' repetitions
    ...(c.testMaxTime > 0 &&
      ok + failed < plannedReads(shares, e.repetitions) && { stopped: 'test-max-time' as const }),
  };
}
