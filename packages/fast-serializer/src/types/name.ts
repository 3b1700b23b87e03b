import { IoTDBValidationError } from '../errors.js';
import { describe } from './describe.js';
import { nodeNameProblem } from './node-name.js';
import { unquoted } from './device-path.js';

/** A name a request carries (a device, a table, a measurement or column): a non-empty string. */
export function checkName(field: string, v: unknown): asserts v is string {
  if (typeof v !== 'string' || v.length === 0) {
    throw new IoTDBValidationError(field, `needs a non-empty string, got ${describe(v)}`);
  }
}

/** A tree measurement's or a table column's name: a non-empty string IoTDB takes as such (columnNameProblem). */
export function checkColumnName(field: string, v: unknown, table: boolean): asserts v is string {
  checkName(field, v);
  const problem = columnNameProblem(v, table);
  if (problem !== undefined) throw new IoTDBValidationError(field, problem);
}

/**
 * Why IoTDB (2.0.1-beta, probed) refuses `name` as a tree measurement (nodeNameProblem) or a table column, if it
 * does. A table column may be named anything but `time`, in any case: the table's own time column ([507] "Columns in
 * table shall not share the same name time", the whole request refused).
 */
export function columnNameProblem(name: string, table: boolean): string | undefined {
  if (!table) return nodeNameProblem(name);
  return name.length === 4 && name.toLowerCase() === 'time'
    ? `${JSON.stringify(name)} is the table's time column (IoTDB folds names to lower case): its values go in timestamps`
    : undefined;
}

/**
 * The name IoTDB reads `name` as, to find two spellings of one column: a table's in lower case (it folds them), a tree
 * measurement's without its backquotes (`` `s1` `` is s1, `` `a``b` `` is a`b; the server refused a request naming
 * both s1 and `` `s1` ``, [701]).
 */
export function serverName(name: string, table: boolean): string {
  return table ? name.toLowerCase() : unquoted(name);
}

/** Why a column's name is refused beside `first`, another spelling of the same one (serverName). */
export function sameColumnAs(first: string, table: boolean): string {
  return table
    ? `the same column as "${first}" (table names are case-insensitive)`
    : `the same measurement as "${first}" (a name in backquotes is the name inside them)`;
}

/**
 * Each name valid and given once as the server reads it (serverName): IoTDB folds a table's identifiers to lower case,
 * and of two columns that differ in case alone it would keep one's values (a field) or refuse the tablet (a tag); a
 * tree measurement in backquotes is the one without them (the tablet refused, [701]).
 */
export function checkColumnNames(names: readonly string[], field: string, table: boolean): void {
  const seen = new Map<string, string>();
  names.forEach((m, i) => {
    checkColumnName(`${field}[${i}]`, m, table);
    const key = serverName(m, table);
    const first = seen.get(key);
    if (first === m) throw new IoTDBValidationError(`${field}[${i}]`, `duplicate name "${m}"`);
    if (first !== undefined)
      throw new IoTDBValidationError(`${field}[${i}]`, `duplicate name "${m}": ${sameColumnAs(first, table)}`);
    seen.set(key, m);
  });
}
