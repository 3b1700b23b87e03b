import { IoTDBValidationError } from '../errors.js';
import { cellField } from './cell.js';
import { checkDateInt, isDateInt } from './date.js';
import type { PreparedTablet } from './prepare-tablet.js';
import { copySwapped, scratchBuffer } from './scratch.js';

/**
 * DATE and BOOLEAN columns given as `SessionDataSet.toColumnar()` gives them: an Int32Array of yyyymmdd (the wire
 * int itself) and a Uint8Array of 0/1 (the wire byte itself). Each value is checked (a typed array holds any
 * int), except in rows the column's null mask marks: those slots are the null slot's (see fillNullSlots).
 * Each returns the column's end offset.
 */
export function writeTypedDates(out: Buffer, pos: number, col: Int32Array, p: PreparedTablet, c: number): number {
  const { rows, order } = p;
  const mask = p.nullMasks?.[c];
  const s = new Int32Array(scratchBuffer(rows * 4), 0, rows);
  for (let r = 0; r < rows; r++) {
    const src = order === null ? r : order[r];
    const v = col[src];
    if (!isDateInt(v) && mask?.[src] !== 1) checkDateInt(cellField(p, c, src), v); // throws, naming the cell
    s[r] = v;
  }
  copySwapped(out, pos, s.buffer, 0, rows * 4, 4);
  return pos + rows * 4;
}

export function writeTypedBooleans(out: Buffer, pos: number, col: Uint8Array, p: PreparedTablet, c: number): number {
  const { rows, order } = p;
  const mask = p.nullMasks?.[c];
  for (let r = 0; r < rows; r++) {
    const src = order === null ? r : order[r];
    const v = col[src];
    if (v > 1 && mask?.[src] !== 1) throw notABit(cellField(p, c, src), v);
    out[pos + r] = v;
  }
  return pos + rows;
}

/** A BOOLEAN of a Uint8Array column as the cell it stands for (the plain encoder's way). */
export function typedBoolean(field: string, v: number): boolean {
  if (v > 1) throw notABit(field, v);
  return v === 1;
}

function notABit(field: string, v: number): IoTDBValidationError {
  return new IoTDBValidationError(field, `BOOLEAN in a Uint8Array takes 0 or 1, got ${v}`);
}
