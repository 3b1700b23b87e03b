/**
 * `iotdb-bench compare A.json B.json` over whole files: their runs paired by label. `--repeat N` labels its runs
 * `<label>#k`; a label's repeats are compared as one, each figure the mean of A's repeats against the mean of B's,
 * beyond noise when Welch's t-test at 95 % says so: the repeats' own spread is the run-to-run noise, which one
 * run's samples cannot show (and client CPU or memory, one value a run, get an estimate too). One run against a
 * label's repeats takes the repeated side's spread for both (the pooled-variance t-test). Single runs are paired
 * as compareRuns compares them, each with the noise it shows itself.
 */
import type { RunResult } from '../types.js';
import {
  compareFigures,
  runFigures,
  shown,
  type FigureComparison,
  type OwnFigure,
  type UnpairedFigure,
} from './compare-runs.js';
import { runDifferences, type Difference } from './run-differences.js';
import { studentT95, studentTwoSidedP } from './stats.js';

export interface GroupComparison {
  /** the runs' label (a repeat's without its `#k`) */
  run: string;
  /** the run's label, or the repeats' label and how many there are on each side */
  label: string;
  figures: FigureComparison[];
  /** the figures of one side alone (a query type the other did not run, points/s against queries alone) */
  unpaired: UnpairedFigure[];
  /** the knobs and environment that differ between A's (first) run and B's */
  differences: Difference[];
}

const REPEAT_SUFFIX = /#\d+$/;

/** The runs of each file paired by label, a label's repeats as one group; [] when no label is in both. */
export function compareGroups(a: readonly RunResult[], b: readonly RunResult[]): GroupComparison[] {
  const [inA, inB] = [byLabel(a), byLabel(b)];
  const groups = [...inA].flatMap(([label, runsA]) => {
    const runsB = inB.get(label);
    return runsB === undefined ? [] : [compareGroup(label, runsA, runsB)];
  });
  // the only run of each file, whatever their labels
  if (groups.length === 0 && a.length === 1 && b.length === 1) groups.push(compareGroup(a[0].label, a, b));
  return groups;
}

function compareGroup(run: string, runsA: readonly RunResult[], runsB: readonly RunResult[]): GroupComparison {
  const [ownA, ownB] = [runsA.map(runFigures), runsB.map(runFigures)];
  const single = runsA.length === 1 && runsB.length === 1;
  return {
    run,
    label: single ? runsA[0].label : repeatsLabel(run, runsA.length, runsB.length),
    figures: single ? compareFigures(ownA[0], ownB[0]) : compareRepeats(ownA, ownB),
    unpaired: unpairedFigures(ownA, ownB),
    differences: runDifferences(runsA[0], runsB[0]),
  };
}

/**
 * The labels (a repeat's without its `#k`) of each file that no run of the other has, A's and B's; none when the
 * only run of each is compared whatever their labels.
 */
export function unpairedLabels(a: readonly RunResult[], b: readonly RunResult[]): [string[], string[]] {
  if (a.length === 1 && b.length === 1) return [[], []];
  const [inA, inB] = [byLabel(a), byLabel(b)];
  return [[...inA.keys()].filter((l) => !inB.has(l)), [...inB.keys()].filter((l) => !inA.has(l))];
}

/** The runs by label, `x#1`, `x#2` and `x` under `x`, in the order of the file. */
function byLabel(runs: readonly RunResult[]): Map<string, RunResult[]> {
  const groups = new Map<string, RunResult[]>();
  for (const run of runs) {
    const label = run.label.replace(REPEAT_SUFFIX, '');
    groups.set(label, [...(groups.get(label) ?? []), run]);
  }
  return groups;
}

function repeatsLabel(label: string, inA: number, inB: number): string {
  const side = (n: number) => (n === 1 ? 'one run' : `mean of ${n} repeats`);
  return `${label}: ${side(inA)} (A) vs ${inB} (B)`;
}

/**
 * Each figure both sides have (failed operations when any run had some), named as A's first run with it names it: the
 * means over the runs that have it, and the t-test's verdict on their difference.
 */
function compareRepeats(ownA: readonly OwnFigure[][], ownB: readonly OwnFigure[][]): FigureComparison[] {
  const inB = new Map(sideFigures(ownB).map((f) => [f.key, f]));
  return sideFigures(ownA).flatMap((fa) => {
    const fb = inB.get(fa.key);
    if (fb === undefined || !shown(fa.key, [...fa.values, ...fb.values])) return [];
    const compared = tTest(fa.figure, fa.values, fb.values);
    const among = amongRuns([fa.values.length, ownA.length, 'A'], [fb.values.length, ownB.length, 'B']);
    return [among === undefined ? compared : { ...compared, among }];
  });
}

