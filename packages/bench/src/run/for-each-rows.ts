import { Session, TableSession, type ColumnarResult } from '@iotdb/client';
import { dealStatements, everySession, statementsOver, type ForEachRows } from '../config/for-each.js';
import { plural } from '../config/format.js';
import type { QueryFileEntry } from '../config/query-file.js';
import type { BenchConfig } from '../types.js';
import { describeError } from './run-error.js';
import { queryOptions, sessionOptions } from './session-options.js';

/** What a query-file entry reads: each session's statements, and what the console says of forEach's answer. */
type EntryStatements = { shares: string[][]; note?: string } | { error: string };

/**
 * The statements of a query-file entry, dealt to its sessions (config/for-each.ts): its sql for every session, or
 * with forEach, forEach's query run once, untimed, on a session of the entry's model and the sql over its rows.
 * Each side of a --vs-java run asks at the statement's turn, so that both read what the statements before it left.
 */
export async function entryStatements(
  c: BenchConfig,
  e: QueryFileEntry,
  target: { host: string; port: number },
): Promise<EntryStatements> {
  if (e.forEach === undefined) return { shares: everySession(e.sql, e.concurrency) };
  let answer: ForEachRows;
  let over: ReturnType<typeof statementsOver>;
  try {
    answer = await forEachAnswer(c, e, e.forEach, target);
    over = statementsOver(e.sql, answer);
  } catch (err) {
    return { error: `forEach ${e.forEach}: ${describeError(err)}` };
  }
  const { statements, skipped } = over;
  if (statements.length === 0)
    return {
      error: `forEach ${e.forEach}: ${answer.rows.length} rows, none to fill the statement's placeholders from`,
    };
  const shares = dealStatements(statements, e.concurrency);
  const nulls =
    skipped > 0 ? ` (${skipped} of ${answer.rows.length} rows left out: null where a placeholder reads)` : '';
  const note = `forEach: ${plural(statements.length, 'statement')}${nulls}, dealt to ${plural(shares.length, 'session')}`;
  return { shares, note };
}

async function forEachAnswer(
  c: BenchConfig,
  e: QueryFileEntry,
  query: string,
  target: { host: string; port: number },
): Promise<ForEachRows> {
  const options = sessionOptions(c, target);
  const session = e.model === 'table' ? new TableSession({ ...options, database: e.database }) : new Session(options);
  try {
    await session.open();
    return asText(await (await session.executeQueryStatement(query, queryOptions(c))).toColumnar());
  } finally {
    await session.close().catch(() => undefined);
  }
}

/** The answer's cells as text, as a statement would quote them (BLOBs as hex). */
function asText(c: ColumnarResult): ForEachRows {
  const cell = (k: number, r: number): string | null => {
    if (c.nulls[k]?.[r] === 1) return null;
    const v = c.values[k][r];
    return Buffer.isBuffer(v) ? v.toString('hex') : String(v);
  };
  const rows = Array.from({ length: c.rowCount }, (_, r) => c.columnNames.map((_, k) => cell(k, r)));
  return { columns: c.columnNames, rows };
}
