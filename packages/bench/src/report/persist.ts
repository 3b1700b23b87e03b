/**
 * `--persist-results HOST:PORT`: each run's figures written into an IoTDB (tree model), in its own database
 * `root.iotdb_bench_results`, as iot-benchmark's TEST_DATA_PERSISTENCE does, timestamped with the run's start:
 * the run at `root.iotdb_bench_results.<label>` (points and points/s, rows read and rows/s, ops/s, counts, CPU, client
 * version and commit), each operation's count and latency matrix (latency-matrix.ts's columns, ms) at
 * `root.iotdb_bench_results.<label>.<operation>`, and beside it each query type's ops, failed, rows and rows/s
 * (with its latency when the run has no latency row of it: `--queries` after the writes), and at the run's device,
 * each at its own time, its latency over time (interval_ops, interval_p50_ms, ...), failures over time
 * (interval_failed) and points/s over the run (interval_points_per_s). Labels and operations become path nodes by
 * pathNode; the run's `label` measurement holds its label as given.
 */
import { Session, StatusCode, TSDataType, type RecordInput } from '@iotdb/client';
import { isReservedTreeNode } from '../workload/schema.js';
import { connectOptions, type ConnectKnobs } from '../run/session-options.js';
import { ignoreCode } from '../run/status-codes.js';
import type { LatencySummary, RunResult } from '../types.js';
import { MATRIX_COLUMNS } from './latency-matrix.js';
import { rowsRead, serverCpuS, writeMethod } from './result-fields.js';

export const RESULTS_DATABASE = 'root.iotdb_bench_results';

/**
 * Writes the runs; returns the records written. Throws (with the server's status) when it cannot. The server is
 * reached as the run's own (--tls, --tls-ca, --rpc-compression; the user IOTDB_USER), only at `target`.
 */
export async function persistResults(
  target: { host: string; port: number },
  runs: readonly RunResult[],
  connect: ConnectKnobs,
): Promise<number> {
  const session = new Session(connectOptions({ ...connect, nodeUrls: undefined }, target));
  await session.open();
  try {
    // there already, though SHOW DATABASES hides it from a user granted nothing on it: its write says what it lacks
    await ignoreCode(session.createDatabase(RESULTS_DATABASE), StatusCode.DATABASE_ALREADY_EXISTS);
    const records = runs.flatMap(persistedRecords);
    await session.insertRecords(records);
    return records.length;
  } finally {
    await session.close();
  }
}

/**
 * A name as one path node: its letters and digits, any other run of characters as `_`. ASCII ones as they are (but
 * `_` before one starting with a digit or one IoTDB refuses); one with letters of other scripts in backquotes, as
 * IoTDB takes them (reduced to ASCII, every label in Chinese became `_`, one device for them all).
 */
export function pathNode(name: string): string {
  const s = name.replace(/[^\p{L}\p{N}_]+/gu, '_');
  if (/[^A-Za-z0-9_]/.test(s)) return `\`${s}\``;
  return /^[0-9]/.test(s) || s === '' || isReservedTreeNode(s) ? `_${s}` : s;
}

/** One measurement of a record: its name, type and value (null: not recorded). */
type Field = readonly [measurement: string, type: TSDataType, value: RecordInput['values'][number]];

const { INT64, DOUBLE, TEXT } = TSDataType;

/** The record of `fields` on `deviceId` at `timestamp`. */
function record(deviceId: string, timestamp: Date, fields: readonly Field[]): RecordInput {
  return {
    deviceId,
    timestamp,
    measurements: fields.map(([measurement]) => measurement),
    dataTypes: fields.map(([, type]) => type),
    values: fields.map(([, , value]) => value),
  };
}

/** A run's records: the run, its operations' latency, its query types' figures. */
export function persistedRecords(r: RunResult): RecordInput[] {
  const device = `${RESULTS_DATABASE}.${pathNode(r.label)}`;
  const timestamp = new Date(r.startedAt);
  const client = r.environment?.client;
  const run = record(device, timestamp, [
    ['label', TEXT, r.label],
    ['points', INT64, r.points],
    ['points_per_s', DOUBLE, r.pointsPerS],
    ['rows', INT64, rowsRead(r, 'rows')],
    ['rows_per_s', DOUBLE, rowsRead(r, 'rowsPerS')],
    ['ops_per_s', DOUBLE, r.opsPerS],
    ['ok_ops', INT64, r.okOps],
    ['failed_ops', INT64, r.failedOps],
    ['duration_s', DOUBLE, r.durationS],
    ['client_cpu_s', DOUBLE, r.clientCpuS],
    ['server_cpu_s', DOUBLE, serverCpuS(r) ?? null],
    ['model', TEXT, r.config.model],
    ['method', TEXT, writeMethod(r) ?? null],
    ['client_version', TEXT, client?.version ?? null],
    ['git_commit', TEXT, client?.gitCommit ?? null],
  ]);
  const operations = Object.entries(r.latency).map(([op, l]) =>
    record(`${device}.${pathNode(op)}`, timestamp, [
      ...latencyFields(l),
      ['slowest_client', DOUBLE, r.slowestClientMs?.[op] ?? null],
    ]),
  );
  return [run, ...operations, ...queryRecords(r, device, timestamp), ...overTimeRecords(r, device)];
}

/**
 * The run's latency over time, failures over time and points/s over the run beside the run's own figures (the
 * run's device), each sample at its own time (the run's start and the sample's seconds, to the ms): a series to
 * draw, as iot-benchmark's persisted records are.
 */
function overTimeRecords(r: RunResult, device: string): RecordInput[] {
  // a sample s seconds after the run's start, at the run's device
  const sample = (s: number, fields: readonly Field[]): RecordInput =>
    record(device, new Date(Date.parse(r.startedAt) + Math.round(s * 1000)), fields);
  return [
    ...(r.latencyOverTime ?? []).map(([s, ops, p50, p99, max]) =>
      sample(s, [
        ['interval_ops', INT64, ops],
        ['interval_p50_ms', DOUBLE, p50],
        ['interval_p99_ms', DOUBLE, p99],
        ['interval_max_ms', DOUBLE, max],
      ]),
    ),
    ...r.throughput.map(([s, pointsPerS]) => sample(s, [['interval_points_per_s', DOUBLE, pointsPerS]])),
    ...(r.failuresOverTime ?? []).map(([s, failed]) => sample(s, [['interval_failed', INT64, failed]])),
  ];
}

/** A latency row's fields: count and the matrix's, ms. */
function latencyFields(l: LatencySummary): Field[] {
  return [
    ['count', INT64, l.count],
    ...MATRIX_COLUMNS.map(([header, value]): Field => [header.toLowerCase(), DOUBLE, value(l)]),
  ];
}

/**
 * Per query type (`--queries`, a mixed run's, a query-file statement's) its operations, failures, rows, rows/s and
 * points read (when recorded), beside the operation's latency row (the same device); with no such row (`--queries`
 * after the writes), its latency.
 */
function queryRecords(r: RunResult, device: string, timestamp: Date): RecordInput[] {
  return Object.entries(r.queries ?? {}).map(([kind, q]) =>
    record(`${device}.${pathNode(kind)}`, timestamp, [
      ['ops', INT64, q.ops],
      ['failed', INT64, q.failed],
      ['rows', INT64, q.rows],
      ['rows_per_s', DOUBLE, q.rowsPerS],
      ...(q.points === undefined ? [] : [['points', INT64, q.points] as const]),
      ...(kind in r.latency ? [] : latencyFields(q.latency)),
    ]),
  );
}
