import { describe, expect, it } from 'vitest';
import { decodeTsBlock } from '@iotdb/fast-serializer';
import { AnchorTabletBuilder } from './anchor.js';
import { anchorTsBlock } from './anchor-tsblock.js';

describe('anchorTsBlock', () => {
  const types = new AnchorTabletBuilder({ sensors: 12, rows: 1 }).types;
  const tablet = new AnchorTabletBuilder({ sensors: 12, rows: 7 }).fill(0, 0);
  const cell = (s: number, r: number) => {
    const v = (tablet.columns![s] as ArrayLike<unknown>)[r];
    return typeof v === 'boolean' ? (v ? 1 : 0) : v;
  };

  it('decodes to the anchor tablet values, no nulls', () => {
    const block = decodeTsBlock(anchorTsBlock(7, 12), types);
    expect(block.rows).toBe(7);
    expect(block.columns.every((c) => c.nulls === null)).toBe(true);
    for (let s = 0; s < 12; s++)
      for (let r = 0; r < 7; r++) expect(block.columns[s].values[r], `s${s} row ${r}`).toEqual(cell(s, r));
  });

  it('with nullEvery = 3 makes the cells where (row + sensor) % 3 is 0 null and keeps the others', () => {
    const block = decodeTsBlock(anchorTsBlock(7, 12, 3), types);
    for (let s = 0; s < 12; s++)
      for (let r = 0; r < 7; r++) {
        const c = block.columns[s];
        if ((r + s) % 3 === 0) expect(c.nulls![r], `s${s} row ${r}`).toBe(1);
        else expect(c.values[r], `s${s} row ${r}`).toEqual(cell(s, r));
      }
  });
});
