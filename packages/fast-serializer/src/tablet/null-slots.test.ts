import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TSDataType } from '../types/data-type.js';
import { fillNullSlots, markNulls } from './null-slots.js';
import { bitmapBytes } from './encode-tablet.js';

/** A mask as its bytes at `offset` into a larger buffer (a subarray: aligned to 4 bytes or not). */
function maskAt(bits: readonly boolean[], offset: number): Uint8Array {
  const m = new Uint8Array(offset + bits.length).subarray(offset);
  bits.forEach((b, r) => (m[r] = b ? 1 : 0));
  return m;
}

/** The bitmap markNulls should write, one row at a time (row r of the output is the mask's row order[r]). */
function referenceBitmap(bits: readonly boolean[], order: readonly number[] | null): Uint8Array {
  const out = new Uint8Array(bitmapBytes(bits.length));
  for (let r = 0; r < bits.length; r++) if (bits[order === null ? r : order[r]]) out[r >> 3] |= 1 << (r & 7);
  return out;
}

const masks = fc.record({
  bits: fc.array(fc.boolean(), { maxLength: 70 }),
  offset: fc.integer({ min: 0, max: 7 }),
});

describe('markNulls', () => {
  it('writes the rows a mask marks, wherever its bytes start (read a word at a time only when aligned)', () => {
    fc.assert(
      fc.property(masks, ({ bits, offset }) => {
        const out = Buffer.alloc(3 + bitmapBytes(bits.length));
        markNulls(out, 3, maskAt(bits, offset), null, bits.length);
        expect(new Uint8Array(out.subarray(3))).toEqual(referenceBitmap(bits, null));
      }),
    );
  });

  it('writes the rows in the order they go out when the timestamps were sorted', () => {
    fc.assert(
      fc.property(masks, fc.integer(), ({ bits, offset }, seed) => {
        const order = bits.map((_, r) => r).sort((a, b) => ((a * 7919 + seed) % 13) - ((b * 7919 + seed) % 13));
        const out = Buffer.alloc(bitmapBytes(bits.length));
        markNulls(out, 0, maskAt(bits, offset), Uint32Array.from(order), bits.length);
        expect(new Uint8Array(out)).toEqual(referenceBitmap(bits, order));
      }),
    );
  });
});

/** Java's null slots (Integer/Float/Double/Long.MIN_VALUE, 10000101 for DATE, false) as they go out. */
const SLOT_HEX: [keyof typeof TSDataType, string][] = [
  ['BOOLEAN', '00'],
  ['INT32', '80000000'],
  ['DATE', '009896e5'],
  ['FLOAT', '00000001'],
  ['DOUBLE', '0000000000000001'],
  ['INT64', '8000000000000000'],
  ['TIMESTAMP', '8000000000000000'],
];

describe('fillNullSlots', () => {
  it.each(SLOT_HEX)(
    "writes Java's null slot of a %s column in each row the bitmap marks, and nothing else",
    (name, hex) => {
      const type = TSDataType[name];
      const slot = Buffer.from(hex, 'hex');
      fc.assert(
        fc.property(fc.array(fc.boolean(), { maxLength: 70 }), (bits) => {
          const rows = bits.length;
          const at = 5; // the values, then the bitmap right after them
          const out = Buffer.alloc(at + rows * slot.length + bitmapBytes(rows), 0xab);
          const bitmap = at + rows * slot.length;
          out.fill(0, bitmap);
          markNulls(out, bitmap, maskAt(bits, 0), null, rows);
          for (let r = rows; r < bitmapBytes(rows) * 8; r++) out[bitmap + (r >> 3)] |= 1 << (r & 7); // padding, null
          fillNullSlots(out, at, type, bitmap, rows);
          const expected = Buffer.alloc(rows * slot.length, 0xab);
          bits.forEach((isNull, r) => isNull && slot.copy(expected, r * slot.length));
          expect(out.subarray(at, bitmap).toString('hex')).toBe(expected.toString('hex'));
          expect(out.subarray(0, at).every((b) => b === 0xab)).toBe(true);
        }),
      );
    },
  );
});
