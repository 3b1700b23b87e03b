/**
 * Deterministic cell values. "pattern" values follow the Java anchor (compressible); "random" values
 * come from a 32-bit integer hash of (row, sensor, device, seed), so that a run is reproducible for a
 * seed and costs no PRNG state per client.
 */
export function hash32(a: number, b: number, c: number, seed: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) ^ Math.imul(c + seed, 0x297a2d39);
  h = Math.imul(h ^ (h >>> 12), 0x9e3779b1);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A value in [0, 1) for decisions (null or not, moved or not). */
export function unit(a: number, b: number, c: number, seed: number): number {
  return hash32(a, b, c, seed) / 4294967296;
}

/** 100 strings of exactly `length` characters ("value-NN" for length 8, the Java anchor's). */
export function textTable(length: number, random: boolean, seed: number): string[] {
  return Array.from({ length: 100 }, (_, i) => {
    if (!random) {
      const base = `value-${String(i).padStart(2, '0')}`;
      return length <= base.length ? base.slice(0, length) : base + 'x'.repeat(length - base.length);
    }
    let s = '';
    for (let k = 0; k < length; k++) s += String.fromCharCode(97 + (hash32(i, k, 7, seed) % 26));
    return s;
  });
}

/** 366 DATE strings from 2024-01-01. */
export const DATES: readonly string[] = Array.from({ length: 366 }, (_, i) =>
  new Date(Date.UTC(2024, 0, 1 + i)).toISOString().slice(0, 10),
);
