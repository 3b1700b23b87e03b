/**
 * UTF-8 for the many short strings of TEXT/STRING columns. Calling into Buffer#write and
 * Buffer.byteLength costs ~80 ns per string (measured on the anchor tablet: 2500 strings took 83% of the
 * encode time); a JS loop over a short string is a fraction of that. Long strings, and any string with a
 * non-ASCII character when writing, go to the native encoder, which produces the same bytes. A lone surrogate
 * (3 bytes of U+FFFD in both) is refused: writeUtf8 says so, the cell checks name it (types/well-formed.ts).
 */
const SHORT = 64;

export function utf8Length(s: string): number {
  const n = s.length;
  if (n > SHORT) return Buffer.byteLength(s, 'utf8');
  let bytes = n;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a surrogate pair: 2 UTF-16 units, 4 bytes
      i++;
    } else bytes += 2; // other BMP characters and lone surrogates (U+FFFD): 3 bytes
  }
  return bytes;
}

/**
 * Writes `s` at out[pos] (the caller reserved utf8Length(s) bytes); returns the byte count, or -1 without writing the
 * rest when `s` holds a lone surrogate, which UTF-8 cannot carry. An ASCII string is its own proof; only the others
 * are asked (isWellFormed, a call per string: 10 % of a tablet's encode when every string paid it).
 */
export function writeUtf8(out: Buffer, pos: number, s: string): number {
  const n = s.length;
  if (n <= SHORT) {
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      out[pos + i] = c;
    }
    if (i === n) return n;
  }
  return s.isWellFormed() ? out.write(s, pos, 'utf8') : -1;
}
