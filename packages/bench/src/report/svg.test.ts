import { describe, expect, it } from 'vitest';
import { labelMargin, legend, shortLabel } from './svg.js';

describe('shortLabel', () => {
  it('keeps a label that fits', () => {
    expect(shortLabel('insertTablet', 12)).toBe('insertTablet');
  });

  it('cuts a long label in the middle, so that labels told apart by their end stay apart', () => {
    const [a, b] = ['tree-insertTablet-mixed#1', 'tree-insertTablet-mixed#2'].map((l) => shortLabel(l, 16));
    expect(a).toHaveLength(16);
    expect(a).toBe('tree-ins…mixed#1');
    expect(b).not.toBe(a);
  });

  it('counts a character as the columns it takes (a CJK one two) and cuts between whole characters', () => {
    expect(shortLabel('一二三四五六', 12)).toBe('一二三四五六');
    // 11 columns: 5 before the ellipsis (two characters), 5 after
    expect(shortLabel('一二三四五六七八九十', 11)).toBe('一二…九十');
    expect(shortLabel('cafe\u0301 au lait, grande', 11)).toBe('cafe\u0301 …rande');
  });
});

describe('label widths', () => {
  it("leaves a CJK label the room of its characters at the charts' 12 px font: about 12 px each", () => {
    expect(labelMargin(['一二三四'])).toBeGreaterThanOrEqual(14 + 4 * 12);
    expect(labelMargin(['abcd'])).toBeLessThan(14 + 4 * 12);
  });

  it('places a legend entry of CJK characters by their width', () => {
    // a swatch and its gap (18 px), then four characters of two columns, 7 px each, ending at the right edge (200)
    expect(legend([{ name: '一二三四', fill: '#000' }], 200, 20)).toContain('<rect x="126"');
  });
});
