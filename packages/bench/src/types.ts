/**
 * The benchmark's shared types: the resolved configuration, the messages between the main thread and
 * the piscina workers, and the results the report is made from.
 */
import type { TSDataTypeName } from '@iotdb/client';
import type { ClientActivity } from './run/client-activity.js';
import type { OperationWeights, QueryKind } from './workload/operations.js';

export type { Operation, OperationWeights, QueryKind } from './workload/operations.js';
export type { ClientActivity } from './run/client-activity.js';

export type Model = 'tree' | 'aligned' | 'table';
export type Method = 'insertTablet' | 'insertTablets' | 'insertTabletsParallel' | 'insertRecords' | 'writer';
export type ValuePattern = 'pattern' | 'random';
export type Precision = 'ms' | 'us' | 'ns';
/**
 * Why a run's timed phase ended early: Ctrl-C, --test-max-time, or an operation that reached no node (its retries
 * spent).
 */
export type StopReason = 'interrupted' | 'test-max-time' | 'unreachable';

/** What interrupted a run: Ctrl-C (SIGINT) or a supervisor's stop (SIGTERM). */
export type InterruptSignal = 'SIGINT' | 'SIGTERM';

/** Every knob resolved (defaults < config file < environment < flags) and checked. */
export interface BenchConfig {
  /** IoTDB to use; undefined: start a local one with scripts/iotdb-local.sh and stop it afterwards */
  host: string | undefined;
  port: number;
  /** DataNodes, 'host:port' each; overrides host/port for the sessions */
  nodeUrls: string[] | undefined;
  /** the database (tree: root.<database>) the benchmark writes; nothing outside it is created */
  database: string;
  /** piscina worker threads */
  workers: number;
  /** concurrent writers per worker (each worker has a SessionPool of this size) */
  clients: number;
  /** session pool size per worker; defaults to clients */
  poolMaxSize: number;
  devices: number;
  sensors: number;
  /** rows per device per write */
  batchSize: number;
  /** rounds over all devices; derived from totalPoints when that is given */
  loop: number;
  /** devices [deviceOffset, deviceOffset + deviceCount) are this machine's share */
  deviceOffset: number;
  deviceCount: number;
  model: Model;
  method: Method;
  /** tablets per insertTablets / insertTabletsParallel call */
  tabletsPerRequest: number;
  /** weights of the ten data types, in TSDataType order BOOLEAN INT32 INT64 FLOAT DOUBLE TEXT TIMESTAMP DATE BLOB STRING */
  typeProportions: Record<TSDataTypeName, number>;
  values: ValuePattern;
  stringLength: number;
  /** time between rows of a device, ms (timestamps are scaled to `precision`) */
  timeStep: number;
  precision: Precision;
  /** share of rows whose timestamp is moved back by up to outOfOrderRange steps */
  outOfOrderRatio: number;
  outOfOrderRange: number;
  /** devices whose tablets one write carries interleaved (1 = one device per tablet) */
  interlacedDevices: number;
  /** share of null cells */
  nullRatio: number;
  /** points per second over all workers; 0 = no limit */
  rateLimit: number;
  /** open loop: operations per second over all clients, each started on a fixed schedule; 0 = closed loop */
  targetRate: number;
  /** --sweep-rates: the run once per rate, as targetRate; each run's config has its own rate in targetRate */
  sweepRates: number[];
  /** pause between a client's timed operations, ms */
  batchIntervalMs: number;
  /** the longest the timed phase lasts, ms; 0 = until the loop is done */
  testMaxTime: number;
  /** the client's retry budget of an operation, ms (its sessions' retry.maxElapsedMs); 0 = no retries */
  retryMaxMs: number;
  /**
   * how long a query may take, ms: the server keeps it that long (a query's queryTimeoutMs) and the client waits at
   * least as long for each of its replies (its timeoutMs); 0 = no limit; undefined = the client's defaults
   */
  queryTimeoutMs: number | undefined;
  /** untimed rounds before timing starts: writes, and a mixed run's queries (a query file: reads of each statement) */
  warmupRounds: number;
  /** progress line interval, ms */
  reportIntervalMs: number;
  /** print the progress line at every interval also when stdout is not a TTY (else one every 30 s there) */
  progress: boolean;
  /** 'java-anchor': exactly packages/bench/java/Bench.java (the Java anchor)'s workload; 'custom': the knobs above */
  workload: 'custom' | 'java-anchor';
  seed: number;
  /** weights of INGESTION and the ten query types in each client's operations; INGESTION only = a write run */
  operationProportion: OperationWeights;
  /** time range of a range query, ms of the data's time axis */
  queryInterval: number;
  queryDeviceNum: number;
  querySensorNum: number;
  /** GROUP_BY's interval, ms */
  groupByTimeUnit: number;
  /** the aggregate of AGG_* and GROUP_BY queries (count, avg, sum, ...; tree and table names differ: max_value / max) */
  queryAggregateFun: string;
  /** value filters keep values above this */
  queryLowerValue: number;
  /** TLS to the server (the client's `tls` option) */
  tls: boolean;
  /** PEM file of the CA(s) to trust with tls; undefined: the system's (or a local server's own) */
  tlsCa: string | undefined;
  /** with tls and vsJava: the JKS trust store of the Java client (its password from JAVA_TRUST_STORE_PASSWORD) */
  javaTrustStore: string | undefined;
  /** Thrift's compact protocol (the client's `rpcCompression`) */
  rpcCompression: boolean;
  /** queries take turns on the DataNodes (the client's `spreadQueries`) */
  spreadQueries: boolean;
  /** with spreadQueries, learn the DataNodes from the cluster (the client's `discoverNodes`) */
  discoverNodes: boolean;
  /** a device's writes and one-device queries go to the DataNode leading it (the client's `enableRedirection`) */
  redirection: boolean;
  /** a YAML/JSON list of statements to run instead of the writes (config/query-file.ts) */
  queryFile: string | undefined;
  /**
   * the server's processes on this machine (its ConfigNodes' and DataNodes'), whose CPU over each run's timed window
   * is measured; undefined: not measured, unless the run starts a local IoTDB of its own (then its nodes')
   */
  serverPid: number[] | undefined;
  /** also write each run's figures into IoTDB at HOST:PORT, database root.iotdb_bench_results */
  persistResults: string | undefined;
  /** queries run after the writes */
  queries: QueryKind[];
  queryLoops: number;
  verify: boolean;
  dryRun: boolean;
  dryRunSend: boolean;
  serverNoop: boolean;
  /** subscribe to the client's tracing channels; inserts' traced durations as 'traced <operation>' latency */
  trace: boolean;
  out: string | undefined;
  compare: Method[];
  vsJava: boolean;
  /** with vsJava: the Java client runs first, ours second (by default ours runs first) */
  javaFirst: boolean;
  /** runs of it all, each figure then summarised as the median over them; with vsJava the order alternates */
  repeat: number;
}

