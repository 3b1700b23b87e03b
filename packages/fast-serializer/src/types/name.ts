import { IoTDBValidationError } from '../errors.js';
import { describe } from './describe.js';

/** A name a request carries (a device, a table, a measurement or column): a non-empty string. */
export function checkName(field: string, v: unknown): asserts v is string {
  if (typeof v !== 'string' || v.length === 0) {
    throw new IoTDBValidationError(field, `needs a non-empty string, got ${describe(v)}`);
  }
}

/** A tree measurement's or a table column's name: a non-empty string IoTDB takes as such (reservedNameProblem). */
export function checkColumnName(field: string, v: unknown, table: boolean): asserts v is string {
  checkName(field, v);
  const problem = reservedNameProblem(v, table);
  if (problem !== undefined) throw new IoTDBValidationError(field, problem);
}

/**
 * Why IoTDB (2.0.1-beta, probed) refuses `name` as a tree measurement or a table column, if it does. A tree
 * measurement may not be `time` or `timestamp`, in any case and backquoted too ([509] "time is not a legal path"),
 * nor an unquoted `root`; a table column may not be `time` in any case, the table's own time column ([507] "Columns
 * in table shall not share the same name time"). The server refuses the whole request, every other column's values
 * with it (a batching writer's device or table): refused here, the row that named it alone.
 */
export function reservedNameProblem(name: string, table: boolean): string | undefined {
  if (!RESERVED_LENGTHS.has(name.length)) return undefined; // most names: no lower-case copy made
  const lower = name.toLowerCase();
  if (table)
    return lower === 'time'
      ? `${JSON.stringify(name)} is the table's time column (IoTDB folds names to lower case): its values go in timestamps`
      : undefined;
  const bare = lower.length > 2 && lower[0] === '`' && lower.endsWith('`') ? lower.slice(1, -1) : lower;
  if (bare === 'time' || bare === 'timestamp')
    return `${JSON.stringify(name)} is not a legal measurement name: IoTDB keeps time and timestamp (in any case, backquoted too) for the time column`;
  if (lower === 'root')
    return `${JSON.stringify(name)} is not a legal measurement name: it names the root of the tree (backquoted, \`root\`, it is taken)`;
  return undefined;
}

/** The lengths of time, root, timestamp and the backquoted two. */
const RESERVED_LENGTHS = new Set([4, 6, 9, 11]);
