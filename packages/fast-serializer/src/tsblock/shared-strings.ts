/**
 * The strings of an all-ASCII TEXT/STRING column, a value seen before given as the string made for it then
 * (`decodeTsBlock`'s `shareStrings`). Sensor text is mostly a few values repeated (states, codes, units); in a
 * result held whole (`toColumnar()`) a string per cell is a million objects the collector copies as it promotes
 * them. Short values are looked up in a table shared by every column, by their bytes (packed in three words with
 * the length: the key the table keeps beside the string, so a collision is only a miss). A longer value is
 * compared with the row before's only: it is given the same string when equal (ALIGN BY DEVICE's Device column,
 * a device's name on each of its rows). A column whose values keep missing (ids, JSON, counters as text) stops
 * looking: each miss spends a credit, each hit earns one back.
 * A lookup costs more than a string that dies young (22 vs 13 ns a value, measured): for rows read and dropped,
 * making each string is cheaper.
 */

/** Longest value looked up: three words. `substring` copies strings this short (a longer one shares the region). */
const MAX_SHARED = 12;
/** Longest value compared with the row before's: the comparison costs at most a few hundred byte reads. */
const MAX_RUN = 256;
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
  /** the most bytes a value has */
  readonly longest: number;
}

/** What a column has left to spend on misses: of the table's lookups, of the comparisons with the row before. */
interface Credits {
  table: number;
  run: number;
}

/** Fills `values` with the rows' strings, each a substring of `region` (the latin1 decode of the column's bytes). */
export function readSharedAscii(cells: BinaryCells, region: string, values: (string | null)[]): void {
  const { starts, lengths, nulls, regionStart } = cells;
  const credits: Credits = { table: CREDIT, run: CREDIT };
  let last = -1; // the last non-null row
  let inRun = false; // row last's value is its row before's
  for (let i = 0; i < values.length; i++) {
    if (nulls !== null && nulls[i] === 1) {
      values[i] = null;
      continue;
    }
    const n = lengths[i];
    let value: string | null = null;
    if (n <= MAX_SHARED) {
      if (credits.table > 0) value = lookedUp(cells, region, i, credits);
    } else if (n <= MAX_RUN && last >= 0 && credits.run > 0) {
      if (sameBytes(cells, last, i)) {
        // a substring this long shares the memory of the column's region: kept for many rows, it is copied out
        if (!inRun) values[last] = cells.buf.toString('latin1', starts[last], starts[last] + n);
        value = values[last];
        if (credits.run < CREDIT) credits.run++;
      } else credits.run--;
    }
    inRun = value !== null && n > MAX_SHARED;
    values[i] = value ?? region.substring(starts[i] - regionStart, starts[i] - regionStart + n);
    last = i;
  }
}

/**
 * Row i's short value from the table, or made and kept there. Two slots a set: a value missing from both takes
 * the first, the first's moves to the second, so two values meeting in a set are both kept (a direct-mapped table
 * made a string per cell for each of the pair, every time).
 */
function lookedUp(cells: BinaryCells, region: string, i: number, credits: Credits): string {
  const { buf, starts, lengths, regionStart } = cells;
  const start = starts[i];
  const n = lengths[i];
  let w0 = 0;
  let w1 = 0;
  let w2 = 0;
  for (let j = 0; j < n; j++) {
    const b = buf[start + j] << ((j & 3) << 3);
    if (j < 4) w0 |= b;
    else if (j < 8) w1 |= b;
    else w2 |= b;
  }
  const set = (mixed(w0 ^ n, w1, w2) & (SLOTS / 2 - 1)) * 2;
  for (let slot = set; slot < set + 2; slot++) {
    const k = slot * 4;
    if (keys[k] === w0 && keys[k + 1] === w1 && keys[k + 2] === w2 && keys[k + 3] === n) {
      if (credits.table < CREDIT) credits.table++;
      return strings[slot];
    }
  }
  credits.table--;
  const made = region.substring(start - regionStart, start - regionStart + n);
  const k = set * 4; // element by element: copyWithin and set([...]) calls cost more than the lookup itself
  strings[set + 1] = strings[set];
  keys[k + 4] = keys[k];
  keys[k + 5] = keys[k + 1];
  keys[k + 6] = keys[k + 2];
  keys[k + 7] = keys[k + 3];
  strings[set] = made;
  keys[k] = w0;
  keys[k + 1] = w1;
  keys[k + 2] = w2;
  keys[k + 3] = n;
  return made;
}

/**
 * A hash of the three words whose low bits (the set is taken from them) depend on every bit of the value. A product's
 * low bits depend only on its factor's low bits: with the products alone, values differing in a late byte met
 * ('value-40' and 'value-48', each made again at every cell).
 */
function mixed(w0: number, w1: number, w2: number): number {
  let h = Math.imul(w0, 0x9e3779b1) ^ Math.imul(w1, 0x85ebca77) ^ Math.imul(w2, 0xc2b2ae3d);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Rows a and b hold the same bytes; compared from the end, where names and numbers usually differ. */
function sameBytes(cells: BinaryCells, a: number, b: number): boolean {
  const { buf, starts, lengths } = cells;
  const n = lengths[b];
  if (lengths[a] !== n) return false;
  const from = starts[a];
  const to = starts[b];
  for (let j = n - 1; j >= 0; j--) if (buf[from + j] !== buf[to + j]) return false;
  return true;
}
