/** The text outputs: the final report, the RESULT line, the comparison table and the progress line. */
import type { ClientActivity, RunResult, Verify } from '../types.js';
import { fixed, grouped, millis, orDash, span, times } from './numbers.js';
import { p99OverTime } from './over-time.js';
import { MATRIX_HEADERS, matrixRows } from './latency-matrix.js';
import { lagPercentiles, openLoopFigures, openLoopVerdict, type OpenLoopFigures } from './open-loop.js';
import {
  cpuPerMillion,
  cpuMsPerOperation,
  cpuSPerOperation,
  type CpuPerMillion,
  anyMainOperation,
  mainOperation,
  onlyReads,
  ratioBaseOf,
  ratioBases,
  type RatioBases,
  resultFields,
  readSome,
  rowsRead,
  serverCores,
  serverCpuPerMillion,
  serverCpuS,
  serverCpuSPerMpts,
  token,
} from './result-fields.js';
import { textTable } from './table.js';
import { columns } from './text-columns.js';
import { plural } from '../config/format.js';
import { hasQueries } from '../workload/operations.js';

const MAX_ERRORS = 5;
const MAX_ERROR_LENGTH = 300;

/**
 * Seconds into the run, `3.0-6.0 s`: from the start of the interval that ended at `firstEndS` (latencyOverTime's and
 * failuresOverTime's times are the intervals' ends) to `lastEndS`.
 */
function intervalsSpan(r: RunResult, firstEndS: number, lastEndS: number): string {
  return `${fixed(firstEndS - r.config.reportIntervalMs / 1000, 1)}-${fixed(lastEndS, 1)} s`;
}

/**
 * When the failures ended (failuresOverTime): from the start of the first interval that had one to the end of the
 * last, and the interval that had the most (or how many had it, and the first); none without failures over time.
 */
function failuresLine(r: RunResult): string[] {
  const over = r.failuresOverTime ?? [];
  if (over.length === 0) return [];
  const most = over.reduce((m, s) => (s[1] > m[1] ? s : m));
  const ties = over.filter((s) => s[1] === most[1]).length;
  const where = intervalsSpan(r, most[0], most[0]);
  return [
    `failures     ended ${intervalsSpan(r, over[0][0], over[over.length - 1][0])} into the run; ` +
      `the most, ${grouped(most[1])}, in ${ties === 1 ? where : `each of ${ties} intervals, the first ${where}`}`,
  ];
}

/**
 * An operation this many times the worst interval's p99 is named beside it: a stall the p99s cannot show, one
 * operation among thousands of quick ones in its interval (a batching writer's put that waited on a stopped server).
 */
const STALL_OVER_P99 = 10;

/**
 * A first interval's p99 this many times the typical one's, in a run without warm-up, is said to be the run's start:
 * a cold server and client (measured: 415 ms in the first second of a mixed run at 300 ops/s, 8.4 ms typical; 9.9 ms
 * in the first second with --warmup-rounds 2), which the open loop's corrected latencies carry on into the next.
 */
const COLD_OVER_TYPICAL = 10;

/**
 * Whether the run's p99 held over its time: a typical interval's p99 (the median of the intervals') against the
 * worst interval's, and when that was (the run's start, when it was a cold one); the longest operation when the p99s
 * hide it; none for runs of fewer intervals (p99OverTime).
 */
function overTimeLine(r: RunResult): string[] {
  const p99 = p99OverTime(r);
  if (p99 === null) return [];
  const typical = `a typical ${fixed(r.config.reportIntervalMs / 1000, 1)} s (the median of ${p99.intervals})`;
  const stall =
    p99.longestMs > STALL_OVER_P99 * p99.worstMs
      ? `; the longest operation ${millis(p99.longestMs)} ms, ended ${intervalsSpan(r, p99.longestAtS, p99.longestAtS)}`
      : '';
  const cold =
    p99.worstFirst && r.config.warmupRounds === 0 && p99.worstMs >= COLD_OVER_TYPICAL * p99.typicalMs
      ? ": the run's start, with no warm-up (--warmup-rounds N: rounds before the timed ones, out of the figures)"
      : '';
  return [
    `over time    p99 ${millis(p99.typicalMs)} ms in ${typical}, ` +
      `${millis(p99.worstMs)} ms in the worst (${intervalsSpan(r, p99.worstAtS, p99.worstAtS)})${cold}${stall}`,
  ];
}

