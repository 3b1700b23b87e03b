/**
 * `--query-file`: a YAML or JSON list of statements, each with its own concurrency and repetitions, as
 * taosBenchmark's query files. The list is the file itself or its `queries:` key:
 *
 * ```yaml
 * - label: last week, one device
 *   sql: SELECT avg(s1) FROM root.bench.d000 WHERE time > now() - 7d
 *   concurrency: 4        # sessions running it at once (default 1, at most 65535)
 *   repetitions: 100      # runs per session (default 1)
 * - sql: SELECT count(*) FROM t
 *   model: table          # tree (default: the run's --model) or table
 *   database: bench       # table model database (default: the run's --database)
 * - label: latest point of each device
 *   forEach: SHOW DEVICES root.bench.**   # the statement once per row of this query's answer,
 *   sql: SELECT LAST s0 FROM {Device}     # {Device}: that row's Device column
 * ```
 *
 * Anchors, aliases and merge keys (`<<: *defaults`) are followed, so entries can share their settings.
 * Errors name the file and line. JSON is read by the same YAML 1.2 parser, so it gets lines too.
 */
import { readFileSync } from 'node:fs';
import { MAX_POOL_SIZE } from '@iotdb/client';
import { nearestName } from '@iotdb/fast-serializer';
import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  type Document,
  type Node,
  type YAMLMap,
} from 'yaml';
import type { BenchConfig } from '../types.js';
import { START_LAG } from '../latency-rows.js';
import { ConfigError } from './errors.js';
import { placeholders } from './for-each.js';

export interface QueryFileEntry {
  label: string;
  sql: string;
  concurrency: number;
  repetitions: number;
  model: 'tree' | 'table';
  database: string;
  /**
   * a query whose rows each give one statement: `sql` with its `{column}` placeholders replaced by the row's values
   * (config/for-each.ts), as taosBenchmark's super-table queries run theirs over every child table
   */
  forEach?: string;
  /** where it is in the file */
  line: number;
}

const KEYS = ['label', 'sql', 'concurrency', 'repetitions', 'model', 'database', 'forEach'] as const;
type Key = (typeof KEYS)[number];

export function readQueryFile(
  path: string,
  defaults: { model: 'tree' | 'table'; database: string },
  options: { vsJava?: boolean } = {},
): QueryFileEntry[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError('queryFile', `${path}: cannot read it (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, merge: true });
  const lineOf = (node: Node | null | undefined) => (node?.range ? lines.linePos(node.range[0]).line : 1);
  const fail = (line: number, why: string): never => {
    throw new ConfigError('queryFile', `${path}:${line}: ${why}`);
  };
  const problem = doc.errors[0];
  if (problem !== undefined)
    fail(lines.linePos(problem.pos[0]).line, `invalid YAML/JSON: ${problem.message.split(' at line ')[0]}`);
  const top: unknown = doc.contents;
  const list: unknown = isMap(top) && top.has('queries') ? top.get('queries', true) : top;
  if (!isSeq(list)) return fail(lineOf(list as Node | null), 'needs a list of statements (or a "queries:" list)');
  if (list.items.length === 0) return fail(lineOf(list), 'lists no statement');
  const entries = list.items.map((listed, i) => {
    const item = resolved(listed, doc);
    if (!isMap(item))
      return fail(
        lineOf(item as Node),
        `entry ${i + 1} needs "sql:" and optional label, concurrency, repetitions, model, database, forEach`,
      );
    return entry(pairsOf(item, doc, lineOf, fail), lineOf(item), i, defaults, lineOf, fail);
  });
  entries.forEach((e, i) => {
    // eslint-disable-next-line no-control-regex -- control characters are what is refused
    if (e.label.trim() === '' || /[\u0000-\u001f\u007f]/.test(e.label))
      fail(
        e.line,
        `entry ${i + 1}'s label ${JSON.stringify(e.label)} needs one line of text, no control characters: ` +
          "it names the statement's results on a line of the console and a row of each file",
      );
    if (e.label === START_LAG)
      fail(
        e.line,
        `entry ${i + 1}'s label ${JSON.stringify(e.label)} names the open loop's start lag row: ` +
          "each statement's results go by its label",
      );
    const first = entries.findIndex((other) => other.label === e.label);
    if (first < i)
      fail(
        e.line,
        `entry ${i + 1} has the label ${JSON.stringify(e.label)} of entry ${first + 1} (line ${entries[first].line}): ` +
          "each statement's results go by its label",
      );
    const java =
      options.vsJava === true ? entries.find((other) => javaStatementLabel(other.label) === e.label) : undefined;
    if (java !== undefined)
      fail(
        e.line,
        `entry ${i + 1}'s label ${JSON.stringify(e.label)} is the Java client's run of ${JSON.stringify(java.label)} ` +
          `(line ${java.line}) with --vs-java: each statement's results go by its label`,
      );
  });
  return entries;
}

/**
 * Whether the statement only reads (SELECT, SHOW, COUNT, ...): one run more of it, untimed, changes nothing. An
 * INSERT, CREATE or FLUSH is not run an extra time (its timed runs would meet what that one did).
 */
export function readOnly(sql: string): boolean {
  return /^\s*(select|show|count|list|describe|desc|explain)\b/i.test(sql);
}

