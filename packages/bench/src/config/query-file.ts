/**
 * `--query-file`: a YAML or JSON list of statements, each with its own concurrency and repetitions, as
 * taosBenchmark's query files. The list is the file itself or its `queries:` key:
 *
 * ```yaml
 * - label: last week, one device
 *   sql: SELECT avg(s1) FROM root.bench.d000 WHERE time > now() - 7d
 *   concurrency: 4        # sessions running it at once (default 1)
 *   repetitions: 100      # runs per session (default 1)
 * - sql: SELECT count(*) FROM t
 *   model: table          # tree (default: the run's --model) or table
 *   database: bench       # table model database (default: the run's --database)
 * ```
 *
 * Errors name the file and line. JSON is read by the same YAML 1.2 parser, so it gets lines too.
 */
import { readFileSync } from 'node:fs';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type YAMLMap } from 'yaml';
import { ConfigError } from './errors.js';

export interface QueryFileEntry {
  label: string;
  sql: string;
  concurrency: number;
  repetitions: number;
  model: 'tree' | 'table';
  database: string;
  /** where it is in the file */
  line: number;
}

const KEYS = ['label', 'sql', 'concurrency', 'repetitions', 'model', 'database'] as const;
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
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
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
  const entries = list.items.map((item, i) => {
    if (!isMap(item))
      return fail(
        lineOf(item as Node),
        `entry ${i + 1} needs "sql:" and optional label, concurrency, repetitions, model, database`,
      );
    return entry(item, i, defaults, lineOf, fail);
  });
  entries.forEach((e, i) => {
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

/** The label of the Java client's run (`--vs-java`) of the statement labelled `label`. */
export function javaStatementLabel(label: string): string {
  return `java ${label}`;
}

function entry(
  item: YAMLMap,
  i: number,
  defaults: { model: 'tree' | 'table'; database: string },
  lineOf: (node: Node | null | undefined) => number,
  fail: (line: number, why: string) => never,
): QueryFileEntry {
  const at: Partial<Record<Key, { value: string | number | boolean; line: number }>> = {};
  for (const pair of item.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    const line = lineOf(pair.key as Node);
    if (!(KEYS as readonly string[]).includes(key)) fail(line, `unknown key "${key}" (known: ${KEYS.join(', ')})`);
    const value = isScalar(pair.value) ? pair.value.value : undefined;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
      return fail(line, `${key} needs a value`);
    at[key as Key] = { value, line };
  }
  const line = lineOf(item);
  const sql = at.sql?.value;
  if (typeof sql !== 'string' || sql.trim() === '')
    return fail(at.sql?.line ?? line, `entry ${i + 1} needs "sql:", a statement`);
  const count = (key: 'concurrency' | 'repetitions'): number => {
    const v = at[key];
    if (v === undefined) return 1;
    const n = typeof v.value === 'number' ? v.value : Number(v.value);
    return Number.isSafeInteger(n) && n >= 1
      ? n
      : fail(v.line, `${key} needs an integer >= 1, got ${JSON.stringify(v.value)}`);
  };
  const model = at.model?.value ?? defaults.model;
  if (model !== 'tree' && model !== 'table')
    return fail(at.model!.line, `model needs tree or table, got ${JSON.stringify(model)}`);
  return {
    label: String(at.label?.value ?? `query ${i + 1}`),
    sql: sql.trim(),
    concurrency: count('concurrency'),
    repetitions: count('repetitions'),
    model,
    database: String(at.database?.value ?? defaults.database),
    line,
  };
}
