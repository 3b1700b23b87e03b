/**
 * The memory of a block's fixed-width columns: its time column and every INT32_ARRAY, INT64_ARRAY and BYTE_ARRAY
 * column in one ArrayBuffer (the 8-byte columns first, then the 4-byte ones, then the booleans' bytes, so that
 * every column's view is aligned), and the null flags of its columns in chunks of eight columns' rows. The server
 * sends blocks of at most 1000 rows (max_tsblock_line_number), about 400 for a wide ALIGN BY DEVICE result: there
 * an ArrayBuffer, a copy and a swap call per column were a third of a block's decode. The big-endian values are
 * copied in as the columns are read; `finish()` swaps each width's run in one call, then moves the values of the
 * columns with nulls to their rows. Inner columns (an RLE value, a dictionary) are not planned for: each gets a
 * FixedArena of its own.
 */
export class FixedArena {
  readonly buffer: ArrayBuffer;
  readonly #bytes: Buffer;
  readonly #end8: number;
  #next8 = 0;
  #next4: number;
  #next1: number;
  readonly #spreads: { words: Int32Array; width: 1 | 2; nulls: Uint8Array; nonNull: number }[] = [];
  /** null flags are taken from chunks of NULL_CHUNK_COLUMNS columns' rows, allocated as columns with nulls come */
  #nullChunk: Uint8Array | null = null;
  #nullNext = 0;

  /** Room for `rows` rows of `columns8` 8-byte, `columns4` 4-byte and `columns1` boolean columns. */
  constructor(rows: number, columns8: number, columns4: number, columns1: number) {
    this.#end8 = rows * 8 * columns8;
    this.#next4 = this.#end8;
    this.#next1 = this.#end8 + rows * 4 * columns4;
    // not zeroed: every byte of a column is written, by the copy, the spread of its nulls or the booleans' bits
    this.#bytes = Buffer.allocUnsafeSlow(this.#next1 + rows * columns1);
    this.buffer = this.#bytes.buffer as ArrayBuffer;
  }

  /** `rows` bytes for a column's null flags (the caller writes every one). */
  nullFlags(rows: number): Uint8Array {
    if (this.#nullChunk === null || this.#nullNext + rows > this.#nullChunk.length) {
      this.#nullChunk = new Uint8Array(rows * NULL_CHUNK_COLUMNS); // a Uint8Array, as the flags are documented
      this.#nullNext = 0;
    }
    const at = this.#nullNext;
    this.#nullNext += rows;
    return this.#nullChunk.subarray(at, at + rows);
  }

  /** The next `rows` bytes, for a boolean column's values (not zeroed: the caller writes every one). */
  bytes(rows: number): Uint8Array {
    const at = this.#next1;
    this.#next1 += rows;
    return new Uint8Array(this.buffer, at, rows);
  }

  /**
   * Takes the next `rows` slots of `width` bytes and copies `src` (the big-endian values of the column's non-null
   * rows) to their front; returns the slots' byte offset. The values are in place after `finish()`.
   */
  put(src: Uint8Array, width: 4 | 8, rows: number, nulls: Uint8Array | null): number {
    const at = width === 8 ? this.#next8 : this.#next4;
    if (width === 8) this.#next8 += rows * 8;
    else this.#next4 += rows * 4;
    this.#bytes.set(src, at);
    if (nulls !== null) {
      const words = new Int32Array(this.buffer, at, (rows * width) >> 2);
      this.#spreads.push({ words, width: width === 4 ? 1 : 2, nulls, nonNull: src.length / width });
    }
    return at;
  }

  /** Swaps every value to the platform's byte order and spreads the columns with nulls. */
  finish(): void {
    if (this.#next8 > 0) this.#bytes.subarray(0, this.#next8).swap64();
    if (this.#next4 > this.#end8) this.#bytes.subarray(this.#end8, this.#next4).swap32(); // #next4 ends the 4-byte run
    for (const s of this.#spreads) spreadNulls(s.words, s.width, s.nulls, s.nonNull);
  }
}

/**
 * Columns of null flags per allocation: a block with nulls in most of its columns makes one allocation for eight
 * of them, one with nulls in a single column wastes at most seven columns' flags.
 */
const NULL_CHUNK_COLUMNS = 8;

/**
 * Moves the compact values (those of the non-null rows, at the front of `out`) to their rows, back to
 * front so that no value is overwritten before it moved; null rows get 0. Word by word in JavaScript, a
 * loop for each width: a `copyWithin` and `fill` call per row took ten times as long (300 us a 5000-row
 * column).
 */
function spreadNulls(out: Int32Array, words: 1 | 2, nulls: Uint8Array, nonNull: number): void {
  let k = nonNull;
  if (words === 1) {
    for (let i = nulls.length - 1; i >= 0; i--) out[i] = nulls[i] === 1 ? 0 : out[--k];
    return;
  }
  for (let i = nulls.length - 1; i >= 0; i--) {
    if (nulls[i] === 1) {
      out[2 * i] = 0;
      out[2 * i + 1] = 0;
    } else {
      k--;
      out[2 * i] = out[2 * k];
      out[2 * i + 1] = out[2 * k + 1];
    }
  }
}
