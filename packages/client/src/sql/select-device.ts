import { PATH_NODE, isPattern } from './escape.js';

/**
 * A tree-model SELECT of one device: plain names in its select list (no path, no quote, no `**`, no INTO), one
 * path without a wildcard after FROM, then only the clauses of a query. The select list and the path are checked
 * by what they may hold, not parsed: whatever else is written is taken as not known to read one device.
 */
const SELECT = new RegExp(
  `^\\s*select\\s+([\\w(),*\`]+(?:\\s+[\\w(),*\`]+)*?)\\s+from\\s+(root(?:\\.(?:${PATH_NODE}))+)(\\s[\\s\\S]*|;\\s*)?$`,
  'i',
);
/** longer statements are not looked at: a query of one device is short (and the pattern's cost grows with the length) */
const MAX_LENGTH = 1000;
const CLAUSES = /^\s*(?:(?:where|group|order|limit|offset|slimit|soffset|fill|align|having)\b[^;]*)?;?\s*$/i;

/**
 * The device a tree SELECT reads when it reads one (`root.sg.d1` of `SELECT s0 FROM root.sg.d1 WHERE ...`), as a
 * write names it; undefined when it may read more, or is not such a SELECT. Where the query goes depends on it,
 * never what it answers.
 */
export function deviceOfSelect(sql: string): string | undefined {
  if (sql.length > MAX_LENGTH) return undefined;
  const m = SELECT.exec(sql);
  if (m === null || m[1].includes('**') || isPattern(m[2]) || /\binto\b/i.test(m[1])) return undefined;
  return CLAUSES.test(m[3] ?? '') ? m[2] : undefined;
}
