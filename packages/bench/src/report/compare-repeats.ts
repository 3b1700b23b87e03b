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
  compareRuns,
  runFigures,
  shown,
  unpairedFigures,
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
  const groups: GroupComparison[] = [];
  for (const [label, runsA] of inA) {
    const runsB = inB.get(label);
    if (runsB === undefined) continue;
    const single = runsA.length === 1 && runsB.length === 1;
    groups.push({
      run: label,
      label: single ? runsA[0].label : repeatsLabel(label, runsA.length, runsB.length),
      figures: single ? compareRuns(runsA[0], runsB[0]) : compareRepeats(runsA, runsB),
      unpaired: unpairedFigures(runsA, runsB),
      differences: runDifferences(runsA[0], runsB[0]),
    });
  }
  // the only run of each file, whatever their labels
  if (groups.length === 0 && a.length === 1 && b.length === 1) {
    const [ra, rb] = [a[0], b[0]];
    const [figures, unpaired] = [compareRuns(ra, rb), unpairedFigures([ra], [rb])];
    groups.push({ run: ra.label, label: ra.label, figures, unpaired, differences: runDifferences(ra, rb) });
  }
  return groups;
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
 * Each figure every run of both sides has (failed operations when any run had some), named as A's first run names
 * it: the means, and the t-test's verdict on their difference.
 */
function compareRepeats(runsA: readonly RunResult[], runsB: readonly RunResult[]): FigureComparison[] {
  const [ownA, ownB] = [runsA.map(runFigures), runsB.map(runFigures)];
  const valuesOf = (own: OwnFigure[][], key: string) => own.map((figures) => figures.find((f) => f.key === key)?.value);
  return ownA[0].flatMap(({ key, figure }) => {
    const [xa, xb] = [valuesOf(ownA, key), valuesOf(ownB, key)];
    if (!allNumbers(xa) || !allNumbers(xb)) return [];
    if (!shown(key, [...xa, ...xb])) return [];
    return [tTest(figure, xa, xb)];
  });
}

function allNumbers(xs: (number | undefined)[]): xs is number[] {
  return xs.every((x) => x !== undefined && Number.isFinite(x));
}

/** Welch's t-test at 95 % (pooled with the other side's variance when a side has one run). */
function tTest(name: string, xa: readonly number[], xb: readonly number[]): FigureComparison {
  const [ma, mb] = [mean(xa), mean(xb)];
  const [va, vb] = [variance(xa), variance(xb)];
  // the squared standard errors of the two means
  const ea = (va ?? vb ?? 0) / xa.length;
  const eb = (vb ?? va ?? 0) / xb.length;
  const df = va !== null && vb !== null ? welchDf(ea, eb, xa.length, xb.length) : Math.max(xa.length, xb.length) - 1;
  const se = Math.sqrt(ea + eb);
  const halfWidth = studentT95(df) * se;
  const noise = ma > 0 ? halfWidth / ma : null;
  const ratio = ma === 0 ? NaN : mb / ma;
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
