/**
 * `iotdb-bench compare A.json B.json`: each figure of B against A, as a ratio, and whether the difference is
 * beyond the noise the two runs show themselves (not a test of significance across machines: a figure
 * within noise may still differ on a rerun; one beyond it is worth a rerun before it is quoted).
 */
import type { HistogramData, RunResult } from '../types.js';
import { LatencyHistogram } from './histogram.js';
import { p99OverTime, steadyLatency } from './over-time.js';
import {
  cpuMsPerOperation,
  cpuPerMillion,
  mainOperation,
  onlyReads,
  serverCpuPerMillion,
  serverCpuS,
} from './result-fields.js';
import { START_LAG } from '../latency-rows.js';
import { normalTwoSidedP } from './stats.js';

/**
 * One figure of B against A. `noise`: the relative difference the runs' own spread explains (95 %); `p`: the
 * chance of a difference as large as this one between runs of the same setup (null: no estimate).
 */
export interface FigureComparison {
  figure: string;
  a: number;
  b: number;
  ratio: number;
  /** null: the runs carry nothing to estimate it from */
  noise: number | null;
  beyond: boolean | null;
  p: number | null;
  /** with --repeat, when not every run of a side has the figure: of how many its means are (`in 2 of 3 repeats of B`) */
  among?: string;
}

const Z95 = 1.96;

/** Relative standard error of a run's mean points/s, from its throughput samples (first and last dropped). */
function throughputError(r: RunResult): number | null {
  const samples = r.throughput.slice(1, -1).map(([, v]) => v);
  if (samples.length < 3) return null;
  const mean = samples.reduce((s, v) => s + v, 0) / samples.length;
  const variance = samples.reduce((s, v) => s + (v - mean) ** 2, 0) / (samples.length - 1);
  return mean > 0 ? Math.sqrt(variance / samples.length) / mean : null;
}

/**
 * Relative standard error of a percentile from its histogram: the half-width of its 95 % interval, the values at
 * the ranks n·q ± 1.96·√(n·q·(1-q)) (the order-statistic interval), over 1.96 and the percentile itself (the
 * comparison widens the errors to 95 % itself). None when those ranks run past the samples (p99 of a few hundred
 * operations): the run cannot bound that percentile.
 */
function percentileError(data: HistogramData | undefined, q: number): number | null {
  if (data === undefined || data.count < 10) return null;
  const h = LatencyHistogram.from(data);
  const at = (rank: number) => h.percentile((100 * rank) / data.count);
  return orderStatisticError(data.count, q, at, h.percentile(100 * q));
}

/**
 * The relative standard error of the q-quantile `value` of n samples, from the values `at` the ranks of its 95 %
 * order-statistic interval; null when those ranks run past the samples.
 */
function orderStatisticError(n: number, q: number, at: (rank: number) => number, value: number): number | null {
  const spread = Z95 * Math.sqrt(n * q * (1 - q));
  if (n * q - spread < 1 || n * q + spread > n) return null;
  return value > 0 ? (at(n * q + spread) - at(n * q - spread)) / (2 * Z95 * value) : null;
}

/**
 * Relative standard error of a run's typical interval p99 (the median of its intervals' p99s, p99OverTime), from
 * the spread of the intervals' p99s: the order-statistic interval of their median.
 */
function typicalP99Error(r: RunResult): number | null {
  const p99s = steadyLatency(r)
    .map((s) => s[3])
    .sort((x, y) => x - y);
  const typical = p99OverTime(r);
  if (typical === null) return null;
  const at = (rank: number) => p99s[Math.min(p99s.length, Math.max(1, Math.ceil(rank))) - 1];
  return orderStatisticError(p99s.length, 0.5, at, typical.typicalMs);
}

function figure(name: string, a: number, b: number, errors: [number | null, number | null]): FigureComparison {
  const [ea, eb] = errors;
  const error = ea === null || eb === null ? null : Math.sqrt(ea ** 2 + eb ** 2);
  const noise = error === null ? null : Z95 * error;
  const ratio = a === 0 ? NaN : b / a;
  const beyond = noise === null ? null : Math.abs(ratio - 1) > noise;
  return { figure: name, a, b, ratio, noise, beyond, p: pValue(ratio - 1, error) };
}

/** The normal test's p of a relative difference with this standard error; 0 or 1 when the runs show no spread. */
function pValue(difference: number, error: number | null): number | null {
  if (error === null || Number.isNaN(difference)) return null;
  if (error === 0) return difference === 0 ? 1 : 0;
  return normalTwoSidedP(difference / error);
}

/** A figure of one run: its value and the relative standard error the run shows of it (null: none). */
export interface OwnFigure {
  /** what pairs it with the other run's: its name, but the main operation's latency pairs whatever each calls it */
  key: string;
  figure: string;
  value: number;
  error: number | null;
}

/**
 * The figures of `b` against `a`, those both have: throughput, latency of the main operation, each query type (rows/s,
 * p50, p99), a typical interval's p99, the open loop's start lag (p50, p99), failed operations (when either had some),
 * client CPU and the server's per point written or row read, memory. Runs that wrote nothing by design (query files,
 * queries alone) have no points/s, and their CPU per row (none when they read none).
 */
export function compareRuns(a: RunResult, b: RunResult): FigureComparison[] {
  return compareFigures(runFigures(a), runFigures(b));
}

/** compareRuns of two runs' own figures (runFigures). */
export function compareFigures(a: readonly OwnFigure[], b: readonly OwnFigure[]): FigureComparison[] {
  const inB = new Map(b.map((f) => [f.key, f]));
  return a.flatMap((fa) => {
    const fb = inB.get(fa.key);
    if (fb === undefined || !shown(fa.key, [fa.value, fb.value])) return [];
    return [figure(fa.figure, fa.value, fb.value, [fa.error, fb.error])];
  });
}

