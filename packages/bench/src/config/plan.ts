/** `--dry-run`: the resolved plan, every knob and the totals they make. */
import { fixed, grouped } from '../report/numbers.js';
import type { BenchConfig } from '../types.js';
import {
  OPERATIONS,
  hasQueries,
  readsOnly,
  storedRows,
  weightedQueries,
  type Operation,
} from '../workload/operations.js';
import { formatValue, plural } from './format.js';
import { KNOB_KEYS, KNOBS } from './knobs.js';
import { readOnly, warmUpReads, type QueryFileEntry } from './query-file.js';
import { TYPE_ORDER } from './type-proportions.js';

export function describePlan(c: BenchConfig, queryFile?: readonly QueryFileEntry[]): string {
  const knobs = KNOB_KEYS.map((key) => row(key, show(c, key)));
  const lines = queryFile === undefined ? derived(c) : statementPlan(c, queryFile);
  return [
    'Resolved plan (dry run: nothing is written)',
    '',
    'knobs',
    ...knobs,
    '',
    'derived',
    ...lines.map(([k, v]) => row(k, v)),
    '',
  ].join('\n');
}

function show(c: BenchConfig, key: keyof BenchConfig): string {
  if (key === 'typeProportions') return typeMix(c);
  // undefined means "not set": say what happens then
  return c[key] === undefined ? KNOBS[key].defaultText : formatValue(c[key]);
}

function row(name: string, value: string): string {
  return `  ${name.padEnd(20)} ${value}`;
}

/** `1:1:1:1:1:1 (BOOLEAN 16.7 %, INT32 16.7 %, ...)`, the types with weight > 0 */
function typeMix(c: BenchConfig): string {
  const p = c.typeProportions;
  const sum = TYPE_ORDER.reduce((n, t) => n + p[t], 0);
  const shares = TYPE_ORDER.filter((t) => p[t] > 0).map((t) => `${t} ${grouped((100 * p[t]) / sum, 1)} %`);
  return `${formatValue(p)} (${shares.join(', ')})`;
}

/** A query file's run: each statement's sessions and reads, the warm-up, the pacing, the runs (no writes). */
function statementPlan(c: BenchConfig, statements: readonly QueryFileEntry[]): Line[] {
  const warmUp = warmUpReads(c);
  return [
    ['statements', `${plural(statements.length, 'statement')} in turn, instead of the writes (nothing written)`],
    ...statements.map((e, i): Line => {
      const where = e.model === 'table' ? `table model, database ${e.database}` : 'tree model';
      const reads =
        e.forEach === undefined
          ? `${plural(e.concurrency, 'session')} x ${plural(e.repetitions, 'read')}`
          : `a statement per row of ${e.forEach}, dealt to up to ${plural(e.concurrency, 'session')}, each read ${plural(e.repetitions, 'time')}`;
      const untimed = warmUp > 0 && readOnly(e.sql) ? `, ${plural(warmUp, 'untimed read')} first` : '';
      return [`${i + 1}. ${e.label}`, `${reads}${untimed} (${where}, line ${e.line}): ${e.sql}`];
    }),
    ...statementPacing(c),
    ...runs(c),
  ];
}

/** A query file's open loop, pauses and time limit: each statement's own. */
function statementPacing(c: BenchConfig): Line[] {
  const out: Line[] = [];
  const open = openLoopRates(c);
  if (open !== undefined)
    out.push([
      'open loop',
      `each statement's reads at ${open.rates}/s over its sessions on a fixed schedule${open.sweep}; latency from the intended start, 'uncorrected' rows from the actual one`,
    ]);
  if (c.batchIntervalMs > 0) out.push(['pause', `${grouped(c.batchIntervalMs)} ms between a session's reads`]);
  if (c.testMaxTime > 0)
    out.push([
      'time limit',
      `each statement stops at ${grouped(c.testMaxTime)} ms (--test-max-time) if not done by then`,
    ]);
  return out;
}

/**
 * The open loop's rate (`200`), or a sweep's (`100, 200 and 400`) and what it runs; undefined for a closed loop.
 */
