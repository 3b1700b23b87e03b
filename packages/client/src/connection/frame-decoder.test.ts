import { describe, expect, it } from 'vitest';
import { IoTDBProtocolError } from '@iotdb/fast-serializer';
import { FrameDecoder } from './frame-decoder.js';
import { POOLED_FRAME_BYTES } from './frame-pool.js';

/** A Thrift frame: 4-byte big-endian length, then the payload. */
function frame(payload: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header.writeInt32BE(payload.length, 0);
  return Buffer.concat([header, payload]);
}

function payloadOf(n: number, seed: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed * 7) & 0xff;
  return b;
}

/** Feeds the chunks and returns copies of the frames handed out, in order. */
function decode(chunks: readonly Buffer[], max = 1 << 20): Buffer[] {
  const d = new FrameDecoder(max);
  const out: Buffer[] = [];
  for (const c of chunks) d.push(c, (f) => out.push(Buffer.from(f)));
  return out;
}

const A = payloadOf(13, 1);
const B = payloadOf(300, 2);
const C = payloadOf(1, 3);

describe('FrameDecoder', () => {
  it('hands out a frame fed as one whole chunk', () => {
    expect(decode([frame(A)])).toEqual([A]);
  });

  it('hands out a whole frame without copying it (a view of the chunk)', () => {
    const chunk = frame(B);
    const seen: Buffer[] = [];
    new FrameDecoder(1024).push(chunk, (f) => seen.push(f));
    expect(seen).toHaveLength(1);
    expect(seen[0].buffer).toBe(chunk.buffer);
    expect(seen[0].byteOffset).toBe(chunk.byteOffset + 4);
  });

  it('reassembles a frame split in two at every offset', () => {
    const whole = frame(B);
    for (let at = 1; at < whole.length; at++) {
      const got = decode([whole.subarray(0, at), whole.subarray(at)]);
      expect(got, `split at ${at}`).toEqual([B]);
    }
  });

  it('reassembles three frames in one stream split in two at every offset', () => {
    const stream = Buffer.concat([frame(A), frame(B), frame(C)]);
    for (let at = 1; at < stream.length; at++) {
      const got = decode([stream.subarray(0, at), stream.subarray(at)]);
      expect(got, `split at ${at}`).toEqual([A, B, C]);
    }
  });

  it('reassembles frames fed one byte at a time', () => {
    const stream = Buffer.concat([frame(A), frame(Buffer.alloc(0)), frame(B), frame(C)]);
    const chunks = [...stream].map((b) => Buffer.from([b]));
    expect(decode(chunks)).toEqual([A, Buffer.alloc(0), B, C]);
  });

  it('hands out every frame of a chunk holding several, in order', () => {
    const frames = [A, B, C, payloadOf(4, 9), payloadOf(4096, 5)];
    expect(decode([Buffer.concat(frames.map(frame))])).toEqual(frames);
  });

  it('hands out frames completed across chunks that also start the next frame', () => {
    const stream = Buffer.concat([frame(A), frame(B), frame(C)]);
    // odd chunk sizes that cut headers and payloads in varied places
    const chunks: Buffer[] = [];
    for (let pos = 0, size = 1; pos < stream.length; pos += size, size = ((size * 3) % 17) + 1) {
      chunks.push(stream.subarray(pos, pos + size));
    }
    expect(decode(chunks)).toEqual([A, B, C]);
  });

  it('hands out a zero-length frame as an empty buffer', () => {
    const got = decode([frame(Buffer.alloc(0))]);
    expect(got).toHaveLength(1);
    expect(got[0].length).toBe(0);
  });

  it('hands out a zero-length frame whose header is split, then the next frame', () => {
    const stream = Buffer.concat([frame(Buffer.alloc(0)), frame(A)]);
    expect(decode([stream.subarray(0, 2), stream.subarray(2)])).toEqual([Buffer.alloc(0), A]);
  });

  it('hands out zero-length frames between others in one chunk', () => {
    const empty = Buffer.alloc(0);
    expect(decode([Buffer.concat([frame(empty), frame(A), frame(empty), frame(empty), frame(C)])])).toEqual([
      empty,
      A,
      empty,
      empty,
      C,
    ]);
  });

  it('waits for the rest of an incomplete frame without handing anything out', () => {
    const d = new FrameDecoder(1024);
    const out: Buffer[] = [];
    const whole = frame(B);
    d.push(whole.subarray(0, 3), (f) => out.push(f));
    d.push(whole.subarray(3, 100), (f) => out.push(f));
    expect(out).toHaveLength(0);
    d.push(whole.subarray(100), (f) => out.push(Buffer.from(f)));
    expect(out).toEqual([B]);
  });

  it('accepts a frame exactly at the limit', () => {
    const p = payloadOf(64, 4);
    expect(decode([frame(p)], 64)).toEqual([p]);
  });

  it('throws IoTDBProtocolError for a frame length over the limit (header in one chunk)', () => {
    const d = new FrameDecoder(64);
    expect(() => d.push(frame(payloadOf(65, 1)), () => {})).toThrow(IoTDBProtocolError);
  });

  it('throws IoTDBProtocolError for a frame length over the limit (header split across chunks)', () => {
    const d = new FrameDecoder(64);
    const header = Buffer.alloc(4);
    header.writeInt32BE(1000, 0);
    d.push(header.subarray(0, 2), () => {});
    expect(() => d.push(header.subarray(2), () => {})).toThrow(/exceeds maxFrameBytes=64/);
  });

  it('throws IoTDBProtocolError for a negative frame length (high bit set)', () => {
    const d = new FrameDecoder(1 << 20);
    expect(() => d.push(Buffer.from([0xff, 0xff, 0xff, 0xf0, 1, 2]), () => {})).toThrow(IoTDBProtocolError);
  });
});

