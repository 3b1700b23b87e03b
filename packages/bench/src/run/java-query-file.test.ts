import { describe, expect, it } from 'vitest';
import type { QueryFileEntry } from '../config/query-file.js';
import { sampleConfig } from '../report/test-fixture.js';
import type { BenchConfig } from '../types.js';
import { javaStatementArgs, javaStatementRun as parse } from './java-query-file.js';
import { throughScript } from './test-fixture.js';
import { repeatLabel } from '../e2e/repeat.js';
import { sweepLabel } from '../e2e/run-label.js';
import { mainOperation } from '../report/result-fields.js';
import { resultLine } from '../report/format.js';

/** A statement's RunResult of the Java process's output `out`, as the harness reads it: through java/query-file.sh. */
const javaStatementRun = (out: string, c: BenchConfig, e: QueryFileEntry, shares: readonly (readonly string[])[]) =>
  parse(throughScript('query-file.sh', out), c, e, shares);

const entry: QueryFileEntry = {
  label: 'one device',
  sql: 'SELECT s0 FROM root.bench.d000',
  concurrency: 2,
  repetitions: 5,
  model: 'tree',
  database: 'bench',
  line: 3,
};
const MATRIX =
  'avg=2.000 min=1.000 p10=1.000 p25=1.500 p50=2.000 p75=2.500 p90=3.000 p95=3.000 p99=3.000 p999=3.000 max=3.000';
const target = { host: '127.0.0.1', port: 6667 };
/** two sessions, each the entry's statement */
const shares = [[entry.sql], [entry.sql]];