export function formatReport(r: RunResult): string {
  const c = r.config;
  const total = r.okOps + r.failedOps;
  const success = total === 0 ? 'n/a' : `${fixed((100 * r.okOps) / total, 2)} % success`;
  const failed = r.failedOps > 0 ? `${grouped(r.failedOps)} FAILED` : '0 failed';
  const mode = c.dryRun
    ? ' [dry run: nothing sent]'
    : c.dryRunSend
      ? ' [--dry-run-send: generated and encoded, not sent]'
      : c.serverNoop
        ? ' [server no-op]'
        : '';
  const q = r.queryFile;
  const openLoop = openLoopFigures(r);
  const what = q
    ? `${c.model} model, ${statementShape(q)}`
    : `${c.model} model, ${onlyReads(r) ? 'queries only' : c.method}, ${plural(c.workers, 'worker')} x ${plural(c.clients, 'client')}${mode}`;
  const lines = [
    `== ${r.label}: ${what} ==`,
    ...(q ? [`statement    ${oneLine(q.sql)}`] : []),
    ...(q?.forEach === undefined ? [] : [`forEach      ${oneLine(q.forEach)}`]),
    `started      ${r.startedAt}`,
    `duration     ${fixed(r.durationS, 3)} s`,
    ...(r.stopped === undefined
      ? []
      : [`stopped      ${stoppedBy(r)}: operations under way finished, none started after`]),
    ...(q
      ? []
      : [`workload     ${c.workload}: ${c.devices} devices x ${c.sensors} sensors, batch ${c.batchSize} rows`]),
    `operations   ${grouped(r.okOps)} ok, ${failed} (${success})`,
    ...failuresLine(r),
    ...(r.client === undefined ? [] : [`client       ${activityLine(r.client)}`]),
    ...volumeLines(r),
    ...(openLoop === null ? [] : [openLoopLine(openLoop)]),
    ...overTimeLine(r),
    `peak RSS     ${fixed(r.peakRssMb, 1)} MB`,
  ];
  if (r.verify !== undefined) lines.push(`verify       ${verifyText(r.verify, r.points)}`);
  lines.push(
    '',
    'latency (ms)',
    Object.keys(r.latency).length === 0 ? '  (no samples)' : textTable([...MATRIX_HEADERS], matrixRows(r)),
  );
  if (readSome(r)) {
    lines.push('', 'queries', textTable(QUERY_HEADERS, queryRows(r.queries)), ...emptyQueriesNote(r));
  }
  if (r.errors.length > 0) lines.push('', formatErrors(r.errors));
  return lines.join('\n');
}

/** What --verify read back, or why it could not. */
function verifyText(v: Verify, timedPoints: number): string {
  // the warm-up (each device's first row, --warmup-rounds) is on the server too, and out of the run's points
  const untimed = v.expected - timedPoints;
  const expected =
    `expected ${grouped(v.expected)} points` +
    (untimed > 0 ? ` (${grouped(timedPoints)} timed, ${grouped(untimed)} untimed: the warm-up)` : '');
  if ('error' in v) return `NOT READ BACK: ${expected}; ${oneLine(v.error)}`;
  const text = `${v.ok ? 'OK' : 'MISMATCH'}: ${expected}, read back ${grouped(v.actual)}`;
  if (v.actual === 0 && v.expected > 0) return `${text} ${NOTHING_READ}`;
  return v.actual > 0 && v.actual < v.expected ? `${text} ${FEWER_READ}` : text;
}

/** IoTDB 2.0.1-beta filters what a query sees by the user's privileges: a count it may not read is empty, no error. */
const NOTHING_READ = '(IoTDB counts nothing, without an error, for a user that may not read the database)';

/** Expected counts acknowledged points alone: fewer read back were lost by the server (docs/PERFORMANCE.md, stop 67). */
const FEWER_READ =
  '(the server holds fewer points than it acknowledged: IoTDB 2.0.1-beta loses some when a DataNode is killed under ' +
  'writes; USER_GUIDE, "Retries")';

/**
 * What the run moved and what it cost the client: points written, or rows read for a run that only read (a
 * query-file statement, queries without ingestion), where points would all be 0.
 */
