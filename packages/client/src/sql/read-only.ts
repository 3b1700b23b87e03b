/** Leading whitespace and comments (`-- ...` to the line's end, `/* ... *\/`): what comes before a statement's verb. */
const LEADING = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/;

/** The verbs of statements that read and change nothing (EXPLAIN runs the query it explains, which reads). */
const READ_VERB = /^(?:SELECT|SHOW|DESCRIBE|DESC|LIST|COUNT|EXPLAIN|WITH)\b/i;

/**
 * Whether `sql` only reads: a query, SHOW, DESCRIBE, COUNT, ... without INTO anywhere (`SELECT ... INTO` writes its
 * rows). Such a statement may be sent again after its connection broke, as a write is: done twice, it changes
 * nothing. A statement it cannot tell (INTO in a string, a verb it does not know) counts as one that may write.
 */
export function isReadOnlySql(sql: string): boolean {
  const rest = sql.slice(LEADING.exec(sql)?.[0].length ?? 0);
  return READ_VERB.test(rest) && !/\bINTO\b/i.test(rest);
}
