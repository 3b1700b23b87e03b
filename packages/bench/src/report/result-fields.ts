/**
 * The machine-readable fields of one run, in a fixed order: the `RESULT key=value` line and the
 * columns of results.csv are both made from this list, so they cannot drift apart.
 */
import type { LatencySummary, QueryFigures, RunResult } from '../types.js';
import { hasQueries, QUERY_KINDS, readsOnly } from '../workload/operations.js';
import { LatencyHistogram } from './histogram.js';
import { fixed, orDash } from './numbers.js';
import { AFTER_THE_WRITES, DERIVED_PREFIXES, START_LAG } from '../latency-rows.js';

const QUERIES: ReadonlySet<string> = new Set(QUERY_KINDS);

export const NO_LATENCY: LatencySummary = new LatencyHistogram().summaryMs();

/**
 * The write kind with the most latency samples (the first such on a tie): the run's main write operation; a query-file
 * statement's own row (named as the statement, whatever that says: `failed logins`, `TIME_RANGE`), once a read succeeded.
 */
export function mainOperation(r: RunResult): { kind: string; latency: LatencySummary } | undefined {
  if (r.queryFile !== undefined) {
    const row = r.queryFile.row ?? r.label;
    const own = r.latency[row];
    return own === undefined ? undefined : { kind: row, latency: own };
  }
  let best: { kind: string; latency: LatencySummary } | undefined;
  for (const [kind, latency] of Object.entries(r.latency)) {
    // the failed, uncorrected and --trace's rows describe the main operation, they are not it; the start lag, all;
    // a query type's, a mixed run's or --queries' (`<type> after the writes`), is a read
    if (DERIVED_PREFIXES.some((p) => kind.startsWith(p)) || kind === START_LAG) continue;
    if (QUERIES.has(kind) || r.queries?.[kind] !== undefined) continue;
    if (best === undefined || latency.count > best.latency.count) best = { kind, latency };
  }
  return best;
}

/** Whether any of the runs has a main operation: runs of queries alone have none (their latency is per query type). */
export const anyMainOperation = (runs: readonly RunResult[]): boolean =>
  runs.some((r) => mainOperation(r) !== undefined);

/** A value as one token of the RESULT line: no whitespace (fields are space-separated), no '=', never empty. */
export function token(s: string): string {
  const t = s.replace(/[\s=]+/g, '_');
  return t === '' ? '-' : t;
}

type Field = readonly [key: string, value: (r: RunResult, op: string, lat: LatencySummary | undefined) => string];

/** A latency figure of the main operation, ms; '-' where the run has none (nothing written: not a figure of 0). */
const ofMain =
  (pick: (l: LatencySummary) => number) =>
  (_r: RunResult, _op: string, l: LatencySummary | undefined): string =>
    l === undefined ? '-' : fixed(pick(l), 3);

/** A figure of the write workload: '-' for a query-file run, which writes nothing. */
const ofWrites =
  (value: (r: RunResult) => string | number) =>
  (r: RunResult): string =>
    r.queryFile === undefined ? String(value(r)) : '-';

/** A run that wrote nothing by design (a query-file statement, queries without ingestion): rows read are its volume. */
export const onlyReads = (r: RunResult): boolean =>
  r.queryFile !== undefined || readsOnly(r.config.operationProportion);

/**
 * A run whose CPU is also given per operation: one that read (alone, or in a mix with writes, whose points are the
 * writes' while its CPU is the queries' too); a run of writes alone has per million points.
 */
export const cpuPerOperationToo = (r: RunResult): boolean => onlyReads(r) || hasQueries(r.config.operationProportion);

/** CPU seconds `cpuS` (the client's by default) per operation, in ms, of a run cpuPerOperationToo; else undefined. */
export function cpuMsPerOperation(r: RunResult, cpuS = r.clientCpuS): number | undefined {
  return cpuPerOperationToo(r) ? cpuSPerOperation(r, cpuS) * 1000 : undefined;
}

/** A mix or a paced run: --vs-java's two clients ran the very same operations, compared per operation. */
export const samePlan = (r: RunResult): boolean => hasQueries(r.config.operationProportion) || r.config.targetRate > 0;

/** The method a run wrote with; none for one that wrote nothing by design (its config keeps the default's). */
export const writeMethod = (r: RunResult): string | undefined => (onlyReads(r) ? undefined : r.config.method);

/** A run that read: it has the figures of a query type or statement (its queries table). */
export const readSome = (r: RunResult): r is RunResult & Required<Pick<RunResult, 'queries'>> =>
  Object.keys(r.queries ?? {}).length > 0;