function openLoopRates(c: BenchConfig): { rates: string; sweep: string } | undefined {
  if (c.sweepRates.length === 0) return c.targetRate > 0 ? { rates: grouped(c.targetRate, 1), sweep: '' } : undefined;
  const rates = c.sweepRates.map((r) => grouped(r, 1));
  return {
    rates: rates.length === 1 ? rates[0] : `${rates.slice(0, -1).join(', ')} and ${rates.at(-1)}`,
    sweep: ` (a run at each rate in turn, labelled <label>@<rate>/s; then each operation's p99 by rate)`,
  };
}

/** What the knobs come to, line by line: the volume, the pacing, the operations, the runs, the queries. */
function derived(c: BenchConfig): Line[] {
  return [...volume(c), ...pacing(c), ...operations(c), ...runs(c), ...queryShape(c)];
}

type Line = [string, string];

/** A run with queries: how many its warm-up runs (each query type once a round, after the round's writes). */
function warmupQueries(c: BenchConfig): Line[] {
  const kinds = weightedQueries(c.operationProportion).length;
  if (kinds === 0) return [];
  if (c.warmupRounds === 0) return [['warm-up queries', 'none (no warm-up rounds: the first timed queries run cold)']];
  const each = `${plural(kinds, 'query type')} x ${plural(c.warmupRounds, 'round')}`;
  return [['warm-up queries', `${grouped(kinds * c.warmupRounds)} per client (${each}), untimed`]];
}

/** Devices, points, tablets per write, and how the devices are shared out. */
function volume(c: BenchConfig): Line[] {
  const perDevice = c.sensors * c.batchSize;
  const perRound = c.deviceCount * perDevice;
  const total = perRound * c.loop;
  const perClient = Math.ceil(Math.ceil(c.deviceCount / c.workers) / c.clients);
  const methods = c.compare.length > 0 ? c.compare : [c.method];
  return [
    [
      'devices',
      `${grouped(c.deviceCount)} of ${grouped(c.devices)}: [${c.deviceOffset}, ${c.deviceOffset + c.deviceCount})`,
    ],
    [
      'points per round',
      `${grouped(perRound)} (${grouped(c.deviceCount)} devices x ${grouped(c.sensors)} sensors x ${grouped(c.batchSize)} rows)`,
    ],
    [
      'total points',
      `${grouped(total)} (${plural(c.loop, 'round')}${c.nullRatio > 0 ? `; about ${grouped(Math.round(total * (1 - c.nullRatio)))} without the nulls` : ''}${mixedShare(c)})`,
    ],
    [
      'warm-up points',
      readsOnly(c.operationProportion)
        ? `none (queries only: the write run wrote the ${plural(c.warmupRounds, 'warm-up round')})`
        : `${grouped(perRound * c.warmupRounds)} (${plural(c.warmupRounds, 'round')}, untimed)`,
    ],
    ...warmupQueries(c),
    ['tablets per write', methods.map((m) => `${m}: ${tabletsPerWrite(c, m, perClient)}`).join('; ')],
    [
      'devices per worker',
      `${split(c.deviceCount, c.workers)} (${grouped(c.deviceCount)} devices over ${plural(c.workers, 'worker')})`,
    ],
    [
      'devices per client',
      `${split(Math.ceil(c.deviceCount / c.workers), c.clients)} (${plural(c.clients, 'client')} per worker, ${grouped(c.workers * c.clients)} in all)`,
    ],
  ];
}

/** The rate limit, the open loop, the time limit: those set. */
function pacing(c: BenchConfig): Line[] {
  const out: Line[] = [];
  const total = c.deviceCount * c.sensors * c.batchSize * c.loop;
  // a mixed run writes only INGESTION's share of the total (drawn), a run of queries only none of it
  if (c.rateLimit > 0)
    out.push(
      !hasQueries(c.operationProportion)
        ? ['duration at limit', `at least ${grouped(total / c.rateLimit, 1)} s at ${grouped(c.rateLimit, 1)} points/s`]
        : ['rate limit', `writes paced at ${grouped(c.rateLimit, 1)} points/s over all workers`],
    );
  const open = openLoopRates(c);
  if (open !== undefined)
    out.push([
      'open loop',
      `${open.rates} operations/s over all clients on a fixed schedule${open.sweep}; latency from the intended start, 'uncorrected' rows from the actual one`,
    ]);
  if (c.testMaxTime > 0)
    out.push([
      'time limit',
      `timed phase stops at ${grouped(c.testMaxTime)} ms (--test-max-time) if the loop is not done by then`,
    ]);
  return out;
}

