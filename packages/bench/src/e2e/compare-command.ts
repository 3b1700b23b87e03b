import { COMMANDS } from '../config/argv.js';
import { readFileSync } from 'node:fs';
import { compareGroups, unpairedLabels, type GroupComparison } from '../report/compare-repeats.js';
import { formatComparison } from '../report/compare-runs.js';
import { regressions } from '../report/regressions.js';
import { checkedRuns } from '../report/run-shape.js';
import type { RunResult } from '../types.js';

/** The runs of a results.json; throws, naming the file, when it cannot be read or is not one. */
export function readRuns(path: string): RunResult[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`${path}: cannot read it (${(e as NodeJS.ErrnoException).code ?? String(e)})`, { cause: e });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new Error(`${path}: not JSON (${(e as Error).message})`, { cause: e });
  }
  try {
    return checkedRuns(parsed);
  } catch (e) {
    throw new Error(`${path}: ${(e as Error).message}`, { cause: e });
  }
}

/**
 * `iotdb-bench compare A.json B.json [--fail-on-regression]`: prints each paired run's figures, B against A; 2 on bad
 * usage; with --fail-on-regression, 1 when a figure of B is worse than A's beyond noise (a gate for CI).
 */
export function compareCommand(args: readonly string[]): number {
  const failOnRegression = args.includes(FAIL_ON_REGRESSION);
  const files = args.filter((a) => a !== FAIL_ON_REGRESSION);
  if (files.length !== 2) {
    console.error(`usage: ${COMMANDS.compare.usage}`);
    return 2;
  }
  let runs: [RunResult[], RunResult[]];
  try {
    runs = [readRuns(files[0]), readRuns(files[1])];
  } catch (e) {
    console.error(`iotdb-bench compare: ${(e as Error).message}`);
    return 2;
  }
  const groups = compareGroups(...runs);
  if (groups.length === 0) {
    const labels = (file: RunResult[]) => file.map((r) => JSON.stringify(r.label)).join(', '); // a label may hold a comma
    console.error(
      `iotdb-bench compare: no run of A has a run of the same label in B (A: ${labels(runs[0])}; B: ${labels(runs[1])}). ` +
        "A run's label is its workload's (model-method, -mixed with queries) or its query file statement's: compare " +
        'the same workload run on two servers, settings or builds; methods side by side are one run of --compare METHOD,...',
    );
    return 2;
  }
  for (const g of groups) console.log(formatComparison(g.label, g.figures, g.differences, g.unpaired));
  const unpaired = notCompared(...runs);
  if (unpaired !== undefined) console.log(unpaired);
  return failOnRegression ? regressionVerdict(groups) : 0;
}

const FAIL_ON_REGRESSION = '--fail-on-regression';

/** The runs of either file that no run of the other pairs with, in a line (a label may hold a comma: quoted). */
function notCompared(a: RunResult[], b: RunResult[]): string | undefined {
  const [onlyA, onlyB] = unpairedLabels(a, b);
  const side = (name: string, labels: string[]) =>
    labels.length === 0 ? [] : [`${name} ${labels.map((l) => JSON.stringify(l)).join(', ')}`];
  const sides = [...side('A', onlyA), ...side('B', onlyB)];
  return sides.length === 0
    ? undefined
    : `not compared, no run of the same label in the other file: ${sides.join('; ')}`;
}

/** 1 and the figures that got worse beyond noise (family-wise), or 0 when none did. */
function regressionVerdict(groups: readonly GroupComparison[]): number {
  const worse = regressions(groups);
  console.log(worse.length === 0 ? 'no figure worse beyond noise' : `regressions beyond noise: ${worse.join(', ')}`);
  return worse.length === 0 ? 0 : 1;
}
