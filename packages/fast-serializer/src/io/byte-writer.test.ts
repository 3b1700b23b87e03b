import { describe, expect, it } from 'vitest';
import { BufferPool } from '../pool/buffer-pool.js';
import { ByteWriter } from './byte-writer.js';

describe('ByteWriter.release', () => {
  it('gives its buffer back to the pool once, however often it is called', () => {
    const pool = new BufferPool();
    const w = new ByteWriter(4096, pool);
    w.release();
    w.release();
    expect(pool.getStats()).toMatchObject({ outstanding: 0, pooledBuffers: 1 });
    // two writers made now get two buffers, not the same one twice
    const [a, b] = [new ByteWriter(4096, pool), new ByteWriter(4096, pool)];
    expect(a.buf).not.toBe(b.buf);
  });

  it('gives back the buffer it grew into, not the one it started with', () => {
    const pool = new BufferPool();
    const w = new ByteWriter(4096, pool);
    w.bytes(Buffer.alloc(10_000));
    w.release();
    expect(pool.getStats()).toMatchObject({ outstanding: 0 });
  });
});