/** Rows read by a run's queries, all types together, and their rate (readRate). */
export const rowsRead = (r: RunResult, of: 'rows' | 'rowsPerS'): number =>
  of === 'rows' ? Object.values(r.queries ?? {}).reduce((n, q) => n + q.rows, 0) : readRate(r);

/**
 * Whether a query type of `r` is `--queries` after the writes, read after the run one type after another: every type
 * of a run without queries of its own; `<type> after the writes` beside a mixed run's. A mixed run's own types and a
 * query-file statement read through the run, together.
 */
export function afterTheWrites(r: RunResult, kind: string): boolean {
  const ownQueries = r.queryFile !== undefined || hasQueries(r.config.operationProportion);
  return !ownQueries || kind.endsWith(AFTER_THE_WRITES);
}

/**
 * The rate of a run's rows read, over the time they were read in: the run's own query types read together (the
 * longest of their times), then --queries after the writes, one type after another (each its own time).
 */
function readRate(r: RunResult): number {
  let rows = 0;
  let together = 0;
  let after = 0;
  for (const [kind, q] of Object.entries(r.queries ?? {})) {
    rows += q.rows;
    const seconds = q.rows > 0 && q.rowsPerS > 0 ? q.rows / q.rowsPerS : 0;
    if (afterTheWrites(r, kind)) after += seconds;
    else together = Math.max(together, seconds);
  }
  return together + after > 0 ? rows / (together + after) : 0;
}

/** The points these query figures read together; undefined when one did not record them (a file from before). */
export function totalPoints(figures: readonly QueryFigures[]): number | undefined {
  return figures.every((q) => q.points !== undefined) ? figures.reduce((n, q) => n + q.points!, 0) : undefined;
}

/** CPU seconds per million points written, or rows read by a run that only read. */
export interface CpuPerMillion {
  seconds: number;
  of: 'points' | 'rows';
}

/**
 * The client's CPU seconds per million points written, or per million rows read for a run that only read (its
 * points are 0); null when such a run read no rows.
 */
export function cpuPerMillion(r: RunResult): CpuPerMillion | null {
  if (!onlyReads(r)) return { seconds: r.clientCpuSPerMpts, of: 'points' };
  return perMillionRows(r, r.clientCpuS);
}

/** The server's CPU seconds over the run (--server-pid); undefined when not measured, or not read (a process gone). */
export const serverCpuS = (r: RunResult): number | undefined =>
  r.serverCpu !== undefined && 'seconds' in r.serverCpu ? r.serverCpu.seconds : undefined;

/** The server's cores the run kept busy on average: its CPU seconds over the run's wall time; undefined unmeasured. */
export function serverCores(r: RunResult): number | undefined {
  const seconds = serverCpuS(r);
  return seconds === undefined ? undefined : seconds / r.durationS;
}

/** The server's CPU per million points written, or rows read, as cpuPerMillion; null where unmeasured or none moved. */
export function serverCpuPerMillion(r: RunResult): CpuPerMillion | null {
  const seconds = serverCpuS(r);
  if (seconds === undefined) return null;
  if (onlyReads(r)) return perMillionRows(r, seconds);
  return r.points > 0 ? { seconds: (seconds * 1e6) / r.points, of: 'points' } : null;
}

/** The server's CPU per million points written; undefined for a run that wrote none, or did not measure it. */
export function serverCpuSPerMpts(r: RunResult): number | undefined {
  const perMillion = serverCpuPerMillion(r);
  return perMillion?.of === 'points' ? perMillion.seconds : undefined;
}

function perMillionRows(r: RunResult, cpuS: number): CpuPerMillion | null {
  const rows = rowsRead(r, 'rows');
  return rows > 0 ? { seconds: (cpuS * 1e6) / rows, of: 'rows' } : null;
}

/** The client's CPU seconds (or the `cpuS` given: the server's) per operation, failed ones included. */
export const cpuSPerOperation = (r: RunResult, cpuS = r.clientCpuS): number =>
  cpuS / Math.max(1, r.okOps + r.failedOps);

/**
 * The run the others' rates are compared with: the first, or the first with a rate when the first has none (a query
 * file that begins with CREATE or INSERT reads nothing there).
 */
const ratioBase = (runs: readonly RunResult[], rate: (r: RunResult) => number): RunResult =>
  runs.find((r) => rate(r) > 0) ?? runs[0];

/** Which statement of a query file a run read (its line and SQL; the Java client's run of it has the same). */
const statementOf = (r: RunResult): string | undefined =>
  r.queryFile === undefined ? undefined : `${r.queryFile.line}:${r.queryFile.sql}`;

