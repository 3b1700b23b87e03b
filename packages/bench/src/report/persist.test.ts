import { describe, expect, it } from 'vitest';
import { pathNode, persistedRecords } from './persist.js';
import { rowsRead } from './result-fields.js';
import { sampleQueriesAlone, sampleRun, sampleStatement } from './test-fixture.js';

describe('persistedRecords: what --persist-results writes of a run', () => {
  it("has the run, each operation's latency, and each query type's operations, failures and rows", () => {
    const records = persistedRecords(sampleRun('base'));
    const device = (name: string) => records.find((r) => r.deviceId === `root.iotdb_bench_results.base.${name}`);
    expect(records[0].deviceId).toBe('root.iotdb_bench_results.base');
    expect(device('insertTablet')?.measurements).toContain('p99');
    // --queries after the writes: no latency row of the run, so their figures and latency are the query's own
    const raw = device('raw');
    expect(raw?.measurements.slice(0, 4)).toEqual(['ops', 'failed', 'rows', 'rows_per_s']);
    expect(raw?.values.slice(0, 4)).toEqual([10, 0, 10_000, 50_000]);
    expect(raw?.measurements).toContain('p99');
  });

  it("writes the run's points and the rows its queries read in all, as its RESULT line has them", () => {
    const run = sampleRun('totals');
    const record = persistedRecords(run)[0];
    const value = (m: string) => record.values[record.measurements.indexOf(m)];
    expect(value('points')).toBe(run.points);
    expect(value('rows')).toBe(10_100); // its query types' together (10,000 and 100)
    expect(value('rows_per_s')).toBe(rowsRead(run, 'rowsPerS'));
    expect(value('rows_per_s')).toBeGreaterThan(0);
    expect(record.dataTypes.length).toBe(record.measurements.length);
  });

  it("writes the server's CPU beside the client's when the run measured it (--server-pid), null otherwise", () => {
    const value = (run: ReturnType<typeof sampleRun>) => {
      const record = persistedRecords(run)[0];
      return record.values[record.measurements.indexOf('server_cpu_s')];
    };
    expect(value(sampleRun('m', { serverCpu: { pids: [12], seconds: 1.5 } }))).toBe(1.5);
    expect(value(sampleRun('m', { serverCpu: { pids: [12], error: 'process 12 was gone' } }))).toBeNull();
    expect(value(sampleRun('m'))).toBeNull();
  });

  it('writes the method a run wrote with, and none for one that wrote nothing by design (as its RESULT line)', () => {
    const method = (run: ReturnType<typeof sampleRun>) => {
      const record = persistedRecords(run)[0];
      return record.values[record.measurements.indexOf('method')];
    };
    expect(method(sampleRun('w'))).toBe('insertTablet');
    expect(method(sampleStatement('s', 10))).toBeNull();
    expect(method(sampleQueriesAlone('q'))).toBeNull();
  });

  it("writes a mixed run's query type once, its latency being the run's row of it", () => {
    const run = sampleRun('mixed');
    run.latency = { ...run.latency, raw: run.queries!.raw.latency };
    const raws = persistedRecords(run).filter((r) => r.deviceId.endsWith('.raw'));
    expect(raws.map((r) => r.measurements.filter((m) => m === 'p99').length)).toEqual([1, 0]);
    expect(raws[1].measurements).toEqual(['ops', 'failed', 'rows', 'rows_per_s']);
  });

  it('writes the points a query type read beside its rows, when the run recorded them', () => {
    const run = sampleRun('points');
    run.queries!.raw.points = 40_000;
    const raw = persistedRecords(run).find((r) => r.deviceId.endsWith('.raw'));
    expect(raw?.measurements.slice(0, 5)).toEqual(['ops', 'failed', 'rows', 'rows_per_s', 'points']);
    expect(raw?.values.slice(0, 5)).toEqual([10, 0, 10_000, 50_000, 40_000]);
    expect(raw?.dataTypes.length).toBe(raw?.measurements.length);
  });

  it("writes the run's latency, failures and points/s over time at the run's device, each sample at its own time", () => {
    const run = sampleRun('timed', {
      startedAt: '2026-11-27T10:00:00.000Z',
      latencyOverTime: [
        [1, 120, 2.5, 9, 12],
        [2, 80, 3, 450.5, 900],
      ],
      throughput: [
        [0.9995, 1_200_000],
        [2, 800_000],
      ],
      failuresOverTime: [[3, 17]],
    });
    const device = 'root.iotdb_bench_results.timed';
    const overTime = persistedRecords(run)
      .filter((r) => r.deviceId === device)
      .slice(1); // the run's own first
    expect(overTime.map((r) => [(r.timestamp as Date).toISOString(), r.measurements, r.values])).toEqual([
      [
        '2026-11-27T10:00:01.000Z',
        ['interval_ops', 'interval_p50_ms', 'interval_p99_ms', 'interval_max_ms'],
        [120, 2.5, 9, 12],
      ],
      [
        '2026-11-27T10:00:02.000Z',
        ['interval_ops', 'interval_p50_ms', 'interval_p99_ms', 'interval_max_ms'],
        [80, 3, 450.5, 900],
      ],
      ['2026-11-27T10:00:01.000Z', ['interval_points_per_s'], [1_200_000]], // to the ms
      ['2026-11-27T10:00:02.000Z', ['interval_points_per_s'], [800_000]],
      ['2026-11-27T10:00:03.000Z', ['interval_failed'], [17]],
    ]);
    for (const r of overTime) expect(r.dataTypes.length).toBe(r.measurements.length);
  });
});

describe('pathNode: a label or operation as one path node', () => {
  it('keeps letters, digits and _, and reduces other ASCII to _ (as the names persisted so far)', () => {
    expect(pathNode('p99')).toBe('p99');
    expect(pathNode('tree-insertTablet')).toBe('tree_insertTablet');
    expect(pathNode('uncorrected insertTablet')).toBe('uncorrected_insertTablet');
    expect(pathNode('3 clients')).toBe('_3_clients');
  });

  it('keeps the letters of every script, quoted: two labels in Chinese are two devices, not both `_`', () => {
    expect(pathNode('温度')).toBe('`温度`');
    expect(pathNode('湿度 p99')).toBe('`湿度_p99`');
    expect(pathNode('Température moyenne')).toBe('`Température_moyenne`');
    expect(new Set(['温度', '湿度', '気温', 'давление'].map(pathNode)).size).toBe(4);
  });

  it('prefixes the names IoTDB refuses as a node (time, timestamp, root, any case) with _, as one starting with a digit', () => {
    // the server answered [509] ILLEGAL_PATH and the whole --persist-results failed
    expect(['time', 'Timestamp', 'ROOT', 'root time'].map(pathNode)).toEqual([
      '_time',
      '_Timestamp',
      '_ROOT',
      'root_time',
    ]);
    const [run, latency] = persistedRecords(sampleRun('time'));
    expect(run.deviceId).toBe('root.iotdb_bench_results._time');
    expect(latency.deviceId).toMatch(/^root\.iotdb_bench_results\._time\./);
  });

  it('records the label as given beside the run', () => {
    const run = sampleRun('温度 (p99)');
    const [record] = persistedRecords(run);
    expect(record.deviceId).toBe('root.iotdb_bench_results.`温度_p99_`');
    expect(record.values[record.measurements.indexOf('label')]).toBe('温度 (p99)');
  });
});
