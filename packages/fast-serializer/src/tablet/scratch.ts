/**
 * Reusable typed-array scratch space for the encoder. Numbers are gathered into a typed array
 * (native little-endian), then copied into the request in one go and byte-swapped there with
 * Buffer#swap32/swap64: measured faster than one Buffer#write*BE call per value, and it allocates
 * nothing once the scratch has grown to the largest column seen.
 */
let scratch = new ArrayBuffer(64 * 1024);

export function scratchBuffer(bytes: number): ArrayBuffer {
  if (scratch.byteLength < bytes) scratch = new ArrayBuffer(Math.max(bytes, scratch.byteLength * 2));
  return scratch;
}

/** Copies `bytes` bytes of `src` to `out[pos]` and swaps each `width`-byte word to big-endian. */
export function copySwapped(
  out: Buffer,
  pos: number,
  src: ArrayBufferLike,
  srcOffset: number,
  bytes: number,
  width: 4 | 8,
): void {
  if (bytes === 0) return;
  out.set(new Uint8Array(src, srcOffset, bytes), pos);
  const view = out.subarray(pos, pos + bytes);
  if (width === 4) view.swap32();
  else view.swap64();
}
