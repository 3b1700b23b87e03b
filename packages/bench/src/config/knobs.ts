/**
 * The one table of the benchmark's knobs: for every BenchConfig field its flag, environment variable,
 * parser, default and description. The config-file key is the field name. Order is --help's order.
 */
import { constants } from 'node:buffer';
import { availableParallelism } from 'node:os';
import { MAX_POOL_SIZE, MAX_TIMER_MS, RETRY_DEFAULTS } from '@iotdb/client';
import type { BenchConfig, Method, Model, Precision, ValuePattern } from '../types.js';
import { OPERATIONS, QUERY_KINDS, WRITES_ONLY } from '../workload/operations.js';
import { parseOperationProportion, parseQueryKind } from './operation-proportion.js';
import { bool, finiteNumber, hostPort, integer, listOf, oneOf, ratio, text, type Parser } from './parsers.js';
import { parseTypeProportions, proportions } from './type-proportions.js';

/** Reads another knob's resolved value (for defaults that depend on other knobs). */
export type Getter = <K extends keyof BenchConfig>(key: K) => BenchConfig[K];

/** How one input is given. */
export interface KnobSpec<T> {
  /** kebab-case of the field name */
  flag: `--${string}`;
  env: string;
  /** placeholder for --help; undefined for a boolean flag, which needs no value (`--verify`, `--verify=false`) */
  arg: string | undefined;
  /** names a file or directory: a config file's relative one is taken from that file's directory (config-file.ts) */
  path?: true;
  parse: Parser<T>;
  description: string;
}

export interface Knob<T> extends KnobSpec<T> {
  default: (get: Getter) => T;
  /** the default as --help shows it */
  defaultText: string;
}

type KnobTable = { readonly [K in keyof BenchConfig]: Knob<BenchConfig[K]> };

const MODELS: readonly Model[] = ['tree', 'aligned', 'table'];
const METHODS: readonly Method[] = [
  'insertTablet',
  'insertTablets',
  'insertTabletsParallel',
  'insertRecords',
  'writer',
];
const VALUE_PATTERNS: readonly ValuePattern[] = ['pattern', 'random'];
const PRECISIONS: readonly Precision[] = ['ms', 'us', 'ns'];
const WORKLOADS: readonly BenchConfig['workload'][] = ['custom', 'java-anchor'];

const count = integer(1);
const countOrZero = integer(0);
/** a wait a timer times: longer than 2^31 - 1 ms, Node's timer ends it at once */
const timerMs = integer(0, MAX_TIMER_MS);
/** A boolean knob on unless given false (its flag takes `true` or `false`), as the client's option it sets. */
function onUnlessFalse(flag: `--${string}`, env: string, description: string): Knob<boolean> {
  return { flag, env, arg: 'BOOL', parse: bool, default: () => true, defaultText: 'true', description };
}

/** A boolean knob: false unless given; the flag needs no value. */
function onOff(flag: `--${string}`, env: string, description: string): Knob<boolean> {
  return { flag, env, arg: undefined, parse: bool, default: () => false, defaultText: 'false', description };
}

