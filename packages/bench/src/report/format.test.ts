import { describe, expect, it } from 'vitest';
import type { RunResult } from '../types.js';
import { WRITES_ONLY } from '../workload/operations.js';
import {
  compareTable,
  formatReport,
  progressParts,
  progressText,
  readsProgressParts,
  resultLine,
  type Progress,
} from './format.js';
import { RESULT_KEYS } from './result-fields.js';
import { sampleConfig, sampleQueriesAlone, sampleRun, sampleStatement } from './test-fixture.js';

function parseResult(line: string): Map<string, string> {
  const [head, ...pairs] = line.split(' ');
  expect(head).toBe('RESULT');
  const fields = new Map<string, string>();
  for (const p of pairs) {
    expect(p).toMatch(/^[A-Za-z0-9_]+=[^\s=]+$/);
    const [k, v] = p.split('=');
    expect(fields.has(k)).toBe(false);
    fields.set(k, v);
  }
  return fields;
}

describe('resultLine', () => {
  it('is one line of key=value pairs with the required keys', () => {
    const r = sampleRun('fast path');
    const line = resultLine(r);
    expect(line).not.toContain('\n');
    const f = parseResult(line);
    const required = [
      'label',
      'model',
      'method',
      'workers',
      'clients',
      'points',
      'wall_s',
      'points_per_s',
      'ops_per_s',
      'ok_ops',
      'failed_ops',
      'client_cpu_s',
      'client_cpu_s_per_Mpts',
      'insert_ms_p50',
      'p90',
      'p95',
      'p99',
      'p999',
      'max',
      'peak_rss_mb',
    ];
    for (const k of required) expect(f.has(k), k).toBe(true);
    expect([...f.keys()]).toEqual(RESULT_KEYS);
    expect(f.get('label')).toBe('fast_path');
    expect(f.get('points')).toBe('5000000');
    expect(Number(f.get('points_per_s'))).toBe(1_000_000);
    expect(Number(f.get('workers'))).toBe(4);
  });

  it("gives the server's CPU (--server-pid) beside the client's: seconds, per million points written; - unmeasured", () => {
    const measured = sampleRun('w', { serverCpu: { pids: [12, 34], seconds: 1.5 } }); // 5 M points
    const f = parseResult(resultLine(measured));
    expect([f.get('server_cpu_s'), f.get('server_cpu_s_per_Mpts')]).toEqual(['1.50', '0.300']);
    const gone = sampleRun('w', { serverCpu: { pids: [12], error: 'process 12 was gone at the end' } });
    for (const r of [sampleRun('w'), gone]) {
      const g = parseResult(resultLine(r));
      expect([g.get('server_cpu_s'), g.get('server_cpu_s_per_Mpts')]).toEqual(['-', '-']);
    }
    const read = sampleStatement('reads', 100, { serverCpu: { pids: [12], seconds: 0.25 } });
    expect(parseResult(resultLine(read)).get('server_cpu_s_per_Mpts')).toBe('-'); // nothing written
  });

  it("gives the client's CPU seconds, per million points only for a run that wrote (not 0.000 for reads), per operation for one that read", () => {
    const f = parseResult(resultLine(sampleRun('w'))); // 2.5 s, 5 M points
    const cpu = (g: Map<string, string>) =>
      ['client_cpu_s', 'client_cpu_s_per_Mpts', 'client_cpu_ms_per_op'].map((k) => g.get(k));
    expect(cpu(f)).toEqual(['2.50', '0.500', '-']);
    // 1.25 s over 10 reads of a statement, over 1000 queries of a run of queries alone
    const statement = sampleStatement('s', 100, { clientCpuS: 1.25 });
    expect(cpu(parseResult(resultLine(statement)))).toEqual(['1.25', '-', '125.000']);
    expect(cpu(parseResult(resultLine(sampleQueriesAlone('q', { clientCpuS: 1.25 }))))).toEqual(['1.25', '-', '1.250']);
    // a mix: its points the writes', its CPU the queries' too (2.5 s over 1000 operations)
    const mix = sampleRun('m', { config: sampleConfig({ operationProportion: { ...WRITES_ONLY, TIME_RANGE: 1 } }) });
    expect(cpu(parseResult(resultLine(mix)))).toEqual(['2.50', '0.500', '2.500']);
  });

  it("gives a query-file run's rows read and rate, and no write figures that it did not use", () => {
    const latency = sampleRun('x').latency.insertTablet;
    const r = sampleRun('count all', {
      points: 0,
      pointsPerS: 0,
      latency: { count_all: latency },
      queries: { count_all: { ops: 10, failed: 0, rows: 250, rowsPerS: 125, points: 740, latency } },
      queryFile: { sql: 'select count(s0) from root.x.**', concurrency: 3, repetitions: 5, line: 1 },
    });
    const f = parseResult(resultLine(r));
    expect([f.get('method'), f.get('devices'), f.get('sensors'), f.get('batch_size')]).toEqual(['-', '-', '-', '-']);
    expect([f.get('rows'), f.get('rows_per_s'), f.get('points_read')]).toEqual(['250', '125', '740']);
    // a results file from before points were recorded: not known
    expect(parseResult(resultLine(sampleRun('old'))).get('points_read')).toBe('-');
    expect(parseResult(resultLine(sampleRun('writes', { queries: undefined }))).get('rows')).toBe('0');
  });

  it('rates --queries after the writes over the time they took one type after another, not by adding their rates', () => {
    const latency = sampleRun('x').latency.insertTablet;
    // 1,000 rows in 0.1 s, then 10 rows in 0.1 s: 1,010 rows in 0.2 s
    const r = sampleRun('tree-insertTablet', {
      queries: {
        TIME_RANGE: { ops: 10, failed: 0, rows: 1_000, rowsPerS: 10_000, latency },
        LATEST_POINT: { ops: 10, failed: 0, rows: 10, rowsPerS: 100, latency },
      },
    });
    expect(parseResult(resultLine(r)).get('rows_per_s')).toBe('5050');
    // after a mixed run's own: 1,000 rows through its 5 s, then 1,000 in 0.1 s after it: 2,000 rows in 5.1 s
    const mixed = sampleRun('tree-insertTablet-mixed', {
      config: sampleConfig({ operationProportion: { ...WRITES_ONLY, TIME_RANGE: 1 } }),
      queries: {
        TIME_RANGE: { ops: 10, failed: 0, rows: 1_000, rowsPerS: 200, latency },
        'TIME_RANGE after the writes': { ops: 10, failed: 0, rows: 1_000, rowsPerS: 10_000, latency },
      },
    });
    expect(parseResult(resultLine(mixed)).get('rows_per_s')).toBe('392');
  });

  it('describes the op kind with the most samples', () => {
    const r = sampleRun('a');
    const f = parseResult(resultLine(r));
    expect(f.get('insert_op')).toBe('insertTablet');
    expect(Number(f.get('insert_ms_p50'))).toBeCloseTo(r.latency.insertTablet.p50, 3);
    expect(Number(f.get('max'))).toBeCloseTo(r.latency.insertTablet.max, 3);
  });

  it('still has every key when a run has no latency samples', () => {
    const f = parseResult(resultLine(sampleRun('empty', { latency: {}, histograms: {}, verify: undefined })));
    expect([...f.keys()]).toEqual(RESULT_KEYS);
    expect(f.get('insert_op')).toBe('none');
    // no write to give them: none, not 0.000 (a script reading p99=0.000 would take it for a figure)
    for (const k of ['insert_ms_avg', 'insert_ms_p50', 'p90', 'p95', 'p99', 'p999', 'max'])
      expect(f.get(k), k).toBe('-');
    const reads = parseResult(resultLine(sampleQueriesAlone('q')));
    expect([reads.get('insert_op'), reads.get('insert_ms_p50'), reads.get('p99')]).toEqual(['none', '-', '-']);
    expect(f.get('verify')).toBe('none');
  });
});