/** One latency histogram, mergeable across workers (see report/histogram.ts). */
export interface HistogramData {
  /** counts per bucket */
  counts: number[];
  count: number;
  min: number;
  max: number;
  sum: number;
}

/** A HistogramData of its non-empty buckets only (an interval's few operations): `buckets[i]` holds `counts[i]`. */
export interface SparseHistogramData extends HistogramData {
  buckets: number[];
}

/** Latency over the timed phase: each interval's operations (by their end), as [interval number, histogram]. */
export type IntervalHistograms = [interval: number, histogram: SparseHistogramData][];

/** The operations that failed over the timed phase, as [interval number, how many ended in it]. */
export type IntervalCounts = [interval: number, count: number][];

/** What the main thread hands one piscina worker. */
export interface WorkerTask {
  kind: 'write';
  workerId: number;
  config: BenchConfig;
  host: string;
  port: number;
  /** this worker's devices [first, first + count) */
  firstDevice: number;
  deviceCount: number;
  /** the live counters (live-counters.ts) */
  counters: SharedArrayBuffer;
  /** Int32Array: [0] workers past warm-up (the timed phase starts when all are), [1] the run's state (barrier.ts) */
  barrier: SharedArrayBuffer;
}

/** What one worker returns. */
export type WorkerResult =
  | {
      state: 'done';
      workerId: number;
      /** points of the timed phase */
      points: number;
      /** every point the server acknowledged, schema warm-up and warm-up rounds included (for --verify) */
      writtenPoints: number;
      /** the rounds (warm-up rounds first) every device of the worker was written in: all, or those before a stop */
      fullRounds: number;
      okOps: number;
      failedOps: number;
      /** latency per operation kind, nanoseconds */
      latency: Record<string, HistogramData>;
      /** per operation kind, the largest total latency of one client, ns */
      slowestClientNs: Record<string, number>;
      /** every operation that succeeded, per --report-interval-ms of the timed phase */
      latencyOverTime: IntervalHistograms;
      /** every operation that failed, counted per --report-interval-ms of the timed phase */
      failuresOverTime: IntervalCounts;
      /** rows read per query type (mixed runs) */
      rowsRead: Record<string, number>;
      /** non-null values read per query type (mixed runs) */
      pointsRead: Record<string, number>;
      /** first errors seen, at most 10 */
      errors: string[];
      /** what the worker's pool did besides the operations, warm-up included */
      client: ClientActivity;
      /** the timed phase, ms on the process-wide monotonic clock (the same in every worker thread) */
      timedStartMs: number;
      timedEndMs: number;
    }
  | { state: 'failed'; workerId: number; error: string };

/** One run's outcome, what the report prints and writes. */
/** Where a run ran (every result file carries it). */
export interface Environment {
  cpu: string;
  cores: number;
  memoryGiB: number;
  /** type, release, architecture */
  os: string;
  node: string;
  /** `java -version`'s first line; null without a JVM */
  jvm: string | null;
  /** null when no server was reached (dry runs) or it would not say */
  server: ServerEnvironment | null;
  client: { version: string; bench: string; gitCommit: string | null };
}

