import { grouped, median, times } from '../report/numbers.js';
import { anyMainOperation, cpuSPerOperation, mainOperation, samePlan, serverCpuS } from '../report/result-fields.js';
import { columns, padEnd } from '../report/text-columns.js';
import { START_LAG } from '../latency-rows.js';
import { hasQueries, QUERY_KINDS } from '../workload/operations.js';
import type { BenchConfig, RunResult } from '../types.js';

/**
 * One repeat of `--repeat`: ours' runs (a method or a query-file statement each) and, with --vs-java, the Java
 * client's, each beside ours' run in the same place (a write run's beside ours' first; a statement's beside ours' of
 * it); none where it did not run.
 */
export interface Repeat {
  ours: readonly RunResult[];
  java: readonly RunResult[];
  /** whether the Java client ran first in it */
  javaFirst: boolean;
}

/** Repeat k's run (1-based), labelled `<label>#k` when there are several (`tree-insertTablets#2`, `java#2`). */
export function repeatLabel(run: RunResult, k: number, repeats: number): RunResult {
  return repeats === 1 ? run : { ...run, label: `${run.label}#${k}` };
}

/**
 * The note after a single --vs-java run on a server given (no --repeat): its ratios are of one order, and the side
 * that ran first also warmed the server for the other (a fresh server's first run read 0.59x where both orders after
 * it read 0.80x and 1.32x: docs/BENCHMARK.md); undefined where both orders ran, or a local server was restarted
 * between the sides.
 */
export function oneOrderNote(c: BenchConfig, serverGiven: boolean): string | undefined {
  if (!c.vsJava || c.repeat > 1 || !serverGiven) return undefined;
  const first = c.javaFirst ? 'the Java client first' : 'ours first';
  const warm = c.warmupRounds === 0 ? ', --warmup-rounds warms it before each' : '';
  return `order        one run each, ${first}, on the same server: the first also warmed it for the second (its JIT, its caches); --repeat 2 runs both orders${warm}`;
}

/** Whether the Java client goes first in repeat k (1-based): --java-first's order in the first, then by turns. */
export function javaFirstIn(k: number, javaFirst: boolean): boolean {
  return (k % 2 === 1) === javaFirst;
}

/**
 * What `--repeat N` prints after its repeats: each run's figures (ours' by their place in a repeat, then the Java
 * client's) as the median and range over the repeats, then for each run of the Java client the ratios of ours' run
 * in its place to it likewise, and each repeat's ratio by the order it ran in. A run's throughput is points/s when it
 * wrote any, else ops/s; its CPU per million points, or per operation in ms; an open loop's runs add their start
 * lag's p50, and runs that measured the server's CPU (every repeat: --server-pid) that too. Under a run whose mix
 * drew queries, each query type's rows/s, p50 and p99 (a run of queries alone has no write to give a p50 of).
 */
export function repeatSummary(repeats: readonly Repeat[]): string[] {
  const lines = [`over ${repeats.length} repeats, median (min-max):`];
  const places = Math.min(...repeats.map((r) => r.ours.length));
  const sides: [string, RunResult[]][] = Array.from({ length: places }, (_, i) => [
    repeats[0].ours[i].label,
    repeats.map((r) => r.ours[i]),
  ]);
  const pairs = Array.from({ length: places }, (_, i) => pairsAt(repeats, i)).filter((p) => p.length > 0);
  for (const paired of pairs) sides.push([paired[0].java.label, paired.map((r) => r.java)]);
  const width = Math.max(...sides.map(([label]) => columns(label)));
  for (const [label, runs] of sides) lines.push(`  ${padEnd(label, width)}  ${figures(runs)}`, ...queryLines(runs));
  for (const paired of pairs) lines.push(...ratioLines(paired, pairs.length > 1 ? ` (${paired[0].ours.label})` : ''));
  return lines;
}

interface Pair {
  ours: RunResult;
  java: RunResult;
  javaFirst: boolean;
}

/** Ours' run in place `i` of each repeat beside the Java client's there, in the repeats where both ran. */
function pairsAt(repeats: readonly Repeat[], i: number): Pair[] {
  return repeats.flatMap((r) =>
    r.ours[i] === undefined || r.java[i] === undefined
      ? []
      : [{ ours: r.ours[i], java: r.java[i], javaFirst: r.javaFirst }],
  );
}

/**
 * `ours/Java<what> <rate>: median (range), client CPU per <unit>: ...` and the same rate's ratios by order: of
 * ops/s and the client's CPU per operation for a mix or a paced run, as each run's own ratio line gives them.
 */
