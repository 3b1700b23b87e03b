import { IoTDBValidationError, isArray, notWellFormed } from '@iotdb/fast-serializer';
import { checkList, checkString } from '../config/checks.js';

/**
 * One node of a tree-model path, quoted as IoTDB quotes them: in backquotes, a backquote inside doubled. The result
 * is always one node, whatever `name` holds (dots, spaces, quotes). The table model refuses backquotes
 * (escapeTableIdentifier).
 */
export function escapeIdentifier(name: string): string {
  checkString('name', name);
  return '`' + name.replaceAll('`', '``') + '`';
}

/**
 * A table-model identifier (a database, table or column), quoted as that dialect quotes them: in double quotes, a
 * double quote inside doubled (IoTDB 2.0 answers a backquoted one "backquoted identifiers are not supported").
 */
export function escapeTableIdentifier(name: string): string {
  checkString('name', name);
  return '"' + name.replaceAll('"', '""') + '"';
}

/**
 * A string literal: in single quotes, a single quote inside doubled, nothing else changed (a backslash
 * is an ordinary character in IoTDB strings). A string UTF-8 cannot carry (a lone surrogate) is refused: the
 * statement would hold U+FFFD in its place.
 */
export function escapeString(value: string): string {
  if (typeof value !== 'string') throw new IoTDBValidationError('value', `needs a string, got ${typeof value}`);
  const malformed = notWellFormed(value);
  if (malformed !== undefined) throw new IoTDBValidationError('value', malformed);
  return "'" + value.replaceAll("'", "''") + "'";
}

/** A backquoted node (`` `a.b` ``, a backquote inside doubled), as a pattern's source: its stars are characters. */
const QUOTED_NODE = /`(?:[^`]|``)+`/.source;
/** One node of a path: a plain word (wildcards `*` included) or backquoted, as a pattern's source. */
export const PATH_NODE = `${QUOTED_NODE}|${/[^\s.`'"();,=]+/.source}`;
/** A path as IoTDB's grammar takes it: `root`, then nodes. */
const PATH = new RegExp(`^root(\\.(${PATH_NODE}))*$`);

const QUOTED_NODES = new RegExp(QUOTED_NODE, 'g');

/** Whether a path is a pattern: a `*` outside backquotes (`` root.sg.`d*` `` is one device, written and read as itself). */
export function isPattern(path: string): boolean {
  return path.includes('*') && path.replace(QUOTED_NODES, '').includes('*');
}

/**
 * `path` when it is one path of IoTDB's grammar (nothing that could end it or start another clause), else
 * IoTDBValidationError; without `wildcard`, a path that is no pattern (a `*` only inside backquotes).
 */
export function checkPath(path: unknown, field: string, wildcard = false): string {
  if (typeof path !== 'string' || !PATH.test(path) || (!wildcard && isPattern(path))) {
    throw new IoTDBValidationError(
      field,
      `needs a path like root.sg.d1 (quote special nodes with backquotes), got ${JSON.stringify(path)}`,
    );
  }
  return path;
}

/** A non-empty array of paths, each checked as checkPath (`noun`: what the error calls one). */
export function checkPathList(paths: readonly string[], field: string, wildcard: boolean, noun = 'path'): string[] {
  return checkList(field, paths, noun).map((p, i) => checkPath(p, `${field}[${i}]`, wildcard));
}

/** Text to put in a `sql` template as it is: an identifier (`sql.id`) or a checked path (`sql.path`). */
export class SqlFragment {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

export type SqlValue = string | number | bigint | boolean | null | undefined | SqlFragment | readonly SqlValue[];

/**
 * A statement with every interpolated value escaped, so that a value never breaks out of it:
 * strings become literals (`escapeString`), numbers and bigints stay numbers (finite only), booleans
 * `true`/`false`, null and undefined `null`, arrays their elements joined by `, `, and `sql.id(name)` an
 * identifier (`escapeIdentifier`), `sql.path(p)` a path checked against the path grammar.
 *
 * ```ts
 * await session.executeNonQueryStatement(sql`INSERT INTO root.sg.${sql.id(device)}(time, note) VALUES (${t}, ${note})`);
 * ```
 */
export function sql(strings: TemplateStringsArray, ...values: readonly SqlValue[]): string {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += literal(values[i], `values[${i}]`) + strings[i + 1];
  return out;
}

/** A tree path's node for a `sql` template (`escapeIdentifier`). */
sql.id = (name: string): SqlFragment => new SqlFragment(escapeIdentifier(name));
/** A table-model identifier for a `sql` template (`escapeTableIdentifier`). */
sql.tableId = (name: string): SqlFragment => new SqlFragment(escapeTableIdentifier(name));
/** A path for a `sql` template, as it is once checked against the path grammar (`root.sg.d1`, `` root.sg.`a b` ``). */
sql.path = (path: string): SqlFragment => new SqlFragment(checkPath(path, 'path', true));

function literal(v: SqlValue, field: string): string {
  if (v === null || v === undefined) return 'null';
  if (v instanceof SqlFragment) return v.text;
  if (isArray(v)) return v.map((x, i) => literal(x, `${field}[${i}]`)).join(', ');
  switch (typeof v) {
    case 'string':
      return escapeString(v);
    case 'bigint':
      return v.toString();
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(v)) throw new IoTDBValidationError(field, `needs a finite number, got ${v}`);
      return Object.is(v, -0) ? '-0' : String(v); // String(-0) is '0'; IoTDB keeps -0's sign when it reads '-0'
  }
  if ((v as unknown) instanceof Date) {
    throw new IoTDBValidationError(
      field,
      "cannot go into SQL: a Date (its time is in the server's unit, which the tag does not know: give a number or bigint in that unit, e.g. date.getTime() for milliseconds)",
    );
  }
  throw new IoTDBValidationError(
    field,
    `cannot go into SQL: ${Object.prototype.toString.call(v)} (use a string, number, bigint, boolean, null, array, sql.id() or sql.path())`,
  );
}
