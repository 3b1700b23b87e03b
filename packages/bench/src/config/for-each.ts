/**
 * A query-file statement with `forEach:`: the statement once per row of the forEach query's answer, each
 * `{column}` placeholder replaced by that row's value of the column (named as the server names it, in any case),
 * as taosBenchmark's super-table queries run theirs once per child table (its `xxxx`). `forEach: SHOW DEVICES
 * root.bench.**` with `SELECT LAST s0 FROM {Device}` reads each device's latest point; in the table model
 * `forEach: SHOW DEVICES FROM t` with `... WHERE device_id = '{device_id}'`. Values go in as the server gave them,
 * unquoted and unescaped: the statement's own quotes are around them.
 */

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

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
 * gives none (counted in `skipped`: no text stands for null in every place a placeholder can be). Throws when a
 * placeholder names no column of the answer.
 */
export function statementsOver(sql: string, answer: ForEachRows): { statements: string[]; skipped: number } {
  const lower = answer.columns.map((name) => name.toLowerCase());
  const at = new Map(
    placeholders(sql).map((name) => {
      const k = lower.indexOf(name.toLowerCase());
      if (k < 0)
        throw new Error(`{${name}} names no column of forEach's answer (its columns: ${answer.columns.join(', ')})`);
      return [name, k] as const;
    }),
  );
  const statements: string[] = [];
  let skipped = 0;
  for (const row of answer.rows) {
    if ([...at.values()].some((k) => row[k] === null)) skipped++;
    else statements.push(sql.replace(PLACEHOLDER, (_, name: string) => row[at.get(name)!]!));
  }
  return { statements, skipped };
}

/**
 * Each session's statements: every session the one statement of an entry without forEach; forEach's statements
 * dealt out in turn (session k the k-th, the (k + concurrency)-th, ...), as taosBenchmark shares the child tables
 * among its threads. A session reads its statements in order, `repetitions` times over.
 */
export function sessionShares(statements: readonly string[], concurrency: number, forEach: boolean): string[][] {
  if (!forEach) return Array.from({ length: concurrency }, () => [...statements]);
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