describe("a query-file statement's RESULT line", () => {
  it("gives the statement's own latency whatever its label says (`failed logins` is a statement, not a failure row)", () => {
    const f = parseResult(resultLine(sampleStatement('failed logins', 100)));
    expect(f.get('insert_op')).toBe('failed_logins');
    expect(Number(f.get('insert_ms_p50'))).toBeGreaterThan(0);
  });
});

describe('formatReport', () => {
  it("gives a mixed run's CPU per operation beside its CPU per million points written (its reads count in both)", () => {
    const mixed = sampleRun('m', {
      config: sampleConfig({ operationProportion: { ...WRITES_ONLY, INGESTION: 1, TIME_RANGE: 1 } }),
      serverCpu: { pids: [12], seconds: 1.5 },
    });
    // 1000 operations, 5,000,000 points
    expect(formatReport(mixed)).toMatch(
      /^client CPU\s+2\.50 s \(0\.500 s per million points, 2\.500 ms per operation\)\nserver CPU\s+1\.50 s, 0\.30 cores on average \(0\.300 s per million points, 1\.500 ms per operation; processes 12\)$/m,
    );
  });

  it("gives the server's CPU under the client's when it was measured, and why not when a process was gone", () => {
    const measured = formatReport(sampleRun('w', { serverCpu: { pids: [12, 34], seconds: 1.5 } }));
    expect(measured).toMatch(
      /^client CPU\s+2\.50 s \(0\.500 s per million points\)\nserver CPU\s+1\.50 s, 0\.30 cores on average \(0\.300 s per million points; processes 12, 34\)$/m,
    );
    const gone = sampleRun('w', { serverCpu: { pids: [12], error: 'process 12 was gone at the end (...)' } });
    expect(formatReport(gone)).toMatch(/^server CPU\s+not measured: process 12 was gone at the end \(\.\.\.\)$/m);
    expect(formatReport(sampleRun('w'))).not.toMatch(/server CPU/);
  });

  it('says whether an open-loop run kept its target rate (corrected latency is the latency at that rate only then)', () => {
    const base = sampleRun('x'); // 4 workers x 8 clients, 1000 insertTablet at 200 ops/s, avg about 4 ms
    const openLoop = (targetRate: number, lateMs: number) => {
      const corrected = base.latency.insertTablet;
      const uncorrected = { ...corrected, avg: corrected.avg - lateMs };
      const latency = { ...base.latency, 'uncorrected insertTablet': uncorrected };
      return formatReport(sampleRun('open', { config: { ...base.config, targetRate }, latency }));
    };
    expect(openLoop(200, 0.25)).toMatch(
      /open loop\s+target 200 ops\/s, achieved 200\.0, operations started 0\.250 ms after their due time on average: met/,
    );
    // 32 clients at 250/s: 128 ms between a client's operations; 500 ms late on average is behind the schedule
    expect(openLoop(250, 500)).toMatch(
      /achieved 200\.0, operations started 500\.0 ms .*: NOT met: operations fell behind/,
    );
    expect(openLoop(250, 1)).toMatch(
      /achieved 200\.0, operations started 1\.000 ms .*: NOT met, though operations kept/,
    );
    // the rate kept, but 500 ms late on average: the corrected rows are mostly the wait (a cold start, a slow spell)
    expect(openLoop(200, 500)).toMatch(
      /achieved 200\.0, operations started 500\.0 ms .*: rate met, but operations fell behind their schedule/,
    );
    expect(formatReport(sampleRun('closed'))).not.toContain('open loop');
  });

  it("gives the start lag's percentiles where the run recorded them, its mean as the line's average", () => {
    const base = sampleRun('x');
    const lag = { ...base.latency.insertTablet, count: 1500, avg: 0.2, p50: 0.11, p99: 0.54, max: 2.31 };
    const latency = { ...base.latency, 'uncorrected insertTablet': base.latency.insertTablet, 'start lag': lag };
    const text = formatReport(sampleRun('open', { config: { ...base.config, targetRate: 200 }, latency }));
    expect(text).toMatch(
      /operations started 0\.200 ms after their due time on average \(p50 0\.110, p99 0\.540, max 2\.310 ms\): met/,
    );
    // more samples than any operation (all of them), yet not the run's main operation
    expect(resultLine(sampleRun('open', { latency }))).toContain('insert_op=insertTablet');
    expect(text).toMatch(/\n {2}start lag +1,500 /);
  });

  it("counts an open-loop run's failed operations as started on schedule: its rate is not its throughput", () => {
    const base = sampleRun('x'); // 1000 operations over 5 s
    const latency = { ...base.latency, 'uncorrected insertTablet': base.latency.insertTablet };
    const config = { ...base.config, targetRate: 200 };
    // half of them failed: 100 ok ops/s, 200 started a second
    const text = formatReport(sampleRun('open', { config, latency, okOps: 500, failedOps: 500, opsPerS: 100 }));
    expect(text).toContain('100.0 ops/s');
    expect(text).toMatch(/open loop\s+target 200 ops\/s, achieved 200\.0, .*: met/);
  });

  it('says when the failures ended: the span of the intervals that had one, and the one that had the most', () => {
    const failed = sampleRun('fault', {
      okOps: 980,
      failedOps: 20,
      failuresOverTime: [
        [4, 3],
        [5, 12],
        [6, 5],
      ],
    });
    expect(formatReport(failed)).toMatch(/^failures {5}ended 3\.0-6\.0 s into the run; the most, 12, in 4\.0-5\.0 s$/m);
    // several intervals had the most: how many, not the first of them alone as if it stood out
    const flat = {
      ...failed,
      failuresOverTime: [
        [10, 1],
        [28, 1],
        [29, 1],
      ] as [number, number][],
    };
    expect(formatReport(flat)).toMatch(
      /^failures {5}ended 9\.0-29\.0 s into the run; the most, 1, in each of 3 intervals, the first 9\.0-10\.0 s$/m,
    );
    // none failed, or a file from before it was recorded: no line
    expect(formatReport(sampleRun('base', { failuresOverTime: [] }))).not.toMatch(/^failures/m);
    expect(formatReport({ ...failed, failuresOverTime: undefined })).not.toMatch(/^failures/m);
  });

  it("says whether its p99 held over the run: a typical interval's (their median) against the worst one's", () => {
    const overTime = (p99s: number[]): NonNullable<RunResult['latencyOverTime']> =>
      p99s.map((p99, i) => [i + 1, 100, 1, p99, p99 + 1]);
    const spell = sampleRun('spell', { latencyOverTime: overTime([4, 4.2, 480.2, 3.9, 4.1]) });
    expect(formatReport(spell)).toMatch(
      /^over time {4}p99 4\.100 ms in a typical 1\.0 s \(the median of 5\), 480\.2 ms in the worst \(2\.0-3\.0 s\)$/m,
    );
    // a stall the p99s do not show (the batching writer: one put waited 11 s among 50,000 quick ones an interval)
    const stalled = overTime([0.004, 0.003, 0.026, 0.004, 0.004]);
    stalled[3] = [4, 50_000, 0.002, 0.004, 11_069.7];
    expect(formatReport(sampleRun('stall', { latencyOverTime: stalled }))).toMatch(
      /^over time {4}p99 0\.004 ms in a typical 1\.0 s \(the median of 5\), 0\.026 ms in the worst \(2\.0-3\.0 s\); the longest operation 11070 ms, ended 3\.0-4\.0 s$/m,
    );
    // the worst at the start of a run without warm-up: a cold start (measured: p99 415 ms in the first second of a
    // mixed run at 300 ops/s, 8.4 ms typical; 9.9 ms in its first second with --warmup-rounds 2)
    const cold = (warmupRounds: number, p99s: number[]) =>
      formatReport(
        sampleRun('cold', {
          latencyOverTime: overTime(p99s),
          config: { ...sampleRun('cold').config, warmupRounds },
        }),
      );
    expect(cold(0, [415.7, 329.7, 8.4, 8.1, 8.6])).toMatch(
      /^over time {4}p99 8\.600 ms in a typical 1\.0 s \(the median of 5\), 415\.7 ms in the worst \(0\.0-1\.0 s\): the run's start, with no warm-up \(--warmup-rounds N: rounds before the timed ones, out of the figures\)$/m,
    );
    expect(cold(2, [415.7, 329.7, 8.4, 8.1, 8.6])).toMatch(/in the worst \(0\.0-1\.0 s\)$/m); // warmed up: another cause
    expect(cold(0, [30, 9, 8.4, 8.1, 8.6])).toMatch(/in the worst \(0\.0-1\.0 s\)$/m); // under 10x typical
    expect(cold(0, [8.4, 415.7, 8.1, 8.6, 9])).toMatch(/in the worst \(1\.0-2\.0 s\)$/m); // not the first interval
    // a last interval shorter than half of one (the run's last 0.2 s, its few last operations): not an interval of
    // the run's p99 over time, typical or worst; its longest operation still counts
    const tail = overTime([4, 4.2, 4.0, 3.9, 4.1, 0.6]);
    const cut = sampleRun('cut', { durationS: 5.2, latencyOverTime: tail });
    expect(formatReport(cut)).toMatch(
      /^over time {4}p99 4\.000 ms in a typical 1\.0 s \(the median of 5\), 4\.200 ms in the worst \(1\.0-2\.0 s\)$/m,
    );
    tail[5] = [6, 3, 0.5, 0.6, 400];
    expect(formatReport({ ...cut, latencyOverTime: tail })).toMatch(
      /; the longest operation 400\.0 ms, ended 5\.0-6\.0 s$/m,
    );
    // half an interval or more is an interval of its own
    const half = sampleRun('half', { durationS: 5.5, latencyOverTime: overTime([4, 4.2, 4.0, 3.9, 4.1, 0.6]) });
    expect(formatReport(half)).toMatch(/in a typical 1\.0 s \(the median of 6\)/m);
    // too few intervals to tell, or none recorded: no line
    expect(formatReport(sampleRun('short', { latencyOverTime: overTime([4, 9]) }))).not.toMatch(/^over time/m);
    expect(formatReport(sampleRun('old'))).not.toMatch(/^over time/m);
  });

  it('reports the figures and the latency table', () => {
    const text = formatReport(sampleRun('base'));
    expect(text).toContain('base');
    expect(text).toMatch(/duration\s+5\.000 s/);
    expect(text).toContain('1,000 ok, 0 failed (100.00 % success)');
    expect(text).toContain('5,000,000');
    expect(text).toContain('1,000,000 points/s, 200.0 ops/s');
    expect(text).toMatch(/insertTablet\s+1,000/);
    expect(text).toMatch(/AVG.*MIN.*P10.*P25.*MEDIAN.*P75.*P90.*P95.*P99.*P999.*MAX.*SLOWEST_CLIENT/);
    expect(text).toContain('s per million points');
    expect(text).toContain('180.3 MB');
    expect(text).toContain('verify       OK');
    expect(text).toMatch(/raw\s+10\s+0\s+10,000/);
    expect(text).not.toContain('errors');
  });

  it("heads a query-file statement's report with its line, sessions and repetitions, in good English", () => {
    const head = (concurrency: number, repetitions: number) =>
      formatReport(
        sampleRun('q', { queryFile: { sql: 'SELECT 1', concurrency, repetitions, line: 4 }, points: 0 }),
      ).split('\n')[0];
    expect(head(1, 1)).toBe('== q: tree model, query file line 4: 1 session x 1 repetition ==');
    expect(head(2, 3)).toBe('== q: tree model, query file line 4: 2 sessions x 3 repetitions ==');
  });

  it('heads a run that only read (a query-file statement, queries without ingestion) with its rows, not points', () => {
    const latency = sampleRun('x').latency.insertTablet;
    const reads = sampleRun('reads', {
      points: 0,
      pointsPerS: 0,
      clientCpuS: 0.5,
      clientCpuSPerMpts: 0,
      latency: { count_all: latency },
      queries: {
        count_all: { ops: 10, failed: 0, rows: 2_000_000, rowsPerS: 400_000, latency },
        TIME_RANGE: { ops: 5, failed: 0, rows: 500_000, rowsPerS: 100_000, latency },
      },
    });
    const statement = { ...reads, queryFile: { sql: 'SELECT 1', concurrency: 1, repetitions: 15, line: 1 } };
    const queriesOnly = {
      ...reads,
      config: {
        ...reads.config,
        operationProportion: { ...reads.config.operationProportion, INGESTION: 0, TIME_RANGE: 1 },
      },
    };
    for (const run of [statement, queriesOnly]) {
      const text = formatReport(run);
      expect(text).toMatch(/^rows read\s+2,500,000$/m);
      expect(text).toMatch(/^throughput\s+500,000 rows\/s, 200\.0 ops\/s$/m);
      // and per operation, the unit of a statement that reads a row or a few (the runs' table gives that one)
      expect(text).toMatch(/^client CPU\s+0\.50 s \(0\.200 s per million rows, 0\.500 ms per operation\)$/m);
      expect(text).not.toMatch(/^points/m);
    }
    // nothing read: no rate of rows, its cost per operation still
    expect(formatReport({ ...statement, queries: {} })).toMatch(/^client CPU\s+0\.50 s \(0\.500 ms per operation\)$/m);
    const server = formatReport({ ...statement, serverCpu: { pids: [12, 34], seconds: 0.75 } });
    expect(server).toMatch(
      /^server CPU\s+0\.75 s, 0\.15 cores on average \(0\.300 s per million rows, 0\.750 ms per operation; processes 12, 34\)$/m,
    );
    // a run that wrote keeps its points, also with queries among its operations
    expect(formatReport(sampleRun('mixed'))).toMatch(/^points\s+5,000,000$/m);
    // and says what it ran: queries only, through no write method
    expect(formatReport(queriesOnly).split('\n')[0]).toBe(
      '== reads: tree model, queries only, 4 workers x 8 clients ==',
    );
    const one = sampleRun('one', { config: { ...queriesOnly.config, workers: 1, clients: 1 } });
    expect(formatReport(one).split('\n')[0]).toBe('== one: tree model, queries only, 1 worker x 1 client ==');
  });

  it("gives each query type's points read (its values not null) beside its rows; '-' where a file has none", () => {
    const latency = sampleRun('x').latency.insertTablet;
    const run = sampleRun('reads', {
      queries: {
        TIME_RANGE: { ops: 5, failed: 0, rows: 500, rowsPerS: 100, points: 1_450, latency },
        LATEST_POINT: { ops: 5, failed: 0, rows: 5, rowsPerS: 1, latency },
      },
    });
    const text = formatReport(run);
    expect(text).toMatch(/^ +query +ops +failed +rows +rows\/s +points +p50 ms +p99 ms +max ms$/m);
    expect(text).toMatch(/^ +TIME_RANGE +5 +0 +500 +100 +1,450 /m);
    expect(text).toMatch(/^ +LATEST_POINT +5 +0 +5 +1 +- /m);
  });

  it("gives no latency for a query type none of whose operations succeeded: '-', not 0 ms", () => {
    const none = { ...sampleRun('x').latency.insertTablet, count: 0, avg: 0, min: 0, p50: 0, p99: 0, max: 0 };
    const run = sampleRun('reads', {
      queries: { AGG_RANGE: { ops: 0, failed: 2, rows: 0, rowsPerS: 0, points: 0, latency: none } },
    });
    expect(formatReport(run)).toMatch(/^ +AGG_RANGE +0 +2 +0 +0 +0 +- +- +-$/m);
  });

  it('says when a run that only read read no rows at all (a statement naming series or tables that are not there)', () => {
    const statement = (rows: number) => formatReport(sampleStatement('q', rows));
    expect(statement(0)).toMatch(/^note {9}the statement read no rows: do the series or tables it names exist\?$/m);
    expect(statement(3)).not.toContain('read no rows');
    // a statement that is not a query (INSERT, CREATE, FLUSH) reads no rows, and says why instead
    const sql = 'INSERT INTO root.sg.d(time, s) VALUES (1, 2)';
    const insert = formatReport(
      sampleStatement('ins', 0, { queryFile: { sql, concurrency: 1, repetitions: 10, line: 1, query: false } }),
    );
    expect(insert).not.toContain('read no rows');
    expect(insert).toMatch(/^note {9}not a query: the server answered the statement with no result set$/m);
    const base = sampleRun('reads');
    const queriesOnly = sampleRun('reads', {
      points: 0,
      config: {
        ...base.config,
        operationProportion: { ...base.config.operationProportion, INGESTION: 0, TIME_RANGE: 1 },
      },
      queries: { TIME_RANGE: { ops: 10, failed: 0, rows: 0, rowsPerS: 0, latency: base.latency.insertTablet } },
    });
    expect(formatReport(queriesOnly)).toContain('no query read a row: do the series or tables they name exist?');
    expect(formatReport(sampleRun('writes'))).not.toContain('read no rows');
  });

  it("says which of a mixed run's query types read no row in any query, and why that may be", () => {
    const base = sampleRun('mixed');
    const latency = base.latency.insertTablet;
    const mixed = (warmupRounds: number) =>
      formatReport(
        sampleRun('mixed', {
          config: {
            ...base.config,
            warmupRounds,
            operationProportion: { ...WRITES_ONLY, INGESTION: 4, TIME_RANGE: 1 },
          },
          queries: {
            PRECISE_POINT: { ops: 16, failed: 0, rows: 0, rowsPerS: 0, latency },
            TIME_RANGE: { ops: 16, failed: 0, rows: 500, rowsPerS: 200, latency },
            VALUE_RANGE: { ops: 12, failed: 0, rows: 0, rowsPerS: 0, latency },
            GROUP_BY: { ops: 0, failed: 3, rows: 0, rowsPerS: 0, latency },
          },
        }),
      );
    expect(mixed(0)).toMatch(
      /^note: PRECISE_POINT, VALUE_RANGE read no rows in any of their queries \(their latency is that of reading nothing\); .*--warmup-rounds 1/m,
    );
    expect(mixed(1)).toMatch(/^note: PRECISE_POINT, VALUE_RANGE read no rows in any of their queries/m);
    expect(mixed(1)).not.toContain('--warmup-rounds 1');
    expect(formatReport(sampleRun('writes'))).not.toContain('read no rows');
    // queries after a write run (--queries) range over the rounds written: no warm-up to give
    const after = formatReport(
      sampleRun('writes', {
        queries: { 'TIME_RANGE after the writes': { ops: 5, failed: 0, rows: 0, rowsPerS: 0, latency } },
      }),
    );
    expect(after).toMatch(/^note: TIME_RANGE after the writes read no rows in any of their queries/m);
    expect(after).not.toContain('--warmup-rounds 1');
  });

  it('makes failures, verify mismatches and errors visible, at most 5 errors', () => {
    const errors = Array.from({ length: 7 }, (_, i) => `error ${i}: timeout\n    at stack line`);
    const r = sampleRun('bad', { okOps: 97, failedOps: 3, errors, verify: { expected: 100, actual: 90, ok: false } });
    const text = formatReport(r);
    expect(text).toContain('97 ok, 3 FAILED (97.00 % success)');
    expect(text).toContain('MISMATCH');
    expect(text).toContain('error 0: timeout at stack line');
    expect(text).toContain('error 4');
    expect(text).not.toContain('error 5');
    expect(text).toContain('2 more');
  });

  it('says how many of the points a count expects were written untimed, which the points figure leaves out', () => {
    const r = sampleRun('warm', { points: 20_000, verify: { expected: 20_100, actual: 20_100, ok: true } });
    expect(formatReport(r)).toMatch(
      /^verify {7}OK: expected 20,100 points \(20,000 timed, 100 untimed: the warm-up\), read back 20,100$/m,
    );
  });

  it('says why a count may read back nothing, or fewer points than acknowledged', () => {
    const none = formatReport(sampleRun('none', { verify: { expected: 100, actual: 0, ok: false } }));
    expect(none).toContain(
      'verify       MISMATCH: expected 100 points, read back 0 (IoTDB counts nothing, without an error, for a user',
    );
    const some = formatReport(sampleRun('some', { verify: { expected: 100, actual: 90, ok: false } }));
    expect(some).toMatch(
      /^verify {7}MISMATCH: expected 100 points, read back 90 \(the server holds fewer points than it acknowledged: .*killed.*\)$/m,
    );
    const more = formatReport(sampleRun('more', { verify: { expected: 100, actual: 110, ok: false } }));
    expect(more).toMatch(/^verify {7}MISMATCH: expected 100 points, read back 110$/m);
  });
});