/** The figures of each side that no run of the other has, A's then B's: their means over the runs that have them. */
function unpairedFigures(ownA: readonly OwnFigure[][], ownB: readonly OwnFigure[][]): UnpairedFigure[] {
  const only = (side: 'A' | 'B', own: readonly OwnFigure[][], other: readonly OwnFigure[][]): UnpairedFigure[] => {
    const paired = new Set(sideFigures(other).map((f) => f.key));
    return sideFigures(own)
      .filter((f) => !paired.has(f.key))
      .map(({ figure, values }) => {
        const among = amongRuns([values.length, own.length, side]);
        return { figure, in: side, value: mean(values), ...(among === undefined ? {} : { among }) };
      });
  };
  return [...only('A', ownA, ownB), ...only('B', ownB, ownA)];
}

/** A figure of a side's runs: the values of those that have it (a finite one). */
interface SideFigure {
  key: string;
  figure: string;
  values: number[];
}

/**
 * The figures any run of a side has, in the order compare prints them (one the earlier runs lack goes after the
 * figure before it in the run that has it), named as the first run with it names it.
 */
function sideFigures(own: readonly OwnFigure[][]): SideFigure[] {
  const byKey = new Map<string, SideFigure>();
  const order: string[] = [];
  for (const figures of own) {
    let at = 0;
    for (const { key, figure, value } of figures) {
      let known = byKey.get(key);
      if (known === undefined) byKey.set(key, (known = { key, figure, values: [] }));
      at = order.includes(key) ? order.indexOf(key) + 1 : (order.splice(at, 0, key), at + 1);
      if (Number.isFinite(value)) known.values.push(value);
    }
  }
  return order.map((key) => byKey.get(key)!).filter((f) => f.values.length > 0);
}

/** `in 2 of 3 repeats of B`: of the sides (runs with the figure, runs, name) those where some run lacks it. */
function amongRuns(...sides: [number, number, 'A' | 'B'][]): string | undefined {
  const partial = sides.filter(([have, runs]) => have < runs);
  if (partial.length === 0) return undefined;
  return (
    'in ' +
    partial.map(([have, runs, side], i) => `${have} of ${runs}${i === 0 ? ' repeats' : ''} of ${side}`).join(' and ')
  );
}

/** Welch's t-test at 95 % (pooled with the other side's variance when a side has one run). */
function tTest(name: string, xa: readonly number[], xb: readonly number[]): FigureComparison {
  const [ma, mb] = [mean(xa), mean(xb)];
  const [va, vb] = [variance(xa), variance(xb)];
  const ratio = ma === 0 ? NaN : mb / ma;
  // one value a side (a figure one repeat of each had): no spread to tell noise by
  if (va === null && vb === null) return { figure: name, a: ma, b: mb, ratio, noise: null, beyond: null, p: null };
  // the squared standard errors of the two means
  const ea = (va ?? vb ?? 0) / xa.length;
  const eb = (vb ?? va ?? 0) / xb.length;
  const df = va !== null && vb !== null ? welchDf(ea, eb, xa.length, xb.length) : Math.max(xa.length, xb.length) - 1;
  const se = Math.sqrt(ea + eb);
  const halfWidth = studentT95(df) * se;
  const noise = ma > 0 ? halfWidth / ma : null;
  const beyond = noise === null ? null : Math.abs(mb - ma) > halfWidth;
  const p = se === 0 ? (mb === ma ? 1 : 0) : studentTwoSidedP((mb - ma) / se, df);
  return { figure: name, a: ma, b: mb, ratio, noise, beyond, p };
}

/** The Welch-Satterthwaite degrees of freedom; with no spread on either side, the pooled test's. */
function welchDf(ea: number, eb: number, na: number, nb: number): number {
  if (ea + eb === 0) return na + nb - 2;
  return (ea + eb) ** 2 / (ea ** 2 / (na - 1) + eb ** 2 / (nb - 1));
}

function mean(xs: readonly number[]): number {
  return xs.reduce((s, x) => s + x, 0) / xs.length;
}

/** The sample variance; null for one value. */
function variance(xs: readonly number[]): number | null {
  if (xs.length < 2) return null;
  const m = mean(xs);
  return xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1);
}
