/**
 * A query-file statement with `forEach:`: the statement once per row of the forEach query's answer, each
 * `{column}` placeholder replaced by that row's value of the column (named as the server names it, in any case),
 * as taosBenchmark's super-table queries run theirs once per child table (its `xxxx`). `forEach: SHOW DEVICES
 * root.bench.**` with `SELECT LAST s0 FROM {Device}` reads each device's latest point; in the table model
 * `forEach: SHOW DEVICES FROM t` with `... WHERE device_id = '{device_id}'`. The statement's own quotes go around
 * a value where SQL needs them; inside them the value's quotes of that kind are doubled, so it stays one literal.
 */
import { ConfigError } from './errors.js';

/**
 * `{column}`: a column as the server names it, in any script (`{设备}`, `{TTL(ms)}`, `{count(root.sg.d.s0)}`): a letter
 * or `_` first (`{3}` is a regular expression's repetition), then no blank, quote or brace.
 */
const PLACEHOLDER = /\{([\p{L}_][^\s{}'"`]*)\}/gu;
/** A placeholder starting exactly where lastIndex says. */
const PLACEHOLDER_HERE = new RegExp(PLACEHOLDER.source, 'yu');
/** IoTDB SQL's quotes: string literals ('...', and "..." in the tree model), quoted identifiers (`...`, "..."). */
const QUOTES = new Set(["'", '"', '`']);

/** The column names a statement's placeholders name, each once, in order. */
export function placeholders(sql: string): string[] {
  return [...new Set([...sql.matchAll(PLACEHOLDER)].map((m) => m[1]))];
}

/** What the forEach query answered: its column names and rows, each cell as text (null for a null cell). */
export interface ForEachRows {
  columns: readonly string[];
  rows: readonly (readonly (string | null)[])[];
}

/**
 * The statements `sql` stands for over `answer`'s rows, in their order; a row with a null where a placeholder reads
 * gives none (counted in `skipped`: no text stands for null in every place a placeholder can be). Throws
 * ConfigError when a placeholder names no column of the answer.
 */
export function statementsOver(sql: string, answer: ForEachRows): { statements: string[]; skipped: number } {
  const lower = answer.columns.map((name) => name.toLowerCase());
  const at = new Map(
    placeholders(sql).map((name) => {
      const k = lower.indexOf(name.toLowerCase());
      if (k < 0)
        throw new ConfigError(
          'queryFile',
          `{${name}} names no column of forEach's answer (its columns: ${answer.columns.join(', ')})`,
        );
      return [name, k] as const;
    }),
  );
  const statements: string[] = [];
  let skipped = 0;
  for (const row of answer.rows) {
    if ([...at.values()].some((k) => row[k] === null)) skipped++;
    else statements.push(fillIn(sql, (name) => row[at.get(name)!]!));
  }
  return { statements, skipped };
}

/**
 * `sql` with each placeholder replaced by `valueOf(its name)`: as given outside quotes (a path the server gave,
 * backquoted where it needs to be), its quotes of that kind doubled inside a quoted literal or identifier (SQL's
 * escape) so that `'{device_id}'` stays one literal whatever the tag's value holds.
 */
function fillIn(sql: string, valueOf: (name: string) => string): string {
  let out = '';
  let quote: string | null = null;
  for (let i = 0; i < sql.length;) {
    PLACEHOLDER_HERE.lastIndex = i;
    const placeholder = sql[i] === '{' ? PLACEHOLDER_HERE.exec(sql) : null;
    if (placeholder !== null) {
      const value = valueOf(placeholder[1]);
      out += quote === null ? value : value.replaceAll(quote, quote + quote);
      i += placeholder[0].length;
      continue;
    }
    const ch = sql[i];
    // a doubled quote inside its own quotes is an escaped one: the literal goes on
    const step = ch === quote && sql[i + 1] === quote ? 2 : 1;
    if (step === 1 && QUOTES.has(ch)) quote = quote === null ? ch : ch === quote ? null : quote;
    out += sql.slice(i, i + step);
    i += step;
  }
  return out;
}

/** An entry without forEach: every one of its `concurrency` sessions reads its one statement. */
export function everySession(sql: string, concurrency: number): string[][] {
  return Array.from({ length: concurrency }, () => [sql]);
}

/**
 * forEach's statements dealt out to the sessions in turn (session k the k-th, the (k + concurrency)-th, ...), as
 * taosBenchmark shares the child tables among its threads; no more sessions than statements. A session reads its
 * statements in order, `repetitions` times over.
 */
export function dealStatements(statements: readonly string[], concurrency: number): string[][] {
  const shares = Array.from({ length: Math.min(concurrency, statements.length) }, () => [] as string[]);
  statements.forEach((sql, i) => shares[i % shares.length].push(sql));
  return shares;
}

/** The reads of all sessions: each reads its statements `repetitions` times over. */
export function plannedReads(shares: readonly (readonly string[])[], repetitions: number): number {
  return repetitions * statementCount(shares);
}

/** The statements dealt out (with forEach: how many it stood for). */
export function statementCount(shares: readonly (readonly string[])[]): number {
  return shares.reduce((n, share) => n + share.length, 0);
}
