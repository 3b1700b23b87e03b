import { IoTDBValidationError } from '../errors.js';
/**
 * Reuses request buffers so that steady-state encoding allocates nothing.
 *
 * Buffers come in power-of-two size classes from `minBufferSize` up to `maxBufferSize`; a request
 * larger than the biggest class is served by a one-off allocation that is never pooled. Released
 * buffers are kept per class up to `maxRetainedBytes` in all; beyond that they are dropped for the
 * GC. A buffer must only be released once nothing reads it any more (for a socket: once the write
 * callback fired), and never twice.
 */
export interface BufferPoolOptions {
  /** Smallest size class in bytes. @default 4096 */
  minBufferSize?: number;
  /** Largest pooled size class in bytes; larger requests are allocated and not pooled. @default 67108864 (64 MiB) */
  maxBufferSize?: number;
  /** Upper bound on the bytes kept in the pool's free lists. @default 268435456 (256 MiB) */
  maxRetainedBytes?: number;
}

export interface BufferPoolStats {
  acquires: number;
  hits: number;
  misses: number;
  /** hits / acquires, 0 when nothing was acquired yet */
  hitRate: number;
  /** buffers waiting in the free lists */
  pooledBuffers: number;
  /** bytes held by those buffers */
  retainedBytes: number;
  /** buffers handed out and not yet released */
  outstanding: number;
}

const DEFAULTS: Required<BufferPoolOptions> = Object.freeze({
  minBufferSize: 4096,
  maxBufferSize: 64 * 1024 * 1024,
  maxRetainedBytes: 256 * 1024 * 1024,
});

export class BufferPool {
  readonly #minShift: number;
  readonly #maxSize: number;
  readonly #maxRetained: number;
  readonly #free: Buffer[][] = [];
  #retained = 0;
  #acquires = 0;
  #hits = 0;
  #outstanding = 0;

  constructor(options: BufferPoolOptions = {}) {
    const o = { ...DEFAULTS, ...options };
    if (!(o.minBufferSize > 0) || !(o.maxBufferSize >= o.minBufferSize) || !(o.maxRetainedBytes >= 0)) {
      throw new IoTDBValidationError(
        'options',
        'BufferPool: need 0 < minBufferSize <= maxBufferSize and maxRetainedBytes >= 0',
      );
    }
    this.#minShift = Math.ceil(Math.log2(o.minBufferSize));
    this.#maxSize = 2 ** Math.ceil(Math.log2(o.maxBufferSize));
    this.#maxRetained = o.maxRetainedBytes;
  }

  /** A buffer of at least `size` bytes; its contents are not zeroed. */
  acquire(size: number): Buffer {
    this.#acquires++;
    this.#outstanding++;
    const cls = this.#classOf(size);
    if (cls < 0) return Buffer.allocUnsafeSlow(size);
    const list = this.#free[cls];
    const buf = list?.pop();
    if (buf !== undefined) {
      this.#hits++;
      this.#retained -= buf.length;
      return buf;
    }
    // allocUnsafeSlow: a buffer of its own, not a slice of Node's shared 8 KiB slab, so it can be kept.
    return Buffer.allocUnsafeSlow(2 ** (cls + this.#minShift));
  }

  /** Gives a buffer obtained from `acquire` back. Buffers of a foreign size are ignored. */
  release(buf: Buffer): void {
    this.#outstanding--; // counted even when the buffer is not kept: it is no longer out
    const size = buf.length;
    const cls = this.#classOf(size);
    if (cls < 0 || 2 ** (cls + this.#minShift) !== size) return;
    if (this.#retained + size > this.#maxRetained) return;
    (this.#free[cls] ??= []).push(buf);
    this.#retained += size;
  }

  getStats(): BufferPoolStats {
    let pooled = 0;
    for (const list of this.#free) pooled += list?.length ?? 0;
    return {
      acquires: this.#acquires,
      hits: this.#hits,
      misses: this.#acquires - this.#hits,
      hitRate: this.#acquires === 0 ? 0 : this.#hits / this.#acquires,
      pooledBuffers: pooled,
      retainedBytes: this.#retained,
      outstanding: this.#outstanding,
    };
  }

  /** Drops every pooled buffer (statistics are kept). */
  clear(): void {
    this.#free.length = 0;
    this.#retained = 0;
  }

  /** size class index, or -1 when the size is beyond the largest class */
  #classOf(size: number): number {
    if (size > this.#maxSize) return -1;
    const shift = size <= 1 ? 0 : 32 - Math.clz32(size - 1);
    return Math.max(0, shift - this.#minShift);
  }
}

/** The pool the client uses unless given another one. */
export const globalBufferPool = new BufferPool();
