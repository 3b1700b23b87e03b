import { describe, expect, it } from 'vitest';
import { sampleConfig } from '../report/test-fixture.js';
import { runLabel, runLine } from './run-label.js';

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

  it('says what a write run writes, and what a run of queries only reads: the rows a write run stored', () => {
    const knobs = {
      ...c,
      workers: 1,
      clients: 2,
      deviceCount: 10,
      sensors: 5,
      batchSize: 100,
      loop: 3,
      warmupRounds: 1,
    };
    expect(runLine({ ...knobs, operationProportion: weights(1, 0) }, 'tree-insertTablet')).toBe(
      'run tree-insertTablet: 1 worker(s) x 2 client(s), 10 devices x 5 sensors x 100 rows x 3 rounds',
    );
    expect(runLine({ ...knobs, operationProportion: weights(0, 1) }, 'tree-queries')).toBe(
      'run tree-queries: 1 worker(s) x 2 client(s), 3 rounds of queries over 10 devices x 5 sensors x 400 rows stored',
    );
  });
});
