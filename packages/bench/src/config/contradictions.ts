/** Knob combinations that cannot run; each is a ConfigError naming the knobs and where they came from. */
import { existsSync } from 'node:fs';
import { MAX_I32 } from '@iotdb/client';
import { givenServer } from '../e2e/target.js';
import type { BenchConfig, Method } from '../types.js';
import { hasQueries, readsOnly, storedRows, weightedQueries } from '../workload/operations.js';
import { FIRST_ROW, MAX_DEVICE_ROWS, MAX_TIME, rowTime } from '../workload/generator.js';
import { querySensors } from '../workload/query-sql.js';
import { isReservedTreeNode, TREE_RESERVED_NODES } from '../workload/schema.js';
import { ConfigError } from './errors.js';
import { endpointOf } from './parsers.js';
import { formatValue } from './format.js';
import { grouped } from '../report/numbers.js';
import { writeRequestBytes, writeSizeKnobs } from '../run/request-size.js';
import { missingProcess } from '../run/server-cpu.js';
import { describeOrigin, type Origin } from './source.js';
import { checkUnusedKnobs } from './unused-knobs.js';

const NOOP_METHODS: readonly Method[] = ['insertTablet', 'insertTablets', 'insertRecords'];

export function checkContradictions(c: BenchConfig, origin: (key: keyof BenchConfig) => Origin): void {
  const k: Knobs = {
    c,
    /** `deviceOffset 90 (--device-offset)` */
    is: (key) => `${key} ${formatValue(c[key])} (${describeOrigin(origin(key))})`,
    fail: (knob, message) => {
      throw new ConfigError(knob, message);
    },
    // methods run: --compare replaces --method
    methods: c.compare.length > 0 ? c.compare : [c.method],
    methodKey: c.compare.length > 0 ? 'compare' : 'method',
    flagged: (key) => origin(key).kind === 'flag',
  };
  checkServer(k);
  checkServerPids(k);
  checkDatabase(k);
  checkShare(k);
  checkMethods(k);
  checkTls(k);
  checkJava(k);
  checkVerify(k);
  checkSweep(k);
  checkWriteSize(k);
  checkRows(k);
  const writeOnly = c.queryFile === undefined ? undefined : writeRunKnob(c, origin);
  if (writeOnly !== undefined)
    k.fail(
      'queryFile',
      `${k.is('queryFile')} runs its statements instead of the writes: it does not go with ${k.is(writeOnly)}`,
    );
  checkQueries(k);
  checkUnusedKnobs(k);
}

/** The knobs, how each is named in a message (`is`), how a contradiction fails, and the methods run. */
export interface Knobs {
  readonly c: BenchConfig;
  readonly is: (key: keyof BenchConfig) => string;
  readonly fail: (knob: keyof BenchConfig, message: string) => never;
  readonly methods: readonly Method[];
  readonly methodKey: 'compare' | 'method';
  /** whether the knob was given on the command line (not by a config file or the environment, shared by runs) */
  readonly flagged: (key: keyof BenchConfig) => boolean;
}

/**
 * --host/--port beside --node-urls: our sessions go to --node-urls and the Java client (its writes, queries and count
 * of what it wrote) to --host:--port, so that must be one of the nodes; a host elsewhere would compare two servers.
 */
function checkServer({ c, is, fail }: Knobs): void {
  if (c.host === undefined || c.nodeUrls === undefined) return;
  const named = c.nodeUrls.some((url) => {
    const node = endpointOf(url);
    return node.host === c.host && node.port === c.port;
  });
  if (!named)
    fail(
      'host',
      `${is('host')} and ${is('port')} are not one of ${is('nodeUrls')}: our sessions would use --node-urls and the Java client --host; give --node-urls alone (the Java client then uses its first), or a --host and --port among them`,
    );
}

/** --server-pid: processes here, whose CPU the runs read (before a run starts, not at its first window). */
function checkServerPids({ c, is, fail }: Knobs): void {
  const missing = c.serverPid && missingProcess(c.serverPid);
  if (missing !== undefined) fail('serverPid', `${is('serverPid')}: ${missing}`);
}

/** This machine's share of the devices, and its workers. */
function checkShare({ c, is, fail }: Knobs): void {
  if (c.deviceOffset >= c.devices)
    fail('deviceOffset', `${is('deviceOffset')} leaves no devices: needs to be below ${is('devices')}`);
  if (c.deviceOffset + c.deviceCount > c.devices)
    fail(
      'deviceCount',
      `deviceOffset + deviceCount exceeds devices: ${is('deviceOffset')} + ${is('deviceCount')} > ${is('devices')}`,
    );
  if (c.workers > c.deviceCount)
    fail('workers', `${is('workers')} exceeds ${is('deviceCount')}: a worker would have no device`);
}

