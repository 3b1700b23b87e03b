/** `RESULT a=1 b=x` -> { a: '1', b: 'x' }: the Java references' machine-readable lines, after their first word. */
export function keyValues(line: string): Record<string, string> {
  return Object.fromEntries(
    line
      .trim()
      .split(/\s+/)
      .slice(1)
      .map((p) => {
        const at = p.indexOf('=');
        return at < 0 ? [p, ''] : [p.slice(0, at), p.slice(at + 1)];
      }),
  );
}

/** A Java line's `error=` field: the rest of the line, spaces and all (an exception's message comes last). */
export function errorField(line: string): string {
  return line.slice(line.indexOf(' error=') + 7);
}
