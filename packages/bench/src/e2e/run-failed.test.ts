import { describe, expect, it } from 'vitest';
import { sampleRun } from '../report/test-fixture.js';
import type { QueryFigures } from '../types.js';
import { runFailed } from './run-failed.js';

const query = (ops: number, failed: number): QueryFigures => ({
  ops,
  failed,
  rows: ops,
  rowsPerS: ops,
  latency: sampleRun('q').latency.insertTablet,
});

describe('runFailed: a run that exits 1, ours or the Java client alike (its report and files kept)', () => {
  it('a run that wrote what the server stored, every query type read at least once: not failed', () => {
    expect(runFailed(sampleRun('ok', { failedOps: 3, queries: { TIME_RANGE: query(5, 1) } }))).toBe(false);
  });

  it('a count read back that is not what the server acknowledged, or none read back', () => {
    expect(runFailed(sampleRun('java', { verify: { expected: 10, actual: 9, ok: false } }))).toBe(true);
    expect(runFailed(sampleRun('java', { verify: { expected: 10, ok: false, error: 'timed out' } }))).toBe(true);
  });

  it('no operation succeeding, or a query type that ran and never succeeded (during the run or after it)', () => {
    expect(runFailed(sampleRun('java', { okOps: 0, failedOps: 4 }))).toBe(true);
    expect(runFailed(sampleRun('java', { queries: { AGG_RANGE: query(0, 2), TIME_RANGE: query(5, 0) } }))).toBe(true);
  });

  it('a run stopped early because an operation reached no node, whatever succeeded before: the server went away', () => {
    expect(runFailed(sampleRun('gone', { stopped: 'unreachable', failedOps: 1 }))).toBe(true);
    expect(runFailed(sampleRun('ctrl-c', { stopped: 'interrupted' }))).toBe(false);
    expect(runFailed(sampleRun('timed', { stopped: 'test-max-time' }))).toBe(false);
  });
});