describe('FrameDecoder memory', () => {
  it('holds only the bytes received, whatever length a header announces', () => {
    const d = new FrameDecoder(512 * 1024 * 1024);
    const header = Buffer.alloc(4);
    header.writeInt32BE(512 * 1024 * 1024 - 1, 0);
    d.push(Buffer.concat([header, Buffer.alloc(10)]), () => {});
    expect(d.pendingBytes).toBe(10);
    d.push(Buffer.alloc(1000), () => {});
    expect(d.pendingBytes).toBe(1010);
  });

  it('hands out a frame collected from many pieces, then starts the next from zero', () => {
    const d = new FrameDecoder(1 << 20);
    const out: Buffer[] = [];
    const bytes = Buffer.concat([frame(B), frame(A)]);
    for (let i = 0; i < bytes.length; i += 7) d.push(bytes.subarray(i, i + 7), (f) => out.push(Buffer.from(f)));
    expect(out).toEqual([B, A]);
    expect(d.pendingBytes).toBe(0);
  });

  it('copies a frame of a megabyte or more from several chunks into a pooled buffer, and hands the buffer out beside it', () => {
    const big = payloadOf(POOLED_FRAME_BYTES + 5, 4);
    const bytes = frame(big);
    const seen: { frame: Buffer; pooled?: Buffer }[] = [];
    const d = new FrameDecoder(8 << 20);
    for (let i = 0; i < bytes.length; i += 65_536)
      d.push(bytes.subarray(i, i + 65_536), (f, pooled) => seen.push({ frame: f, pooled }));
    d.push(frame(A), (f, pooled) => seen.push({ frame: f, pooled })); // small, in one chunk: a view, not pooled
    // Buffer.equals, not toEqual: a deep compare of a megabyte byte by byte takes seconds.
    expect(seen.map((s) => s.frame.length)).toEqual([big.length, A.length]);
    expect(seen[0].frame.equals(big) && seen[1].frame.equals(A)).toBe(true);
    expect(seen[0].pooled?.length).toBe(2 * POOLED_FRAME_BYTES); // its size class
    expect(seen[0].frame.buffer).toBe(seen[0].pooled?.buffer);
    expect(seen[1].pooled).toBeUndefined();
  });
});
