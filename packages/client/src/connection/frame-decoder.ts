import { FRAME_HEADER_BYTES } from '@iotdb/fast-serializer';

/**
 * Cuts the socket's byte stream into Thrift frames (4-byte big-endian length, then the payload).
 * A frame that arrives inside one chunk is handed out as a view (no copy); a frame spread over
 * several chunks is copied once into a buffer of its final size, never re-concatenated per chunk.
 */
export class FrameDecoder {
  readonly #maxFrameBytes: number;
  #header = Buffer.alloc(FRAME_HEADER_BYTES);
  #headerFill = 0;
  #frame: Buffer | null = null;
  #frameFill = 0;

  constructor(maxFrameBytes: number) {
    this.#maxFrameBytes = maxFrameBytes;
  }

  /** Feeds a chunk; calls `onFrame` for every complete frame, in order. */
  push(chunk: Buffer, onFrame: (frame: Buffer) => void): void {
    let pos = 0;
    while (pos < chunk.length) {
      if (this.#frame === null) {
        if (this.#headerFill === 0 && chunk.length - pos >= FRAME_HEADER_BYTES) {
          const len = this.#checkLength(chunk.readInt32BE(pos));
          if (chunk.length - pos - FRAME_HEADER_BYTES >= len) {
            onFrame(chunk.subarray(pos + FRAME_HEADER_BYTES, pos + FRAME_HEADER_BYTES + len));
            pos += FRAME_HEADER_BYTES + len;
            continue;
          }
          this.#startFrame(len);
          pos += FRAME_HEADER_BYTES;
        } else {
          const n = Math.min(FRAME_HEADER_BYTES - this.#headerFill, chunk.length - pos);
          chunk.copy(this.#header, this.#headerFill, pos, pos + n);
          this.#headerFill += n;
          pos += n;
          if (this.#headerFill < FRAME_HEADER_BYTES) return;
          this.#headerFill = 0;
          const len = this.#checkLength(this.#header.readInt32BE(0));
          if (len === 0) {
            onFrame(Buffer.alloc(0));
            continue;
          }
          this.#startFrame(len);
        }
      }
      const frame = this.#frame!;
      const n = Math.min(frame.length - this.#frameFill, chunk.length - pos);
      chunk.copy(frame, this.#frameFill, pos, pos + n);
      this.#frameFill += n;
      pos += n;
      if (this.#frameFill === frame.length) {
        this.#frame = null;
        onFrame(frame);
      }
    }
  }

  #startFrame(len: number): void {
    this.#frame = Buffer.allocUnsafe(len);
    this.#frameFill = 0;
  }

  #checkLength(len: number): number {
    if (len < 0 || len > this.#maxFrameBytes) {
      throw new RangeError(`frame of ${len} bytes exceeds the limit of ${this.#maxFrameBytes}`);
    }
    return len;
  }
}
