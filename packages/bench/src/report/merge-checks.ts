import { QUERY_KNOBS } from '../config/knobs.js';
import type { BenchConfig, RunResult } from '../types.js';
import { isSwept } from './sweep-table.js';

/**
 * The knobs that make a run's workload: the shares of one run agree on them. Workers, clients, pool size, rates,
 * the seed and the hosts are each machine's own; the shares of a sweep's rate (isSwept) swept the same rates too.
 */
const WORKLOAD_KNOBS = [
  'database',
  'model',
  'method',
  'devices',
  'sensors',
  'batchSize',
  'loop',
  'tabletsPerRequest',
  'typeProportions',
  'values',
  'stringLength',
  'timeStep',
  'precision',
  'outOfOrderRatio',
  'outOfOrderRange',
  'interlacedDevices',
  'nullRatio',
  'workload',
  'warmupRounds',
  'batchIntervalMs',
  'testMaxTime',
  'operationProportion',
  ...QUERY_KNOBS,
  'queries',
] as const satisfies readonly (keyof BenchConfig)[];

/**
 * Throws unless `shares` (one run of `label` from each file, in file order) can be one run: the same workload,
 * each over its own devices (a query-file statement: the same statement, devices aside), at the same time.
 * Merging the same file twice, two runs of different knobs or of different times would add up figures of no run
 * that happened.
 */
export function checkShares(label: string, shares: readonly RunResult[]): void {
  const [first] = shares;
  shares.forEach((share, k) => {
    if (k === 0) return;
    const differs = (what: string, a: string, b: string) =>
      new Error(
        `${label}: file ${k + 1}'s run has ${what} ${b}, file 1's ${a}: the shares of one run have the same workload`,
      );
    if (first.queryFile !== undefined || share.queryFile !== undefined) {
      const [a, b] = [first.queryFile?.sql, share.queryFile?.sql];
      if (a !== b) throw differs('the statement', JSON.stringify(a), JSON.stringify(b));
      const [fa, fb] = [first.queryFile?.forEach, share.queryFile?.forEach];
      if (fa !== fb) throw differs('forEach', JSON.stringify(fa ?? null), JSON.stringify(fb ?? null));
    }
    const knobs = isSwept(first) ? [...WORKLOAD_KNOBS, 'sweepRates' as const] : WORKLOAD_KNOBS;
    for (const knob of knobs) {
      const [a, b] = [JSON.stringify(first.config[knob]), JSON.stringify(share.config[knob])];
      if (a !== b) throw differs(knob, a, b);
    }
  });
  if (first.queryFile === undefined) checkDisjoint(label, shares);
  checkTogether(label, shares);
}

/** How far apart two shares' timed phases may be and still count as run together: machines' clocks a little apart. */
const TOGETHER_SLACK_MS = 1000;

/**
 * Each share's timed phase (`startedAt` to `startedAt` plus `durationS`) began before every other's had ended: shares
 * run one after another are no run that happened, and their rates over the longest share's time would be wrong.
 */
function checkTogether(label: string, shares: readonly RunResult[]): void {
  const span = (r: RunResult) => {
    const start = Date.parse(r.startedAt);
    return [start, start + r.durationS * 1000] as const;
  };
  for (let i = 0; i < shares.length; i++) {
    for (let j = i + 1; j < shares.length; j++) {
      const [[a0, a1], [b0, b1]] = [span(shares[i]), span(shares[j])];
      const gapMs = Math.max(b0 - a1, a0 - b1);
      if (gapMs > TOGETHER_SLACK_MS)
        throw new Error(
          `${label}: the runs of files ${i + 1} and ${j + 1} did not run at the same time (started ` +
            `${shares[i].startedAt} and ${shares[j].startedAt}, ${(gapMs / 1000).toFixed(1)} s between the end of ` +
            'one and the start of the other): the shares of one run run together',
        );
    }
  }
}

/** Each share's devices [offset, offset + count) apart from every other's. */
function checkDisjoint(label: string, shares: readonly RunResult[]): void {
  const range = (r: RunResult) => [r.config.deviceOffset, r.config.deviceOffset + r.config.deviceCount] as const;
  for (let i = 0; i < shares.length; i++) {
    for (let j = i + 1; j < shares.length; j++) {
      const [[a0, a1], [b0, b1]] = [range(shares[i]), range(shares[j])];
      if (Math.max(a0, b0) < Math.min(a1, b1))
        throw new Error(
          `${label}: the shares of files ${i + 1} and ${j + 1} overlap (devices ${a0}-${a1 - 1} and ${b0}-${b1 - 1}): ` +
            'each machine runs its own devices',
        );
    }
  }
}
