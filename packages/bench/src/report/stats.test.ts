import { describe, expect, it } from 'vitest';
import { holmRejected, normalTwoSidedP, studentTwoSidedP } from './stats.js';

describe('the p-values compare tests with', () => {
  it("gives the normal distribution's two-sided tail", () => {
    expect(normalTwoSidedP(0)).toBeCloseTo(1, 6);
    expect(normalTwoSidedP(1.96)).toBeCloseTo(0.05, 3);
    expect(normalTwoSidedP(2.576)).toBeCloseTo(0.01, 3);
  });

  it("gives Student's t two-sided tail for few degrees of freedom (the t table's 95 % points give 0.05)", () => {
    expect(studentTwoSidedP(12.706, 1)).toBeCloseTo(0.05, 3);
    expect(studentTwoSidedP(2.776, 4)).toBeCloseTo(0.05, 3);
    expect(studentTwoSidedP(2.228, 10)).toBeCloseTo(0.05, 3);
    expect(studentTwoSidedP(0, 3)).toBeCloseTo(1, 6);
    expect(studentTwoSidedP(3.5, 2.5)).toBeGreaterThan(studentTwoSidedP(3.5, 30)); // fewer df, fatter tails
  });

  it("rejects by Holm's step-down at a family-wise 5 %: the smallest against 0.05/m, then 0.05/(m-1), ...", () => {
    // alone each of these is below 0.05, but not below 0.05 / 4 = 0.0125 for the smallest
    expect(holmRejected([0.03, 0.04, 0.02, 0.045])).toEqual([false, false, false, false]);
    // 0.001 < 0.05/4, 0.012 < 0.05/3, 0.03 > 0.05/2: the step-down stops there
    expect(holmRejected([0.03, 0.001, 0.8, 0.012])).toEqual([false, true, false, true]);
    expect(holmRejected([])).toEqual([]);
  });
});
