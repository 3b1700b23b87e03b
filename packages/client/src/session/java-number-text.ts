/**
 * A FLOAT or DOUBLE as Java's String.valueOf prints it, which is what the Java client's getString and RowRecord give:
 * the shortest digits that read back as the same float (or double), at least one after the point, in E notation
 * below 10^-3 and from 10^7 (`0.034`, `1.0`, `1.0E7`, `9.999999E-4`), and NaN, Infinity, -0.0. JS prints a FLOAT,
 * widened to a double, with the double's digits (0.03400000184774399) and 1 for 1.0.
 *
 * As JDK 19 and later print them; JDK 17 gives some values a digit more (2.0E23 as 1.9999999999999998E23), which
 * reads back the same.
 */
export function javaNumberText(v: number, float32: boolean): string {
  if (!Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
  if (v === 0) return Object.is(v, -0) ? '-0.0' : '0.0';
  const sign = v < 0 ? '-' : '';
  const [digits, exponent] = shortestDigits(Math.abs(v), float32);
  if (exponent < -3 || exponent >= 7) return `${sign}${digits[0]}.${digits.slice(1) || '0'}E${exponent}`;
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  return `${sign}${whole}.${digits.slice(exponent + 1) || '0'}`;
}

/** The significant digits of a positive value (no trailing zeros) and the power of ten of the first. */
function shortestDigits(v: number, float32: boolean): [string, number] {
  const readsBack = (text: string) => (float32 ? Math.fround(Number(text)) : Number(text)) === v;
  let text = v.toExponential(); // a double's shortest digits, as JS's number-to-string gives
  if (float32) for (let p = 1; !readsBack((text = v.toExponential(p - 1))); p++); // at most 9 digits
  // Java shows two digits at least (d.dEn): of those, the nearest that reads back (4.9E-324, not 5.0E-324)
  const two = v.toExponential(1);
  if (!text.includes('.') && readsBack(two)) text = two;
  const [mantissa, exponent] = text.split('e');
  return [mantissa.replace('.', '').replace(/(?<=.)0+$/, ''), Number(exponent)];
}
