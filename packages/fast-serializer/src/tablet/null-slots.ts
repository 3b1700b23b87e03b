import { TSDataType } from '../types/data-type.js';
import { INT64_MIN } from '../types/int64.js';

/**
 * What Java's Tablet sends in a null cell's slot (the bitmap says it is null; the server reads the slot past):
 * Integer/Float/Double/Long.MIN_VALUE, 10000101 for DATE, false; TEXT/STRING/BLOB an empty value.
 */
export const INT32_NULL = -2147483648;
export const FLOAT_NULL = 1.401298464324817e-45;
export const DOUBLE_NULL = 5e-324;
export const DATE_NULL = 10000101;
export const INT64_NULL = INT64_MIN;

/** Each fixed-width type's null slot as the bytes it goes out as (big-endian). */
const SLOT_BYTES: Partial<Record<TSDataType, Uint8Array>> = (() => {
  const b = (width: number, set: (b: Buffer) => void) => {
    const out = Buffer.alloc(width);
    set(out);
    return new Uint8Array(out);
  };
  return {
    [TSDataType.BOOLEAN]: b(1, () => {}),
    [TSDataType.INT32]: b(4, (o) => o.writeInt32BE(INT32_NULL)),
    [TSDataType.DATE]: b(4, (o) => o.writeInt32BE(DATE_NULL)),
    [TSDataType.FLOAT]: b(4, (o) => o.writeFloatBE(FLOAT_NULL)),
    [TSDataType.DOUBLE]: b(8, (o) => o.writeDoubleBE(DOUBLE_NULL)),
    [TSDataType.INT64]: b(8, (o) => o.writeBigInt64BE(INT64_NULL)),
    [TSDataType.TIMESTAMP]: b(8, (o) => o.writeBigInt64BE(INT64_NULL)),
  };
})();

/**
 * Writes the null slot of each row `mask` marks over a fixed-width column written at out[pos] (a typed array's
 * copy holds whatever its null slots held), so that it goes out as Java's would. Other types: nothing to do.
 */
export function fillNullSlots(
  out: Buffer,
  pos: number,
  type: TSDataType,
  mask: Uint8Array,
  order: Uint32Array | null,
  rows: number,
): void {
  const slot = SLOT_BYTES[type];
  if (slot === undefined) return;
  const width = slot.length;
  for (let r = 0; r < rows; r++) {
    if (mask[order === null ? r : order[r]] !== 1) continue;
    const at = pos + r * width;
    for (let k = 0; k < width; k++) out[at + k] = slot[k]; // Buffer#set costs more than 8 stores
  }
}

/**
 * Marks the rows `mask` (0s and 1s) marks in the column's bitmap at out[pos] (zeroed, bitmapBytes(rows) long).
 * Rows in place go eight mask bytes to a bitmap byte, without a branch: 0.5 ns a row against 1.4 one by one.
 */
export function markNulls(out: Buffer, pos: number, m: Uint8Array, order: Uint32Array | null, rows: number): void {
  if (order !== null) {
    for (let r = 0; r < rows; r++) if (m[order[r]] === 1) out[pos + (r >> 3)] |= 1 << (r & 7);
    return;
  }
  const whole = rows >> 3;
  for (let b = 0; b < whole; b++) {
    const r = b << 3;
    out[pos + b] =
      m[r] |
      (m[r + 1] << 1) |
      (m[r + 2] << 2) |
      (m[r + 3] << 3) |
      (m[r + 4] << 4) |
      (m[r + 5] << 5) |
      (m[r + 6] << 6) |
      (m[r + 7] << 7);
  }
  for (let r = whole << 3; r < rows; r++) out[pos + whole] |= m[r] << (r & 7);
}
