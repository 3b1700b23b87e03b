/**
 * Weights by name, as iot-benchmark writes its proportions: `1:0:2` (the names in order; `lengths` says how
 * many may be given, the rest are 0), a JSON/YAML list, or an object naming some ({FLOAT: 3}, others 0).
 */
import { InvalidValue } from './errors.js';
import { nonNegativeNumber, type Parser, type RawValue } from './parsers.js';

export function weightsParser<N extends string>(
  names: readonly N[],
  lengths: readonly number[],
  needs: string,
): Parser<Record<N, number>> {
  const zeros = () => Object.fromEntries(names.map((n) => [n, 0])) as Record<N, number>;
  const fromList = (items: RawValue[]) => {
    if (!lengths.includes(items.length)) return undefined;
    const weights = items.map(nonNegativeNumber);
    if (weights.some((w) => w === undefined)) return undefined;
    const out = zeros();
    weights.forEach((w, i) => (out[names[i]] = w!));
    return out;
  };
  const fromObject = (o: { [key: string]: RawValue }) => {
    const out = zeros();
    for (const [key, value] of Object.entries(o)) {
      const name = names.find((n) => n === key);
      const w = nonNegativeNumber(value);
      if (name === undefined || w === undefined) return undefined;
      out[name] = w;
    }
    return out;
  };
  return (raw) => {
    const w =
      typeof raw === 'string'
        ? fromList(raw.split(':'))
        : Array.isArray(raw)
          ? fromList(raw)
          : typeof raw === 'object' && raw !== null
            ? fromObject(raw)
            : undefined;
    if (w === undefined || names.every((n) => w[n] === 0)) throw new InvalidValue(needs);
    return w;
  };
}