function volumeLines(r: RunResult): string[] {
  const rates = cpuRates(r, cpuPerMillion(r), r.clientCpuS);
  const cpu = `client CPU   ${fixed(r.clientCpuS, 2)} s${rates === '' ? '' : ` (${rates})`}`;
  const ops = `${fixed(r.opsPerS, 1)} ops/s`;
  const server = serverCpuLine(r);
  if (!onlyReads(r))
    return [
      `points       ${grouped(r.points)}`,
      `throughput   ${grouped(r.pointsPerS)} points/s, ${ops}`,
      cpu,
      ...server,
    ];
  const rows = rowsRead(r, 'rows');
  return [
    `rows read    ${grouped(rows)}`,
    ...(rows === 0 && r.okOps > 0 ? [`note         ${whyNoRows(r)}`] : []),
    `throughput   ${grouped(rowsRead(r, 'rowsPerS'))} rows/s, ${ops}`,
    cpu,
    ...server,
  ];
}

/**
 * The server's CPU over the run (--server-pid): its seconds, the cores that kept busy on average, per million as the
 * client's, and its processes; or why it was not read.
 */
function serverCpuLine(r: RunResult): string[] {
  const spent = r.serverCpu;
  if (spent === undefined) return [];
  if ('error' in spent) return [`server CPU   not measured: ${spent.error}`];
  const rates = cpuRates(r, serverCpuPerMillion(r), spent.seconds);
  const cores = `${fixed(serverCores(r)!, 2)} cores on average`;
  const detail = [rates, `processes ${spent.pids.join(', ')}`].filter((part) => part !== '').join('; ');
  return [`server CPU   ${fixed(spent.seconds, 2)} s, ${cores} (${detail})`];
}

/**
 * CPU seconds `cpuS` per million points or rows (where any moved), then per operation for a run that read
 * (cpuPerOperationToo): a mix's points are the writes' while its CPU is the queries' too, and a read of a row or a
 * few costs little per million rows and much per read (the unit the table of the runs and --vs-java give a read's).
 */
function cpuRates(r: RunResult, perMillion: CpuPerMillion | null, cpuS: number): string {
  const perOperation = cpuMsPerOperation(r, cpuS);
  return [
    ...(perMillion === null ? [] : [`${fixed(perMillion.seconds, 3)} s per million ${perMillion.of}`]),
    ...(perOperation === undefined ? [] : [`${fixed(perOperation, 3)} ms per operation`]),
  ].join(', ');
}

/**
 * A run that wrote and queried: its query types that read no row in any query that succeeded (a run that only read
 * says so of all its reads, whyNoRows). Their latency is that of reading nothing; in a mixed run without a warm-up
 * round, the queries drawn before their client's first round are the likely cause (they range over its first rows).
 */
function emptyQueriesNote(r: RunResult): string[] {
  if (onlyReads(r)) return [];
  const empty = Object.entries(r.queries ?? {}).flatMap(([kind, q]) => (q.ops > 0 && q.rows === 0 ? [kind] : []));
  if (empty.length === 0) return [];
  const why =
    r.config.warmupRounds === 0 && hasQueries(r.config.operationProportion)
      ? "a query drawn before its client's first round was written finds no rows there: give --warmup-rounds 1"
      : 'do the devices they read hold rows in their time ranges and above --query-lower-value?';
  return [
    `note: ${empty.join(', ')} read no rows in any of their queries (their latency is that of reading nothing); ${why}`,
  ];
}

/** Why a run that only read read no rows (reading nothing is quick and measures nothing: most often a name that is not there). */
function whyNoRows(r: RunResult): string {
  if (r.queryFile === undefined) return 'no query read a row: do the series or tables they name exist?';
  if (r.queryFile.query === false) return 'not a query: the server answered the statement with no result set';
  return 'the statement read no rows: do the series or tables it names exist?';
}

/** The errors block of a report: how many were collected, the first of them one line each. */
export function formatErrors(errors: readonly string[]): string {
  const shown = errors.slice(0, MAX_ERRORS);
  const more = errors.length - shown.length;
  const lines = [`errors (${errors.length} collected${more > 0 ? `, first ${shown.length} shown` : ''})`];
  for (const e of shown) lines.push(`  - ${oneLine(e)}`);
  if (more > 0) lines.push(`  ... and ${more} more`);
  return lines.join('\n');
}

/** `query file line 4: 2 sessions x 3 repetitions` */
export function statementShape(q: {
  line: number;
  concurrency: number;
  repetitions: number;
  forEach?: string;
  statements?: number;
}): string {
  const shape = `query file line ${q.line}: ${plural(q.concurrency, 'session')} x ${plural(q.repetitions, 'repetition')}`;
  if (q.forEach === undefined) return shape;
  const over = oneLine(q.forEach);
  if (q.statements === undefined) return `${shape}, a statement per row of ${over}`;
  return `${shape} of their share of ${plural(q.statements, 'statement')}, one per row of ${over}`;
}

