/**
 * Hand-made RunResults for the report tests. Not a .test.ts file so that the build type-checks it:
 * a field added to BenchConfig or RunResult then fails the build here instead of going unnoticed.
 */
import type { BenchConfig, Environment, HistogramData, LatencySummary, RunResult } from '../types.js';
import { WRITES_ONLY } from '../workload/operations.js';
import { LatencyHistogram } from './histogram.js';

export function sampleConfig(over: Partial<BenchConfig> = {}): BenchConfig {
  return {
    host: '127.0.0.1',
    port: 6667,
    nodeUrls: undefined,
    tls: false,
    tlsCa: undefined,
    javaTrustStore: undefined,
    rpcCompression: false,
    spreadQueries: true,
    discoverNodes: true,
    redirection: true,
    database: 'bench',
    workers: 4,
    clients: 8,
    poolMaxSize: 8,
    devices: 100,
    sensors: 50,
    batchSize: 100,
    loop: 10,
    deviceOffset: 0,
    deviceCount: 100,
    model: 'tree',
    method: 'insertTablet',
    tabletsPerRequest: 1,
    typeProportions: {
      BOOLEAN: 1,
      INT32: 1,
      INT64: 1,
      FLOAT: 1,
      DOUBLE: 1,
      TEXT: 1,
      TIMESTAMP: 0,
      DATE: 0,
      BLOB: 0,
      STRING: 0,
    },
    values: 'pattern',
    stringLength: 16,
    timeStep: 1000,
    precision: 'ms',
    outOfOrderRatio: 0,
    outOfOrderRange: 0,
    interlacedDevices: 1,
    nullRatio: 0,
    rateLimit: 0,
    targetRate: 0,
    sweepRates: [],
    batchIntervalMs: 0,
    testMaxTime: 0,
    retryMaxMs: 60_000,
    queryTimeoutMs: undefined,
    warmupRounds: 1,
    reportIntervalMs: 1000,
    progress: false,
    workload: 'custom',
    seed: 42,
    operationProportion: WRITES_ONLY,
    queryInterval: 100_000,
    queryDeviceNum: 1,
    querySensorNum: 1,
    groupByTimeUnit: 10_000,
    queryAggregateFun: 'count',
    queryLowerValue: 0,
    queryFile: undefined,
    serverPid: undefined,
    persistResults: undefined,
    queries: ['TIME_RANGE', 'LATEST_POINT'],
    queryLoops: 10,
    verify: true,
    dryRun: false,
    dryRunSend: false,
    serverNoop: false,
    trace: false,
    out: '/tmp/bench-out',
    compare: [],
    vsJava: false,
    javaFirst: false,
    repeat: 1,
    ...over,
  };
}

/** `n` latencies around `centerMs` (a deterministic spread from 0.5x to ~3x), as a histogram */
export function sampleHistogram(n: number, centerMs: number): HistogramData {
  const h = new LatencyHistogram();
  for (let i = 0; i < n; i++) {
    const f = 0.5 + (i % 97) / 97 + (i % 1000 === 999 ? 1.5 : 0); // a tail every 1000th op
    h.record(Math.round(centerMs * 1e6 * f));
  }
  return h.toData();
}

function summary(data: HistogramData): LatencySummary {
  return LatencyHistogram.from(data).summaryMs();
}

/** a run of 1000 insertTablet calls and 10 retries; pointsPerS scales the throughput figures */
export function sampleRun(label: string, over: Partial<RunResult> = {}, pointsPerS = 1_000_000): RunResult {
  const histograms = { insertTablet: sampleHistogram(1000, 4), retry: sampleHistogram(10, 20) };
  const durationS = 5;
  return {
    label,
    config: sampleConfig(),
    startedAt: '2026-01-02T03:04:05.000Z',
    durationS,
    points: pointsPerS * durationS,
    okOps: 1000,
    failedOps: 0,
    pointsPerS,
    opsPerS: 1000 / durationS,
    latency: { insertTablet: summary(histograms.insertTablet), retry: summary(histograms.retry) },
    histograms,
    clientCpuS: 2.5,
    clientCpuSPerMpts: 2.5 / ((pointsPerS * durationS) / 1e6),
    peakRssMb: 180.25,
    throughput: [
      [1, pointsPerS * 0.9],
      [2, pointsPerS * 1.05],
      [3, pointsPerS],
      [4, pointsPerS * 1.02],
      [5, pointsPerS * 1.03],
    ],
    errors: [],
    verify: { expected: pointsPerS * durationS, actual: pointsPerS * durationS, ok: true },
    queries: {
      raw: { ops: 10, failed: 0, rows: 10_000, rowsPerS: 50_000, latency: summary(sampleHistogram(10, 20)) },
      last: { ops: 10, failed: 0, rows: 100, rowsPerS: 5_000, latency: summary(sampleHistogram(10, 2)) },
    },
    ...over,
  };
}

/** a query-file statement's run, nothing written: 10 reads of `rows` rows in all over 5 s; `over` as sampleRun's */
export function sampleStatement(label: string, rows: number, over: Partial<RunResult> = {}): RunResult {
  const latency = summary(sampleHistogram(1000, 4));
  return sampleRun(label, {
    points: 0,
    pointsPerS: 0,
    okOps: 10,
    clientCpuSPerMpts: 0,
    throughput: [],
    latency: { [label]: latency },
    queries: { [label]: { ops: 10, failed: 0, rows, rowsPerS: rows / 5, latency } },
    queryFile: { sql: 'SELECT 1', concurrency: 1, repetitions: 10, line: 1 },
    ...over,
  });
}

/**
 * a run of queries alone (INGESTION weight 0, TIME_RANGE 1): sampleRun's, nothing written, its 1000 operations
 * TIME_RANGE's (their latency the sample's insertTablet's); `over` as sampleRun's
 */
export function sampleQueriesAlone(label: string, over: Partial<RunResult> = {}): RunResult {
  const base = sampleRun(label);
  const latency = base.latency.insertTablet;
  return sampleRun(label, {
    config: sampleConfig({ operationProportion: { ...WRITES_ONLY, INGESTION: 0, TIME_RANGE: 1 } }),
    points: 0,
    pointsPerS: 0,
    clientCpuSPerMpts: 0,
    latency: { TIME_RANGE: latency },
    histograms: { TIME_RANGE: base.histograms.insertTablet },
    queries: { TIME_RANGE: { ops: 1000, failed: 0, rows: 5000, rowsPerS: 1000, latency } },
    ...over,
  });
}

/** Where a sample run ran (a results.json's `environment`). */
export const SAMPLE_ENVIRONMENT: Environment = {
  cpu: 'Test CPU, 2 GHz',
  cores: 2,
  memoryGiB: 23.4,
  os: 'Linux 6.1 x64',
  node: 'v20.20.2',
  jvm: 'openjdk version "17.0.15"',
  server: {
    version: '2.0.1-beta',
    timestampPrecision: 'ms',
    settings: { DataReplicationFactor: '1' },
    dataNodes: ['127.0.0.1:6667 Running'],
  },
  client: { version: '0.1.0', bench: '0.1.0', gitCommit: '0123abc' },
};
