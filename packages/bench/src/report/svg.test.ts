import { describe, expect, it } from 'vitest';
import { shortLabel } from './svg.js';

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
});