/** error messages can be multi-line stack traces; the report wants one short line each */
function oneLine(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > MAX_ERROR_LENGTH ? `${t.slice(0, MAX_ERROR_LENGTH - 3)}...` : t;
}

/** The open-loop line: the target, the rate achieved, how late operations started, and the verdict. */
function openLoopLine(o: OpenLoopFigures): string {
  return (
    `open loop    target ${o.targetRate} ops/s, achieved ${fixed(o.startedPerS, 1)}, ` +
    `operations started ${millis(o.delayMs)} ms after their due time on average${lagPercentiles(o)}: ${openLoopVerdict(o)}`
  );
}

/** What the client did besides the operations, warm-up included. */
function activityLine(a: ClientActivity): string {
  const failedConnects = a.connectFailures > 0 ? ` ok, ${grouped(a.connectFailures)} FAILED` : '';
  return `retries ${grouped(a.retries)}, connects ${grouped(a.connects)}${failedConnects}, failovers ${grouped(a.failovers)}, redirects ${grouped(a.redirects)} (warm-up included)`;
}

/** A signal as an operator knows it; `either` for a file from before the signal was kept. */
const INTERRUPTED_BY = { SIGINT: 'Ctrl-C', SIGTERM: 'SIGTERM', either: 'Ctrl-C or SIGTERM' } as const;

/** Why a run ended before its loop was done. */
function stoppedBy(r: RunResult): string {
  if (r.stopped === 'interrupted') return `early, interrupted (${INTERRUPTED_BY[r.interruptedBy ?? 'either']})`;
  if (r.stopped === 'unreachable')
    return `early: an operation reached no node in --retry-max-ms ${grouped(r.config.retryMaxMs)} ms (its error below)`;
  return `at --test-max-time ${grouped(r.config.testMaxTime)} ms`;
}

/** `RESULT key=value ...` on one line: the fields of result-fields.ts, no spaces inside values. */
export function resultLine(r: RunResult): string {
  return `RESULT ${resultFields(r)
    .map(([k, v]) => `${k}=${token(v)}`)
    .join(' ')}`;
}

const rowsPerS = (r: RunResult): number => rowsRead(r, 'rowsPerS');

type Row = [string, (r: RunResult) => string];

/** The row of each run's rate against its base (ratioBases): none when nothing alike is there to compare. */
function ratioRow(bases: RatioBases, rate: (r: RunResult) => number, first: RunResult): Row[] {
  if (bases.kind === 'none') return [];
  const name =
    bases.kind === 'statement' ? 'vs its statement' : bases.base === first ? 'vs first' : `vs ${bases.base.label}`;
  return [[name, (r) => times(rate(r), rate(ratioBaseOf(bases, r)!))]];
}

/**
 * One column per run (by position, so equal labels are fine); ratios are against the first run: of points/s,
 * or of rows/s when the first run wrote nothing (query-file runs), then against the first statement that read
 * rows when the first read none (a file that begins with CREATE or INSERT); a query file's statements each against
 * its own first run (ratioBases). A rows/s row when any run read rows.
 * When no run wrote (the statements of a query file), no points/s, and the client's CPU per operation instead of
 * per million points; no p50 and p99 when no run has a main operation (runs of queries alone).
 */
export function compareTable(results: RunResult[]): string {
  if (results.length === 0) return '  (no runs)';
  const rate = results[0].pointsPerS > 0 ? (r: RunResult) => r.pointsPerS : rowsPerS;
  const bases = ratioBases(results, rate);
  const pct = (r: RunResult, p: 'p50' | 'p99'): string => {
    const l = mainOperation(r)?.latency;
    return l === undefined ? '-' : millis(l[p]);
  };
  const wrote = !results.every(onlyReads);
  const rows: Row[] = [
    ...(wrote ? [['points/s', (r) => grouped(r.pointsPerS)] as Row] : []),
    ...(results.some((r) => r.queries !== undefined) ? [['rows/s', (r) => grouped(rowsPerS(r))] as Row] : []),
    ...ratioRow(bases, rate, results[0]),
    ['ops/s', (r) => fixed(r.opsPerS, 1)],
    ...(anyMainOperation(results)
      ? ([
          ['p50 ms', (r) => pct(r, 'p50')],
          ['p99 ms', (r) => pct(r, 'p99')],
        ] as Row[])
      : []),
    wrote
      ? ['CPU s/Mpts', (r) => fixed(r.clientCpuSPerMpts, 3)]
      : ['CPU ms/op', (r) => fixed(cpuSPerOperation(r) * 1000, 3)],
    ...(results.some((r) => serverCpuS(r) !== undefined) ? [serverCpuRow(wrote)] : []),
    ['failed ops', (r) => grouped(r.failedOps)],
  ];
  const byFigure = textTable(
    ['', ...results.map((r) => r.label)],
    rows.map(([name, cell]) => [name, ...results.map(cell)]),
  );
  if (byFigure.split('\n').every((line) => columns(line) <= TERMINAL_WIDTH)) return byFigure;
  // a column per run no longer fits a terminal (a query file's statements beside the Java client's): a row per run
  return textTable(
    ['run', ...rows.map(([name]) => name)],
    results.map((r) => [r.label, ...rows.map(([, cell]) => cell(r))]),
  );
}

