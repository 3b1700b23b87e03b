import { IoTDBValidationError } from '../errors.js';
import { checkName } from './name.js';

/**
 * A table name a write may carry: a non-empty string without whitespace. IoTDB (2.0.1-beta) reads the table name of
 * a write request as a path, and one with whitespace is not refused but stored elsewhere: rows for "My Table" went
 * into a table "root.ble", for " t" into "t", for "x y z" into "root.". Checked before sending; such a table is
 * written with SQL (`INSERT INTO "My Table" ...`).
 */
export function checkTableName(field: string, v: unknown): void {
  checkName(field, v);
  if (/\s/.test(v)) {
    throw new IoTDBValidationError(
      field,
      `needs a name without whitespace: IoTDB reads a written table's name as a path and stores the rows of one with whitespace in another table ("My Table" in "root.ble"); got ${JSON.stringify(v)}`,
    );
  }
}
