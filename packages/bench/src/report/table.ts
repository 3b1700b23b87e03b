import stringWidth from 'string-width';

/** Plain-text tables: first column left-aligned, the others right-aligned (they hold numbers). */

export function textTable(header: string[], rows: string[][], indent = '  '): string {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((row) => columns(row[c] ?? ''))));
  const line = (row: string[]): string =>
    indent +
    widths
      .map((w, c) => (c === 0 ? padEnd(row[c] ?? '', w) : padStart(row[c] ?? '', w)))
      .join('  ')
      .trimEnd();
  const rule = indent + widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/**
 * The columns a text takes on a terminal, which its length is not: a CJK character takes two (a query file's label
 * may be Chinese), a combining mark none.
 */
export const columns = (text: string): number => stringWidth(text);

/** The text, then blanks to `width` columns. */
export const padEnd = (text: string, width: number): string => text + ' '.repeat(Math.max(0, width - columns(text)));

/** Blanks to `width` columns, then the text. */
export const padStart = (text: string, width: number): string => ' '.repeat(Math.max(0, width - columns(text))) + text;
