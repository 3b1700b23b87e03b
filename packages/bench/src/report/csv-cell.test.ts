import { describe, expect, it } from 'vitest';
import { csvCell } from './csv-cell.js';

describe('a CSV cell', () => {
  it('keeps a text that a spreadsheet would run as a formula as text (a leading apostrophe)', () => {
    for (const label of ['=HYPERLINK("http://x","y")', '+SUM(A1)', '-2+3', '@cmd', '\tx', '\rx']) {
      expect(csvCell(label)).toMatch(/^"?'/);
    }
    expect(csvCell('=1,2')).toBe(`"'=1,2"`);
  });

  it('leaves numbers, negative ones too, the "-" of no figure and plain text as they are', () => {
    for (const v of ['-1.5', '+2', '-3e-7', '0', '-', 'PRECISE_POINT', 'a-b', '中文 标签']) {
      expect(csvCell(v)).toBe(v);
    }
  });
});
