import { BufferPool } from '../pool/buffer-pool.js';
import { TWO_32 } from '../types/int64.js';

/**
 * Big-endian writer over one growable buffer taken from a BufferPool.
 * Callers that know the final size (the tablet encoder) pass it up front and the writer never grows;
 * everything else grows through the one `ensure()`.
 */
export class ByteWriter {
  buf: Buffer;
  pos = 0;
  readonly #pool: BufferPool | undefined;
  #released = false;

  /** With a pool the buffer comes from (and goes back to) it; without one it is plainly allocated. */
  constructor(initialSize = 256, pool?: BufferPool) {
    this.#pool = pool;
    this.buf = pool ? pool.acquire(initialSize) : Buffer.allocUnsafe(initialSize);
  }

  ensure(n: number): void {
    const need = this.pos + n;
    if (need <= this.buf.length) return;
    const size = Math.max(need, Math.floor(this.buf.length * 1.5) + n);
    const next = this.#pool ? this.#pool.acquire(size) : Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.#pool?.release(this.buf);
    this.buf = next;
  }

  i8(v: number): this {
    this.ensure(1);
    this.buf[this.pos++] = v & 0xff;
    return this;
  }

  i16(v: number): this {
    this.ensure(2);
    this.pos = this.buf.writeInt16BE(v, this.pos);
    return this;
  }

  i32(v: number): this {
    this.ensure(4);
    this.pos = this.buf.writeInt32BE(v, this.pos);
    return this;
  }

  /** int64 from a bigint or a safe integer number (the caller validated it). */
  i64(v: bigint | number): this {
    this.ensure(8);
    if (typeof v === 'bigint') {
      this.pos = this.buf.writeBigInt64BE(v, this.pos);
    } else {
      const hi = Math.floor(v / TWO_32);
      this.buf.writeInt32BE(hi, this.pos);
      this.buf.writeUInt32BE(v - hi * TWO_32, this.pos + 4);
      this.pos += 8;
    }
    return this;
  }

  f32(v: number): this {
    this.ensure(4);
    this.pos = this.buf.writeFloatBE(v, this.pos);
    return this;
  }

  f64(v: number): this {
    this.ensure(8);
    this.pos = this.buf.writeDoubleBE(v, this.pos);
    return this;
  }

  bytes(src: Uint8Array): this {
    this.ensure(src.length);
    this.buf.set(src, this.pos);
    this.pos += src.length;
    return this;
  }

  /** int32 byte length, then the UTF-8 bytes (Thrift `string`/`binary`, IoTDB TEXT values). */
  lengthPrefixedUtf8(s: string): this {
    const n = Buffer.byteLength(s, 'utf8');
    this.ensure(4 + n);
    this.buf.writeInt32BE(n, this.pos);
    this.buf.write(s, this.pos + 4, n, 'utf8');
    this.pos += 4 + n;
    return this;
  }

  lengthPrefixedBytes(src: Uint8Array): this {
    this.i32(src.length);
    return this.bytes(src);
  }

  /** Leaves `n` bytes to be filled in later (a length prefix); returns their offset. */
  reserve(n: number): number {
    this.ensure(n);
    const at = this.pos;
    this.pos += n;
    return at;
  }

  /** The written bytes, a view on the writer's buffer (valid until the buffer is released). */
  view(): Buffer {
    return this.buf.subarray(0, this.pos);
  }

  /**
   * Hands the buffer back to the pool; the writer must not be used afterwards. A second call does nothing (a
   * buffer given back twice would go to two users).
   */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#pool?.release(this.buf);
  }
}