export const KNOBS: KnobTable = {
  host: {
    flag: '--host',
    env: 'IOTDB_HOST',
    arg: 'HOST',
    parse: text(),
    default: () => undefined,
    defaultText:
      "none: the first of --node-urls, or with neither, start a local IoTDB on --port (this package's scripts/iotdb-local.sh) and stop it afterwards",
    description: 'IoTDB to use',
  },
  port: {
    flag: '--port',
    env: 'IOTDB_PORT',
    arg: 'PORT',
    parse: integer(1, 65535),
    default: () => 6667,
    defaultText: '6667',
    description: 'IoTDB RPC port; with no host, the local IoTDB listens there, its internal ports moved by port - 6667',
  },
  nodeUrls: {
    flag: '--node-urls',
    env: 'NODE_URLS',
    arg: 'HOST:PORT,...',
    parse: listOf(hostPort, 1),
    default: () => undefined,
    defaultText: 'none',
    description:
      'DataNodes, host:port each; the sessions use them; --host and --port, if given, must be one of them (the node the Java client uses; else the first)',
  },
  tls: onOff(
    '--tls',
    'IOTDB_TLS',
    "connect over TLS, trusting the system's CAs (or --tls-ca's); a local IoTDB the run starts speaks TLS then too",
  ),
  tlsCa: {
    flag: '--tls-ca',
    env: 'IOTDB_TLS_CA',
    arg: 'FILE',
    path: true,
    parse: text(),
    default: () => undefined,
    defaultText: "none (the system's CAs; a local IoTDB's own CA when the run starts one)",
    description: 'with --tls, trust the CA certificate(s) in this PEM file (a self-signed server: its certificate)',
  },
  javaTrustStore: {
    flag: '--java-trust-store',
    env: 'JAVA_TRUST_STORE',
    arg: 'FILE',
    path: true,
    parse: text(),
    default: () => undefined,
    defaultText: 'none (a local IoTDB the run starts: its own)',
    description:
      'with --tls --vs-java, the JKS trust store the Java client trusts the server with (its password: JAVA_TRUST_STORE_PASSWORD)',
  },
  rpcCompression: onOff(
    '--rpc-compression',
    'IOTDB_RPC_COMPRESSION',
    "speak Thrift's compact protocol, for a server with dn_rpc_thrift_compression_enable (a local one is started so)",
  ),
  spreadQueries: onUnlessFalse(
    '--spread-queries',
    'IOTDB_SPREAD_QUERIES',
    "queries take turns on the cluster's DataNodes (the client's spreadQueries; the Java client's enableAutoFetch); false: every query to the node a session is connected to",
  ),
  discoverNodes: onUnlessFalse(
    '--discover-nodes',
    'IOTDB_DISCOVER_NODES',
    "with --spread-queries, learn the DataNodes with SHOW DATANODES (the client's discoverNodes); false: take turns on --node-urls alone (behind NAT or a proxy); the Java client then queries its node alone",
  ),
  redirection: onUnlessFalse(
    '--redirection',
    'IOTDB_REDIRECTION',
    "a device's writes, and its queries when they read that device alone, go to the DataNode leading its region (the client's enableRedirection; the Java client's, which routes its writes and its one-device last queries); false: to the node a session is connected to, or the query's turn",
  ),
  database: {
    flag: '--database',
    env: 'DATABASE',
    arg: 'NAME',
    parse: text(/^[A-Za-z_][A-Za-z0-9_]*$/, 'needs a name of letters, digits and _, not starting with a digit'),
    default: () => 'bench',
    defaultText: 'bench',
    description: 'the database written (tree: root.<database>); nothing outside it is created',
  },
  workers: {
    flag: '--workers',
    env: 'WORKER_COUNT',
    arg: 'N',
    parse: count,
    default: (get) => Math.min(availableParallelism(), get('deviceCount')),
    defaultText: 'available CPUs (os.availableParallelism()), at most deviceCount',
    description: 'piscina worker threads',
  },
  clients: {
    flag: '--clients',
    env: 'CLIENT_NUMBER',
    arg: 'N',
    parse: count,
    default: () => 1,
    defaultText: '1',
    description: 'concurrent writers per worker',
  },
  poolMaxSize: {
    flag: '--pool-max-size',
    env: 'POOL_MAX_SIZE',
    arg: 'N',
    parse: integer(1, MAX_POOL_SIZE),
    default: (get) => Math.min((get('method') === 'writer' ? 2 : 1) * get('clients'), MAX_POOL_SIZE),
    defaultText: `clients (2 x clients for --method writer), at most ${MAX_POOL_SIZE}`,
    description: 'session pool size per worker (a writer keeps two requests in flight)',
  },
  devices: {
    flag: '--devices',
    env: 'DEVICE_NUMBER',
    arg: 'N',
    parse: count,
    default: () => 100,
    defaultText: '100',
    description: 'devices in all',
  },
  sensors: {
    flag: '--sensors',
    env: 'SENSOR_NUMBER',
    arg: 'N',
    parse: count,
    default: () => 50,
    defaultText: '50',
    description: 'sensors (measurements, table fields) per device',
  },
  batchSize: {
    flag: '--batch-size',
    env: 'BATCH_SIZE_PER_WRITE',
    arg: 'N',
    parse: count,
    default: () => 500,
    defaultText: '500',
    description: 'rows per device per write',
  },
  loop: {
    flag: '--loop',
    env: 'LOOP',
    arg: 'N',
    parse: count,
    default: () => 10,
    defaultText: '10, or ceil(totalPoints / (devices x sensors x batchSize)) when --total-points is given',
    description: 'timed rounds over all devices',
  },
  deviceOffset: {
    flag: '--device-offset',
    env: 'DEVICE_OFFSET',
    arg: 'N',
    parse: countOrZero,
    default: () => 0,
    defaultText: '0',
    description: "first device of this machine's share [deviceOffset, deviceOffset + deviceCount)",
  },
  deviceCount: {
    flag: '--device-count',
    env: 'DEVICE_COUNT',
    arg: 'N',
    parse: count,
    default: (get) => get('devices') - get('deviceOffset'),
    defaultText: 'devices - deviceOffset',
    description: "devices of this machine's share",
  },
  model: {
    flag: '--model',
    env: 'MODEL',
    arg: MODELS.join('|'),
    parse: oneOf(MODELS),
    default: () => 'tree',
    defaultText: 'tree',
    description: 'tree (non-aligned), aligned (tree, aligned) or table model',
  },
  method: {
    flag: '--method',
    env: 'METHOD',
    arg: 'METHOD',
    parse: oneOf(METHODS),
    default: () => 'insertTablet',
    defaultText: 'insertTablet',
    description: `write call: ${METHODS.join(', ')}`,
  },
  tabletsPerRequest: {
    flag: '--tablets-per-request',
    env: 'TABLETS_PER_REQUEST',
    arg: 'N',
    parse: count,
    default: () => 10,
    defaultText: '10',
    description: 'tablets (devices) per insertTablets / insertTabletsParallel / insertRecords call',
  },
  typeProportions: {
    flag: '--type-proportions',
    env: 'INSERT_DATATYPE_PROPORTION',
    arg: 'W:W:W:W:W:W[:W:W:W:W]',
    parse: parseTypeProportions,
    default: () => proportions({ BOOLEAN: 1, INT32: 1, INT64: 1, FLOAT: 1, DOUBLE: 1, TEXT: 1 }),
    defaultText: '1:1:1:1:1:1',
    description:
      'weights of BOOLEAN:INT32:INT64:FLOAT:DOUBLE:TEXT[:TIMESTAMP:DATE:BLOB:STRING] over the sensors (a file may also give a list, or {"FLOAT": 3, ...})',
  },
  values: {
    flag: '--values',
    env: 'VALUES',
    arg: VALUE_PATTERNS.join('|'),
    parse: oneOf(VALUE_PATTERNS),
    default: () => 'pattern',
    defaultText: 'pattern',
    description: 'pattern (compressible, as the Java anchor) or random (seeded) values',
  },
  stringLength: {
    flag: '--string-length',
    env: 'STRING_LENGTH',
    arg: 'N',
    // the longest string Node.js makes: a longer value could never be generated
    parse: integer(1, constants.MAX_STRING_LENGTH),
    default: () => 8,
    defaultText: '8',
    description: 'characters of TEXT/STRING values, bytes of BLOB values',
  },
  timeStep: {
    flag: '--time-step',
    env: 'TIME_STEP',
    arg: 'N',
    parse: count,
    default: () => 1000,
    defaultText: '1000',
    description: 'time between rows of a device, ms (timestamps are scaled to --precision: x1000 for us, x10^6 for ns)',
  },
  precision: {
    flag: '--precision',
    env: 'PRECISION',
    arg: PRECISIONS.join('|'),
    parse: oneOf(PRECISIONS),
    default: () => 'ms',
    defaultText: 'ms',
    description: "timestamp precision (must match the server's timestamp_precision)",
  },
  outOfOrderRatio: {
    flag: '--out-of-order-ratio',
    env: 'OUT_OF_ORDER_RATIO',
    arg: 'RATIO',
    parse: ratio,
    default: () => 0,
    defaultText: '0',
    description: 'share of rows whose timestamp moves back by up to outOfOrderRange steps',
  },
  outOfOrderRange: {
    flag: '--out-of-order-range',
    env: 'OUT_OF_ORDER_RANGE',
    arg: 'N',
    parse: count,
    default: () => 10,
    defaultText: '10',
    description: 'how far (rounds) out-of-order rows move',
  },
  interlacedDevices: {
    flag: '--interlaced-devices',
    env: 'INTERLACED_DEVICES',
    arg: 'N',
    parse: count,
    default: () => 1,
    defaultText: '1',
    description: 'devices whose rows one write carries interleaved (1 = one device after another)',
  },
  nullRatio: {
    flag: '--null-ratio',
    env: 'NULL_RATIO',
    arg: 'RATIO',
    parse: ratio,
    default: () => 0,
    defaultText: '0',
    description: 'share of null cells',
  },
  rateLimit: {
    flag: '--rate-limit',
    env: 'RATE_LIMIT',
    arg: 'POINTS/S',
    parse: countOrZero,
    default: () => 0,
    defaultText: '0 (no limit)',
    description: 'points per second over all workers, timed writes (the warm-up runs unpaced)',
  },
  targetRate: {
    flag: '--target-rate',
    env: 'TARGET_RATE',
    arg: 'OPS/S',
    parse: countOrZero,
    default: () => 0,
    defaultText: '0 (closed loop: each client starts its next operation when the last one ends)',
    description:
      "open loop: operations per second over all clients (a query-file statement: its reads over its sessions), each started on a fixed schedule; latency counts from the intended start (corrected for coordinated omission), 'uncorrected <op>' rows from the actual start, a 'start lag' row of how late each started",
  },
  sweepRates: {
    flag: '--sweep-rates',
    env: 'SWEEP_RATES',
    arg: 'OPS/S,...',
    parse: listOf(count),
    default: () => [],
    defaultText: 'none',
    description:
      "open loop at each rate in turn: the run (every repeat, each side) once per rate as --target-rate runs it, each labelled <label>@<rate>/s, then each operation's p99 from the intended start by rate, and which rates were met",
  },
  batchIntervalMs: {
    flag: '--batch-interval-ms',
    env: 'BATCH_INTERVAL_MS',
    arg: 'MS',
    parse: timerMs,
    default: () => 0,
    defaultText: '0',
    description:
      "pause between a client's timed operations, or a query-file session's reads (none after the warm-up or the last one)",
  },
  testMaxTime: {
    flag: '--test-max-time',
    env: 'TEST_MAX_TIME',
    arg: 'MS',
    parse: timerMs,
    default: () => 0,
    defaultText: '0 (no limit: the run ends when its loop is done)',
    description:
      "the longest the timed phase lasts, as iot-benchmark's TEST_MAX_TIME: then no operation starts, those under way finish and the report covers what ran (each run of --compare, each statement of --query-file, its own)",
  },
  retryMaxMs: {
    flag: '--retry-max-ms',
    env: 'RETRY_MAX_MS',
    arg: 'MS',
    parse: countOrZero,
    default: () => RETRY_DEFAULTS.maxElapsedMs,
    defaultText: `${RETRY_DEFAULTS.maxElapsedMs} (the client's default)`,
    description:
      "how long the client retries an operation whose node failed or was not ready before it counts as failed (the sessions' retry.maxElapsedMs); one that reached no node in that time ends the run (stopped=unreachable: the others would wait as long); 0 fails at once, every failure counted and the run going on",
  },
  queryTimeoutMs: {
    flag: '--query-timeout-ms',
    env: 'QUERY_TIMEOUT_MS',
    arg: 'MS',
    parse: timerMs,
    default: () => undefined,
    defaultText: "none: the client's reply wait (60000), which is also the query's life on the server",
    description:
      "how long a query may take: the server keeps it that long (our queries' queryTimeoutMs, the Java client's query timeout) and our client waits as long for each of its replies when that is over its reply wait; 0 = no limit. --verify's count is a query too; writes keep the client's reply wait",
  },
  warmupRounds: {
    flag: '--warmup-rounds',
    env: 'WARMUP_ROUNDS',
    arg: 'N',
    parse: countOrZero,
    default: () => 0,
    defaultText: '0',
    description:
      'untimed rounds before timing starts: writes, and with --operation-proportion each query type once a round (--query-file: untimed reads of each statement before its timed ones, by each side; with --vs-java at least 1)',
  },
  reportIntervalMs: {
    flag: '--report-interval-ms',
    env: 'REPORT_INTERVAL',
    arg: 'MS',
    // finer intervals flood the progress line, and each costs both clients memory over the whole run
    parse: integer(100, MAX_TIMER_MS),
    default: () => 1000,
    defaultText: '1000',
    description:
      'the interval of the progress line, of points/s and of latency and failures over time (both clients); 100 at least',
  },
  progress: onOff(
    '--progress',
    'PROGRESS',
    'print the progress line at every interval also when stdout is not a TTY (without it: one line every 30 s there)',
  ),
  workload: {
    flag: '--workload',
    env: 'WORKLOAD',
    arg: WORKLOADS.join('|'),
    parse: oneOf(WORKLOADS),
    default: (get) => (get('vsJava') ? 'java-anchor' : 'custom'),
    defaultText: 'custom (java-anchor with --vs-java)',
    description:
      "java-anchor: exactly packages/bench/java/Bench.java (the Java anchor)'s workload (100 devices x 50 sensors x 500 rows, its types and values)",
  },
  seed: {
    flag: '--seed',
    env: 'SEED',
    arg: 'N',
    parse: countOrZero,
    default: () => 42,
    defaultText: '42',
    description: 'seed of random values and disorder',
  },
  operationProportion: {
    flag: '--operation-proportion',
    env: 'OPERATION_PROPORTION',
    arg: OPERATIONS.join(':'),
    parse: parseOperationProportion,
    default: () => WRITES_ONLY,
    defaultText: '1:0:0:0:0:0:0:0:0:0:0 (writes only)',
    description:
      "weights of each client's operations, as iot-benchmark's OPERATION_PROPORTION: loop x (device groups) operations per client, each drawn by weight (seeded per device and round); ingestion writes the group's next round",
  },
  queryInterval: {
    flag: '--query-interval',
    env: 'QUERY_INTERVAL',
    arg: 'MS',
    parse: count,
    default: (get) => get('batchSize') * get('timeStep'),
    defaultText: 'batchSize x timeStep (one write of a device)',
    description: 'time range of range queries, in ms of the data (time-step units)',
  },
  queryDeviceNum: {
    flag: '--query-device-num',
    env: 'QUERY_DEVICE_NUM',
    arg: 'N',
    parse: count,
    default: () => 1,
    defaultText: '1',
    description: "devices per query (consecutive, from a random one of this machine's share)",
  },
  querySensorNum: {
    flag: '--query-sensor-num',
    env: 'QUERY_SENSOR_NUM',
    arg: 'N',
    parse: count,
    default: () => 1,
    defaultText: '1',
    description: 'sensors per query: the first N numeric sensors',
  },
  groupByTimeUnit: {
    flag: '--group-by-time-unit',
    env: 'GROUP_BY_TIME_UNIT',
    arg: 'MS',
    parse: count,
    default: (get) => Math.max(1, Math.floor(get('queryInterval') / 10)),
    defaultText: 'queryInterval / 10',
    description: "GROUP_BY's interval, in ms of the data",
  },
  queryAggregateFun: {
    flag: '--query-aggregate-fun',
    env: 'QUERY_AGGREGATE_FUN',
    arg: 'NAME',
    parse: text(/^[A-Za-z_][A-Za-z0-9_]*$/, 'needs a function name such as count, avg, sum'),
    default: () => 'count',
    defaultText: 'count',
    description: 'aggregate of the AGG_* and GROUP_BY queries (tree and table names differ: max_value / max)',
  },
  queryLowerValue: {
    flag: '--query-lower-value',
    env: 'QUERY_LOWER_VALUE',
    arg: 'X',
    parse: finiteNumber,
    default: () => 0,
    defaultText: '0',
    description: 'value filters keep values > X',
  },
  queryFile: {
    flag: '--query-file',
    env: 'QUERY_FILE',
    arg: 'FILE',
    path: true,
    parse: text(),
    default: () => undefined,
    defaultText: 'none',
    description:
      'run the statements of this YAML/JSON list (sql, label, concurrency, repetitions, model, database; forEach: the statement once per row of a query, {column} filled from it), one result each, instead of the writes',
  },
  serverPid: {
    flag: '--server-pid',
    env: 'IOTDB_SERVER_PID',
    arg: 'PID[,PID...]',
    parse: listOf(integer(1), 1),
    default: () => undefined,
    defaultText: "none (a local IoTDB the run starts: its nodes')",
    description:
      "the server's processes on this machine (its ConfigNodes' and DataNodes', Linux): their CPU over each run's timed window, per million points written (rows read), beside the client's",
  },
  persistResults: {
    flag: '--persist-results',
    env: 'PERSIST_RESULTS',
    arg: 'HOST:PORT',
    parse: hostPort,
    default: () => undefined,
    defaultText: 'none',
    description:
      "also write each run's figures into the IoTDB at HOST:PORT, in its own database root.iotdb_bench_results (as IOTDB_USER, default root; with --tls, --tls-ca and --rpc-compression as the run)",
  },
  queries: {
    flag: '--queries',
    env: 'QUERIES',
    arg: `${QUERY_KINDS.join(',')}`,
    parse: listOf(parseQueryKind),
    default: () => [],
    defaultText: 'none',
    description: 'queries run after the writes',
  },
  queryLoops: {
    flag: '--query-loops',
    env: 'QUERY_LOOPS',
    arg: 'N',
    parse: count,
    default: () => 10,
    defaultText: '10',
    description: 'times each query runs',
  },
  verify: onOff('--verify', 'VERIFY', 'count the points written afterwards (untimed)'),
  dryRun: onOff('--dry-run', 'DRY_RUN', 'print the resolved plan and exit'),
  dryRunSend: onOff(
    '--dry-run-send',
    'DRY_RUN_SEND',
    'build and encode every request but do not send it (client cost only)',
  ),
  serverNoop: onOff(
    '--server-noop',
    'SERVER_NOOP',
    'send through the testInsert* RPCs: the server decodes and acknowledges, stores nothing (tree/aligned; insertTablet, insertTablets, insertRecords)',
  ),
  trace: onOff(
    '--trace',
    'TRACE',
    "subscribe to the client's iotdb:* tracing channels during the run; write durations show as 'traced <operation>' latency rows (what a tracing subscriber costs)",
  ),
  out: {
    flag: '--out',
    env: 'OUT',
    arg: 'DIR',
    path: true,
    parse: text(),
    default: () => undefined,
    defaultText: 'none',
    description:
      'write results.json, results.csv, latency.csv, latency-over-time.csv and report.html into this directory',
  },
  compare: {
    flag: '--compare',
    env: 'COMPARE',
    arg: 'METHOD,...',
    parse: listOf(oneOf(METHODS)),
    default: () => [],
    defaultText: 'none',
    description: 'run once per listed method and compare them',
  },
  vsJava: onOff(
    '--vs-java',
    'VS_JAVA',
    'also run packages/bench/java/Bench.java (the Java anchor) on the same workload and compare (with --query-file: java/QueryFile.java on each statement)',
  ),
  repeat: {
    flag: '--repeat',
    env: 'REPEAT',
    arg: 'N',
    parse: count,
    default: () => 1,
    defaultText: '1',
    description:
      'run it all N times, then print each figure as the median and range over them (with --vs-java the order of the two clients alternates)',
  },
  javaFirst: onOff(
    '--java-first',
    'JAVA_FIRST',
    'with --vs-java, run the Java client before ours (the other order on the shared server)',
  ),
};

export const KNOB_KEYS = Object.keys(KNOBS) as (keyof BenchConfig)[];

/** The knobs that shape the queries alone (their drawn ranges, devices, sensors, windows, function and filter). */
export const QUERY_KNOBS = [
  'queryInterval',
  'queryDeviceNum',
  'querySensorNum',
  'groupByTimeUnit',
  'queryAggregateFun',
  'queryLowerValue',
  'queryLoops',
] as const satisfies readonly (keyof BenchConfig)[];

/** Not a BenchConfig field: sets loop to ceil(totalPoints / (devices x sensors x batchSize)). */
export const TOTAL_POINTS: KnobSpec<number> = {
  flag: '--total-points',
  env: 'TOTAL_DATA_POINTS',
  arg: 'N',
  parse: count,
  description: 'points to write in all; sets loop (config-file key totalPoints)',
};
export const TOTAL_POINTS_KEY = 'totalPoints';