/** The write methods against the model, --server-noop and --dry-run-send. */
function checkMethods({ c, is, fail, methods, methodKey }: Knobs): void {
  if (c.serverNoop && c.model === 'table')
    fail('serverNoop', `${is('serverNoop')} works with the tree and aligned models only, got ${is('model')}`);
  const noNoop = methods.find((m) => !NOOP_METHODS.includes(m));
  if (c.serverNoop && noNoop !== undefined)
    fail(
      'serverNoop',
      `${is('serverNoop')} works with ${NOOP_METHODS.join(', ')} only, got ${noNoop} in ${is(methodKey)}`,
    );
  if (c.model === 'table' && methods.includes('insertRecords'))
    fail(methodKey, `${is(methodKey)}: the table model has no insertRecords (${is('model')})`);
  if (c.dryRunSend && methods.includes('writer'))
    fail(
      'dryRunSend',
      `${is('dryRunSend')} encodes tablets without sending; the writer sends what it batches (${is(methodKey)})`,
    );
}

/** --tls-ca, --java-trust-store: what to trust over TLS, in files that are there. */
function checkTls({ c, is, fail }: Knobs): void {
  for (const key of ['tlsCa', 'javaTrustStore'] as const) {
    const file = c[key];
    if (file === undefined) continue;
    if (!c.tls) fail(key, `${is(key)} is what to trust over TLS: it needs ${is('tls')}`);
    if (!existsSync(file)) fail(key, `${is(key)}: no such file`);
  }
}

/** --vs-java and --java-first against what the Java client can run. */
function checkJava({ c, is, fail, methods, methodKey }: Knobs): void {
  if (c.javaFirst && !c.vsJava)
    fail('javaFirst', `${is('javaFirst')} orders the Java client's run before ours: it needs ${is('vsJava')}`);
  if (c.dryRun && c.vsJava)
    fail('vsJava', `${is('vsJava')} runs the Java client but ${is('dryRun')} runs nothing: give one of them`);
  const paced = (['targetRate', 'sweepRates', 'rateLimit', 'batchIntervalMs'] as const).find((key) =>
    key === 'sweepRates' ? c.sweepRates.length > 0 : c[key] > 0,
  );
  if (c.vsJava && paced !== undefined && methods.includes('writer'))
    fail(
      'vsJava',
      `${is('vsJava')} paces the Java client's writes as ${is(paced)} paces ours, but it has no batching writer to pace (${is(methodKey)})`,
    );
  // Bench.java's setup writes, and its verify counts, every device of the database: a share's writes are not ours'
  const share = c.deviceOffset > 0 ? 'deviceOffset' : c.deviceCount < c.devices ? 'deviceCount' : undefined;
  if (c.vsJava && share !== undefined && c.queryFile === undefined && !readsOnly(c.operationProportion))
    fail(
      'vsJava',
      `${is('vsJava')} writes and counts every device on the Java side, but ${is(share)} writes a share of them: compare over every device (a run that only reads, or a query file, may take a share)`,
    );
  // a local server the run starts gives its own trust store
  if (c.vsJava && c.tls && givenServer(c) !== undefined && c.javaTrustStore === undefined)
    fail(
      'javaTrustStore',
      `${is('vsJava')} with ${is('tls')}: the Java client trusts a server through a JKS trust store: give --java-trust-store`,
    );
  if (c.vsJava && c.workload !== 'java-anchor')
    fail(
      'workload',
      `${is('workload')}: ${is('vsJava')} compares on Bench.java's workload, which is --workload java-anchor`,
    );
}

/** --verify reads back what the run stored: a run must store something. */
function checkVerify({ c, is, fail }: Knobs): void {
  if (!c.verify) return;
  if (c.serverNoop)
    fail('verify', `${is('verify')} reads back what was stored, but with ${is('serverNoop')} nothing is`);
  if (readsOnly(c.operationProportion))
    fail(
      'verify',
      `${is('verify')} counts the points this run writes, and ${is('operationProportion')} has no INGESTION: it writes none`,
    );
  if (c.dryRunSend)
    fail('verify', `${is('verify')} reads back what was stored, but with ${is('dryRunSend')} nothing is sent`);
}

/** A database the tree model's statements could not name (root.<database>). */
function checkDatabase({ c, is, fail }: Knobs): void {
  if (c.model === 'table' || !isReservedTreeNode(c.database)) return;
  fail('database', `${is('database')} is a word IoTDB reserves in a tree path (${TREE_RESERVED_NODES.join(', ')})`);
}