describe("the client's activity", () => {
  it('is a line of the report: retries, connects and failed ones, failovers, redirects', () => {
    const client = { retries: 31, connects: 12, connectFailures: 9, failovers: 1, redirects: 0 };
    expect(formatReport(sampleRun('r', { client }))).toContain(
      '\nclient       retries 31, connects 12 ok, 9 FAILED, failovers 1, redirects 0 (warm-up included)\n',
    );
    expect(parseResult(resultLine(sampleRun('r', { client }))).get('client_retries')).toBe('31');
    expect(formatReport(sampleRun('java'))).not.toMatch(/\nclient +retries/);
    expect(parseResult(resultLine(sampleRun('java'))).get('client_retries')).toBe('-');
  });
});

describe('a run that ended early', () => {
  it('says so, and why, in the report and the RESULT line; a run to its end says it was not stopped', () => {
    const timed = sampleRun('short', { stopped: 'test-max-time', config: sampleConfig({ testMaxTime: 60_000 }) });
    expect(formatReport(timed)).toMatch(/\nstopped +at --test-max-time 60,000 ms: operations under way finished/);
    expect(parseResult(resultLine(timed)).get('stopped')).toBe('test-max-time');
    const interrupted = sampleRun('cut', { stopped: 'interrupted' }); // a file from before the signal was kept
    expect(formatReport(interrupted)).toMatch(/\nstopped +early, interrupted \(Ctrl-C or SIGTERM\)/);
    const byCtrlC = sampleRun('cut', { stopped: 'interrupted', interruptedBy: 'SIGINT' });
    expect(formatReport(byCtrlC)).toMatch(/\nstopped +early, interrupted \(Ctrl-C\): operations under way/);
    const byTerm = sampleRun('cut', { stopped: 'interrupted', interruptedBy: 'SIGTERM' });
    expect(formatReport(byTerm)).toMatch(/\nstopped +early, interrupted \(SIGTERM\): operations under way/);
    expect(parseResult(resultLine(interrupted)).get('stopped')).toBe('interrupted');
    const whole = sampleRun('whole');
    expect(formatReport(whole)).not.toContain('stopped');
    expect(parseResult(resultLine(whole)).get('stopped')).toBe('no');
  });
});