export interface ServerEnvironment {
  version: string;
  timestampPrecision: string;
  /** SHOW VARIABLES: the cluster's settings (replication, consensus, partitioning, ...) */
  settings: Record<string, string>;
  /**
   * SHOW DATANODES: each DataNode as 'host:port Status' (`127.0.0.1:6667 Running`), in the server's order; null
   * when the user may not ask (the admin user only) or the file is older than the field
   */
  dataNodes?: string[] | null;
}

/**
 * --verify: the points read back against those acknowledged (`expected`), or why they could not be read (`error`:
 * the server not back after a fault, a count that timed out), which fails the run as a mismatch does.
 */
export type Verify = { expected: number; actual: number; ok: boolean } | { expected: number; ok: false; error: string };

export interface RunResult {
  label: string;
  /** the full resolved configuration */
  config: BenchConfig;
  environment?: Environment;
  startedAt: string;
  durationS: number;
  points: number;
  okOps: number;
  failedOps: number;
  pointsPerS: number;
  opsPerS: number;
  /** latency per operation kind in ms */
  latency: Record<string, LatencySummary>;
  /** per operation kind, the largest total time one client spent in it, ms (iot-benchmark's SLOWEST_THREAD) */
  slowestClientMs?: Record<string, number>;
  /** latency histograms, ns, for the HTML page */
  histograms: Record<string, HistogramData>;
  /**
   * a run's operations that succeeded (a query-file statement's reads), every kind together, per
   * --report-interval-ms: [seconds since the start at the interval's end, operations, p50, p99, max (ms)]; an interval
   * in which none ended has no sample; absent for runs merged from several machines and files from before it was
   * recorded (the Java client's too)
   */
  latencyOverTime?: [atS: number, count: number, p50: number, p99: number, max: number][];
  /**
   * the operations that failed, per --report-interval-ms, as latencyOverTime: [seconds since the start at the
   * interval's end, operations that failed in it], the intervals with a failure only; absent where latencyOverTime is
   */
  failuresOverTime?: [atS: number, failed: number][];
  clientCpuS: number;
  clientCpuSPerMpts: number;
  /** the server's CPU over the timed window (--server-pid, or the run's own local IoTDB); absent when not measured */
  serverCpu?: ServerCpuSpent;
  /**
   * the server's cores busy per --report-interval-ms of a write or mixed run's timed phase (as its throughput samples)
   * or of a query-file statement's reads: [seconds since the start, cores over the interval before]; absent when not
   * measured, the samples before a process went away when one did
   */
  serverCoresOverTime?: [atS: number, cores: number][];
  peakRssMb: number;
  /** points/s sampled every reportIntervalMs: [seconds since start, points/s] */
  throughput: [number, number][];
  errors: string[];
  verify?: Verify;
  /** per query type: operations that succeeded and failed, rows read, and the successes' latency */
  queries?: Record<string, QueryFigures>;
  /** what the client's sessions did besides the operations (warm-up included): absent for the Java run */
  client?: ClientActivity;
  /** why the run ended before its loop (or its repetitions) was done; absent when it ran to the end */
  stopped?: StopReason;
  /** with stopped 'interrupted': the signal; absent in files from before it was kept */
  interruptedBy?: InterruptSignal;
  /**
   * a --query-file statement's run: the statement as the file gave it, `concurrency` the sessions that read it;
   * `query` false when the server answered it with no result set (INSERT, CREATE, FLUSH, ...), absent before that
   * was recorded or when no read succeeded; with forEach, its query and the statements it stood for. `row`: the name
   * of its own latency row and query figures, the run's label as it ran (a repeat's `#k` and a sweep's rate are added
   * to the label after); absent in files from before it was recorded, whose label is that name
   */
  queryFile?: {
    sql: string;
    row?: string;
    concurrency: number;
    repetitions: number;
    line: number;
    query?: boolean;
    forEach?: string;
    statements?: number;
  };
}

/**
 * The CPU seconds (user + system) the server's processes `pids` spent over a run's timed window, read from Linux's
 * /proc, compactions and flushes that fell in it included; or why it could not be read (a process gone by its end).
 */
export type ServerCpuSpent = { pids: number[]; seconds: number } | { pids: number[]; error: string };

export interface LatencySummary {
  count: number;
  min: number;
  avg: number;
  p10: number;
  p25: number;
  p50: number;
  p75: number;
  p90: number;
  p95: number;
  p99: number;
  p999: number;
  max: number;
}

/** One query type's figures in a run (its failures' latency is the run's 'failed <type>' latency row). */
export interface QueryFigures {
  ops: number;
  failed: number;
  rows: number;
  rowsPerS: number;
  /**
   * the values read that were not null, every value of every row looked at (iot-benchmark's okPoint of a query);
   * absent in results.json files written before it was recorded
   */
  points?: number;
  latency: LatencySummary;
}
