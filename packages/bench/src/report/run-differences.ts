/**
 * What differs between two runs `compare` sets side by side, besides their figures: the knobs (the resolved
 * configuration, in the knobs' order) and where they ran (the result files' environment). A ratio means what
 * changed between them; this says what that was, or that nothing did that the files know of.
 */
import { formatValue } from '../config/format.js';
import { KNOB_KEYS, QUERY_KNOBS } from '../config/knobs.js';
import type { Environment, RunResult } from '../types.js';
import { hasQueries } from '../workload/operations.js';

/** [what, in A, in B] */
export type Difference = [string, string, string];

/** Knobs that change nothing a run measures: where its files went, its printing, the server processes it watched. */
const NOT_MEASURED = new Set(['out', 'progress', 'persistResults', 'serverPid']);

/** Knobs that shape queries alone: nothing to a run that read nothing (their defaults follow --batch-size). */
const QUERY_ONLY = new Set<string>(QUERY_KNOBS);

const UNKNOWN = 'unknown';

/** The environment's fields compare names, each read from a run's environment (null: not recorded). */
const ENVIRONMENT_FIELDS: [string, (e: Environment) => string | number | null | undefined][] = [
  ['cpu', (e) => e.cpu],
  ['cores', (e) => e.cores],
  ['memory GiB', (e) => e.memoryGiB],
  ['os', (e) => e.os],
  ['node', (e) => e.node],
  ['jvm', (e) => e.jvm],
  ['server version', (e) => e.server?.version],
  ['server time precision', (e) => e.server?.timestampPrecision],
  ['server DataNodes', (e) => e.server?.dataNodes?.join(', ')],
  ['client version', (e) => e.client.version],
  ['bench version', (e) => e.client.bench],
  ['git commit', (e) => e.client.gitCommit],
];

export function runDifferences(a: RunResult, b: RunResult): Difference[] {
  const measured = (key: string) => !NOT_MEASURED.has(key) && (!QUERY_ONLY.has(key) || reads(a) || reads(b));
  const knobs = KNOB_KEYS.filter(measured).flatMap((key): Difference[] => {
    const [va, vb] = [formatValue(a.config[key]), formatValue(b.config[key])];
    return va === vb ? [] : [[key, va, vb]];
  });
  return [...knobs, ...environmentDifferences(a.environment, b.environment)];
}

/** Whether the run read anything: queries mixed in, after the writes, or a query file. */
function reads(r: RunResult): boolean {
  const c = r.config;
  return hasQueries(c.operationProportion) || c.queries.length > 0 || c.queryFile !== undefined;
}

function environmentDifferences(a: Environment | undefined, b: Environment | undefined): Difference[] {
  type Pick = (typeof ENVIRONMENT_FIELDS)[number][1];
  const text = (e: Environment | undefined, pick: Pick) => {
    const v = e === undefined ? null : pick(e);
    return v === null || v === undefined ? UNKNOWN : String(v);
  };
  const fields = ENVIRONMENT_FIELDS.map(([name, pick]): Difference => [name, text(a, pick), text(b, pick)]);
  const settings = [...new Set([...Object.keys(a?.server?.settings ?? {}), ...Object.keys(b?.server?.settings ?? {})])];
  const server = settings.map((k): Difference => [
    `server ${k}`,
    a?.server?.settings[k] ?? UNKNOWN,
    b?.server?.settings[k] ?? UNKNOWN,
  ]);
  return [...fields, ...server].filter(([, va, vb]) => va !== vb);
}
