import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unpackBits } from './bits.js';

describe('unpackBits', () => {
  it('writes every row, zero bytes included: a boolean column unpacks into memory that was not zeroed', () => {
    const out = new Uint8Array(20).fill(7);
    expect(unpackBits(Buffer.from([0xff, 0x00, 0x80, 0x00]), 1, out)).toBe(1);
    expect([...out]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, ...new Array<number>(11).fill(0)]);
  });

  it('gives bit i (MSB first) from the offset on as row i and counts the ones, whatever out held', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 70 }), fc.integer({ min: 0, max: 255 }), (flags, junk) => {
        const bits = Buffer.alloc(3 + ((flags.length + 7) >> 3), junk); // the bits start at 3
        bits.fill(0, 3);
        flags.forEach((f, i) => {
          if (f) bits[3 + (i >> 3)] |= 0x80 >> (i & 7);
        });
        const out = new Uint8Array(flags.length).fill(junk);
        expect(unpackBits(bits, 3, out)).toBe(flags.filter(Boolean).length);
        expect([...out]).toEqual(flags.map(Number));
      }),
    );
  });
});
