import { columns, padEnd, padStart } from './text-columns.js';

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
