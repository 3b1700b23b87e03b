import { IoTDBValidationError } from '../errors.js';
import { isArray } from '../types/is-array.js';
import { describe } from '../types/describe.js';
import type { TabletData } from './tablet-input.js';
import type { PreparedColumn } from './row-major-column.js';

/**
 * A tablet's `nulls` checked against its columns, as the encoder takes them: a mask for each typed-array column
 * with a null, null for the others (a plain array's null cells say so themselves, so a mask given for one must
 * mark only those). Undefined when no column needs one.
 */
export function nullMasksOf(
  t: TabletData,
  columns: readonly PreparedColumn[],
  rows: number,
): (Uint8Array | null)[] | undefined {
  const nulls = t.nulls;
  if (nulls === undefined) return undefined;
  if (t.values !== undefined) {
    throw new IoTDBValidationError('nulls', 'goes with `columns` (in `values` a null cell is null itself)');
  }
  if (!isArray(nulls) || nulls.length !== columns.length) {
    const got = isArray(nulls) ? `${nulls.length}` : describe(nulls);
    throw new IoTDBValidationError('nulls', `needs one per column (${columns.length}), got ${got}`);
  }
  const masks = nulls.map((mask, c) => (mask == null ? null : checkedMask(mask, c, columns[c], rows)));
  return masks.some((m) => m !== null) ? masks : undefined;
}

/** The mask if its column needs it (a typed array with a null), else null; throws on one not of 0s and 1s. */
function checkedMask(mask: unknown, c: number, column: PreparedColumn, rows: number): Uint8Array | null {
  const field = `nulls[${c}]`;
  if (!(mask instanceof Uint8Array)) {
    throw new IoTDBValidationError(field, `needs a Uint8Array (1 = null), null or undefined, got ${describe(mask)}`);
  }
  if (mask.length !== rows) {
    throw new IoTDBValidationError(field, `has ${mask.length} entries for ${rows} rows`);
  }
  const bits = orOfBytes(mask);
  if (bits > 1) {
    const r = mask.findIndex((bit) => bit > 1);
    throw new IoTDBValidationError(field, `row ${r}: needs 0 or 1 (1 = null), got ${mask[r]}`);
  }
  if (bits === 0) return null;
  if (!isArray(column)) return mask;
  for (let r = mask.indexOf(1); r >= 0; r = mask.indexOf(1, r + 1)) {
    if (column[r] != null) {
      throw new IoTDBValidationError(
        field,
        `marks row ${r} null, but columns[${c}][${r}] holds ${describe(column[r])} (a plain array's nulls are its null cells)`,
      );
    }
  }
  return null; // a plain array's null cells say it
}

/**
 * The OR of the mask's bytes (0: no null; 1: some; above 1: a byte neither 0 nor 1), four bytes a step where the
 * mask is aligned to them (`new Uint8Array(rows)` is): 0.3 ns a row against 0.9-1.3 a byte at a time.
 */
function orOfBytes(mask: Uint8Array): number {
  const words = mask.byteOffset % 4 === 0 ? mask.length >> 2 : 0;
  let bits = 0;
  if (words > 0) {
    const w = new Uint32Array(mask.buffer, mask.byteOffset, words);
    for (let i = 0; i < words; i++) bits |= w[i];
    bits = (bits | (bits >>> 8) | (bits >>> 16) | (bits >>> 24)) & 0xff;
  }
  for (let r = words << 2; r < mask.length; r++) bits |= mask[r];
  return bits;
}