/**
 * The untimed reads of each statement before its timed ones: --warmup-rounds, and with --vs-java at least one (the
 * Java client's JVM would otherwise load and compile its code in its first timed reads; ours reads as many).
 */
export function warmUpReads(c: Pick<BenchConfig, 'warmupRounds' | 'vsJava'>): number {
  return Math.max(c.warmupRounds, c.vsJava ? 1 : 0);
}

/** The label of the Java client's run (`--vs-java`) of the statement labelled `label`. */
export function javaStatementLabel(label: string): string {
  return `java ${label}`;
}

/** `*name` as the node `&name` marked; any other node as it is. */
function resolved(node: unknown, doc: Document): unknown {
  return isAlias(node) ? node.resolve(doc) : node;
}

/**
 * A map's pairs, aliased values followed, with its merge keys expanded (`<<: *defaults`, `<<: [*a, *b]`) as YAML's
 * merge key says: the map's own keys win, then the merged maps in the order listed.
 */
function pairsOf(
  map: YAMLMap,
  doc: Document,
  lineOf: (node: Node | null | undefined) => number,
  fail: (line: number, why: string) => never,
  seen: ReadonlySet<YAMLMap> = new Set(),
): { key: unknown; value: unknown }[] {
  const own = map.items.filter((pair) => !isMergeKey(pair.key));
  const merged = map.items
    .filter((pair) => isMergeKey(pair.key))
    .flatMap((pair) => {
      const value = resolved(pair.value, doc);
      const sources = isSeq(value) ? value.items.map((item) => resolved(item, doc)) : [value];
      return sources.flatMap((source) =>
        isMap(source) && !seen.has(source)
          ? pairsOf(source, doc, lineOf, fail, new Set([...seen, map]))
          : fail(lineOf(pair.key as Node), '"<<" needs a map or a list of maps to merge'),
      );
    });
  const first = new Map<unknown, { key: unknown; value: unknown }>();
  for (const pair of [...own.map((p) => ({ key: p.key, value: resolved(p.value, doc) })), ...merged]) {
    const key = isScalar(pair.key) ? pair.key.value : pair.key;
    if (!first.has(key)) first.set(key, pair);
  }
  return [...first.values()];
}

/** `<<` as a merge key (its value a symbol), not a quoted "<<" */
function isMergeKey(key: unknown): boolean {
  return isScalar(key) && typeof key.value === 'symbol';
}

function entry(
  pairs: readonly { key: unknown; value: unknown }[],
  line: number,
  i: number,
  defaults: { model: 'tree' | 'table'; database: string },
  lineOf: (node: Node | null | undefined) => number,
  fail: (line: number, why: string) => never,
): QueryFileEntry {
  const at: Partial<Record<Key, { value: string | number | boolean; line: number }>> = {};
  for (const pair of pairs) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    const line = lineOf(pair.key as Node);
    if (!(KEYS as readonly string[]).includes(key)) {
      const near = nearestName(key, KEYS);
      fail(
        line,
        `unknown key "${key}" (${near === undefined ? '' : `did you mean ${near}?; `}known: ${KEYS.join(', ')})`,
      );
    }
    const value = isScalar(pair.value) ? pair.value.value : undefined;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
      return fail(line, `${key} needs a value`);
    at[key as Key] = { value, line };
  }
  const sql = at.sql?.value;
  if (typeof sql !== 'string' || sql.trim() === '')
    return fail(at.sql?.line ?? line, `entry ${i + 1} needs "sql:", a statement`);
  const count = (key: 'concurrency' | 'repetitions', max = Number.MAX_SAFE_INTEGER, why = ''): number => {
    const v = at[key];
    if (v === undefined) return 1;
    const n = typeof v.value === 'number' ? v.value : Number(v.value);
    if (Number.isSafeInteger(n) && n >= 1 && n <= max) return n;
    const range = max === Number.MAX_SAFE_INTEGER ? '>= 1' : `from 1 to ${max}${why}`;
    return fail(v.line, `${key} needs an integer ${range}, got ${JSON.stringify(v.value)}`);
  };
  const model = at.model?.value ?? defaults.model;
  if (model !== 'tree' && model !== 'table')
    return fail(at.model!.line, `model needs tree or table, got ${JSON.stringify(model)}`);
  const forEach = at.forEach === undefined ? undefined : forEachQuery(sql, at.forEach, fail);
  return {
    label: String(at.label?.value ?? `query ${i + 1}`),
    sql: sql.trim(),
    // refused here rather than when the statement's turn comes, by the pool its sessions are taken from
    concurrency: count('concurrency', MAX_POOL_SIZE, ' (a session each: a connection)'),
    repetitions: count('repetitions'),
    model,
    database: String(at.database?.value ?? defaults.database),
    ...(forEach !== undefined && { forEach }),
    line,
  };
}

/** forEach's query: one that only reads, for a statement with a {column} placeholder to fill from its rows. */
function forEachQuery(
  sql: string,
  given: { value: string | number | boolean; line: number },
  fail: (line: number, why: string) => never,
): string {
  const query = String(given.value).trim();
  if (!readOnly(query))
    return fail(given.line, `forEach needs a query (SHOW DEVICES ..., SELECT ...), got ${JSON.stringify(query)}`);
  if (placeholders(sql).length === 0)
    return fail(given.line, 'forEach needs a {column} placeholder in sql: (e.g. SELECT LAST s0 FROM {Device})');
  return query;
}
