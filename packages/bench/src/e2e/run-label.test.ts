import { describe, expect, it } from 'vitest';
import { sampleConfig } from '../report/test-fixture.js';
import { runLabel } from './run-label.js';

describe('runLabel', () => {
  const c = sampleConfig();
  const weights = (INGESTION: number, TIME_RANGE: number) => ({ ...c.operationProportion, INGESTION, TIME_RANGE });

  it('names a write run by its model and method, a mixed one so, and the modes that send nothing', () => {
    expect(runLabel({ ...c, operationProportion: weights(1, 0) }, false)).toBe('tree-insertTablet');
    expect(runLabel({ ...c, operationProportion: weights(1, 1) }, false)).toBe('tree-insertTablet-mixed');
    expect(runLabel({ ...c, operationProportion: weights(1, 0), serverNoop: true }, false)).toBe(
      'tree-insertTablet-noop',
    );
  });

  it('names a run of queries only by what it did: it wrote nothing, through no method', () => {
    expect(runLabel({ ...c, operationProportion: weights(0, 1) }, false)).toBe('tree-queries');
    expect(runLabel({ ...c, model: 'table', operationProportion: weights(0, 1) }, false)).toBe('table-queries');
  });

  it('names each run of --compare by its method alone', () => {
    expect(runLabel({ ...c, method: 'insertRecords', operationProportion: weights(1, 1) }, true)).toBe('insertRecords');
  });
});
