/**
 * `iotdb-bench merge`: the result files of several machines, each having run its share of the devices
 * (`--device-offset/--device-count`) at the same time, as one run per label. Counts and CPU add up exactly,
 * latency percentiles come from the merged histograms (never averaged), and rates are the totals over the longest
 * share's time, as one run's are over the time until its last worker ended (a sum of the shares' rates would
 * count a share that ended early as still writing).
 */
import type { HistogramData, RunResult, ServerCpuSpent, Verify } from '../types.js';
import { sumActivity } from '../run/client-activity.js';
import { slowestOf } from '../run/operation-stats.js';
import { keptErrors } from '../run/run-error.js';
import { mergeHistograms, summarize } from './histogram.js';
import { fixed, sumByKey } from './numbers.js';
import { NO_LATENCY, totalPoints } from './result-fields.js';
import { FAILED_PREFIX } from '../latency-rows.js';
import { checkShares } from './merge-checks.js';
import { isSwept, rateMark } from './sweep-table.js';

const total = (runs: readonly RunResult[], of: (r: RunResult) => number) => runs.reduce((n, r) => n + of(r), 0);

/** One run from the shares of one label. */
export function mergeShares(shares: readonly RunResult[]): RunResult {
  const [first] = shares;
  const points = total(shares, (r) => r.points);
  const cpuS = total(shares, (r) => r.clientCpuS);
  const all = mergeHistograms(shares.map((r) => r.histograms));
  const queries = mergeQueries(shares, summarize(all));
  const histograms = withoutUnmerged(shares, queries, all);
  const verified = shares.every((r) => r.verify !== undefined);
  const durationS = Math.max(...shares.map((r) => r.durationS));
  const okOps = total(shares, (r) => r.okOps);
  const config = mergedConfig(shares);
  return {
    ...first,
    label: mergedLabel(first, config.targetRate),
    config,
    startedAt: shares.map((r) => r.startedAt).sort()[0],
    durationS,
    points,
    okOps,
    failedOps: total(shares, (r) => r.failedOps),
    pointsPerS: points / durationS,
    opsPerS: okOps / durationS,
    latency: summarize(histograms),
    histograms,
    slowestClientMs: slowestOf(shares.map((r) => r.slowestClientMs ?? {})),
    clientCpuS: cpuS,
    clientCpuSPerMpts: points > 0 ? cpuS / (points / 1e6) : 0,
    serverCpu: mergedServerCpu(shares),
    serverCoresOverTime: shares.length === 1 ? first.serverCoresOverTime : undefined,
    peakRssMb: Math.max(...shares.map((r) => r.peakRssMb)),
    throughput: sumByIndex(shares.map((r) => r.throughput)),
    // each machine's percentiles over time: they do not add up to the run's
    latencyOverTime: shares.length === 1 ? first.latencyOverTime : undefined,
    failuresOverTime: sumByTime(shares.map((r) => r.failuresOverTime)),
    errors: keptErrors(shares.map((r) => r.errors)),
    verify: verified ? mergedVerify(shares.map((r) => r.verify!)) : undefined,
    queries,
    ...(first.queryFile && { queryFile: mergedQueryFile(shares, first.queryFile) }),
    ...(shares.every((r) => r.client) && { client: sumActivity(shares.map((r) => r.client!)) }),
    // a share that ended early makes the whole run one that did
    ...stoppedShare(shares),
  };
}

/**
 * One share's server CPU as it is; of several, why the merged run has none (said, not dropped): each share's is the
 * same server's over its own window, and they do not add up.
 */
function mergedServerCpu(shares: readonly RunResult[]): ServerCpuSpent | undefined {
  if (shares.length === 1) return shares[0].serverCpu;
  const measured = shares.flatMap((r) => (r.serverCpu === undefined ? [] : [r.serverCpu]));
  if (measured.length === 0) return undefined;
  const pids = [...new Set(measured.flatMap((m) => m.pids))];
  const each = measured.map((m) => ('seconds' in m ? `${fixed(m.seconds, 2)} s` : 'not measured')).join(', ');
  return { pids, error: `the shares' figures do not add up: each is the same server's over its own window (${each})` };
}

/** Why the first share that ended early did (and its signal): then the whole run did. */
function stoppedShare(shares: readonly RunResult[]): Pick<RunResult, 'stopped' | 'interruptedBy'> {
  const stopped = shares.find((r) => r.stopped);
  if (stopped === undefined) return {};
  return { stopped: stopped.stopped, ...(stopped.interruptedBy && { interruptedBy: stopped.interruptedBy }) };
}

/**
 * The per-type query figures (a mixed run's, `--queries` after the writes): operations and rows add up, rows/s
 * over the longest time a share spent in the type, latency from the merged histograms. Only the types whose every
 * share that read some of it kept its histogram: `--queries` kept none before 2026-11-28, and a type with a share
 * of then cannot be merged exactly: left out. Undefined when none is left.
 */
