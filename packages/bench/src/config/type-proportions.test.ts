import { describe, expect, it } from 'vitest';
import type { RawValue } from './parsers.js';
import {
  formatProportions,
  parseTypeProportions,
  proportions,
  sameProportions,
  TYPE_ORDER,
} from './type-proportions.js';

describe('typeProportions (INSERT_DATATYPE_PROPORTION)', () => {
  it('6 entries: BOOLEAN:INT32:INT64:FLOAT:DOUBLE:TEXT, the newer four 0', () => {
    const p = parseTypeProportions('1:2:3:4:5:6');
    expect(p).toEqual({
      BOOLEAN: 1,
      INT32: 2,
      INT64: 3,
      FLOAT: 4,
      DOUBLE: 5,
      TEXT: 6,
      TIMESTAMP: 0,
      DATE: 0,
      BLOB: 0,
      STRING: 0,
    });
    expect(Object.keys(p)).toEqual([...TYPE_ORDER]);
  });

  it('10 entries add TIMESTAMP:DATE:BLOB:STRING; decimals and spaces are fine', () => {
    expect(parseTypeProportions('0:0:0:0:0:0: 1 :2:0.5:3')).toEqual(
      proportions({ TIMESTAMP: 1, DATE: 2, BLOB: 0.5, STRING: 3 }),
    );
  });

  it('config files may give a list or an object by type name', () => {
    expect(parseTypeProportions([1, '1', 0, 0, 0, 0])).toEqual(proportions({ BOOLEAN: 1, INT32: 1 }));
    expect(parseTypeProportions({ FLOAT: 3, STRING: 1 })).toEqual(proportions({ FLOAT: 3, STRING: 1 }));
  });

  it('rejects other lengths, negative or non-numbers, unknown types and all zeros', () => {
    const bad: RawValue[] = [
      '1:1:1:1:1',
      '1:1:1:1:1:1:1',
      '1:1:1:1:1:1:1:1:1:1:1',
      '1:1:1:-1:1:1',
      '1:1:x:1:1:1',
      '1::1:1:1:1',
      '0:0:0:0:0:0',
      '',
      5,
      { FLOAT: 1, VECTOR: 1 },
      { FLOAT: -1 },
    ];
    for (const b of bad) {
      expect(() => parseTypeProportions(b), JSON.stringify(b)).toThrow(/needs 6 or 10 weights >= 0, at least one > 0/);
    }
  });

  it('formats back to the colon form; compares shares', () => {
    expect(formatProportions(parseTypeProportions('1:1:1:1:1:1'))).toBe('1:1:1:1:1:1');
    expect(formatProportions(proportions({ BLOB: 1 }))).toBe('0:0:0:0:0:0:0:0:1:0');
    expect(sameProportions(parseTypeProportions('1:2:0:0:0:0'), parseTypeProportions('2:4:0:0:0:0'))).toBe(true);
    expect(sameProportions(parseTypeProportions('1:2:0:0:0:0'), parseTypeProportions('2:1:0:0:0:0'))).toBe(false);
  });
});