/**
 * What each run's rate is compared with: `all` (ratioBase), or `statement` when the runs are a query file's
 * statements, each then against its statement's first run (ours, beside the Java client's of it): a statement's
 * rate against another's says nothing. `none` when every statement has but one run, nothing alike to compare.
 */
export type RatioBases =
  { kind: 'all'; base: RunResult } | { kind: 'statement'; baseOf: (r: RunResult) => RunResult } | { kind: 'none' };

export function ratioBases(runs: readonly RunResult[], rate: (r: RunResult) => number): RatioBases {
  const statements = new Set(runs.map(statementOf));
  if (statements.size <= 1 || statements.has(undefined)) return { kind: 'all', base: ratioBase(runs, rate) };
  if (statements.size === runs.length) return { kind: 'none' };
  const bases = new Map(
    [...statements].map((s) => [
      s,
      ratioBase(
        runs.filter((r) => statementOf(r) === s),
        rate,
      ),
    ]),
  );
  return { kind: 'statement', baseOf: (r) => bases.get(statementOf(r))! };
}

/** The run `r`'s rate is compared with; none where nothing alike is there (`none`). */
export function ratioBaseOf(bases: RatioBases, r: RunResult): RunResult | undefined {
  return bases.kind === 'all' ? bases.base : bases.kind === 'statement' ? bases.baseOf(r) : undefined;
}

const FIELDS: readonly Field[] = [
  ['label', (r) => r.label],
  ['model', (r) => r.config.model],
  ['method', (r) => writeMethod(r) ?? '-'],
  ['workers', (r) => String(r.config.workers)],
  ['clients', (r) => String(r.config.clients)],
  ['devices', ofWrites((r) => r.config.devices)],
  ['sensors', ofWrites((r) => r.config.sensors)],
  ['batch_size', ofWrites((r) => r.config.batchSize)],
  ['points', (r) => fixed(r.points, 0)],
  ['wall_s', (r) => fixed(r.durationS, 3)],
  ['points_per_s', (r) => fixed(r.pointsPerS, 0)],
  ['ops_per_s', (r) => fixed(r.opsPerS, 1)],
  ['ok_ops', (r) => fixed(r.okOps, 0)],
  ['failed_ops', (r) => fixed(r.failedOps, 0)],
  ['client_cpu_s', (r) => fixed(r.clientCpuS, 2)],
  // nothing written by design: none, not 0 (rows_per_s and client_cpu_s give its reads' cost)
  ['client_cpu_s_per_Mpts', (r) => (onlyReads(r) ? '-' : fixed(r.clientCpuSPerMpts, 3))],
  // a run that read, alone or in a mix: per operation too, as its report gives it
  ['client_cpu_ms_per_op', (r) => orDash(cpuMsPerOperation(r), 3)],
  ['server_cpu_s', (r) => orDash(serverCpuS(r), 2)],
  ['server_cpu_s_per_Mpts', (r) => orDash(serverCpuSPerMpts(r), 3)],
  ['insert_op', (_r, op) => op],
  ['insert_ms_avg', ofMain((l) => l.avg)],
  ['insert_ms_p50', ofMain((l) => l.p50)],
  // p90 ... max: the short names of the Java anchor's RESULT line (its `p99`, `max` are insert latencies in ms)
  ['p90', ofMain((l) => l.p90)],
  ['p95', ofMain((l) => l.p95)],
  ['p99', ofMain((l) => l.p99)],
  ['p999', ofMain((l) => l.p999)],
  ['max', ofMain((l) => l.max)],
  ['peak_rss_mb', (r) => fixed(r.peakRssMb, 1)],
  [
    'verify',
    (r) => (r.verify === undefined ? 'none' : r.verify.ok ? 'ok' : 'error' in r.verify ? 'unread' : 'mismatch'),
  ],
  ['rows', (r) => fixed(rowsRead(r, 'rows'), 0)],
  ['rows_per_s', (r) => fixed(rowsRead(r, 'rowsPerS'), 0)],
  ['points_read', (r) => String(totalPoints(Object.values(r.queries ?? {})) ?? '-')],
  ['client_retries', (r) => (r.client === undefined ? '-' : String(r.client.retries))],
  ['stopped', (r) => r.stopped ?? 'no'],
];

export const RESULT_KEYS: readonly string[] = FIELDS.map(([key]) => key);

/**
 * [key, value] pairs in RESULT_KEYS order; insert_* describe mainOperation (none/- without one). Values as they
 * are (a label with spaces, as results.json and latency.csv name the run): the RESULT line makes each a token.
 */
export function resultFields(r: RunResult): [string, string][] {
  const main = mainOperation(r);
  const op = main?.kind ?? 'none';
  return FIELDS.map(([key, value]) => [key, value(r, op, main?.latency)]);
}
