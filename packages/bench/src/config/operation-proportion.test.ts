import { describe, expect, it } from 'vitest';
import { OPERATIONS, WRITES_ONLY, pickOperation, type Operation } from '../workload/operations.js';
import { InvalidValue } from './errors.js';
import { formatOperationProportion, parseOperationProportion, parseQueryKind } from './operation-proportion.js';

describe('operationProportion', () => {
  it("takes iot-benchmark's eleven weights, or an object naming some", () => {
    const w = parseOperationProportion('2:0:1:0:0:0:0:0:0:0:0.5');
    expect(w).toMatchObject({ INGESTION: 2, TIME_RANGE: 1, VALUE_RANGE_QUERY_DESC: 0.5, GROUP_BY: 0 });
    expect(formatOperationProportion(w)).toBe('2:0:1:0:0:0:0:0:0:0:0.5');
    expect(parseOperationProportion({ LATEST_POINT: 1 })).toEqual({ ...WRITES_ONLY, INGESTION: 0, LATEST_POINT: 1 });
  });

  it('refuses the wrong count, negative weights, unknown names and all zeros', () => {
    for (const bad of ['1:1', '1:0:0:0:0:0:0:0:0:0:-1', '0:0:0:0:0:0:0:0:0:0:0', { QUERY: 1 }, 7])
      expect(() => parseOperationProportion(bad)).toThrow(InvalidValue);
  });

  it('draws each operation in proportion to its weight', () => {
    const w = parseOperationProportion('3:1:0:0:0:0:0:0:0:0:0');
    const counts = new Map<Operation, number>();
    for (let i = 0; i < 1000; i++) {
      const op = pickOperation(w, i / 1000);
      counts.set(op, (counts.get(op) ?? 0) + 1);
    }
    expect([...counts]).toEqual([
      ['INGESTION', 750],
      ['PRECISE_POINT', 250],
    ]);
    expect(pickOperation(w, 0.9999999999999999)).toBe('PRECISE_POINT');
    expect(OPERATIONS).toHaveLength(11);
  });
});

describe('queries', () => {
  it('names a query type in any case, or by its former name', () => {
    expect(['time_range', 'GROUP_BY', 'raw', 'aggregation', 'last', 'latest'].map(parseQueryKind)).toEqual([
      'TIME_RANGE',
      'GROUP_BY',
      'TIME_RANGE',
      'GROUP_BY',
      'LATEST_POINT',
      'RANGE_QUERY_DESC',
    ]);
    expect(() => parseQueryKind('everything')).toThrow(/needs one of PRECISE_POINT, TIME_RANGE/);
  });
});
