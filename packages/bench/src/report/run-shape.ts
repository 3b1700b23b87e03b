/**
 * The runs of a results.json as `compare` and `merge` read them, checked before either uses one: a file cut short,
 * edited by hand or written by another tool is refused naming the run and the field (`run 2 ("tree-insertTablet"):
 * latency.insertTablet.p99 needs a number`), not met as a TypeError halfway through a report. A figure written as
 * null (JSON's NaN: not measured) is read as NaN.
 */
import type { LatencySummary, RunResult } from '../types.js';

/** A field that is not what a run holds there. */
class BadField extends Error {}

type Obj = Record<string, unknown>;

const SUMMARY_KEYS = [
  'count',
  'min',
  'avg',
  'p10',
  'p25',
  'p50',
  'p75',
  'p90',
  'p95',
  'p99',
  'p999',
  'max',
] as const satisfies readonly (keyof LatencySummary)[];

const NUMBERS = [
  'durationS',
  'points',
  'okOps',
  'failedOps',
  'pointsPerS',
  'opsPerS',
  'clientCpuS',
  'clientCpuSPerMpts',
  'peakRssMb',
] as const;

/** The runs of a parsed results.json; throws an Error saying which run and field are wrong. */
export function checkedRuns(parsed: unknown): RunResult[] {
  if (!Array.isArray(parsed)) throw new Error('not a results.json (an array of runs)');
  parsed.forEach((run: unknown, i) => {
    const label = isObj(run) && typeof run.label === 'string' ? ` (${JSON.stringify(run.label)})` : '';
    try {
      checkRun(run);
    } catch (e) {
      if (!(e instanceof BadField)) throw e;
      throw new Error(`run ${i + 1}${label}: ${e.message} (not a results.json of iotdb-bench, or cut short)`, {
        cause: e,
      });
    }
  });
  return parsed as RunResult[];
}

function checkRun(run: unknown): void {
  const r = obj(run, 'the run');
  str(r, 'label');
  str(r, 'startedAt');
  obj(r.config, 'config');
  for (const key of NUMBERS) num(r, key);
  eachOf(r, 'latency', (summary, path) => checkSummary(summary, path));
  eachOf(r, 'histograms', (data, path) => {
    const h = obj(data, path);
    for (const key of ['count', 'min', 'max', 'sum']) num(h, key, path);
    if (!Array.isArray(h.counts) || !h.counts.every(isNumber)) throw new BadField(`${path}.counts needs numbers`);
  });
  if (!isPairs(r.throughput)) throw new BadField('throughput needs [seconds, points/s] pairs');
  if (r.serverCpu !== undefined) checkServerCpu(r.serverCpu);
  if (r.serverCoresOverTime !== undefined && !isPairs(r.serverCoresOverTime))
    throw new BadField('serverCoresOverTime needs [seconds, cores] pairs');
  if (r.interruptedBy !== undefined && r.interruptedBy !== 'SIGINT' && r.interruptedBy !== 'SIGTERM')
    throw new BadField('interruptedBy needs SIGINT or SIGTERM');
  if (r.queries !== undefined)
    eachOf(r, 'queries', (figures, path) => {
      const q = obj(figures, path);
      for (const key of ['ops', 'failed', 'rows', 'rowsPerS']) num(q, key, path);
      if (q.points !== undefined) num(q, 'points', path); // absent in files written before points were recorded
      checkSummary(q.latency, `${path}.latency`);
    });
}

/** The server's CPU (absent in runs that did not measure it): { pids, seconds } or { pids, error }. */
function checkServerCpu(value: unknown): void {
  const ok =
    isObj(value) &&
    Array.isArray(value.pids) &&
    value.pids.every(isNumber) &&
    (isNumber(value.seconds) || typeof value.error === 'string');
  if (!ok) throw new BadField('serverCpu needs { pids, seconds } or { pids, error }');
}

function checkSummary(value: unknown, path: string): void {
  const summary = obj(value, path);
  for (const key of SUMMARY_KEYS) num(summary, key, path);
}

/** Calls `check` on each value of the object at r[key] (an object of the run's operations or query types). */
function eachOf(r: Obj, key: string, check: (value: unknown, path: string) => void): void {
  for (const [name, value] of Object.entries(obj(r[key], key))) check(value, `${key}.${name}`);
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Samples over time: [seconds, figure] pairs of numbers. */
function isPairs(v: unknown): boolean {
  return Array.isArray(v) && v.every((s) => Array.isArray(s) && s.every(isNumber));
}

function isNumber(v: unknown): v is number {
  return typeof v === 'number';
}

function obj(v: unknown, path: string): Obj {
  if (!isObj(v)) throw new BadField(`${path} needs an object`);
  return v;
}

/** A number; null, what JSON made of a figure not measured (NaN: the JVM's memory without /proc), is NaN again. */
function num(o: Obj, key: string, path?: string): void {
  if (o[key] === null) o[key] = NaN;
  else if (!isNumber(o[key])) throw new BadField(`${path === undefined ? key : `${path}.${key}`} needs a number`);
}

function str(o: Obj, key: string): void {
  if (typeof o[key] !== 'string') throw new BadField(`${key} needs a string`);
}
