import { describe, expect, it } from 'vitest';
import { byReportOrder } from './latency-matrix.js';

describe('the latency matrix', () => {
  it('lists writes first, then the query types in order, each with its uncorrected and traced rows after it, the start lag last', () => {
    const ops = [
      'traced GROUP_BY: decode',
      'GROUP_BY',
      'uncorrected TIME_RANGE',
      'TIME_RANGE',
      'traced insertTablet',
      'traced insertTablet: serialize',
      'PRECISE_POINT',
      'start lag',
      'insertTablet',
      'uncorrected insertTablet',
    ];
    expect(byReportOrder(ops)).toEqual([
      'insertTablet',
      'uncorrected insertTablet',
      'traced insertTablet',
      'traced insertTablet: serialize',
      'PRECISE_POINT',
      'TIME_RANGE',
      'uncorrected TIME_RANGE',
      'GROUP_BY',
      'traced GROUP_BY: decode',
      'start lag',
    ]);
  });
});

describe('the latency matrix after --queries', () => {
  it("puts each type's row after the writes right after the mixed run's own row of that type", () => {
    const ops = ['GROUP_BY after the writes', 'TIME_RANGE after the writes', 'insertTablet', 'TIME_RANGE', 'GROUP_BY'];
    expect(byReportOrder(ops)).toEqual([
      'insertTablet',
      'TIME_RANGE',
      'TIME_RANGE after the writes',
      'GROUP_BY',
      'GROUP_BY after the writes',
    ]);
  });
});
