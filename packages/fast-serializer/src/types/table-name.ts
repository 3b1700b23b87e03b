import { IoTDBValidationError } from '../errors.js';
import { checkName } from './name.js';
import { nodeNameProblem } from './node-name.js';

/**
 * A table name a write may carry: one IoTDB (2.0.1-beta) keeps as given. It reads the table name of a write request
 * as a path, and stores the rows of a name that is not one in another table, unrefused: "My Table" went into a table
 * "root.ble", " t" into "t", "123456" into "root.6" (isKeptTableName). Checked before sending; a table with such a
 * name is written with SQL (`INSERT INTO "My Table" ...`). A name with a `*` is refused however it is written: IoTDB
 * keeps it, then reads the `*` as a wildcard where it looks up the table's devices.
 */
export function checkTableName(field: string, v: unknown): void {
  checkName(field, v);
  if (/\s/.test(v)) {
    throw new IoTDBValidationError(
      field,
      `needs a name without whitespace: IoTDB reads a written table's name as a path and stores the rows of one with whitespace in another table ("My Table" in "root.ble"); got ${JSON.stringify(v)}`,
    );
  }
  if (v.includes('*')) {
    throw new IoTDBValidationError(
      field,
      `${JSON.stringify(v)} holds a *, which IoTDB reads as a wildcard where it looks up the table's devices (SHOW DEVICES FROM "*" listed every table's devices, SELECT * FROM "a$*" none of its rows); name the table without one`,
    );
  }
  if (!isKeptTableName(v)) {
    throw new IoTDBValidationError(
      field,
      `${JSON.stringify(v)} is not a table name IoTDB keeps as given: 2.0.1-beta reads a written table's name as a path, and refuses one that is not ("a-b") or stores its rows in another table ("abcdef-g" in "root.f-g"); use letters, digits, _, :, @, #, $, {, } and CJK characters, not a number, time, timestamp or root, or write such a table with SQL`,
    );
  }
}

/**
 * Whether IoTDB (2.0.1-beta) keeps a written table's name as given. It reads the name as a path of dot-separated
 * parts, each a device's level (nodeNameProblem), `root` only as the first part (a `*` is refused before); a name
 * that is not one it refuses ([509]) or, from five characters on, turns into "root." and the name past its fifth
 * character ("123456" into "root.6"). Backquotes are refused too: it kept "`w`" as w and "`q-r`" as it is. A name
 * `root.x` it keeps whatever x is. Checked against the server on generated names (node-names.integration.test.ts).
 */
function isKeptTableName(name: string): boolean {
  const parts = name.split('.');
  if (parts.length === 2 && parts[0].toLowerCase() === 'root') return true;
  return !name.includes('`') && parts.every(isKeptPart);
}

function isKeptPart(part: string, i: number): boolean {
  if (part.toLowerCase() === 'root') return i === 0;
  return nodeNameProblem(part, 'level') === undefined;
}
