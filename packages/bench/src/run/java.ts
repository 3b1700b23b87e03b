import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchConfig, LatencySummary, RunResult } from '../types.js';
import { keyValues } from './key-values.js';

const script = fileURLToPath(new URL('../../java/bench.sh', import.meta.url));

/**
 * `--vs-java`: the Java client (iotdb-session 2.0.1-beta, java/Bench.java) on the same anchor workload,
 * with as many writer threads as we have writers (workers x clients) and the same number of points.
 * Its RESULT line becomes a RunResult with what Java reports (no histograms, no throughput series).
 */
export function runJava(c: BenchConfig, host: string, port: number): RunResult {
  const threads = c.workers * c.clients;
  const points = c.deviceCount * c.sensors * c.batchSize * c.loop;
  const method = c.method === 'insertRecords' ? 'insertRecords' : 'insertTablet';
  const args = [
    `host=${host}`,
    `port=${port}`,
    `threads=${threads}`,
    `points=${points}`,
    `mode=${c.model}`,
    `noop=${c.serverNoop}`,
    `verify=${c.verify}`,
    `method=${method}`,
  ];
  const out = execFileSync('bash', [script, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const line = out.split('\n').find((l) => l.startsWith('RESULT '));
  if (line === undefined) throw new Error(`java/bench.sh printed no RESULT line:\n${out}`);
  const kv = keyValues(line);
  const num = (k: string) => Number(kv[k] ?? NaN);
  const p50 = num('insert_ms_p50');
  const p99 = num('p99');
  const latency: LatencySummary = {
    count: 0,
    min: NaN,
    avg: NaN,
    p10: NaN,
    p25: NaN,
    p50,
    p75: NaN,
    p90: NaN,
    p95: NaN,
    p99,
    p999: NaN,
    max: num('max'),
  };
  const v = /^VERIFY count=(\d+) expected=(\d+)/m.exec(out);
  return {
    ...(v ? { verify: { expected: Number(v[2]), actual: Number(v[1]), ok: v[1] === v[2] } } : {}),
    label: 'java',
    config: c,
    startedAt: new Date().toISOString(),
    durationS: num('wall_s'),
    points: num('points'),
    okOps: 0,
    failedOps: 0,
    pointsPerS: num('points_per_s'),
    opsPerS: NaN,
    latency: { insertTablet: latency },
    histograms: {},
    clientCpuS: num('client_cpu_s'),
    clientCpuSPerMpts: num('client_cpu_s_per_Mpts'),
    peakRssMb: NaN,
    throughput: [],
    errors: [],
  };
}
