import { IoTDBValidationError } from '../errors.js';
import { describe } from './describe.js';

/** A name a request carries (a device, a table, a measurement or column): a non-empty string. */
export function checkName(field: string, v: unknown): asserts v is string {
  if (typeof v !== 'string' || v.length === 0) {
    throw new IoTDBValidationError(field, `needs a non-empty string, got ${describe(v)}`);
  }
}
