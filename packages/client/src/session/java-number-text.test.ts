import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { javaNumberText } from './java-number-text.js';

const float = (bits: number) => new Float32Array(Uint32Array.of(bits).buffer)[0];
const double = (bits: bigint) => new Float64Array(BigUint64Array.of(bits).buffer)[0];

// Float.toString and Double.toString of these bit patterns, printed by OpenJDK 17.0.15
const JAVA_FLOATS: [number, string][] = [
  [0x3d0b4396, '0.034'],
  [0x3f800000, '1.0'],
  [0x42c80000, '100.0'],
  [0x3a83126f, '0.001'],
  [0x38d1b717, '1.0E-4'],
  [0x4996b438, '1234567.0'],
  [0x4b3c614e, '1.2345678E7'],
  [0x4b189680, '1.0E7'],
  [0x4b18967f, '9999999.0'],
  [0x7f7fffff, '3.4028235E38'],
  [0x1, '1.4E-45'],
  [0x80000000, '-0.0'],
  [0x0, '0.0'],
  [0xc0200000, '-2.5'],
  [0x3dcccccd, '0.1'],
  [0x501502f9, '1.0E10'],
  [0x4b800000, '1.6777216E7'],
  [0x3e99999a, '0.3'],
  [0x42f6e979, '123.456'],
  [0x7fc00000, 'NaN'],
  [0x7f800000, 'Infinity'],
  [0xff800000, '-Infinity'],
  [0x3b03126f, '0.002'],
  [0x3a83126e, '9.999999E-4'],
  [0x3f000000, '0.5'],
  [0x477fe000, '65504.0'],
  [0x5, '7.0E-45'],
];
const JAVA_DOUBLES: [bigint, string][] = [
  [0x3fa16872b020c49cn, '0.034'],
  [0x3ff0000000000000n, '1.0'],
  [0x4059000000000000n, '100.0'],
  [0x3f50624dd2f1a9fcn, '0.001'],
  [0x3f1a36e2eb1c432dn, '1.0E-4'],
  [0x4132d68700000000n, '1234567.0'],
  [0x41678c29c0000000n, '1.2345678E7'],
  [0x416312d000000000n, '1.0E7'],
  [0x416312cfe0000000n, '9999999.0'],
  [0x7fefffffffffffffn, '1.7976931348623157E308'],
  [0x1n, '4.9E-324'],
  [0x8000000000000000n, '-0.0'],
  [0x0n, '0.0'],
  [0xc004000000000000n, '-2.5'],
  [0x3fb999999999999an, '0.1'],
  [0x4202a05f20000000n, '1.0E10'],
  [0x405edd2f1a9fbe77n, '123.456'],
  [0x444b1ae4d6e2ef50n, '1.0E21'],
  [0x4480f0cf064dd592n, '1.0E22'],
  [0x3fd3333333333334n, '0.30000000000000004'],
  [0x4340000000000000n, '9.007199254740992E15'],
  [0x3ee4f8b588e368f1n, '1.0E-5'],
  [0x41678c29dccccccdn, '1.23456789E7'],
  [0x7ff8000000000000n, 'NaN'],
  [0x7ff0000000000000n, 'Infinity'],
  [0x3f60624dd2f1a9fcn, '0.002'],
  [0x4011666666666666n, '4.35'],
];

describe('javaNumberText', () => {
  it("prints a FLOAT as Java's Float.toString: its shortest digits, not the double's (0.034, not 0.03400000184774399)", () => {
    for (const [bits, java] of JAVA_FLOATS) expect([bits, javaNumberText(float(bits), true)]).toEqual([bits, java]);
  });

  it("prints a DOUBLE as Java's Double.toString: a digit after the point, E notation below 10^-3 and from 10^7", () => {
    for (const [bits, java] of JAVA_DOUBLES) expect([bits, javaNumberText(double(bits), false)]).toEqual([bits, java]);
  });

  it('gives the shortest digits (JDK 19 and later): where JDK 17 prints a digit more, one that reads back the same', () => {
    expect(javaNumberText(1e23, false)).toBe('1.0E23'); // JDK 17: 9.999999999999999E22
    expect(javaNumberText(2e23, false)).toBe('2.0E23'); // JDK 17: 1.9999999999999998E23
    expect(javaNumberText(Math.PI * 7 * 1e15, false)).toBe('2.199114857512855E16'); // JDK 17: 2.1991148575128552E16
    expect(javaNumberText(float(0x800000), true)).toBe('1.1754944E-38'); // JDK 17: 1.17549435E-38
  });

  it('reads back as the same float or double, every finite value', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (v) => {
        expect(Number(javaNumberText(v, false))).toBe(v);
      }),
    );
    fc.assert(
      fc.property(fc.float({ noNaN: true, noDefaultInfinity: true }), (v) => {
        expect(Math.fround(Number(javaNumberText(v, true)))).toBe(v);
      }),
    );
  });
});
