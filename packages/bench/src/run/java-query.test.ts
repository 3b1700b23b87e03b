import { describe, expect, it } from 'vitest';
import { parseQueryResults } from './java-query.js';
import { keyValues } from './key-values.js';

describe('the Java references output', () => {
  it('reads key=value lines after their first word, values may hold "="', () => {
    expect(keyValues('RESULT a=1 b=x=y  c=')).toEqual({ a: '1', b: 'x=y', c: '' });
  });

  it("takes QueryBench's QRESULT lines, and refuses output without a complete one", () => {
    const out = [
      'compiling ...',
      'QRESULT rep=1 rows=10 points=500 wall_s=0.010 points_per_s=50000 client_cpu_s_per_Mpts=0.1 checksum=510 sink=3',
      'QRESULT rep=2 rows=10 points=500 wall_s=0.005 points_per_s=100000 client_cpu_s_per_Mpts=0.1 checksum=510 sink=3',
    ].join('\n');
    expect(parseQueryResults(out)).toEqual([
      { rows: 10, points: 500, wallS: 0.01, pointsPerS: 50000, cpuSPerMpts: 0.1 },
      { rows: 10, points: 500, wallS: 0.005, pointsPerS: 100000, cpuSPerMpts: 0.1 },
    ]);
    expect(() => parseQueryResults('Exception in thread "main"')).toThrow(/no complete QRESULT line:\nException/);
    expect(() => parseQueryResults('QRESULT rep=1 rows=10')).toThrow(/no complete QRESULT/);
  });

  it('takes a statement the server refused (QFAIL) as a failed pass with its error, in statement order', () => {
    const out = [
      'QRESULT rep=1 stmt=1 rows=10 points=500 wall_s=0.010 points_per_s=50000 client_cpu_s_per_Mpts=0.1 checksum=510 sink=3',
      'QFAIL rep=1 stmt=2 wall_s=0.002 error=701: UDF NOSUCH has not been registered',
    ].join('\n');
    expect(parseQueryResults(out)).toEqual([
      { rows: 10, points: 500, wallS: 0.01, pointsPerS: 50000, cpuSPerMpts: 0.1 },
      { error: '701: UDF NOSUCH has not been registered' },
    ]);
  });
});
