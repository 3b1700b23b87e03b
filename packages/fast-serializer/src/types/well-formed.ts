/**
 * Why a string cannot go to the server as it is, or undefined when it can. UTF-8 has no code for a lone surrogate
 * (half of a UTF-16 pair, as slicing an emoji leaves it): Buffer would send U+FFFD in its place (the Java client a
 * '?'), and the server would store another value than the one given.
 */
export function notWellFormed(s: string): string | undefined {
  // one-byte strings (all of Latin-1) hold no surrogate: V8 answers them without a scan
  if (s.isWellFormed()) return undefined;
  const at = loneSurrogateAt(s);
  const unit = s.charCodeAt(at).toString(16).toUpperCase();
  return `is not well-formed Unicode: a lone surrogate (U+${unit}) at index ${at}, which UTF-8 cannot carry (it would be stored as U+FFFD)`;
}

function loneSurrogateAt(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00)
      i++; // a pair
    else return i;
  }
  return -1;
}