function mergeQueries(shares: readonly RunResult[], latency: RunResult['latency']): RunResult['queries'] {
  const histogramBehind = (k: string) =>
    shares.every((r) => (r.queries?.[k]?.ops ?? 0) === 0 || r.histograms[k] !== undefined);
  const kinds = new Set(
    shares
      .flatMap((r) => Object.keys(r.queries ?? {}))
      .filter((k) => latency[k] !== undefined || latency[FAILED_PREFIX + k] !== undefined)
      .filter(histogramBehind),
  );
  if (kinds.size === 0) return undefined;
  const merged: NonNullable<RunResult['queries']> = {};
  for (const kind of kinds) {
    const of = shares.map((r) => r.queries?.[kind]).filter((q) => q !== undefined);
    const rows = of.reduce((n, q) => n + q.rows, 0);
    // the shares ran at the same time: the type's rows over the longest time a share spent in it (a mixed run's
    // types and a statement's: the share's whole run; --queries after the writes: their own time)
    const seconds = Math.max(...of.map((q) => (q.rows > 0 && q.rowsPerS > 0 ? q.rows / q.rowsPerS : 0)));
    merged[kind] = {
      ops: of.reduce((n, q) => n + q.ops, 0),
      failed: of.reduce((n, q) => n + q.failed, 0),
      rows,
      rowsPerS: seconds > 0 ? rows / seconds : 0,
      points: totalPoints(of),
      latency: latency[kind] ?? NO_LATENCY,
    };
  }
  return merged;
}

/** The merged histograms but those of the shares' query types left out of `queries` (mergeQueries): no partial rows. */
function withoutUnmerged(
  shares: readonly RunResult[],
  queries: RunResult['queries'],
  histograms: Record<string, HistogramData>,
): Record<string, HistogramData> {
  const left = new Set(shares.flatMap((r) => Object.keys(r.queries ?? {})).filter((k) => queries?.[k] === undefined));
  const type = (k: string) => (k.startsWith(FAILED_PREFIX) ? k.slice(FAILED_PREFIX.length) : k);
  return Object.fromEntries(Object.entries(histograms).filter(([k]) => !left.has(type(k))));
}

/** Counts over time (failuresOverTime) added at each time any share has; none when a share has none recorded. */
function sumByTime(series: readonly ([number, number][] | undefined)[]): [number, number][] | undefined {
  return series.some((s) => s === undefined) ? undefined : sumByKey(series as [number, number][][]);
}

/** The shares' configuration as one run's: the union of their devices, and the sum of what each had of its own. */
function mergedConfig(shares: readonly RunResult[]): RunResult['config'] {
  return {
    ...shares[0].config,
    deviceOffset: Math.min(...shares.map((r) => r.config.deviceOffset)),
    deviceCount: total(shares, (r) => r.config.deviceCount),
    // each machine's workers, open-loop target and rate limit were its own: the run had all of them
    workers: total(shares, (r) => r.config.workers),
    targetRate: total(shares, (r) => r.config.targetRate),
    rateLimit: total(shares, (r) => r.config.rateLimit),
    // the shares of a sweep swept the same rates (checkShares): the run had their sum at each
    ...(isSwept(shares[0]) && {
      sweepRates: shares[0].config.sweepRates.map((_, i) => total(shares, (r) => r.config.sweepRates[i])),
    }),
  };
}

/**
 * A rate of a sweep named by the shares' total rate, as a sweep of one machine at that rate is (compare pairs them,
 * the sweep table has its column); any other run keeps its label.
 */
function mergedLabel(first: RunResult, targetRate: number): string {
  return isSwept(first) ? first.label.replace(rateMark(first.config.targetRate), rateMark(targetRate)) : first.label;
}

/** A query-file statement's shares: each machine ran its own sessions (with forEach: its own statements). */
function mergedQueryFile(
  shares: readonly RunResult[],
  first: NonNullable<RunResult['queryFile']>,
): NonNullable<RunResult['queryFile']> {
  return {
    ...first,
    concurrency: total(shares, (r) => r.queryFile?.concurrency ?? 0),
    ...(first.statements !== undefined && { statements: total(shares, (r) => r.queryFile?.statements ?? 0) }),
  };
}

/** The shares' throughput samples added sample by sample (they ran at the same time, sampled alike). */
function sumByIndex(series: readonly [number, number][][]): [number, number][] {
  const length = Math.min(...series.map((s) => s.length));
  return Array.from({ length }, (_, i): [number, number] => [series[0][i][0], series.reduce((n, s) => n + s[i][1], 0)]);
}

/**
 * Every label's shares merged, in the first file's order; a label missing from a file, or shares that cannot be one
 * run (checkShares), is an error. The Java client's runs (`--vs-java`) keep their latencies as percentiles only, no
 * histogram: they cannot be merged exactly, so they are left out and named in `unmerged`.
 */
export function mergeFiles(files: readonly RunResult[][]): { merged: RunResult[]; unmerged: string[] } {
  const merged: RunResult[] = [];
  const unmerged: string[] = [];
  for (const run of files[0]) {
    const shares = files.map((runs, k) => {
      const share = runs.find((r) => r.label === run.label);
      if (share === undefined) throw new Error(`file ${k + 1} has no run labelled ${JSON.stringify(run.label)}`);
      return share;
    });
    if (shares.some(percentilesOnly)) {
      unmerged.push(run.label);
      continue;
    }
    checkShares(run.label, shares);
    merged.push(mergeShares(shares));
  }
  return { merged, unmerged };
}

/**
 * A run with a latency row no histogram stands behind (the Java client's writes and statements; its --queries keep
 * histograms): its percentiles cannot be merged.
 */
function percentilesOnly(r: RunResult): boolean {
  return Object.entries(r.latency).some(([kind, l]) => l.count > 0 && r.histograms[kind] === undefined);
}

/** The shares' counts added; a share that could not read its points back leaves the whole unread, with its reason. */
function mergedVerify(shares: readonly Verify[]): Verify {
  const expected = shares.reduce((n, v) => n + v.expected, 0);
  let actual = 0;
  for (const v of shares) {
    if ('error' in v) return { expected, ok: false, error: v.error };
    actual += v.actual;
  }
  return { expected, actual, ok: shares.every((v) => v.ok) };
}
