import { START_LAG, UNCORRECTED_PREFIX } from '../latency-rows.js';
import type { RunResult } from '../types.js';
import { byReportOrder } from './latency-matrix.js';
import { fixed, grouped, millis, orDash } from './numbers.js';
import { serverCores } from './result-fields.js';
import { openLoopFigures, shortVerdict } from './open-loop.js';
import { textTable } from './table.js';

/**
 * What a sweep of rates (--sweep-rates) answers, one table per run of it (ours, the Java client's, a query file's
 * statement; each repeat's): a column per target rate, the rate it achieved and whether it kept its schedule, how
 * late operations started, and each scheduled operation's p99 from its intended start (corrected for coordinated
 * omission), the figure to read against a latency objective: at a rate not met it grows with the run's length; and
 * the server's cores kept busy at each rate, when measured.
 */
interface SweepTable {
  /** the run swept, its label without the rate */
  name: string;
  /** `target` and each rate */
  header: string[];
  /** a figure's name, then its value at each rate */
  rows: string[][];
}

/** What a run of --sweep-rates carries in its label, its rate (sweepLabel): `tree-queries@200/s#2`. */
export const rateMark = (rate: number): string => `@${rate}/s`;

/** Whether `run` is one rate of a sweep: its label carries its own rate, which a file from before sweeps never has. */
export const isSwept = (run: RunResult): boolean =>
  run.config.targetRate > 0 && run.label.includes(rateMark(run.config.targetRate));

export const SWEEP_TITLE = 'p99 ms from the intended start, by target rate (operations/s)';

/** The sweep's tables, from the runs of a --sweep-rates run (none of other runs). */
export function sweepTables(runs: readonly RunResult[]): SweepTable[] {
  return [...sweptRuns(runs)].map(([name, atRates]) => {
    const figure = (label: string, cell: (r: RunResult) => string): string[] => [label, ...atRates.map(cell)];
    const rows = [
      figure('achieved', (r) => fixed(openLoopFigures(r)?.startedPerS ?? 0, 1)),
      figure('open loop', (r) => {
        const o = openLoopFigures(r);
        return o === null ? '-' : shortVerdict(o);
      }),
      figure(`${START_LAG} p99`, (r) => p99(r, START_LAG)),
      ...scheduledKinds(atRates).map((kind) => figure(kind, (r) => p99(r, kind))),
      ...(atRates.some((r) => r.failedOps > 0) ? [figure('failed ops', (r) => grouped(r.failedOps))] : []),
      // the server's CPU over each rate's run (--server-pid): the rate at which it runs out of cores
      ...(atRates.some((r) => serverCores(r) !== undefined)
        ? [figure('server cores', (r) => orDash(serverCores(r), 2))]
        : []),
    ];
    return { name, header: ['target', ...atRates.map((r) => grouped(r.config.targetRate))], rows };
  });
}

/** The sweep's tables for the console. */
export function sweepText(runs: readonly RunResult[]): string[] {
  return sweepTables(runs).flatMap((t) => [`sweep ${t.name}: ${SWEEP_TITLE}`, textTable(t.header, t.rows)]);
}

/** The runs of each thing swept (isSwept), by its label without the rate (`tree-queries@200/s#2`: `tree-queries#2`). */
function sweptRuns(runs: readonly RunResult[]): Map<string, RunResult[]> {
  const byName = new Map<string, RunResult[]>();
  for (const r of runs) {
    if (!isSwept(r)) continue;
    const name = r.label.replace(rateMark(r.config.targetRate), '');
    const runsOfName = byName.get(name);
    if (runsOfName === undefined) byName.set(name, [r]);
    else runsOfName.push(r);
  }
  return byName;
}

/** The operations started on the schedule (those with an uncorrected row), in the latency matrix's order. */
function scheduledKinds(runs: readonly RunResult[]): string[] {
  const kinds = new Set<string>();
  for (const r of runs)
    for (const kind of Object.keys(r.latency))
      if (r.latency[`${UNCORRECTED_PREFIX}${kind}`] !== undefined) kinds.add(kind);
  return byReportOrder([...kinds]);
}

function p99(r: RunResult, kind: string): string {
  const l = r.latency[kind];
  return l === undefined || l.count === 0 ? '-' : millis(l.p99);
}
