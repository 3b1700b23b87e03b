import { describe, expect, it } from 'vitest';
import { textTable } from './table.js';

describe('textTable', () => {
  it('pads each cell to the columns it takes on a terminal: a CJK character two, a combining mark none', () => {
    const table = textTable(
      ['query', 'ops'],
      [
        ['中文 标签', '2'],
        ['cafe\u0301', '10'],
        ['a', '300'],
      ],
    );
    expect(table.split('\n')).toEqual([
      '  query      ops',
      '  ---------  ---',
      '  中文 标签    2',
      '  cafe\u0301        10',
      '  a          300',
    ]);
  });
});
