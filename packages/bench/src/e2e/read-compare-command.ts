import { statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { MAX_I32, MAX_TIMER_MS, Session, TableSession, type BaseSession } from '@iotdb/client';
import { COMMANDS } from '../config/argv.js';
import { integer } from '../config/parsers.js';
import { fixed, median, times } from '../report/numbers.js';
import { textTable } from '../report/table.js';
import { outDirReady } from '../report/write-results.js';
import { javaConnectArgs } from '../run/java.js';
import { runJavaQuery, type FailedPass, type ReadPass } from '../run/java-query.js';
import { JVM_CPU_STEP_S, jvmCpuMeasured } from '../run/jvm-cpu.js';
import { readAsBatches, readAsColumns, readAsRowBatches, readAsRows } from '../run/read-pass.js';
import { RunError } from '../run/run-error.js';
import { missingProcess, notIoTDBNodes, serverCpuWindow } from '../run/server-cpu.js';
import { collectEnvironment } from '../run/environment.js';
import { connectOptions, queryOptions } from '../run/session-options.js';
import { TABLE_NAME } from '../workload/schema.js';
import { defaultConnection, takeConnectionFlag, type ConnectionArgs } from './connection-args.js';

const USAGE = `usage: ${COMMANDS['read-compare'].usage}`;
/** What is read without --sql: the bench's data as its default run writes it, tree or (--database) table model. */
const DEFAULT_SQL = 'SELECT * FROM root.bench.** ALIGN BY DEVICE';
const DEFAULT_TABLE_SQL = `SELECT * FROM ${TABLE_NAME}`;

interface Options extends ConnectionArgs {
  sql: string;
  database: string | undefined;
  fetchSize: number;
  rounds: number;
  out: string | undefined;
  /** the server's processes on this machine, whose CPU per value read bounds every reader on shared cores */
  serverPids: number[] | undefined;
  /** the Java reader's trust store over TLS (ours trusts --tls-ca, or the system's CAs) */
  javaTrustStore: string | undefined;
  /** --query-timeout-ms, as the main command's: how long the statement may take, both clients; 0 = no limit */
  queryTimeoutMs: number | undefined;
  /** --warmup-reads: the reads that warm each reader up before a timed one; by default warmUpReads of the result */
  warmupReads: number | undefined;
}

/** A pass, with the server's CPU per million values read when --server-pid is given. */
type Pass = ReadPass & { serverCpuSPerMpts?: number };

/**
 * The readers compared, in the order each round runs them; Java's is the baseline. `toColumnar()` is the last
 * of ours: its whole result becomes garbage when its pass ends, and the reader after it in this process paid for
 * that (`batches()`, when it came next, read 0.044-0.047 s of CPU per M values, 0.026 after the rows; the Java
 * reader runs in its own process, and ours used 21-37 ms of CPU in the 5-6 s of its pass).
 */
const READERS = [
  { key: 'rows', name: 'ours: rows (for await)' },
  { key: 'rowBatches', name: 'ours: rows (rowBatches)' },
  { key: 'batches', name: 'ours: columns (batches)' },
  { key: 'columns', name: 'ours: columns (toColumnar)' },
  { key: 'java', name: 'Java: SessionDataSet iterator' },
] as const;
type ReaderKey = (typeof READERS)[number]['key'];
export type Passes = Record<ReaderKey, Pass[]>;

/**
 * `iotdb-bench read-compare`: one statement read in the same run by our rows (`for await` and `rowBatches()`,
 * every value), our columns (`toColumnar()`, and `batches()` streamed) and the Java client's iterator
 * (java/QueryBench.java), alternating, `rounds` times after an untimed warm-up of each (warmUpReads; the Java
 * client's in each of its JVMs, its reads before the last not counted); prints each round's points/s and the
 * medians' ratios. 2 on bad usage, 1 when the statement reads no values (nothing to compare) or the readers did not
 * read the same rows and values.
 */
export async function readCompareCommand(args: readonly string[]): Promise<number> {
  let o: Options;
  try {
    o = parseOptions(args);
  } catch (e) {
    console.error(`iotdb-bench read-compare: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (o.out !== undefined && !outFileReady(o.out)) return 2;
  const missing = o.serverPids && missingProcess(o.serverPids);
  if (missing !== undefined) {
    console.error(`iotdb-bench read-compare: --server-pid: ${missing}`);
    return 2;
  }
  for (const note of notIoTDBNodes(o.serverPids ?? [])) console.error(`iotdb-bench read-compare: warning: ${note}`);
  const connect = connectOptions(o, o);
  // a result file carries where it was measured, as a run's results.json does
  const environment = o.out === undefined ? undefined : await collectEnvironment(connect);
  const session: BaseSession =
    o.database === undefined ? new Session(connect) : new TableSession({ ...connect, database: o.database });
  await session.open();
  let passes: Passes;
  try {
    passes = await readRounds(o, readers(o, session, o.serverPids));
  } finally {
    await session.close();
  }
  const all = READERS.flatMap(({ key }) => passes[key]);
  const differ = all.find((p) => p.rows !== all[0].rows || p.points !== all[0].points);
  console.log(summary(o, passes, availableParallelism()));
  if (o.out !== undefined) writeFileSync(o.out, `${JSON.stringify({ environment, options: o, passes }, null, 2)}\n`);
  if (differ !== undefined) {
    console.error(
      `iotdb-bench read-compare: the readers read different data: ${all[0].rows} rows / ${all[0].points} values vs ${differ.rows} / ${differ.points}`,
    );
    return 1;
  }
  return 0;
}

/**
 * Whether --out can be written once the rounds are read: its directory made, and the path itself no directory (the
 * main command's --out is one, this one's a file), said on stderr when not.
 */
function outFileReady(out: string): boolean {
  if (!outDirReady(dirname(out), 'iotdb-bench read-compare')) return false;
  if (!statSync(out, { throwIfNoEntry: false })?.isDirectory()) return true;
  console.error(
    `iotdb-bench read-compare: --out: ${out} is a directory, and read-compare's --out names a file: --out ${join(out, 'read-compare.json')}`,
  );
  return false;
}

/** A pass of each reader; the Java child's `javaReads`: its reads of the statement, the last one timed. */
type Readers = { read: Record<ReaderKey, () => Promise<Pass>>; javaReads: number };

/** Each reader's pass over the statement, on `session` (ours) or a Java child process. */
function readers(o: Options, session: BaseSession, serverPids: number[] | undefined): Readers {
  const perQuery = { fetchSize: o.fetchSize, ...queryOptions(o) };
  const ours = (pass: typeof readAsRows) => () => withServerCpu(serverPids, 1, () => pass(session, o.sql, perQuery));
  // the Java child's warm-up reads, then the one timed (set after the first read)
  const r: Readers = {
    javaReads: 2,
    read: {
      rows: ours(readAsRows),
      rowBatches: ours(readAsRowBatches),
      columns: ours(readAsColumns),
      batches: ours(readAsBatches),
      // a child process, run to its end: its reads but the last warm its JVM up, the last is timed
      java: () =>
        withServerCpu(serverPids, r.javaReads, () =>
          runJavaQuery({ ...o, reps: r.javaReads, connect: javaConnectArgs(o) }).then((passes) =>
            javaPass(passes.at(-1)!),
          ),
        ),
    },
  };
  return r;
}

/**
 * The readers warmed up (--warmup-reads, or warmUpReads of the first read's values), then `o.rounds` rounds of a
 * timed pass each (each of ours the last of as many reads as its warm-up, as the Java child's), a line printed per
 * round. Throws a RunError when the statement reads no values.
 */
export async function readRounds(
  o: Pick<Options, 'rounds'> & Partial<Pick<Options, 'warmupReads'>>,
  readers: Readers,
  log: (line: string) => void = console.log,
): Promise<Passes> {
  const { read } = readers;
  const passes: Passes = { rows: [], rowBatches: [], columns: [], batches: [], java: [] };
  const first = await read.rows();
  if (first.points === 0)
    throw new RunError(
      `the statement read no values (${first.rows} rows): nothing to compare; --sql must read data (default: ${DEFAULT_SQL}, what iotdb-bench writes)`,
    );
  const warmUps = o.warmupReads ?? warmUpReads(first.points);
  readers.javaReads = warmUps + 1;
  for (const { key } of READERS)
    if (key !== 'java') for (let k = key === 'rows' ? 1 : 0; k < warmUps; k++) await read[key]();
  for (let round = 1; round <= o.rounds; round++) {
    // the first read after the Java child's run (seconds of a synchronous child) took ours 1.3-2x its CPU, cold
    // caches: one untimed, so that no reader of ours pays it
    if (round > 1) await read.rows();
    for (const { key } of READERS) {
      // the Java reader's timed read is the last of its JVM's run of reads; ours is the last of a run of its own
      // (500 columns x 1,000 rows through batches(): 0.80x the Java reader's rate read once after the others, 1.00x
      // as the last of ten)
      if (key !== 'java') for (let k = 1; k < warmUps; k++) await read[key]();
      passes[key].push(await read[key]());
    }
    log(roundLine(round, passes));
  }
  return passes;
}

/** Values each reader reads untimed before its timed reads: enough for the JITs, V8's and the JVM's, to settle. */
const WARM_UP_VALUES = 5_000_000;
const MAX_WARM_UP_READS = 30;

/**
 * The untimed reads that warm a reader up on a statement of `values` values: WARM_UP_VALUES in all, at least one,
 * at most 30. One read of a small result leaves a fresh JVM at a third of its speed: 360,000 values (the table
 * model, every type, a fifth null) read at 1.24 M values/s on its second read, 3.7 M from its eighth.
 */
export function warmUpReads(values: number): number {
  return Math.min(MAX_WARM_UP_READS, Math.max(1, Math.ceil(WARM_UP_VALUES / Math.max(1, values))));
}

/**
 * `read`, with the server's CPU per million values over it when the server's processes are known (a process gone
 * meanwhile ends the comparison: its figure is what it measures). `reads`: how many reads of the statement `read`
 * makes (the server serves each alike; the pass counts one).
 */
async function withServerCpu(pids: number[] | undefined, reads: number, read: () => Promise<ReadPass>): Promise<Pass> {
  if (pids === undefined) return read();
  const spent = serverCpuWindow(pids);
  const p = await read();
  const server = spent();
  if ('error' in server) throw new RunError(`--server-pid: ${server.error}`);
  return { ...p, serverCpuSPerMpts: server.seconds / reads / (p.points / 1e6) };
}

export function parseOptions(args: readonly string[]): Options {
  const o: Options = {
    ...defaultConnection(),
    sql: '',
    database: undefined,
    fetchSize: 5000,
    rounds: 3,
    out: undefined,
    serverPids: undefined,
    javaTrustStore: undefined,
    queryTimeoutMs: undefined,
    warmupReads: undefined,
  };
  for (let i = 0; i < args.length; i++) {
    const took = takeConnectionFlag(o, args, i);
    if (took > 0) {
      i += took - 1;
      continue;
    }
    const flag = args[i];
    const value = args[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    const count = () => positive(flag, value);
    if (flag === '--sql') o.sql = statement(value);
    else if (flag === '--database') o.database = value;
    else if (flag === '--fetch-size') o.fetchSize = checked(flag, value, fetchSize);
    else if (flag === '--rounds') o.rounds = count();
    else if (flag === '--out') o.out = value;
    else if (flag === '--server-pid') o.serverPids = value.split(',').map((pid) => positive(flag, pid));
    else if (flag === '--java-trust-store') o.javaTrustStore = value;
    else if (flag === '--query-timeout-ms') o.queryTimeoutMs = checked(flag, value, timeoutMs);
    else if (flag === '--warmup-reads') o.warmupReads = checked(flag, value, warmupReads);
    else throw new Error(`unknown option ${flag}`);
  }
  checkTls(o);
  if (o.sql === '') o.sql = o.database === undefined ? DEFAULT_SQL : DEFAULT_TABLE_SQL;
  return o;
}

/** Both readers over TLS: ours trusting --tls-ca (or the system's CAs), the Java one its JKS trust store. */
function checkTls(o: Options): void {
  if (!o.tls && (o.tlsCa !== undefined || o.javaTrustStore !== undefined))
    throw new Error('--tls-ca and --java-trust-store are what to trust over TLS: they need --tls');
  if (o.tls && o.javaTrustStore === undefined)
    throw new Error('--tls needs --java-trust-store: the Java reader trusts a server through a JKS trust store');
}

/** --sql's value: a blank one is refused (it would read the default statement). */
function statement(value: string): string {
  if (value.trim() === '') throw new Error('--sql needs a statement');
  return value;
}

const atLeastOne = integer(1);
/** reads that warm a reader up: each is a read of the whole statement, by each of five readers, every round */
const warmupReads = integer(1, 1000);
const timeoutMs = integer(0, MAX_TIMER_MS);
/** a query's fetchSize: a 32-bit field of the protocol */
const fetchSize = integer(1, MAX_I32);

/** `value` as the main command's knobs read an integer >= 1, or why not, naming the flag. */
function positive(flag: string, value: string): number {
  return checked(flag, value, atLeastOne);
}

/** `value` read by `parse`, or why not, naming the flag. */
function checked(flag: string, value: string, parse: (raw: string) => number): number {
  try {
    return parse(value);
  } catch (e) {
    throw new Error(`${flag} ${(e as Error).message}, got ${value}`, { cause: e });
  }
}

/** The Java client's read, or the end of the comparison when the server refused it. */
function javaPass(p: ReadPass | FailedPass): ReadPass {
  if ('error' in p) throw new RunError(`the Java client could not read the statement: ${p.error}`);
  return p;
}

const M = (p: ReadPass) => `${fixed(p.pointsPerS / 1e6, 2)} M`;

function roundLine(round: number, p: Passes): string {
  const last = p.rows.at(-1)!;
  const rates = READERS.map(({ key, name }) => `${name} ${M(p[key].at(-1)!)}`).join(', ');
  return `round ${round}: ${rates} values/s (${last.rows} rows, ${last.points} values)`;
}

const orDash = (n: number) => (Number.isFinite(n) ? fixed(n, 2) : '-');

/**
 * The comparison's table: each reader's rate per round, median and ratio to Java's, its client CPU per value;
 * with the server's CPU per value (--server-pid), also the most each reader could read on the `cores` the
 * server and the reader share, cores / (server's + reader's CPU per value) (each round's, their median), and the
 * most a reader that cost no CPU could: what the server alone allows here.
 */
export function summary(o: Pick<Options, 'sql' | 'fetchSize' | 'rounds'>, p: Passes, cores: number): string {
  const med = (k: ReaderKey) => median(p[k].map((x) => x.pointsPerS));
  // the Java reader's CPU a read, as its clock counted it: too few of its steps to compare on a small result
  const javaCpuS = median(p.java.map((x) => (x.cpuSPerMpts * x.points) / 1e6));
  const javaCpuShown = jvmCpuMeasured(javaCpuS);
  const cpu = (k: ReaderKey) => (k !== 'java' || javaCpuShown ? median(p[k].map((x) => x.cpuSPerMpts)) : NaN);
  const server = (k: ReaderKey) => median(p[k].map((x) => x.serverCpuSPerMpts ?? NaN));
  const withServer = READERS.every(({ key }) => p[key].every((x) => x.serverCpuSPerMpts !== undefined));
  // each round's bound, then their median: a round's rate is under its own bound, so the median rate is under the
  // median bound (the medians of the CPU figures, from other rounds, could bound it below what it read); none from a
  // round whose reader and server used no CPU the clock could see (under a tick, on a tiny result)
  const roundBound = (x: Pass) => {
    const perValue = (x.serverCpuSPerMpts ?? NaN) + x.cpuSPerMpts;
    return perValue > 0 ? (cores / perValue) * 1e6 : NaN;
  };
  // none for the Java reader from a client CPU its clock did not measure
  const bound = (k: ReaderKey) =>
    k !== 'java' || javaCpuShown ? median(p[k].map(roundBound).filter(Number.isFinite)) : NaN;
  const row = ({ key, name }: (typeof READERS)[number]) => [
    name,
    p[key].map((x) => fixed(x.pointsPerS / 1e6, 2)).join(', '),
    fixed(med(key) / 1e6, 2),
    times(med(key), med('java')),
    Number.isNaN(cpu(key)) ? '-' : fixed(cpu(key), 3),
    times(cpu(key), cpu('java')),
    ...(withServer ? [fixed(server(key), 3), orDash(bound(key) / 1e6), times(bound(key), med('java'))] : []),
  ];
  const headers = ['reader', 'M values/s per round', 'median', 'vs Java', 'client CPU s/M values', 'vs Java'];
  const lines = [
    `${o.sql} (fetch size ${o.fetchSize}), ${o.rounds} rounds:`,
    textTable(
      withServer ? [...headers, 'server CPU s/M values', `at most on ${cores} cores`, 'vs Java'] : headers,
      READERS.map(row),
    ),
  ];
  if (!javaCpuShown)
    lines.push(
      `The Java reader's CPU (${fixed(javaCpuS, 3)} s a read) is not compared: the JVM's CPU clock counts ` +
        `${JVM_CPU_STEP_S * 1000} ms steps, and a figure of fewer than ten is off by a tenth or more; read a larger result.`,
    );
  if (withServer) {
    const serverAll = median(READERS.flatMap(({ key }) => p[key].map((x) => x.serverCpuSPerMpts!)));
    const free = (cores / serverAll) * 1e6; // what the server alone allows
    lines.push(
      serverAll === 0
        ? `The server's processes used no CPU the clock could see (under a tick a read).`
        : `The server used ${fixed(serverAll, 3)} s of CPU per million values (median of every read); on ${cores} ` +
            `cores shared with it, a reader that cost no CPU could read at most ${fixed(free / 1e6, 2)} M values/s, ` +
            `${times(free, med('java'))} the Java reader's median.`,
    );
  }
  return lines.join('\n');
}
