import { IoTDBValidationError } from '../errors.js';
import { describe } from './describe.js';
import { nodeNameProblem } from './node-name.js';

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
