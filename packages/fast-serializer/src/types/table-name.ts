import { IoTDBValidationError } from '../errors.js';
import { checkName } from './name.js';

/**
 * A table name a write may carry: a non-empty string without whitespace. IoTDB (2.0.1-beta) reads the table name of
 * a write request as a path, and one with whitespace is not refused but stored elsewhere: rows for "My Table" went
 * into a table "root.ble", for " t" into "t", for "x y z" into "root.", and for "timestamp" (any case) into
 * "root.tamp". Checked before sending; a table with whitespace is written with SQL (`INSERT INTO "My Table" ...`).
 * Other names are the server's to check ("a-b", "123": [509]).
 */
export function checkTableName(field: string, v: unknown): void {
  checkName(field, v);
  if (/\s/.test(v)) {
    throw new IoTDBValidationError(
      field,
      `needs a name without whitespace: IoTDB reads a written table's name as a path and stores the rows of one with whitespace in another table ("My Table" in "root.ble"); got ${JSON.stringify(v)}`,
    );
  }
  const problem = v.length === 4 || v.length === 9 ? keptNameProblem(v) : undefined;
  if (problem !== undefined) throw new IoTDBValidationError(field, problem);
}

/** The time column's words as a table's name: `timestamp` written elsewhere, unrefused; `time` refused ([509]). */
function keptNameProblem(name: string): string | undefined {
  const lower = name.toLowerCase();
  if (lower === 'timestamp')
    return `${JSON.stringify(name)} is not a table name IoTDB keeps: it stores the rows of a table named timestamp, in any case, in a table "root.tamp" (2.0.1-beta); choose another name`;
  if (lower === 'time')
    return `${JSON.stringify(name)} is not a legal table name in IoTDB ([509]: time names the time column)`;
  return undefined;
}
