import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchConfig, LatencySummary, RunResult } from '../types.js';
import { keyValues } from './key-values.js';
import { RunError } from './run-error.js';

const script = fileURLToPath(new URL('../../java/bench.sh', import.meta.url));

/**
 * `--vs-java`: the Java client (iotdb-session 2.0.1-beta, java/Bench.java) on the same anchor workload,
 * with as many writer threads as we have writers (workers x clients) and the same number of points.
 * Its RESULT and MATRIX lines become a RunResult with what Java reports (no histograms, no throughput series).
 */
export function runJava(c: BenchConfig, host: string, port: number): RunResult {
  const args = javaArgs(c, host, port);
  let out: string;
  try {
    out = execFileSync('bash', [script, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  } catch (e) {
    throw javaFailed(e);
  }
  return javaRun(out, c);
}

/** A Java child ended by Ctrl-C: the command ends as an interrupted run does (exit status 130). */
export class JavaInterrupted extends RunError {}

/**
 * What a java/*.sh child that ended badly says, in one line: interrupted (Ctrl-C reaches the JVM too, as the
 * foreground process group's), or failed with its exit status and the first exception line it printed.
 */
export function javaFailed(e: unknown): RunError {
  const { status, signal, stdout } = e as { status?: number | null; signal?: string | null; stdout?: string };
  if (signal === 'SIGINT' || status === 130) return new JavaInterrupted('the Java client was interrupted (Ctrl-C)');
  const why = String(stdout ?? '')
    .split('\n')
    .find((l) => /Exception|Error/.test(l));
  return new RunError(
    `the Java client failed (exit ${status ?? `by ${signal ?? 'a signal'}`}): ${why?.trim() ?? 'it said no more'}`,
  );
}

/** Bench.java's key=value options for the run `c` (its writers, points, model, method, database, time limit). */
export function javaArgs(c: BenchConfig, host: string, port: number): string[] {
  const method = c.method === 'insertRecords' ? 'insertRecords' : 'insertTablet';
  return [
    `host=${host}`,
    `port=${port}`,
    `threads=${c.workers * c.clients}`,
    `points=${c.deviceCount * c.sensors * c.batchSize * c.loop}`,
    `mode=${c.model}`,
    `noop=${c.serverNoop}`,
    `verify=${c.verify}`,
    `method=${method}`,
    `database=${c.database}`,
    `maxTimeMs=${c.testMaxTime}`,
  ];
}

/** The RunResult of java/bench.sh's output: its RESULT, MATRIX (latency ms, peak RSS) and VERIFY lines. */
export function javaRun(out: string, c: BenchConfig): RunResult {
  const line = (word: string) => {
    const found = out.split('\n').find((l) => l.startsWith(`${word} `));
    if (found === undefined) throw new Error(`java/bench.sh printed no ${word} line:\n${out}`);
    return keyValues(found);
  };
  const kv = line('RESULT');
  const matrix = line('MATRIX');
  const num = (k: string) => Number(kv[k] ?? NaN);
  const ms = (k: keyof LatencySummary) => Number(matrix[k] ?? NaN);
  const ops = Number(matrix.ops);
  const latency: LatencySummary = {
    count: ops,
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
  const v = /^VERIFY count=(\d+) expected=(\d+)/m.exec(out);
  return {
    ...(v ? { verify: { expected: Number(v[2]), actual: Number(v[1]), ok: v[1] === v[2] } } : {}),
    label: 'java',
    config: c,
    startedAt: new Date().toISOString(),
    durationS: num('wall_s'),
    points: num('points'),
    okOps: ops,
    failedOps: 0,
    pointsPerS: num('points_per_s'),
    opsPerS: ops / num('wall_s'),
    latency: { insertTablet: latency },
    histograms: {},
    clientCpuS: num('client_cpu_s'),
    clientCpuSPerMpts: num('client_cpu_s_per_Mpts'),
    peakRssMb: Number(matrix.peak_rss_mb), // NaN where the JVM had no /proc ("n/a")
    throughput: [],
    errors: [],
    ...(kv.stopped === 'test-max-time' && { stopped: 'test-max-time' as const }),
  };
}
