import { FRAME_HEADER_BYTES, IoTDBProtocolError } from '@iotdb/fast-serializer';
import { FRAME_POOL, POOLED_FRAME_BYTES } from './frame-pool.js';

/**
 * Cuts the socket's byte stream into Thrift frames (4-byte big-endian length, then the payload).
 * A frame that arrives inside one chunk is handed out as a view (no copy). A frame spread over
 * several chunks is collected as the chunks arrive and copied once, when complete, into a buffer of
 * its size: what it holds grows with the bytes received, so a header announcing a huge frame
 * allocates nothing (a peer must send the bytes before the client holds them). A length past
 * `maxFrameBytes` or negative is an IoTDBProtocolError.
 */
export class FrameDecoder {
  readonly #maxFrameBytes: number;
  readonly #header = Buffer.alloc(FRAME_HEADER_BYTES);
  #headerFill = 0;
  /** length of the frame being collected, -1 between frames */
  #frameLength = -1;
  #parts: Buffer[] = [];
  #partsBytes = 0;
  /** offset in the stream of the current frame's header, for error messages */
  #streamPos = 0;

  constructor(maxFrameBytes: number) {
    this.#maxFrameBytes = maxFrameBytes;
  }

  /** Bytes of an unfinished frame held right now. */
  get pendingBytes(): number {
    return this.#partsBytes;
  }

  /**
   * Feeds a chunk; calls `onFrame` for every complete frame, in order, with the FRAME_POOL buffer it was copied into
   * when it was (a frame of POOLED_FRAME_BYTES or more over several chunks), for whoever reads it last to give back.
   */
  push(chunk: Buffer, onFrame: (frame: Buffer, pooled?: Buffer) => void): void {
    let pos = 0;
    while (pos < chunk.length) {
      if (this.#frameLength < 0) {
        if (this.#headerFill === 0 && chunk.length - pos >= FRAME_HEADER_BYTES) {
          const len = this.#checkLength(chunk.readInt32BE(pos));
          if (chunk.length - pos - FRAME_HEADER_BYTES >= len) {
            onFrame(chunk.subarray(pos + FRAME_HEADER_BYTES, pos + FRAME_HEADER_BYTES + len));
            pos += FRAME_HEADER_BYTES + len;
            this.#streamPos += FRAME_HEADER_BYTES + len;
            continue;
          }
          this.#frameLength = len;
          pos += FRAME_HEADER_BYTES;
        } else {
          const n = Math.min(FRAME_HEADER_BYTES - this.#headerFill, chunk.length - pos);
          chunk.copy(this.#header, this.#headerFill, pos, pos + n);
          this.#headerFill += n;
          pos += n;
          if (this.#headerFill < FRAME_HEADER_BYTES) return;
          this.#headerFill = 0;
          this.#frameLength = this.#checkLength(this.#header.readInt32BE(0));
        }
      }
      const n = Math.min(this.#frameLength - this.#partsBytes, chunk.length - pos);
      if (n > 0) this.#parts.push(chunk.subarray(pos, pos + n));
      this.#partsBytes += n;
      pos += n;
      if (this.#partsBytes === this.#frameLength) this.#takeFrame(onFrame);
    }
  }

  #takeFrame(onFrame: (frame: Buffer, pooled?: Buffer) => void): void {
    const [parts, bytes] = [this.#parts, this.#partsBytes];
    this.#streamPos += FRAME_HEADER_BYTES + this.#frameLength;
    this.#parts = [];
    this.#partsBytes = 0;
    this.#frameLength = -1;
    if (bytes < POOLED_FRAME_BYTES) {
      onFrame(parts.length === 1 ? Buffer.from(parts[0]) : Buffer.concat(parts, bytes));
      return;
    }
    const pooled = FRAME_POOL.acquire(bytes);
    let at = 0;
    for (const part of parts) at += part.copy(pooled, at);
    onFrame(pooled.subarray(0, bytes), pooled);
  }

  #checkLength(len: number): number {
    if (len < 0 || len > this.#maxFrameBytes) {
      throw new IoTDBProtocolError(
        `frame of ${len} bytes at stream offset ${this.#streamPos} exceeds maxFrameBytes=${this.#maxFrameBytes}`,
      );
    }
    return len;
  }
}
