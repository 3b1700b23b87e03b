/**
 * What a table-model SELECT of one table sets its WHERE's columns equal to, at the top level of a conjunction
 * (`device_id = 'd1'` of `... WHERE device_id = 'd1' AND time > 10`): with every TAG of the table among them, it
 * reads one device. Names are lower case (IoTDB's are case-insensitive).
 */
export interface TableSelect {
  /** the database the FROM names (`db.t`), undefined when it names the table alone */
  readonly database: string | undefined;
  readonly table: string;
  /** column -> the string the WHERE sets it equal to */
  readonly equal: ReadonlyMap<string, string>;
}

/** longer statements are not looked at: a query of one device is short (and the patterns' cost grows with the length) */
const MAX_LENGTH = 1000;
/** string literals and quoted names: each masked as its index between two control characters before the rest is looked at */
const QUOTED = /'(?:[^']|'')*'|"(?:[^"]|"")*"/g;
const LITERAL = '\u0001';
const QUOTED_NAME = '\u0002';
const NAME = `[a-z_]\\w*|${QUOTED_NAME}\\d+${QUOTED_NAME}`;
/** one table after FROM, a WHERE, then only a query's clauses */
const SELECT = new RegExp(
  `^\\s*select\\s[\\s\\S]*?\\sfrom\\s+(${NAME})(?:\\.(${NAME}))?\\s+where\\s([\\s\\S]+?)` +
    `(?:\\s(?:group|order|limit|offset|fill|having)\\s[\\s\\S]*)?;?\\s*$`,
  'i',
);
const EQUAL = new RegExp(`^(${NAME})\\s*=\\s*${LITERAL}(\\d+)${LITERAL}$`, 'i');
const PARENTHESISED = /\([^()]*\)/g;
/** what is not looked into: a stray quote, a comment, a second SELECT (a subquery, a union) */
const UNCLEAR = /['"`]|--|\/\*|\bselect\b[\s\S]*\bselect\b/i;

/**
 * The table a SELECT reads and what its WHERE sets equal at its top level; undefined for any other statement, a
 * query of several tables (a join, a subquery, a union) or one with a top-level OR. Looked at by what it may hold,
 * not parsed (a comment, a stray quote: undefined): where the query goes depends on it, never what it answers.
 */
export function tableSelectOf(sql: string): TableSelect | undefined {
  if (sql.length > MAX_LENGTH || sql.includes(LITERAL) || sql.includes(QUOTED_NAME)) return undefined;
  const quoted: string[] = [];
  const masked = sql.replace(QUOTED, (q) => {
    const [mark, body, doubled] = [q[0] === "'" ? LITERAL : QUOTED_NAME, q.slice(1, -1), q[0] + q[0]];
    return mark + (quoted.push(body.includes(doubled) ? body.replaceAll(doubled, q[0]) : body) - 1) + mark;
  });
  if (UNCLEAR.test(masked)) return undefined;
  const m = SELECT.exec(masked);
  if (m === null) return undefined;
  const name = (n: string) => (n[0] === QUOTED_NAME ? quoted[Number(n.slice(1, -1))] : n).toLowerCase();
  const where = topLevel(m[3]);
  if (where === undefined || /\bor\b/i.test(where)) return undefined;
  const equal = new Map<string, string>();
  for (const term of where.split(/\band\b/i)) {
    const eq = EQUAL.exec(term.trim());
    if (eq === null) continue;
    const column = name(eq[1]);
    const value = quoted[Number(eq[2])];
    if ((equal.get(column) ?? value) !== value) return undefined; // no row: any node answers it as fast
    equal.set(column, value);
  }
  return m[2] === undefined
    ? { database: undefined, table: name(m[1]), equal }
    : { database: name(m[1]), table: name(m[2]), equal };
}

/** `where` with its parentheses and what they hold taken out (`a = 1 AND (b OR c)` -> `a = 1 AND #`); undefined if unbalanced. */
function topLevel(where: string): string | undefined {
  let s = where;
  for (let before = ''; before !== s;) [before, s] = [s, s.replace(PARENTHESISED, '#')];
  return /[()]/.test(s) ? undefined : s;
}
