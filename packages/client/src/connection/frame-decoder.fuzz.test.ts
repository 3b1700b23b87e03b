import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IoTDBProtocolError } from '@iotdb/fast-serializer';
import { FrameDecoder } from './frame-decoder.js';

const SEED = 20261123;

function framed(payloads: readonly Uint8Array[]): Buffer {
  return Buffer.concat(
    payloads.flatMap((p) => {
      const h = Buffer.alloc(4);
      h.writeInt32BE(p.length, 0);
      return [h, Buffer.from(p)];
    }),
  );
}

/** `bytes` cut at the given points (each taken modulo the length). */
function cut(bytes: Buffer, points: readonly number[]): Buffer[] {
  const at = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const p of [...at, bytes.length]) {
    out.push(bytes.subarray(from, p));
    from = p;
  }
  return out;
}

describe('FrameDecoder, property tests', () => {
  it('hands out the same frames however the stream is cut', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (payloads, points) => {
          const d = new FrameDecoder(1 << 20);
          const out: Buffer[] = [];
          for (const chunk of cut(framed(payloads), points)) d.push(chunk, (f) => out.push(Buffer.from(f)));
          expect(out).toEqual(payloads.map((p) => Buffer.from(p)));
          expect(d.pendingBytes).toBe(0);
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('meets garbage with IoTDBProtocolError or waits for more bytes, holding at most the bytes received', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.array(fc.nat(), { maxLength: 8 }), (garbage, points) => {
        const d = new FrameDecoder(1 << 16);
        let received = 0;
        try {
          for (const chunk of cut(Buffer.from(garbage), points)) {
            received += chunk.length;
            d.push(chunk, () => undefined);
            expect(d.pendingBytes).toBeLessThanOrEqual(received);
          }
        } catch (e) {
          expect(e).toBeInstanceOf(IoTDBProtocolError);
        }
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});
