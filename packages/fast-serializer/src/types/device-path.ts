import { IoTDBValidationError } from '../errors.js';
import { checkName } from './name.js';

/**
 * A tree-model device path as the server takes it: a string under `root.` (it trims leading spaces). Checked
 * before sending because the server answers a path outside root with 301 EXECUTE_STATEMENT_ERROR ("Path does not
 * exist", "root is not a legal path"), the code a restarting DataNode answers too, which writes try again.
 */
export function checkDevicePath(field: string, v: unknown): void {
  checkName(field, v);
  // trimStart only for a path that does not start so (it runs for every record of insertRecords)
  if (!v.startsWith('root.') && !v.trimStart().startsWith('root.')) {
    throw new IoTDBValidationError(
      field,
      `needs a tree-model path under root. (e.g. root.sg.d1), got ${JSON.stringify(v)}`,
    );
  }
}
