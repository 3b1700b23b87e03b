import { describe, expect, it } from 'vitest';
import { FRAME_POOL, POOLED_FRAME_BYTES, frameReleaseOf, settleFrame } from './frame-pool.js';

/** Whether `buf` is back in FRAME_POOL: the next buffer of its size handed out is it (put back if it is another). */
function backInPool(buf: Buffer): boolean {
  const next = FRAME_POOL.acquire(buf.length);
  FRAME_POOL.release(next);
  return next === buf;
}

describe("settleFrame: a pooled reply's buffer goes back once nothing reads it", () => {
  it('gives it back at once when the reply holds no view of it', () => {
    const buf = FRAME_POOL.acquire(POOLED_FRAME_BYTES);
    const reply = { status: { code: 200 } };
    settleFrame(reply, buf, false);
    expect(frameReleaseOf(reply)).toBeUndefined();
    expect(backInPool(buf)).toBe(true);
  });

  it('keeps it for the reader when the reply holds views, whichever field holds them (not only queryResult)', () => {
    for (const reply of [{ queryResult: [Buffer.alloc(1)] }, { queryDataSet: { time: Buffer.alloc(1) } }, {}]) {
      const buf = FRAME_POOL.acquire(POOLED_FRAME_BYTES);
      settleFrame(reply, buf, true);
      expect(backInPool(buf)).toBe(false);
      const release = frameReleaseOf(reply)!;
      release();
      release(); // once only: a second call must not put the buffer in the pool twice
      expect(backInPool(buf)).toBe(true);
    }
  });
});