/** The server's CPU in compareTable, in the client's unit beside it: per million points, or per operation. */
function serverCpuRow(wrote: boolean): Row {
  const msPerOperation = (r: RunResult) => {
    const s = serverCpuS(r);
    return s === undefined ? undefined : cpuSPerOperation(r, s) * 1000;
  };
  return wrote
    ? ['server CPU s/Mpts', (r) => orDash(serverCpuSPerMpts(r), 3)]
    : ['server CPU ms/op', (r) => orDash(msPerOperation(r), 3)];
}

/** The widest table compareTable prints a column per run: beyond it, a row per run. */
const TERMINAL_WIDTH = 120;

export interface Progress {
  points: number;
  /** 0 when unknown (no ETA then) */
  totalPoints: number;
  elapsedS: number;
  nowPointsPerS: number;
  errors: number;
  /** the client's retries so far (shown when there are some: operations are waiting on a node) */
  retries?: number;
  /** a mixed run's operations so far, writes and queries, ok or failed, and their rate over the last interval */
  ops?: number;
  nowOpsPerS?: number;
  /** a mixed run's planned operations (its ETA, where the points give none) */
  totalOps?: number;
  /** a run of queries only: no points, its operations alone */
  readsOnly?: boolean;
  /**
   * an open loop's: how far behind its schedule the run is (its earliest operation due and not started, ms), and
   * how late counts as behind (a client's interval between operations)
   */
  schedule?: { behindMs: number; slackMs: number };
  /** the seconds --test-max-time leaves the run: it ends then, whatever is left of its plan */
  timeLeftS?: number;
}

/**
 * A part of a progress line. A `spare` one (an average: the final report has it) goes first where the line is too
 * wide for the terminal (progress-printer.ts), then the others after the first, from the left.
 */
export interface ProgressPart {
  readonly text: string;
  readonly spare?: boolean;
}

/** The parts as one line, two blanks between. */
export function progressText(parts: readonly ProgressPart[]): string {
  return parts.map((part) => part.text).join('  ');
}

export function progressParts(p: Progress): ProgressPart[] {
  const avg = p.elapsedS > 0 ? p.points / p.elapsedS : 0;
  const known = p.totalPoints > 0;
  const ops = opsText(p);
  const eta = etaText(known ? secondsLeft(p.totalPoints - p.points, avg) : opsSecondsLeft(p), p.timeLeftS);
  const done = known
    ? `${grouped(p.points)}/${grouped(p.totalPoints)} points (${fixed((100 * p.points) / p.totalPoints, 1)} %)`
    : `${grouped(p.points)} points`;
  const elapsed = `[${span(p.elapsedS)}]`;
  // a run of queries only writes no points: its operations alone
  const counts: ProgressPart[] =
    p.readsOnly === true && ops !== undefined
      ? [{ text: `${elapsed} ${ops}` }]
      : [
          { text: `${elapsed} ${done}` },
          { text: `now ${grouped(p.nowPointsPerS)} pts/s` },
          { text: `avg ${grouped(avg)} pts/s`, spare: true },
          ...optionalPart(ops),
        ];
  return [
    ...counts,
    ...optionalPart(scheduleText(p.schedule)),
    { text: `errors ${grouped(p.errors)}` },
    ...optionalPart(p.retries ? `retries ${grouped(p.retries)}` : undefined),
    { text: `ETA ${eta}` },
  ];
}

/** The part of `text`, or none without it (a part a line has only at times: its ops, schedule, retries). */
function optionalPart(text: string | undefined): ProgressPart[] {
  return text === undefined ? [] : [{ text }];
}

