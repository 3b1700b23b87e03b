import { IoTDBProtocolError } from '../errors.js';

/**
 * Big-endian cursor over a buffer. Every read goes through `advance()`, the single bounds check,
 * so truncated input becomes an IoTDBProtocolError instead of a RangeError deep in Buffer (a hot loop
 * that reads `buf` itself checks against `end` and throws the same `truncatedData` error).
 */
export class ByteReader {
  readonly buf: Buffer;
  pos: number;
  readonly end: number;

  constructor(buf: Buffer, start = 0, end = buf.length) {
    this.buf = buf;
    this.pos = start;
    this.end = end;
  }

  get remaining(): number {
    return this.end - this.pos;
  }

  /** Moves past `n` bytes and returns where they start. */
  advance(n: number): number {
    const at = this.pos;
    if (n < 0 || at + n > this.end) throw truncatedData(n, at, this.end);
    this.pos = at + n;
    return at;
  }

  u8(): number {
    return this.buf[this.advance(1)];
  }

  i8(): number {
    return this.buf.readInt8(this.advance(1));
  }

  i16(): number {
    return this.buf.readInt16BE(this.advance(2));
  }

  i32(): number {
    return this.buf.readInt32BE(this.advance(4));
  }

  i64(): bigint {
    return this.buf.readBigInt64BE(this.advance(8));
  }

  f64(): number {
    return this.buf.readDoubleBE(this.advance(8));
  }

  /** `n` bytes as a view on the underlying buffer (no copy). */
  slice(n: number): Buffer {
    const at = this.advance(n);
    return this.buf.subarray(at, at + n);
  }

  utf8(n: number): string {
    const at = this.advance(n);
    return this.buf.toString('utf8', at, at + n);
  }
}

/** The error for `n` bytes wanted at offset `at` of data ending at `end`. */
export function truncatedData(n: number, at: number, end: number): IoTDBProtocolError {
  return new IoTDBProtocolError(`truncated data: need ${n} bytes at offset ${at}, have ${end - at}`);
}