function ratioLines(paired: readonly Pair[], what: string): string[] {
  const perOperation = samePlan(paired[0].ours);
  const [rateOf, unit] = perOperation ? ['ops/s', 'operation'] : [rateName(paired[0].ours), unitName(paired[0].ours)];
  const [rateOfRun, cpuOfRun] = perOperation
    ? [(r: RunResult) => r.opsPerS, cpuSPerOperation]
    : [throughput, cpuPerUnit];
  const rate = paired.map((r) => rateOfRun(r.ours) / rateOfRun(r.java));
  const cpu = paired.map((r) => cpuOfRun(r.ours) / cpuOfRun(r.java));
  const server = paired.map((r) => (serverCpuPerUnit(r.ours) ?? NaN) / (serverCpuPerUnit(r.java) ?? NaN));
  const serverUnit = unitName(paired[0].ours);
  const order = (javaFirst: boolean) =>
    paired.flatMap((r, i) => (r.javaFirst === javaFirst ? [`${rate[i].toFixed(2)}x`] : [])).join(', ') || '-';
  const serverRatio = server.some(Number.isNaN) ? '' : `, server CPU per ${serverUnit}: ${ratioRange(server)}`;
  return [
    `  ours/Java${what} ${rateOf}: ${ratioRange(rate)}, client CPU per ${unit}: ${ratioRange(cpu)}${serverRatio}`,
    `  ours/Java${what} ${rateOf} by order: ours first ${order(false)}; Java first ${order(true)}`,
  ];
}

function figures(runs: readonly RunResult[]): string {
  const p50 = runs.map((r) => mainOperation(r)?.latency.p50 ?? NaN);
  // an open loop's: how late operations started, each side's own scheduling
  const lag = runs.map((r) => r.latency[START_LAG]?.p50 ?? NaN);
  const perPoint = unitName(runs[0]) === 'point';
  // seconds per million points, or milliseconds per operation (as the table of the runs gives it)
  const [cpuName, scale] = perPoint ? ['s/Mpts', 1e6] : ['ms/op', 1e3];
  const server = runs.map((r) => (serverCpuPerUnit(r) ?? NaN) * scale);
  const parts = [
    `${rateName(runs[0])} ${range(runs.map(throughput), grouped)}`,
    // runs of queries alone have no main operation: their p50s are the query types' lines
    ...(anyMainOperation(runs) ? [`p50 ms ${range(p50, (x) => x.toFixed(2))}`] : []),
    ...(lag.some(Number.isNaN) ? [] : [`start lag p50 ms ${range(lag, (x) => x.toFixed(3))}`]),
    `client CPU ${cpuName} ${range(
      runs.map((r) => cpuPerUnit(r) * scale),
      (x) => x.toFixed(3),
    )}`,
    ...(server.some(Number.isNaN) ? [] : [`server CPU ${cpuName} ${range(server, (x) => x.toFixed(3))}`]),
  ];
  return parts.join(', ');
}

/**
 * Each query type the runs' mix drew, in any repeat (one --test-max-time ended before it drew one may lack it): its
 * rows/s, p50 and p99 as the median and range over the repeats that have it, and how many those are when not all.
 */
function queryLines(runs: readonly RunResult[]): string[] {
  if (!hasQueries(runs[0].config.operationProportion)) return [];
  const kinds = QUERY_KINDS.filter((k) => runs.some((r) => r.queries?.[k] !== undefined));
  const width = Math.max(0, ...kinds.map((k) => k.length));
  return kinds.map((kind) => {
    const each = runs.flatMap((r) => r.queries?.[kind] ?? []);
    const ms = (p: 'p50' | 'p99') =>
      range(
        each.map((q) => q.latency[p]),
        (x) => x.toFixed(2),
      );
    const rows = range(
      each.map((q) => q.rowsPerS),
      grouped,
    );
    const among = each.length < runs.length ? `, in ${each.length} of ${runs.length} repeats` : '';
    return `    ${kind.padEnd(width)}  rows/s ${rows}, p50 ms ${ms('p50')}, p99 ms ${ms('p99')}${among}`;
  });
}

const wrote = (r: RunResult) => r.points > 0;
const throughput = (r: RunResult) => (wrote(r) ? r.pointsPerS : r.opsPerS);
const rateName = (r: RunResult) => (wrote(r) ? 'points/s' : 'ops/s');
const unitName = (r: RunResult) => (wrote(r) ? 'point' : 'operation');
/** client CPU seconds per point written, or per operation of a run that wrote none */
const cpuPerUnit = (r: RunResult) => (wrote(r) ? r.clientCpuSPerMpts / 1e6 : cpuSPerOperation(r));
/** the server's, likewise (--server-pid); undefined where the run did not measure it */
function serverCpuPerUnit(r: RunResult): number | undefined {
  const s = serverCpuS(r);
  if (s === undefined) return undefined;
  return wrote(r) ? s / r.points : cpuSPerOperation(r, s);
}

function range(xs: readonly number[], fmt: (x: number) => string): string {
  if (xs.some(Number.isNaN)) return '-';
  return `${fmt(median(xs))} (${fmt(Math.min(...xs))}-${fmt(Math.max(...xs))})`;
}

function ratioRange(xs: readonly number[]): string {
  return `median ${times(median(xs), 1)} (${times(Math.min(...xs), 1)}-${times(Math.max(...xs), 1)})`;
}