/** A mixed run's `ops 287/400 (71.8 %, now 271.8/s)` (without its plan: `ops 287 (now 271.8/s)`); none else. */
function opsText({ ops, totalOps = 0, nowOpsPerS = 0 }: Progress): string | undefined {
  if (ops === undefined) return undefined;
  const now = `now ${fixed(nowOpsPerS, 1)}/s`;
  if (totalOps <= 0) return `ops ${grouped(ops)} (${now})`;
  return `ops ${grouped(ops)}/${grouped(totalOps)} (${fixed((100 * ops) / totalOps, 1)} %, ${now})`;
}

/** A mixed run's time left from its operations' average rate; `-` without its plan (its points are drawn). */
function opsSecondsLeft({ ops, totalOps = 0, elapsedS }: Progress): SecondsLeft {
  if (ops === undefined || totalOps <= 0) return '-';
  return secondsLeft(totalOps - ops, elapsedS > 0 ? ops / elapsedS : 0);
}

/** `on schedule`, or `behind 1.25 s` once the earliest due operation is late by more than the slack; none else. */
function scheduleText(s: Progress['schedule']): string | undefined {
  if (s === undefined) return undefined;
  if (s.behindMs <= s.slackMs) return 'on schedule';
  return `behind ${s.behindMs < 1000 ? `${millis(s.behindMs)} ms` : span(s.behindMs / 1000)}`;
}

/** Seconds until a plan is done; `?` at no rate yet, `-` without a plan. */
type SecondsLeft = number | '?' | '-';

/** The seconds `left` units take at `perS` a second: 0 when none is left, `?` at no rate yet. */
function secondsLeft(left: number, perS: number): SecondsLeft {
  return left <= 0 ? 0 : perS > 0 ? left / perS : '?';
}

/** The ETA shown: the plan's, or the end a time limit sets (`limitS`) when that comes first or the plan gives none. */
function etaText(planned: SecondsLeft, limitS?: number): string {
  const s = limitS === undefined ? planned : typeof planned === 'number' ? Math.min(planned, limitS) : limitS;
  return typeof s === 'number' ? span(Math.max(0, s)) : s;
}

/** A query-file statement's progress: reads done of all its sessions x repetitions. */
interface ReadsProgress {
  reads: number;
  totalReads: number;
  rows: number;
  elapsedS: number;
  nowReadsPerS: number;
  errors: number;
  /** an open loop's, as a write run's (Progress) */
  schedule?: Progress['schedule'];
  /** as a write run's (Progress) */
  timeLeftS?: number;
}

export function readsProgressParts(p: ReadsProgress): ProgressPart[] {
  const avg = p.elapsedS > 0 ? p.reads / p.elapsedS : 0;
  const eta = etaText(secondsLeft(p.totalReads - p.reads, avg), p.timeLeftS);
  const done = `${grouped(p.reads)}/${grouped(p.totalReads)} reads (${fixed((100 * p.reads) / p.totalReads, 1)} %)`;
  return [
    { text: `[${span(p.elapsedS)}] ${done}` },
    { text: `now ${fixed(p.nowReadsPerS, 1)} reads/s` },
    { text: `avg ${fixed(avg, 1)} reads/s`, spare: true },
    { text: `rows ${grouped(p.rows)}` },
    ...optionalPart(scheduleText(p.schedule)),
    { text: `errors ${grouped(p.errors)}` },
    { text: `ETA ${eta}` },
  ];
}

/** `points`: the values read that were not null (iot-benchmark's okPoint of a query; `-` in older results). */
export const QUERY_HEADERS = ['query', 'ops', 'failed', 'rows', 'rows/s', 'points', 'p50 ms', 'p99 ms', 'max ms'];

/** One row per query kind, cells formatted; `name` escapes the kind where the output needs it (HTML). */
export function queryRows(
  queries: NonNullable<RunResult['queries']>,
  name: (s: string) => string = (s) => s,
): string[][] {
  return Object.entries(queries).map(([kind, q]) => [
    name(kind),
    grouped(q.ops),
    grouped(q.failed),
    grouped(q.rows),
    grouped(q.rowsPerS),
    q.points === undefined ? '-' : grouped(q.points),
    // none succeeded: no latency (the failures' own row, `failed <type>`, has theirs)
    ...[q.latency.p50, q.latency.p99, q.latency.max].map((ms) => (q.latency.count === 0 ? '-' : millis(ms))),
  ]);
}
