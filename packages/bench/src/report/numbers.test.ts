import { describe, expect, it } from 'vitest';
import { grouped, median, times } from './numbers.js';

describe('times: a ratio for the reports', () => {
  it('is the ratio with two decimals and an x', () => {
    expect(times(3, 2)).toBe('1.50x');
  });

  it('keeps two significant digits of a ratio under 0.01, which two decimals would show as 0.00x (none)', () => {
    expect(times(102.9, 19_629)).toBe('0.0052x'); // a p99 beside a fault's 19.6 s stall
    expect(times(0.644, 19_097)).toBe('0.000034x');
    expect(times(0, 2)).toBe('0.00x');
  });

  it('is n/a where there is no ratio (nothing to divide by, or not a number), never NaNx or Infinityx', () => {
    expect(times(3, 0)).toBe('n/a');
    expect(times(0, 0)).toBe('n/a');
    expect(times(NaN, 2)).toBe('n/a');
  });
});

describe('median', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});

describe('grouped: a count or rate with thousands separators, the same on every machine', () => {
  it('rounds to an integer, or to at most one decimal when asked, with no trailing zero', () => {
    expect(grouped(1_234_567.8)).toBe('1,234,568');
    expect([grouped(33.333, 1), grouped(3, 1), grouped(0.5, 1), grouped(0.5)]).toEqual(['33.3', '3', '0.5', '1']);
  });

  it('spells what rounds to zero 0, not -0, and keeps non-numbers and huge counts readable', () => {
    expect([grouped(-0.4), grouped(-0.04, 1), grouped(-1234.6)]).toEqual(['0', '0', '-1,235']);
    expect([grouped(NaN), grouped(Infinity), grouped(1e21)]).toEqual([
      'NaN',
      'Infinity',
      '1,000,000,000,000,000,000,000',
    ]);
  });
});