/** A write no request can carry: refused before the run rather than met by a worker out of memory. */
function checkWriteSize({ c, is, fail }: Knobs): void {
  if (c.queryFile !== undefined || readsOnly(c.operationProportion)) return;
  const bytes = writeRequestBytes(c);
  if (bytes <= MAX_I32) return; // a frame's length is a 32-bit field, as the client's maxFrameBytes
  const mb = (n: number) => grouped(Math.round(n / 1e6));
  fail(
    'batchSize',
    `${is('batchSize')}: each write would carry about ${mb(bytes)} MB ${writeSizeKnobs(c)}, more than one request can (${mb(MAX_I32)} MB)`,
  );
}

/** Rows and times a device's writes can have: refused before the run, not met by a worker or at every write. */
function checkRows({ c, is, fail }: Knobs): void {
  if (c.queryFile !== undefined) return;
  const rows = storedRows(c);
  if (rows > MAX_DEVICE_ROWS) {
    const most = Math.floor(MAX_DEVICE_ROWS / c.batchSize) - c.warmupRounds; // timed rounds left beside the warm-up's
    const knob = most >= 1 ? 'loop' : 'warmupRounds';
    fail(
      knob,
      `${is(knob)}: ${grouped(rows)} rows a device (--warmup-rounds + --loop) x --batch-size, more than the ` +
        `${grouped(MAX_DEVICE_ROWS)} the benchmark numbers; ` +
        (most >= 1 ? `at most ${grouped(most)} rounds of this batch size` : 'the warm-up rounds alone are more'),
    );
  }
  const lastRow = FIRST_ROW + rows - 1;
  const last = rowTime(c, lastRow);
  if (last > MAX_TIME[c.precision])
    fail(
      'timeStep',
      `${is('timeStep')}: the last row's time would be ${grouped(last)} ${c.precision} (row ${grouped(lastRow)} of a ` +
        `device), past ${grouped(MAX_TIME[c.precision])}, the largest ${c.precision} timestamp the benchmark writes`,
    );
}

/** --sweep-rates runs the whole run once per rate, as --target-rate: not beside another rate or list of runs. */
function checkSweep({ c, is, fail }: Knobs): void {
  if (c.sweepRates.length === 0) return;
  const other = (['targetRate', 'rateLimit'] as const).find((key) => c[key] > 0);
  if (other !== undefined)
    fail(
      'sweepRates',
      `${is('sweepRates')} sets each run's rate as --target-rate does: it does not go with ${is(other)}`,
    );
  if (c.compare.length > 0)
    fail(
      'sweepRates',
      `${is('sweepRates')} runs once per rate and ${is('compare')} once per method: sweep one method at a time`,
    );
}

/**
 * A knob given that only a write run uses (--query-file would leave it unused, silently). The write workload's
 * shape (devices, sensors, ...) may stay, as in a config file shared with write runs: it changes nothing asked.
 */
function writeRunKnob(c: BenchConfig, origin: (key: keyof BenchConfig) => Origin): keyof BenchConfig | undefined {
  const set: Partial<Record<keyof BenchConfig, boolean>> = {
    dryRunSend: c.dryRunSend,
    serverNoop: c.serverNoop,
    operationProportion: hasQueries(c.operationProportion),
    queries: c.queries.length > 0,
    verify: c.verify,
    rateLimit: c.rateLimit > 0,
    compare: c.compare.length > 0,
    method: origin('method').kind !== 'default',
  };
  return (Object.keys(set) as (keyof BenchConfig)[]).find((k) => set[k]);
}

/** The query knobs against what the run writes and how. */
function checkQueries({ c, is, fail, methods, methodKey }: Knobs): void {
  const mixed = weightedQueries(c.operationProportion);
  const asked = [...mixed, ...c.queries];
  if (c.targetRate > 0 && c.rateLimit > 0)
    fail('targetRate', `${is('targetRate')} schedules every operation; ${is('rateLimit')} paces writes: give one`);
  if (mixed.length > 0 && methods.includes('writer'))
    fail(
      'operationProportion',
      `${is('operationProportion')} draws each operation, but the writer batches rows on its own (${is(methodKey)})`,
    );
  if (mixed.length > 0 && (c.serverNoop || c.dryRunSend))
    fail(
      'operationProportion',
      `${is('operationProportion')} has queries, but nothing is stored with ${is(c.serverNoop ? 'serverNoop' : 'dryRunSend')}`,
    );
  if (asked.length > 0 && c.queryDeviceNum > c.deviceCount)
    fail('queryDeviceNum', `${is('queryDeviceNum')} exceeds this machine's ${is('deviceCount')}`);
  if (asked.length > 0 && querySensors(c).length < c.querySensorNum)
    fail(
      'querySensorNum',
      `${is('querySensorNum')}: queries read numeric sensors (INT32, INT64, FLOAT, DOUBLE) and the schema has ${querySensors(c).length} (${is('typeProportions')}, ${is('sensors')})`,
    );
}