/** A mixed run's shares of the operations, and whether it only reads. */
function operations(c: BenchConfig): Line[] {
  if (!hasQueries(c.operationProportion)) return [];
  const total = OPERATIONS.reduce((n, op) => n + c.operationProportion[op], 0);
  const share = (op: Operation) => `${op} ${fixed((100 * c.operationProportion[op]) / total, 1)} %`;
  const shares = OPERATIONS.filter((op) => c.operationProportion[op] > 0).map(share);
  const out: Line[] = [['operations', `each drawn (seeded): ${shares.join(', ')}`]];
  if (readsOnly(c.operationProportion))
    out.push([
      'reads only',
      `nothing written, the database kept; queries read the ${grouped(storedRows(c))} rows per device a write run with these knobs stored`,
    ]);
  return out;
}

/** The runs it makes: one per compared method, the Java client's, the repeats. */
function runs(c: BenchConfig): Line[] {
  const out: Line[] = [];
  if (c.compare.length > 0) out.push(['runs', `one per method: ${c.compare.join(', ')}`]);
  if (c.vsJava)
    out.push(
      c.javaFirst
        ? ['first', 'Bench.java on the same workload, then ours']
        : ['then', 'Bench.java on the same workload'],
    );
  if (c.repeat > 1)
    out.push([
      'repeats',
      `${c.repeat}, then each figure's median and range${c.vsJava ? ' (the two clients take turns going first)' : ''}`,
    ]);
  return out;
}

/** The queries after the writes, and what every query reads (theirs and a mixed run's). */
function queryShape(c: BenchConfig): Line[] {
  const out: Line[] = [];
  if (c.queries.length > 0)
    out.push(['queries', `${c.queries.join(', ')}, ${c.queryLoops} times each, after the writes`]);
  if (c.queries.length > 0 || hasQueries(c.operationProportion))
    out.push([
      'queries read',
      `${plural(c.queryDeviceNum, 'device')} x ${plural(c.querySensorNum, 'numeric sensor')}, range ${grouped(c.queryInterval)} ms, group by ${grouped(c.groupByTimeUnit)} ms, ${c.queryAggregateFun}(), values > ${c.queryLowerValue}`,
    ]);
  return out;
}

/** In a mixed run only INGESTION's share of the operations writes; a run of queries only writes none of it. */
function mixedShare(c: BenchConfig): string {
  if (!hasQueries(c.operationProportion)) return '';
  if (readsOnly(c.operationProportion)) return '; queries only: none of it is written';
  const total = OPERATIONS.reduce((n, op) => n + c.operationProportion[op], 0);
  return `; mixed: about ${fixed((100 * c.operationProportion.INGESTION) / total, 1)} % of it, as drawn`;
}

/** Tablets (or, for insertRecords, devices' rows as records) in one write of a client. */
function tabletsPerWrite(c: BenchConfig, method: BenchConfig['method'], devicesPerClient: number): string {
  if (method === 'insertTablet') return '1';
  const n = Math.max(1, Math.min(c.tabletsPerRequest, devicesPerClient));
  const capped =
    n < c.tabletsPerRequest
      ? ` (tabletsPerRequest ${c.tabletsPerRequest}, but a client has ${devicesPerClient} devices)`
      : '';
  if (method === 'insertRecords') return `none: ${grouped(n * c.batchSize)} records of ${n} devices${capped}`;
  return `${n}${capped}`;
}

/** n over parts as evenly as possible: `25` or `33-34`. */
function split(n: number, parts: number): string {
  const lo = Math.floor(n / parts);
  const hi = Math.ceil(n / parts);
  return lo === hi ? grouped(lo) : `${grouped(lo)}-${grouped(hi)}`;
}