describe('compareTable', () => {
  /** The cells of the table's row `name` (cells apart by two spaces or more: a label may hold one). */
  const rowOf = (table: string, name: string): string[] | undefined =>
    table
      .split('\n')
      .find((l) => l.trim().startsWith(name))
      ?.trim()
      .slice(name.length)
      .trim()
      .split(/\s{2,}/);

  it('has one column per run and the ratio to the first', () => {
    const runs = [
      sampleRun('tablet', {}, 1_000_000),
      sampleRun('tablets', {}, 2_000_000),
      sampleRun('records', {}, 500_000),
    ];
    const lines = compareTable(runs).split('\n');
    const header = lines[0].trim().split(/\s+/);
    expect(header).toEqual(['tablet', 'tablets', 'records']);
    const row = (name: string) => rowOf(lines.join('\n'), name);
    expect(row('vs first')).toEqual(['1.00x', '2.00x', '0.50x']);
    expect(row('points/s')).toEqual(['1,000,000', '2,000,000', '500,000']);
    for (const name of ['ops/s', 'p50 ms', 'p99 ms', 'CPU s/Mpts', 'failed ops']) expect(row(name)).toHaveLength(3);
  });

  it('gives a row per run when a column per run would not fit a terminal', () => {
    const labels = ['one device, raw range', 'latest values, ten devices', 'one-minute averages of one device'];
    const runs = labels.flatMap((l) => [sampleStatement(l, 100), sampleStatement(`java ${l}`, 200)]);
    const lines = compareTable(runs).split('\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(120);
    expect(lines[0].trim().split(/\s{2,}/)).toEqual([
      'run',
      'rows/s',
      'vs first',
      'ops/s',
      'p50 ms',
      'p99 ms',
      'CPU ms/op',
      'failed ops',
    ]);
    expect(lines.slice(2).map((l) => l.trim().split(/\s{2,}/)[0])).toEqual(runs.map((r) => r.label));
    expect(lines[3].trim().split(/\s{2,}/)[2]).toBe('2.00x'); // java one device's rows/s against the first run's
  });

  it('gives a row per run when the columns would not fit a terminal by the width of their characters there', () => {
    // 6 runs, of 8 CJK characters and of 'java' and 8: 96 characters a line, 144 columns of a terminal
    const labels = ['一台设备原始数据', '十台设备最新数值', '每分钟的平均数值'];
    const runs = labels.flatMap((l) => [sampleStatement(l, 100), sampleStatement(`java${l}`, 200)]);
    const lines = compareTable(runs).split('\n');
    expect(lines[0].trim().split(/\s{2,}/)[0]).toBe('run');
    expect(lines.slice(2).map((l) => l.trim().split(/\s{2,}/)[0])).toEqual(runs.map((r) => r.label));
  });

  it('compares query runs (no points written) by the rows they read per second', () => {
    const latency = sampleRun('x').latency.insertTablet;
    const reading = (label: string, rowsPerS: number) =>
      sampleRun(label, {
        points: 0,
        pointsPerS: 0,
        queries: { [label]: { ops: 10, failed: 0, rows: 100, rowsPerS, latency } },
      });
    const row = (name: string) => rowOf(compareTable([reading('a', 400), reading('b', 1_000)]), name);
    expect(row('rows/s')).toEqual(['400', '1,000']);
    expect(row('vs first')).toEqual(['1.00x', '2.50x']);
    // a first statement that read nothing (CREATE, INSERT): the ratios are to the first one that read rows
    const setup = reading('create', 0);
    const after = compareTable([setup, reading('a', 400), reading('b', 1_000)]);
    expect(after).toMatch(/^ *vs a +0\.00x +1\.00x +2\.50x$/m);
  });

  it('leaves out the p50 and p99 rows when no run has a write to give them (queries alone: a row of - each)', () => {
    const table = compareTable([sampleQueriesAlone('q#1'), sampleQueriesAlone('q#2')]);
    expect(table).not.toMatch(/p50 ms|p99 ms/);
    expect(rowOf(table, 'CPU ms/op')).toEqual(['2.500', '2.500']);
    // beside a run that wrote, they stay: - for the run of queries
    expect(rowOf(compareTable([sampleRun('w'), sampleQueriesAlone('q')]), 'p50 ms')).toEqual(['3.952', '-']);
  });

  it("compares a query file's statement with its own first run (ours beside the Java client's), not with another", () => {
    const statement = (label: string, rows: number, line: number) =>
      sampleStatement(label, rows, { queryFile: { sql: `SELECT ${line}`, concurrency: 1, repetitions: 10, line } });
    const runs = [
      statement('point', 300, 1),
      statement('java point', 700, 1),
      statement('range', 30_000, 4),
      statement('java range', 42_000, 4),
    ];
    const table = compareTable(runs);
    // it said 'vs first 1.00x 2.33x 100.00x 140.00x': the range read against the point query
    expect(rowOf(table, 'vs its statement')).toEqual(['1.00x', '2.33x', '1.00x', '1.40x']);
    expect(table).not.toMatch(/vs first/);
    // one run a statement (no Java client beside it): no ratio, as none compares alike
    expect(compareTable([statement('point', 300, 1), statement('range', 30_000, 4)])).not.toMatch(/^ *vs /m);
  });

  it("shows the server's CPU beside the client's when a run measured it (--server-pid), - for one that did not", () => {
    const runs = [sampleRun('ours', { serverCpu: { pids: [12], seconds: 1.5 } }), sampleRun('java')];
    expect(rowOf(compareTable(runs), 'server CPU s/Mpts')).toEqual(['0.300', '-']);
    expect(compareTable([sampleRun('ours')])).not.toMatch(/server CPU/);
    const statement = (label: string, serverCpu?: { pids: number[]; seconds: number }) =>
      sampleStatement(label, 100, { okOps: 8, failedOps: 2, ...(serverCpu && { serverCpu }) });
    const reads = compareTable([statement('a', { pids: [1], seconds: 0.03 }), statement('b')]);
    expect(reads).toMatch(/^ *server CPU ms\/op +3\.000 +-$/m);
  });

  it('shows the client CPU per operation, and no points, when no run wrote (query-file statements)', () => {
    const statement = (label: string, clientCpuS: number) =>
      sampleStatement(label, 100, { okOps: 8, failedOps: 2, clientCpuS });
    const table = compareTable([statement('a', 0.05), statement('b', 0.02)]);
    expect(table).not.toMatch(/points\/s|CPU s\/Mpts/);
    expect(table).toMatch(/^ *CPU ms\/op +5\.000 +2\.000$/m); // 10 operations each, the failed ones too
    // beside a run that wrote, every run keeps its points and CPU per million points
    expect(compareTable([sampleRun('w'), statement('a', 0.05)])).toMatch(/^ *CPU s\/Mpts /m);
  });
});

/** The line as printed with --progress or in a log (on a terminal, fitted to its width: progress-printer.ts) */
const progressLine = (p: Progress) => progressText(progressParts(p));
const readsProgressLine = (p: Parameters<typeof readsProgressParts>[0]) => progressText(readsProgressParts(p));

describe('progressLine', () => {
  it('marks the averages as spare, the parts to go first on a terminal too narrow for the line', () => {
    const spare = (parts: { text: string; spare?: boolean }[]) => parts.filter((p) => p.spare).map((p) => p.text);
    const run = { points: 2_500, totalPoints: 10_000, elapsedS: 10, nowPointsPerS: 260, errors: 0, ops: 10 };
    expect(spare(progressParts(run))).toEqual(['avg 250 pts/s']);
    expect(spare(progressParts({ ...run, readsOnly: true }))).toEqual([]);
    const reads = { reads: 25, totalReads: 100, rows: 2_500, elapsedS: 5, nowReadsPerS: 4, errors: 0 };
    expect(spare(readsProgressParts(reads))).toEqual(['avg 5.0 reads/s']);
  });

  it('is one line with points, rates, errors and ETA', () => {
    const line = progressLine({
      points: 2_500_000,
      totalPoints: 10_000_000,
      elapsedS: 10,
      nowPointsPerS: 260_000,
      errors: 2,
    });
    expect(line).not.toContain('\n');
    expect(line).toContain('2,500,000/10,000,000 points (25.0 %)');
    expect(line).toContain('now 260,000 pts/s');
    expect(line).toContain('avg 250,000 pts/s');
    expect(line).toContain('errors 2');
    expect(line).toContain('ETA 30.0s');
  });

  it("shows the client's retries when there are some: operations waiting on a node that went away", () => {
    const stalled = { points: 500, totalPoints: 1000, elapsedS: 30, nowPointsPerS: 0, errors: 0 };
    expect(progressLine({ ...stalled, retries: 0 })).not.toContain('retries');
    expect(progressLine({ ...stalled, retries: 1234 })).toContain('errors 0  retries 1,234  ETA');
  });

  it("shows a mixed run's operations and their rate: its points stand still while the clients read", () => {
    const mixed = { points: 301_000, totalPoints: 0, elapsedS: 60, nowPointsPerS: 0, errors: 3 };
    expect(progressLine(mixed)).not.toContain('ops');
    expect(progressLine({ ...mixed, ops: 1913, nowOpsPerS: 24.25 })).toContain(
      'avg 5,017 pts/s  ops 1,913 (now 24.3/s)  errors 3',
    );
  });

  it("gives a mixed run's share of its planned operations and an ETA from their rate (its points give none)", () => {
    const mixed = { points: 301_000, totalPoints: 0, elapsedS: 60, nowPointsPerS: 0, errors: 3, nowOpsPerS: 24.25 };
    const line = progressLine({ ...mixed, ops: 1913, totalOps: 4000 });
    expect(line).toContain('avg 5,017 pts/s  ops 1,913/4,000 (47.8 %, now 24.3/s)  errors 3');
    // 2,087 operations left at the average 31.9/s
    expect(line).toMatch(/ETA 1m0[56]s$/);
  });

  it('shows a run of queries only by its operations alone: it writes no points', () => {
    const reads = { points: 0, totalPoints: 0, elapsedS: 2, nowPointsPerS: 0, errors: 0, nowOpsPerS: 500 };
    expect(progressLine({ ...reads, ops: 1000, totalOps: 4000, readsOnly: true })).toBe(
      '[2.0s] ops 1,000/4,000 (25.0 %, now 500.0/s)  errors 0  ETA 6.0s',
    );
  });

  it("tells whether an open loop keeps its schedule: behind once its earliest due operation is later than a client's interval", () => {
    const open = { points: 500, totalPoints: 1000, elapsedS: 5, nowPointsPerS: 100, errors: 0 };
    expect(progressLine(open)).not.toMatch(/schedule|behind/);
    expect(progressLine({ ...open, schedule: { behindMs: 0, slackMs: 10 } })).toContain('pts/s  on schedule  errors');
    expect(progressLine({ ...open, schedule: { behindMs: 9.9, slackMs: 10 } })).toContain('on schedule');
    expect(progressLine({ ...open, schedule: { behindMs: 450.5, slackMs: 10 } })).toContain('  behind 450.5 ms  ');
    expect(progressLine({ ...open, schedule: { behindMs: 2250, slackMs: 10 } })).toMatch(/ {2}behind 2\.\ds {2}/);
  });

  it('gives no ETA past the end --test-max-time sets: the run ends then, however much is left', () => {
    const long = { points: 1_000, totalPoints: 1_000_000, elapsedS: 10, nowPointsPerS: 100, errors: 0 };
    expect(progressLine({ ...long, timeLeftS: 230 })).toMatch(/ETA 3m50s$/);
    expect(progressLine({ ...long, timeLeftS: 5_000_000 })).toMatch(/ETA 2h46m$/); // the plan ends first
    expect(progressLine({ ...long, points: 0, timeLeftS: 50 })).toMatch(/ETA 50\.0s$/); // no rate yet
    const mixed = { points: 5, totalPoints: 0, elapsedS: 1, nowPointsPerS: 5, errors: 0 };
    expect(progressLine({ ...mixed, timeLeftS: 12 })).toMatch(/ETA 12\.0s$/); // no plan
    expect(progressLine({ ...mixed, ops: 10, totalOps: 400_000, nowOpsPerS: 10, timeLeftS: 0 })).toMatch(/ETA 0\.0s$/);
  });

  it('has no ETA without a total or before the first point', () => {
    expect(progressLine({ points: 0, totalPoints: 100, elapsedS: 1, nowPointsPerS: 0, errors: 0 })).toContain('ETA ?');
    expect(progressLine({ points: 5, totalPoints: 0, elapsedS: 1, nowPointsPerS: 5, errors: 0 })).toContain('ETA -');
    expect(
      progressLine({ points: 7_200_000, totalPoints: 14_400_000, elapsedS: 3600, nowPointsPerS: 2000, errors: 0 }),
    ).toContain('ETA 1h00m');
  });
});

describe('readsProgressLine', () => {
  it("is one line with a query-file statement's reads of all, their rate, rows, errors and ETA", () => {
    const line = readsProgressLine({
      reads: 25,
      totalReads: 100,
      rows: 2_500,
      elapsedS: 5,
      nowReadsPerS: 4,
      errors: 1,
    });
    expect(line).toBe(
      '[5.0s] 25/100 reads (25.0 %)  now 4.0 reads/s  avg 5.0 reads/s  rows 2,500  errors 1  ETA 15.0s',
    );
  });

  it('says whether a paced statement keeps its schedule, as a write run does', () => {
    const paced = { reads: 25, totalReads: 100, rows: 2_500, elapsedS: 5, nowReadsPerS: 4, errors: 0 };
    expect(readsProgressLine({ ...paced, schedule: { behindMs: 1, slackMs: 100 } })).toContain(
      'rows 2,500  on schedule  errors 0',
    );
    expect(readsProgressLine({ ...paced, schedule: { behindMs: 1500, slackMs: 100 } })).toContain('  behind 1.5s  ');
  });

  it('gives no ETA past the end --test-max-time sets, as a write run', () => {
    const reads = { reads: 25, totalReads: 100, rows: 2_500, elapsedS: 5, nowReadsPerS: 4, errors: 0 };
    expect(readsProgressLine({ ...reads, timeLeftS: 2 })).toMatch(/ETA 2\.0s$/);
    expect(readsProgressLine({ ...reads, timeLeftS: 60 })).toMatch(/ETA 15\.0s$/);
  });
});
