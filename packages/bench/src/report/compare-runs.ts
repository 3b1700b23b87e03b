/**
 * `iotdb-bench compare A.json B.json`: each figure of B against A, as a ratio, and whether the difference is
 * beyond the noise the two runs show themselves (not a test of significance across machines: a figure
 * within noise may still differ on a rerun; one beyond it is worth a rerun before it is quoted).
 */
import type { HistogramData, RunResult } from '../types.js';
import { LatencyHistogram } from './histogram.js';
import { p99OverTime, steadyLatency } from './over-time.js';
import { cpuPerMillion, mainOperation, serverCpuPerMillion } from './result-fields.js';
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

/** A figure's value in each run, and the relative standard error each run shows of it (null: none). */
interface FigureValues {
  figure: string;
  a: number;
  b: number;
  errors: [number | null, number | null];
}

/**
 * The figures of `b` against `a`: throughput, latency of the main operation, each query type both ran (rows/s,
 * p50, p99), a typical interval's p99 (when both kept latency over time), the open loop's start lag (p50, p99, when
 * both ran one), client CPU and the server's (when both measured it), per point written or row read, memory. Runs
 * that wrote nothing (query files, queries alone) have no points/s, their CPU per row (none when they read none).
 */
export function compareRuns(a: RunResult, b: RunResult): FigureComparison[] {
  return figureValues(a, b).map((f) => figure(f.figure, f.a, f.b, f.errors));
}

/** compareRuns' figures, their values as they are. */
export function figureValues(a: RunResult, b: RunResult): FigureValues[] {
  const wrote = a.points > 0 || b.points > 0;
  const none: [null, null] = [null, null];
  const figures: FigureValues[] = [];
  const add = (name: string, va: number, vb: number, errors: [number | null, number | null] = none) =>
    figures.push({ figure: name, a: va, b: vb, errors });
  if (wrote) add('points/s', a.pointsPerS, b.pointsPerS, [throughputError(a), throughputError(b)]);
  const [main, mainB] = [mainOperation(a)?.kind, mainOperation(b)?.kind];
  if (main !== undefined && mainB !== undefined) figures.push(...latencyFigures(a, b, main, mainB));
  for (const [kind, qa] of Object.entries(a.queries ?? {})) {
    const qb = b.queries?.[kind];
    if (qb === undefined) continue;
    add(`${kind} rows/s`, qa.rowsPerS, qb.rowsPerS);
    if (kind !== main) figures.push(...latencyFigures(a, b, kind, kind));
  }
  // the tail of a typical interval, every operation: the steady state, whatever spell the whole-run p99 took in
  const [ta, tb] = [p99OverTime(a), p99OverTime(b)];
  if (ta !== null && tb !== null)
    add('typical interval p99 ms', ta.typicalMs, tb.typicalMs, [typicalP99Error(a), typicalP99Error(b)]);
  // an open loop's own lateness: what of a change in the corrected latency is the client's scheduling
  figures.push(...latencyFigures(a, b, START_LAG, START_LAG));
  if (a.failedOps > 0 || b.failedOps > 0) add('failed ops', a.failedOps, b.failedOps);
  if (wrote) add('client CPU s/Mpts', a.clientCpuSPerMpts, b.clientCpuSPerMpts);
  else {
    const [ca, cb] = [cpuPerMillion(a), cpuPerMillion(b)];
    if (ca?.of === 'rows' && cb?.of === 'rows') add('client CPU s/M rows', ca.seconds, cb.seconds);
  }
  const [sa, sb] = [serverCpuPerMillion(a), serverCpuPerMillion(b)];
  if (sa !== null && sb !== null && sa.of === sb.of)
    add(sa.of === 'points' ? 'server CPU s/Mpts' : 'server CPU s/M rows', sa.seconds, sb.seconds);
  add('peak RSS MB', a.peakRssMb, b.peakRssMb);
  return figures;
}

/** p50 and p99 of an operation (named by a's kind), with the noise their histograms show. */
function latencyFigures(a: RunResult, b: RunResult, kindA: string, kindB: string): FigureValues[] {
  const [la, lb] = [a.latency[kindA], b.latency[kindB]];
  if (la === undefined || lb === undefined) return [];
  return (
    [
      ['p50', 0.5],
      ['p99', 0.99],
    ] as const
  ).map(([name, q]) => ({
    figure: `${kindA} ${name} ms`,
    a: la[name],
    b: lb[name],
    errors: [percentileError(a.histograms[kindA], q), percentileError(b.histograms[kindB], q)],
  }));
}

/** Whether B is worse than A, noise aside: lower for a rate (`points/s`, `rows/s`), higher for the rest. */
export function isWorse(f: FigureComparison): boolean {
  return f.figure.endsWith('/s') ? f.ratio < 1 : f.ratio > 1;
}

/** The comparison as a console table, then what differs between the runs besides their figures. */
export function formatComparison(
  label: string,
  figures: readonly FigureComparison[],
  differences: readonly (readonly [string, string, string])[] = [],
): string {
  const num = (v: number) =>
    Math.abs(v) >= 1000 || Number.isInteger(v) ? Math.round(v).toLocaleString('en-US') : v.toPrecision(4);
  const verdict = (f: FigureComparison) =>
    f.beyond === null
      ? 'no noise estimate'
      : `${f.beyond ? 'BEYOND' : 'within'} noise (±${(100 * f.noise!).toFixed(1)} %)`;
  const rows = [
    ['figure', 'A', 'B', 'B/A', ''],
    // no ratio against nothing (A's figure 0)
    ...figures.map((f) => [
      f.figure,
      num(f.a),
      num(f.b),
      Number.isNaN(f.ratio) ? '-' : `${f.ratio.toFixed(3)}x`,
      verdict(f),
    ]),
  ];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const lines = rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))));
  const width = Math.max(0, ...differences.map(([what]) => what.length));
  const differs = differences.map(([what, a, b]) => `  ${what.padEnd(width)}  ${a} -> ${b}`);
  return [
    `== ${label} ==`,
    ...lines.map((l) => l.join('  ').trimEnd()),
    ...(differs.length > 0 ? ['differs, A -> B:', ...differs] : []),
  ].join('\n');
}