describe("the Java client's run of a query-file statement", () => {
  it('runs the statement as ours does: its sessions, repetitions, model, pacing and time limit', () => {
    expect(javaStatementArgs(sampleConfig(), entry, target)).toEqual([
      'host=127.0.0.1',
      'port=6667',
      'threads=2',
      'reps=5',
      'replyTimeout=60000',
      'intervalMs=1000',
      'warm=1',
      'sql=SELECT s0 FROM root.bench.d000',
    ]);
    const paced = { ...sampleConfig(), targetRate: 50, testMaxTime: 2000 };
    const table = { ...entry, model: 'table' as const, database: 'db1' };
    expect(javaStatementArgs(paced, table, target)).toEqual([
      'host=127.0.0.1',
      'port=6667',
      'threads=2',
      'reps=5',
      'replyTimeout=60000',
      'table=true',
      'database=db1',
      'rate=50',
      'maxms=2000',
      'intervalMs=1000',
      'warm=1',
      'sql=SELECT s0 FROM root.bench.d000',
    ]);
    expect(javaStatementArgs({ ...sampleConfig(), batchIntervalMs: 20 }, entry, target)).toContain('pause=20');
    expect(javaStatementArgs({ ...sampleConfig(), rpcCompression: true }, entry, target)).toContain('compression=true');
    // as many untimed reads as ours: --warmup-rounds, at least one with --vs-java
    expect(javaStatementArgs({ ...sampleConfig(), warmupRounds: 0, vsJava: true }, entry, target)).toContain('warm=1');
    expect(javaStatementArgs({ ...sampleConfig(), warmupRounds: 0 }, entry, target)).toContain('warm=0');
    expect(javaStatementArgs({ ...sampleConfig(), vsJava: true, warmupRounds: 20 }, entry, target)).toContain(
      'warm=20',
    );
    // a statement that changes something: executeNonQueryStatement, and not run once more to warm up
    expect(
      javaStatementArgs(sampleConfig(), { ...entry, sql: 'INSERT INTO root.sg.d(time, s) VALUES (1, 1)' }, target),
    ).toContain('query=false');
  });

  it('reads its QSTMT line into a run named for the statement: counts, rows, time, CPU and the matrix', () => {
    const out = `QSTMT ok=10 failed=0 rows=5010 points=20040 wall_s=0.500000 client_cpu_s=0.2000 slowest_s=0.240000 peak_rss_mb=88.5 ops=10 ${MATRIX}\n`;
    const r = javaStatementRun(out, sampleConfig(), entry, shares);
    expect(r).toMatchObject({ label: 'java one device', okOps: 10, failedOps: 0, opsPerS: 20, durationS: 0.5 });
    expect(r).toMatchObject({ clientCpuS: 0.2, peakRssMb: 88.5, errors: [], config: { clients: 2, model: 'tree' } });
    expect(r.queries?.['java one device']).toMatchObject({
      ops: 10,
      failed: 0,
      rows: 5010,
      rowsPerS: 10020,
      points: 20040,
    });
    expect(r.latency['java one device']).toMatchObject({ count: 10, p50: 2, p99: 3, max: 3 });
    expect(r.slowestClientMs).toEqual({ 'java one device': 240 });
    expect(r.stopped).toBeUndefined();
    expect(r.queryFile).toEqual({ sql: entry.sql, row: 'java one device', concurrency: 2, repetitions: 5, line: 3 });
  });

  it("measures the server's CPU over its reads as ours' does: the pids passed on, its figure read back", () => {
    const c = sampleConfig({ serverPid: [12, 34] });
    expect(javaStatementArgs(c, entry, { host: 'h', port: 1 })).toContain('serverPids=12,34');
    const out = (server: string) =>
      `QSTMT ok=10 failed=0 rows=5010 wall_s=0.500000 client_cpu_s=0.2000 slowest_s=0.240000 peak_rss_mb=88.5 ${server} ops=10 ${MATRIX}\n`;
    expect(javaStatementRun(out('server_cpu_s=0.75'), c, entry, shares).serverCpu).toEqual({
      pids: [12, 34],
      seconds: 0.75,
    });
    expect(javaStatementRun(out('server_cpu_s=n/a'), sampleConfig(), entry, shares).serverCpu).toBeUndefined();
    // and its cores busy over each interval of the reads (QueryFile.java's ServerSampler), as ours samples them
    const sampled = `${out('server_cpu_s=0.75')}SERVER at_s=0.400 cores=1.250\nSERVER at_s=0.500 cores=2.500\n`;
    expect(javaStatementRun(sampled, c, entry, shares).serverCoresOverTime).toEqual([
      [0.4, 1.25],
      [0.5, 2.5],
    ]);
  });

  it("keeps its own row when its run is labelled for a repeat or a sweep (point#2, point@200/s#2): the RESULT line's op", () => {
    const out = `QSTMT ok=10 failed=0 rows=5010 wall_s=0.500000 client_cpu_s=0.2000 slowest_s=0.240000 peak_rss_mb=88.5 ops=10 ${MATRIX}\n`;
    const c = sampleConfig({ sweepRates: [100, 200], targetRate: 200 });
    const r = repeatLabel(sweepLabel(javaStatementRun(out, c, entry, shares), c), 2, 3);
    expect(r.label).toBe('java one device@200/s#2');
    expect(mainOperation(r)).toMatchObject({ kind: 'java one device', latency: { p50: 2, p99: 3 } });
    expect(resultLine(r)).toMatch(/ insert_op=java_one_device insert_ms_avg=2\.000 insert_ms_p50=2\.000 /);
  });

  it('keeps the open loop uncorrected and start lag rows, the failures apart with the first error, and a stop at the time limit', () => {
    const out = [
      `QSTMT ok=4 failed=2 rows=4 wall_s=1.000000 client_cpu_s=0.1000 slowest_s=0.100000 peak_rss_mb=n/a ops=4 ${MATRIX}`,
      `QSTMT_UNCORRECTED ops=4 ${MATRIX}`,
      `QSTMT_START_LAG ops=6 ${MATRIX}`,
      `FAILED kind=statement ops=2 ${MATRIX}`,
      'QERROR kind=statement error=701: Table root.x does not exist',
    ].join('\n');
    const r = javaStatementRun(out, { ...sampleConfig(), targetRate: 10, testMaxTime: 1000 }, entry, shares);
    expect(Object.keys(r.latency)).toEqual([
      'java one device',
      'uncorrected java one device',
      'failed java one device',
      'start lag',
    ]);
    expect(r.latency['start lag'].count).toBe(6);
    expect(r.errors).toEqual(['the Java client: 701: Table root.x does not exist']);
    expect(r.stopped).toBe('test-max-time'); // 6 reads of 2 x 5
    expect(Number.isNaN(r.peakRssMb)).toBe(true);
  });

  it("reads its INTERVAL lines as the statement's latency and failures over time (reads: no points/s over the run)", () => {
    const out = [
      `QSTMT ok=10 failed=0 rows=10 wall_s=2.000000 client_cpu_s=0.1000 slowest_s=0.100000 peak_rss_mb=80 ops=10 ${MATRIX}`,
      'INTERVAL at_s=1.000 to_s=1.000 ops=6 failed=1 points=0 points_per_s=0 p50=2.000 p99=3.000 max=3.000',
      'INTERVAL at_s=2.000 to_s=1.800 ops=4 failed=0 points=0 points_per_s=0 p50=1.500 p99=40.000 max=40.000',
    ].join('\n');
    const r = javaStatementRun(out, sampleConfig(), entry, shares);
    expect(r.latencyOverTime).toEqual([
      [1, 6, 2, 3, 3],
      [2, 4, 1.5, 40, 40],
    ]);
    expect(r.failuresOverTime).toEqual([[1, 1]]);
    expect(r.throughput).toEqual([]);
    expect(javaStatementArgs({ ...sampleConfig(), reportIntervalMs: 500 }, entry, target)).toContain('intervalMs=500');
  });

  it('forEach: reads its statements from the file ours wrote instead of sql= and threads=, and records them', () => {
    const forEach = { ...entry, forEach: 'SHOW DEVICES root.bench.**', sql: 'SELECT LAST s0 FROM {Device}' };
    const args = javaStatementArgs(sampleConfig(), forEach, target, '/tmp/x/statements.txt');
    expect(args).toContain('statements=/tmp/x/statements.txt');
    expect(args.filter((a) => a.startsWith('sql=') || a.startsWith('threads='))).toEqual([]);
    const three = [
      ['SELECT LAST s0 FROM root.bench.d0', 'SELECT LAST s0 FROM root.bench.d2'],
      ['SELECT LAST s0 FROM root.bench.d1'],
    ];
    const out = `QSTMT ok=15 failed=0 rows=15 wall_s=0.500000 client_cpu_s=0.2000 slowest_s=0.240000 peak_rss_mb=88.5 ops=15 ${MATRIX}\n`;
    const r = javaStatementRun(out, { ...sampleConfig(), testMaxTime: 1000 }, forEach, three);
    expect(r.queryFile).toMatchObject({ concurrency: 2, forEach: 'SHOW DEVICES root.bench.**', statements: 3 });
    expect(r.config.clients).toBe(2);
    expect(r.stopped).toBeUndefined(); // 15 reads: 3 statements x 5
  });

  it('says what the script printed when it printed no QSTMT line', () => {
    expect(() => javaStatementRun('Exception in thread "main"\n', sampleConfig(), entry, shares)).toThrow(
      /java\/query-file\.sh printed no QSTMT line:\nException/,
    );
  });
});
