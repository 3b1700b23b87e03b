/**
 * The strings of an all-ASCII TEXT/STRING column, a value seen before given as the string made for it then
 * (`decodeTsBlock`'s `shareStrings`). Sensor text is mostly a few values repeated (states, codes, units); in a
 * result held whole (`toColumnar()`) a string per cell is a million objects the collector copies as it promotes
 * them. Short values are looked up in a table shared by every column, by their bytes (packed in three words with
 * the length: the key the table keeps beside the string, so a collision is only a miss). A column whose values
 * keep missing (ids, JSON, counters as text) stops looking: each miss spends a credit, each hit earns one back.
 * A lookup costs more than a string that dies young (22 vs 13 ns a value, measured): for rows read and dropped,
 * making each string is cheaper.
 */

/** Longest value looked up: three words. `substring` copies strings this short (a longer one shares the region). */
const MAX_SHARED = 12;
const SLOTS = 4096; // a power of two; what the process keeps: at most this many strings of up to 12 characters
/** What a column may miss more than it hits before it stops looking: a few µs of a column's decode at most. */
const CREDIT = 128;

// '' in every slot, keyed by length -1 (no value's): a packed array of strings from the start
const strings: string[] = new Array<string>(SLOTS).fill('');
const keys = new Int32Array(SLOTS * 4).fill(-1); // per slot: the value's bytes in three words, its length

/** Where a binary column's values are: non-null row i's bytes are `buf[starts[i], starts[i] + lengths[i])`. */
export interface BinaryCells {
  readonly buf: Buffer;
  readonly starts: Int32Array;
  readonly lengths: Int32Array;
  /** 1 for a null row (its start and length are stale) */
  readonly nulls: Uint8Array | null;
  /** the column's bytes, length prefixes included: buf[regionStart, regionEnd) */
  readonly regionStart: number;
  readonly regionEnd: number;
}

/** Fills `values` with the rows' strings, each a substring of `region` (the latin1 decode of the column's bytes). */
export function readSharedAscii(cells: BinaryCells, region: string, values: (string | null)[]): void {
  const { buf, starts, lengths, nulls, regionStart } = cells;
  let credit = CREDIT;
  for (let i = 0; i < values.length; i++) {
    if (nulls !== null && nulls[i] === 1) {
      values[i] = null;
      continue;
    }
    const start = starts[i];
    const n = lengths[i];
    if (n > MAX_SHARED || credit === 0) {
      values[i] = region.substring(start - regionStart, start - regionStart + n);
      continue;
    }
    let w0 = 0;
    let w1 = 0;
    let w2 = 0;
    for (let j = 0; j < n; j++) {
      const b = buf[start + j] << ((j & 3) << 3);
      if (j < 4) w0 |= b;
      else if (j < 8) w1 |= b;
      else w2 |= b;
    }
    const h = Math.imul(w0 ^ n, 0x9e3779b1) ^ Math.imul(w1, 0x85ebca77) ^ Math.imul(w2, 0xc2b2ae3d);
    const slot = (h ^ (h >>> 15)) & (SLOTS - 1);
    const k = slot * 4;
    if (keys[k] === w0 && keys[k + 1] === w1 && keys[k + 2] === w2 && keys[k + 3] === n) {
      values[i] = strings[slot];
      if (credit < CREDIT) credit++;
      continue;
    }
    credit--;
    const made = region.substring(start - regionStart, start - regionStart + n);
    strings[slot] = made;
    keys[k] = w0;
    keys[k + 1] = w1;
    keys[k + 2] = w2;
    keys[k + 3] = n;
    values[i] = made;
  }
}
