import { isUtf8 } from 'node:buffer';
import { IoTDBValidationError } from '../errors.js';
import { ColumnCategory } from '../types/data-type.js';
import { cellField } from './cell.js';
import type { PreparedTablet } from './prepare-tablet.js';
import { RowMajorColumn } from './row-major-column.js';

/**
 * A TAG value given as bytes must be UTF-8: IoTDB keeps a device's tags as text, and stored U+FFFD in place of bytes
 * that are not (probed on 2.0.1-beta: a tag written as <ff> read back as <ef bf bd>, every such device one), where an
 * ATTRIBUTE or a FIELD keeps its bytes. So the tablet is refused before anything is sent, naming the cell. Strings
 * are checked where they are written (a lone surrogate); only byte cells are looked at here.
 */
export function checkTagBytes(p: PreparedTablet): void {
  const categories = p.columnCategories;
  if (categories === null) return;
  for (let c = 0; c < categories.length; c++) {
    if (categories[c] !== ColumnCategory.TAG) continue;
    const column = p.columns[c];
    // row-major input read where it is, as the encoder reads it (no column copied out)
    const rows = column instanceof RowMajorColumn ? column.rows : null;
    const cells = column as ArrayLike<unknown>;
    for (let row = 0; row < p.rows; row++) {
      const v = rows === null ? cells[row] : rows[row][c];
      if (notUtf8Bytes(v)) throw tagBytesError(cellField(p, c, row), v as Uint8Array);
    }
  }
}

/** Whether `v` is bytes that are not UTF-8: a value a TAG cannot hold. */
export const notUtf8Bytes = (v: unknown): boolean => typeof v === 'object' && v instanceof Uint8Array && !isUtf8(v);

/** The refusal of a TAG value given as `bytes` that are not UTF-8, at `field`. */
export function tagBytesError(field: string, bytes: Uint8Array): IoTDBValidationError {
  const hex = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 32)).toString('hex');
  return new IoTDBValidationError(
    field,
    'a TAG value needs UTF-8: IoTDB keeps tags as text and would store U+FFFD in place of bytes that are not ' +
      `(an ATTRIBUTE or FIELD keeps them); got bytes ${hex}${bytes.length > 32 ? `... (${bytes.length} bytes)` : ''}`,
  );
}
