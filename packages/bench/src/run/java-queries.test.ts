import { describe, expect, it } from 'vitest';
import { sampleConfig } from '../report/test-fixture.js';
import { storedRows } from '../workload/operations.js';
import { javaQueryRows, javaQueryTypes } from './java-queries.js';

const pass = (rows: number, wallS: number) => ({ rows, points: rows * 2, wallS, pointsPerS: 0, cpuSPerMpts: 0 });

describe("--vs-java --queries: the Java client's statements by type", () => {
  it('count a refused statement as failed, with its error, and time only the ones read', () => {
    const errors: string[] = [];
    const { queries: types, histograms } = javaQueryTypes(
      'tree',
      [
        { kind: 'AGG_RANGE', sqls: ['a1', 'a2'] },
        { kind: 'TIME_RANGE', sqls: ['t1', 't2'] },
      ],
      [{ error: '701: UDF NOSUCH has not been registered' }, { error: '701: again' }, pass(10, 0.01), pass(30, 0.03)],
      errors,
    );
    expect(types.AGG_RANGE).toMatchObject({ ops: 0, failed: 2, rows: 0, rowsPerS: 0 });
    expect(types.TIME_RANGE).toMatchObject({ ops: 2, failed: 0, rows: 40, rowsPerS: 1000 });
    expect(types.TIME_RANGE.latency.max).toBeCloseTo(30, 0);
    // the statements read, as a histogram kept in the run (its matrix, compare, merge); none for the refused ones
    expect([histograms.TIME_RANGE.count, histograms.AGG_RANGE.count]).toEqual([2, 0]);
    expect(errors).toEqual(['the Java client: 701: UDF NOSUCH has not been registered', 'the Java client: 701: again']);
  });

  it("counts a type's sensor values as its points: the table model's time and device_id columns hold none", () => {
    const statements = [{ kind: 'TIME_RANGE' as const, sqls: ['t1', 't2'] }];
    const passes = [pass(10, 0.01), pass(30, 0.03)]; // every value not null: time, device_id and no sensor
    expect(javaQueryTypes('table', statements, passes, []).queries.TIME_RANGE.points).toBe(0);
    expect(javaQueryTypes('tree', statements, passes, []).queries.TIME_RANGE.points).toBe(80);
  });

  it('range over the rounds the Java client wrote to every device before its stop at --test-max-time, not its plan', () => {
    const c = sampleConfig({ loop: 10, warmupRounds: 0 });
    expect(javaQueryRows(c, 3)).toBe(3 * c.batchSize); // ROUNDS full=3
    expect(javaQueryRows(c, undefined)).toBe(storedRows(c)); // not stopped: the whole loop
  });
});