/** A figure only one side's runs have (a query type only B ran, A's points/s against queries alone). */
export interface UnpairedFigure {
  figure: string;
  in: 'A' | 'B';
  /** the mean over that side's runs that have it */
  value: number;
  /** when not every run of the side has it: of how many it is the mean (`in 1 of 3 repeats of A`) */
  among?: string;
}

/** The figure of failed operations: shown when either run had some (a count: no noise estimate). */
export const FAILED_OPS = 'failed ops';

/** Whether a figure with these values (each run's, both sides') is compared: failed operations only when some failed. */
export const shown = (key: string, values: readonly number[]): boolean =>
  key !== FAILED_OPS || values.some((v) => v !== 0);

/** The figures a run has, in the order compare prints them. */
export function runFigures(r: RunResult): OwnFigure[] {
  const figures: OwnFigure[] = [];
  const add = (figure: string, value: number, error: number | null = null, key = figure) =>
    figures.push({ key, figure, value, error });
  const latency = (kind: string, key = kind) => {
    const l = r.latency[kind];
    if (l === undefined) return;
    for (const [name, q] of PERCENTILES)
      add(`${kind} ${name} ms`, l[name], percentileError(r.histograms[kind], q), `${key} ${name}`);
  };
  if (!onlyReads(r)) add('points/s', r.pointsPerS, throughputError(r));
  const main = mainOperation(r)?.kind;
  if (main !== undefined) latency(main, MAIN);
  for (const [kind, q] of Object.entries(r.queries ?? {})) {
    add(`${kind} rows/s`, q.rowsPerS);
    if (kind !== main) latency(kind);
  }
  // the tail of a typical interval, every operation: the steady state, whatever spell the whole-run p99 took in
  const typical = p99OverTime(r);
  if (typical !== null) add('typical interval p99 ms', typical.typicalMs, typicalP99Error(r));
  // an open loop's own lateness: what of a change in the corrected latency is the client's scheduling
  latency(START_LAG);
  add(FAILED_OPS, r.failedOps);
  const client = cpuPerMillion(r);
  if (client !== null) add(client.of === 'points' ? 'client CPU s/Mpts' : 'client CPU s/M rows', client.seconds);
  // a run that read: per operation too, as its report gives it (a read of a row or a few costs little per million)
  const clientPerOperation = cpuMsPerOperation(r);
  if (clientPerOperation !== undefined) add('client CPU ms/op', clientPerOperation);
  const server = serverCpuPerMillion(r);
  if (server !== null) add(server.of === 'points' ? 'server CPU s/Mpts' : 'server CPU s/M rows', server.seconds);
  const serverS = serverCpuS(r);
  const serverPerOperation = serverS === undefined ? undefined : cpuMsPerOperation(r, serverS);
  if (serverPerOperation !== undefined) add('server CPU ms/op', serverPerOperation);
  add('peak RSS MB', r.peakRssMb);
  return figures;
}

/** The key of the main operation's latency, which pairs two runs' main operations whatever their kinds. */
const MAIN = '\0main';

const PERCENTILES = [
  ['p50', 0.5],
  ['p99', 0.99],
] as const;

/** Whether B is worse than A, noise aside: lower for a rate (`points/s`, `rows/s`), higher for the rest. */
export function isWorse(f: FigureComparison): boolean {
  return f.figure.endsWith('/s') ? f.ratio < 1 : f.ratio > 1;
}

/**
 * The comparison as a console table, the figures of one run alone last (no ratio to give), then what differs between
 * the runs besides their figures.
 */
export function formatComparison(
  label: string,
  figures: readonly FigureComparison[],
  differences: readonly (readonly [string, string, string])[] = [],
  unpaired: readonly UnpairedFigure[] = [],
): string {
  const num = (v: number) =>
    Math.abs(v) >= 1000 || Number.isInteger(v) ? Math.round(v).toLocaleString('en-US') : v.toPrecision(4);
  const verdict = (f: FigureComparison) =>
    f.beyond === null
      ? 'no noise estimate'
      : `${f.beyond ? 'BEYOND' : 'within'} noise (±${(100 * f.noise!).toFixed(1)} %)`;
  const among = (f: { among?: string }) => (f.among === undefined ? '' : `; ${f.among}`);
  const rows = [
    ['figure', 'A', 'B', 'B/A', ''],
    // no ratio against nothing (A's figure 0)
    ...figures.map((f) => [
      f.figure,
      num(f.a),
      num(f.b),
      Number.isNaN(f.ratio) ? '-' : `${f.ratio.toFixed(3)}x`,
      verdict(f) + among(f),
    ]),
    ...unpaired.map((f) => {
      const value = num(f.value);
      return [f.figure, f.in === 'A' ? value : '-', f.in === 'B' ? value : '-', '-', `${f.in} only${among(f)}`];
    }),
  ];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  // the figure's name and the verdict (words) to the left, the numbers to the right
  const words = (c: number) => c === 0 || c === rows[0].length - 1;
  const lines = rows.map((r) => r.map((cell, c) => (words(c) ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))));
  const width = Math.max(0, ...differences.map(([what]) => what.length));
  const differs = differences.map(([what, a, b]) => `  ${what.padEnd(width)}  ${a} -> ${b}`);
  return [
    `== ${label} ==`,
    ...lines.map((l) => l.join('  ').trimEnd()),
    ...(differs.length > 0 ? ['differs, A -> B:', ...differs] : []),
  ].join('\n');
}
