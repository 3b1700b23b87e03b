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

/** A fixed-width type's null slot as it goes out: its width, and its bytes as big-endian 32-bit words. */
interface Slot {
  readonly width: 1 | 4 | 8;
  /** the first word (a BOOLEAN slot: its one byte) */
  readonly hi: number;
  /** the second word of an 8-byte slot */
  readonly lo: number;
}

const SLOTS: Partial<Record<TSDataType, Slot>> = (() => {
  const slot = (width: 1 | 4 | 8, set: (b: Buffer) => void): Slot => {
    const b = Buffer.alloc(8);
    set(b);
    return { width, hi: width === 1 ? b[0] : b.readUint32BE(0), lo: b.readUint32BE(4) };
  };
  return {
    [TSDataType.BOOLEAN]: slot(1, () => {}),
    [TSDataType.INT32]: slot(4, (o) => o.writeInt32BE(INT32_NULL)),
    [TSDataType.DATE]: slot(4, (o) => o.writeInt32BE(DATE_NULL)),
    [TSDataType.FLOAT]: slot(4, (o) => o.writeFloatBE(FLOAT_NULL)),
    [TSDataType.DOUBLE]: slot(8, (o) => o.writeDoubleBE(DOUBLE_NULL)),
    [TSDataType.INT64]: slot(8, (o) => o.writeBigInt64BE(INT64_NULL)),
    [TSDataType.TIMESTAMP]: slot(8, (o) => o.writeBigInt64BE(INT64_NULL)),
  };
})();

/**
 * Writes the null slot of each row the column's bitmap at out[bitmap] marks (rows in the order they go out) over
 * its values at out[pos] (a typed array's copy holds whatever its null slots held), so that it goes out as Java's
 * would. Read from the bitmap, a byte for eight rows, and written a word at a time: 0.4 ns a row with a tenth null,
 * against 1.4 for a test of each row's mask byte and a slot written byte by byte. Other types: nothing to do.
 */
export function fillNullSlots(out: Buffer, pos: number, type: TSDataType, bitmap: number, rows: number): void {
  const slot = SLOTS[type];
  if (slot === undefined) return;
  const { width, hi, lo } = slot;
  const words = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const bytes = rows >> 3;
  for (let b = 0; b <= bytes; b++) {
    // the last byte (bitmapBytes is floor(rows / 8) + 1) may hold padding bits past the rows, marked null: stop there
    for (let bits = out[bitmap + b]; bits !== 0; bits &= bits - 1) {
      const r = (b << 3) | (31 - Math.clz32(bits & -bits));
      if (r >= rows) break;
      const at = pos + r * width;
      if (width === 1) {
        out[at] = hi;
      } else {
        words.setUint32(at, hi);
        if (width === 8) words.setUint32(at + 4, lo);
      }
    }
  }
}

/**
 * Marks the rows `mask` (0s and 1s) marks in the column's bitmap at out[pos] (zeroed, bitmapBytes(rows) long).
 * Rows in place go eight mask bytes to a bitmap byte without a branch, read as two 32-bit words where the mask is
 * aligned to them: 0.2 ns a row, against 0.7 for eight bytes and 1.4 one row at a time.
 */
export function markNulls(out: Buffer, pos: number, m: Uint8Array, order: Uint32Array | null, rows: number): void {
  if (order !== null) {
    for (let r = 0; r < rows; r++) if (m[order[r]] === 1) out[pos + (r >> 3)] |= 1 << (r & 7);
    return;
  }
  const whole = rows >> 3;
  if (LITTLE_ENDIAN && m.byteOffset % 4 === 0) {
    const w = new Uint32Array(m.buffer, m.byteOffset, whole * 2);
    for (let b = 0; b < whole; b++) out[pos + b] = fourBits(w[2 * b]) | (fourBits(w[2 * b + 1]) << 4);
  } else {
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
  }
  for (let r = whole << 3; r < rows; r++) out[pos + whole] |= m[r] << (r & 7);
}

/** Whether a Uint32Array reads bytes little-end first (fourBits takes them so), as on x64 and arm64. */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/** Four mask bytes of 0 or 1, read as one little-endian word, as four bits: byte k's bit (at 8k) moved to bit k. */
function fourBits(w: number): number {
  return (w | (w >>> 7) | (w >>> 14) | (w >>> 21)) & 0xf;
}
