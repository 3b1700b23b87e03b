import { describe, expect, it } from 'vitest';
import { IoTDBValidationError } from '../errors.js';
import { ByteWriter } from '../io/byte-writer.js';
import { BufferPool, globalBufferPool } from './buffer-pool.js';

const isPowerOfTwo = (n: number) => n > 0 && (n & (n - 1)) === 0;

describe('BufferPool size classes', () => {
  it('returns a power-of-two buffer of at least the requested size', () => {
    const pool = new BufferPool();
    const b = pool.acquire(5000);
    expect(b.length).toBeGreaterThanOrEqual(5000);
    expect(isPowerOfTwo(b.length)).toBe(true);
    expect(b.length).toBe(8192);
  });

  it.each([
    [0, 4096],
    [1, 4096],
    [4095, 4096],
    [4096, 4096],
    [4097, 8192],
    [65536, 65536],
    [65537, 131072],
  ])('serves a request of %i bytes from the %i-byte class', (size, cls) => {
    expect(new BufferPool().acquire(size).length).toBe(cls);
  });

  it('rounds a minBufferSize that is not a power of two up to one', () => {
    expect(new BufferPool({ minBufferSize: 5000 }).acquire(1).length).toBe(8192);
  });

  it('hands out distinct buffers while none is released', () => {
    const pool = new BufferPool();
    const a = pool.acquire(100);
    const b = pool.acquire(100);
    expect(a).not.toBe(b);
    expect(a.buffer).not.toBe(b.buffer); // not slices of one shared slab
  });

  it('rejects impossible options', () => {
    expect(() => new BufferPool({ minBufferSize: 0 })).toThrow(IoTDBValidationError);
    expect(() => new BufferPool({ minBufferSize: 8192, maxBufferSize: 4096 })).toThrow(IoTDBValidationError);
    expect(() => new BufferPool({ maxRetainedBytes: -1 })).toThrow(IoTDBValidationError);
  });
});

describe('BufferPool reuse and statistics', () => {
  it('starts with empty statistics', () => {
    expect(new BufferPool().getStats()).toEqual({
      acquires: 0,
      hits: 0,
      misses: 0,
      hitRate: 0,
      pooledBuffers: 0,
      retainedBytes: 0,
      outstanding: 0,
    });
  });

  it('serves a release then acquire of the same class from the pool (a hit)', () => {
    const pool = new BufferPool();
    const a = pool.acquire(5000);
    expect(pool.getStats()).toMatchObject({ acquires: 1, hits: 0, misses: 1, outstanding: 1, pooledBuffers: 0 });
    pool.release(a);
    expect(pool.getStats()).toMatchObject({ outstanding: 0, pooledBuffers: 1, retainedBytes: 8192 });
    const b = pool.acquire(6000);
    expect(b).toBe(a);
    expect(pool.getStats()).toEqual({
      acquires: 2,
      hits: 1,
      misses: 1,
      hitRate: 0.5,
      pooledBuffers: 0,
      retainedBytes: 0,
      outstanding: 1,
    });
  });

  it('does not serve a request from a smaller or larger class', () => {
    const pool = new BufferPool();
    pool.release(pool.acquire(4096));
    const big = pool.acquire(4097);
    expect(big.length).toBe(8192);
    pool.release(big);
    expect(pool.acquire(100).length).toBe(4096); // the 4096 buffer, not the 8192 one
    expect(pool.getStats()).toMatchObject({ hits: 1, misses: 2, pooledBuffers: 1, retainedBytes: 8192 });
  });

  it('keeps several buffers per class and counts them', () => {
    const pool = new BufferPool();
    const bufs = [pool.acquire(10), pool.acquire(10), pool.acquire(10000)];
    expect(pool.getStats().outstanding).toBe(3);
    bufs.forEach((b) => pool.release(b));
    expect(pool.getStats()).toMatchObject({ pooledBuffers: 3, retainedBytes: 4096 + 4096 + 16384, outstanding: 0 });
  });

  it('drops released buffers beyond maxRetainedBytes', () => {
    const pool = new BufferPool({ maxRetainedBytes: 10000 });
    const bufs = [pool.acquire(4096), pool.acquire(4096), pool.acquire(4096)];
    bufs.forEach((b) => pool.release(b));
    expect(pool.getStats()).toMatchObject({ pooledBuffers: 2, retainedBytes: 8192, outstanding: 0 });
    pool.release(pool.acquire(16384)); // would exceed the bound on its own
    expect(pool.getStats()).toMatchObject({ pooledBuffers: 2, retainedBytes: 8192 });
  });

  it('retains nothing with maxRetainedBytes = 0', () => {
    const pool = new BufferPool({ maxRetainedBytes: 0 });
    pool.release(pool.acquire(1));
    expect(pool.acquire(1)).toBeDefined();
    expect(pool.getStats()).toMatchObject({ hits: 0, pooledBuffers: 0, retainedBytes: 0 });
  });

  it('allocates requests beyond maxBufferSize exactly and never pools them', () => {
    const pool = new BufferPool({ minBufferSize: 1024, maxBufferSize: 16384 });
    const big = pool.acquire(20000);
    expect(big.length).toBe(20000);
    pool.release(big);
    expect(pool.getStats()).toMatchObject({ pooledBuffers: 0, retainedBytes: 0, outstanding: 0 });
    expect(pool.acquire(20000)).not.toBe(big);
    expect(pool.getStats().hits).toBe(0);
    expect(pool.acquire(16384).length).toBe(16384); // the largest class is still pooled
  });

  it('ignores released buffers whose size is not a class size', () => {
    const pool = new BufferPool();
    pool.release(Buffer.alloc(5000));
    expect(pool.getStats()).toMatchObject({ pooledBuffers: 0, retainedBytes: 0 });
  });

  it('clear() empties the free lists but keeps the counters', () => {
    const pool = new BufferPool();
    const a = pool.acquire(1);
    const b = pool.acquire(9000);
    pool.release(a);
    pool.release(b);
    pool.clear();
    expect(pool.getStats()).toMatchObject({ acquires: 2, misses: 2, pooledBuffers: 0, retainedBytes: 0 });
    const c = pool.acquire(1);
    expect(c).not.toBe(a);
    expect(pool.getStats()).toMatchObject({ hits: 0, misses: 3 });
  });
});

describe('BufferPool with ByteWriter', () => {
  it('returns the outgrown buffer to the pool when the writer grows, and the final one on release', () => {
    const pool = new BufferPool({ minBufferSize: 16 });
    const w = new ByteWriter(16, pool);
    for (let i = 0; i < 10; i++) w.i32(i);
    expect(w.view().length).toBe(40);
    expect(w.view().readInt32BE(36)).toBe(9);
    expect(w.buf.length).toBe(64); // 16 -> 32 -> 64
    expect(pool.getStats()).toMatchObject({ acquires: 3, outstanding: 1, pooledBuffers: 2, retainedBytes: 16 + 32 });
    w.release();
    expect(pool.getStats()).toMatchObject({ outstanding: 0, pooledBuffers: 3, retainedBytes: 16 + 32 + 64 });
  });

  it('exports a shared global pool', () => {
    expect(globalBufferPool).toBeInstanceOf(BufferPool);
    const b = globalBufferPool.acquire(1);
    expect(b.length).toBe(4096);
    globalBufferPool.release(b);
  });
});
