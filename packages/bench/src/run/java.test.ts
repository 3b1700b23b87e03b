import { describe, expect, it } from 'vitest';
import { formatReport, resultLine } from '../report/format.js';
import { sampleConfig } from '../report/test-fixture.js';
import type { BenchConfig, Method } from '../types.js';
import { javaArgs, javaFullRounds, javaRun as parse, javaRunsPlan } from './java.js';
import { throughScript } from './test-fixture.js';

/** The RunResult of the Java process's output `out`, read as the harness reads it: through java/bench.sh. */
const javaRun = (out: string, c: BenchConfig) => parse(throughScript('bench.sh', out), c);

const OUTPUT = [
  'setup: 100 devices',
  'RESULT mode=tree values=pattern threads=2 points=2500000 wall_s=0.50 points_per_s=5000000 client_cpu_s=0.44 client_cpu_s_per_Mpts=0.176 server_cpu_s=n/a insert_ms_p50=2.7 p99=180.1 max=180.1',
  'MATRIX ops=100 avg=9.500 min=1.250 p10=1.500 p25=2.000 p50=2.700 p75=4.000 p90=20.000 p95=60.000 p99=180.100 p999=180.100 max=180.100 peak_rss_mb=612.5',
  'VERIFY count=2500000 expected=2500000',
].join('\n');

describe('the Java anchor run', () => {
  it('reads its RESULT, MATRIX and VERIFY lines: every figure of the report, no NaN', () => {
    const r = javaRun(OUTPUT, sampleConfig());
    expect([r.okOps, r.opsPerS, r.points, r.pointsPerS, r.peakRssMb]).toEqual([100, 200, 2_500_000, 5_000_000, 612.5]);
    expect(r.latency.insertTablet).toEqual({
      count: 100,
      min: 1.25,
      avg: 9.5,
      p10: 1.5,
      p25: 2,
      p50: 2.7,
      p75: 4,
      p90: 20,
      p95: 60,
      p99: 180.1,
      p999: 180.1,
      max: 180.1,
    });
    expect(r.verify).toEqual({ expected: 2_500_000, actual: 2_500_000, ok: true });
    expect(resultLine(r)).not.toContain('NaN');
    expect(formatReport(r)).not.toContain('NaN');
  });

  it('started its wall time before its output was read (merge checks that shares ran together by it)', () => {
    const before = Date.now();
    const r = javaRun(OUTPUT.replace('wall_s=0.50', 'wall_s=30.00'), sampleConfig());
    expect(Date.parse(r.startedAt)).toBeGreaterThanOrEqual(before - 30_000);
    expect(Date.parse(r.startedAt)).toBeLessThanOrEqual(Date.now() - 30_000);
  });

  it('is a run stopped at --test-max-time when Java says so, and one run to its end otherwise', () => {
    const stopped = OUTPUT.replace(' max=180.1\n', ' max=180.1 stopped=test-max-time\n');
    expect(javaRun(stopped, sampleConfig()).stopped).toBe('test-max-time');
    expect(javaRun(OUTPUT, sampleConfig()).stopped).toBeUndefined();
  });

  it("makes the Java client's calls ours': insertTablets and insertRecords of --tablets-per-request devices each", () => {
    const args = (method: Method) =>
      javaArgs(sampleConfig({ method, tabletsPerRequest: 4 }), 'h', 1).filter((a) =>
        /^(method|tabletsPerRequest)=/.test(a),
      );
    expect(args('insertTablets')).toEqual(['method=insertTablets', 'tabletsPerRequest=4']);
    expect(args('insertRecords')).toEqual(['method=insertRecords', 'tabletsPerRequest=4']);
    // no Java call writes several devices in parallel, nor batches rows: a call per device
    expect(args('insertTabletsParallel')).toEqual(['method=insertTablet', 'tabletsPerRequest=1']);
    expect(args('insertTablet')).toEqual(['method=insertTablet', 'tabletsPerRequest=1']);
    expect(args('writer')).toEqual(['method=insertTablet', 'tabletsPerRequest=1']);
  });

  it("names its writes by the Java client's call, as ours are named by ours' method", () => {
    const written = (method: Method) => Object.keys(javaRun(OUTPUT, sampleConfig({ method })).latency);
    expect(written('insertTablets')).toEqual(['insertTablets']);
    expect(written('insertRecords')).toEqual(['insertRecords']);
    expect(written('insertTabletsParallel')).toEqual(['insertTablet']); // a call per device
    // the table model's ITableSession.insert, ours' TableSession.insert: the same name in both matrices, whichever
    // method groups the devices of an operation (insertTablets: tabletsPerRequest of them, inserted in turn)
    const table = (method: Method) => javaRun(OUTPUT, sampleConfig({ model: 'table', method }));
    expect(Object.keys(table('insertTablet').latency)).toEqual(['insert']);
    expect(Object.keys(table('insertTablets').latency)).toEqual(['insert']);
    expect(javaArgs(sampleConfig({ model: 'table', method: 'insertTablets', tabletsPerRequest: 4 }), 'h', 1)).toEqual(
      expect.arrayContaining(['method=insertTablets', 'tabletsPerRequest=4']),
    );
    const paced = `${OUTPUT}\nUNCORRECTED kind=insertRecords ops=100 avg=2 min=1 p10=1 p25=1 p50=2 p75=2 p90=3 p95=3 p99=4 p999=4 max=4`;
    expect(Object.keys(javaRun(paced, sampleConfig({ method: 'insertRecords' })).latency)).toEqual([
      'insertRecords',
      'uncorrected insertRecords',
    ]);
  });

  it("writes ours' warm-up rounds too, untimed: both sides then store and read the same rows", () => {
    expect(javaArgs(sampleConfig({ warmupRounds: 2 }), 'h', 1)).toContain('warmupRounds=2');
    expect(javaRunsPlan(sampleConfig({ warmupRounds: 2 }))).toBe(false); // Bench.java's own loop: no plan to hold
  });

  it('reads the rounds every device was written in from a run stopped at --test-max-time (its ROUNDS line)', () => {
    const stopped = OUTPUT.replace(' max=180.1\n', ' max=180.1 stopped=test-max-time\n');
    expect(javaFullRounds(throughScript('bench.sh', `${stopped}\nROUNDS full=3`))).toBe(3);
    expect(javaFullRounds(throughScript('bench.sh', OUTPUT))).toBeUndefined(); // every round written
  });

  it("measures the server's CPU over its timed phase as ours' does: the pids passed on, its figure read back", () => {
    expect(javaArgs(sampleConfig({ serverPid: [12, 34] }), 'h', 1)).toContain('serverPids=12,34');
    expect(javaArgs(sampleConfig(), 'h', 1).some((a) => a.startsWith('serverPids='))).toBe(false);
    const c = sampleConfig({ serverPid: [12, 34] });
    const measured = OUTPUT.replace('server_cpu_s=n/a', 'server_cpu_s=1.25');
    expect(javaRun(measured, c).serverCpu).toEqual({ pids: [12, 34], seconds: 1.25 });
    const gone = OUTPUT.replace('server_cpu_s=n/a', 'server_cpu_s=n/a server_cpu_gone=34@end');
    expect(javaRun(gone, c).serverCpu).toEqual({
      pids: [12, 34],
      error: 'process 34 was gone at the end (a server node stopped or restarted during the run)',
    });
    expect(javaRun(OUTPUT, sampleConfig()).serverCpu).toBeUndefined();
  });

  it("reads the server's cores it sampled over its timed phase (SERVER lines), as ours' samples", () => {
    const c = sampleConfig({ serverPid: [12] });
    const sampled = `${OUTPUT}\nSERVER at_s=1.000 cores=1.50\nSERVER at_s=2.000 cores=1.25\nSERVER at_s=2.400 cores=0.80`;
    expect(javaRun(sampled, c).serverCoresOverTime).toEqual([
      [1, 1.5],
      [2, 1.25],
      [2.4, 0.8],
    ]);
    expect(javaRun(OUTPUT, c).serverCoresOverTime).toBeUndefined();
  });

  it('passes --test-max-time on to the Java client, which stops its writers there', () => {
    expect(javaArgs(sampleConfig({ testMaxTime: 1500 }), 'h', 1)).toContain('maxTimeMs=1500');
  });

  it('connects as ours: the compact protocol with --rpc-compression, TLS through its trust store with --tls', () => {
    expect(javaArgs(sampleConfig({ rpcCompression: true }), 'h', 1)).toContain('compression=true');
    const tls = sampleConfig({ tls: true, javaTrustStore: '/d/tls/truststore.jks' });
    expect(javaArgs(tls, 'h', 1)).toContain('trustStore=/d/tls/truststore.jks');
    expect(javaArgs(sampleConfig(), 'h', 1).filter((a) => /^(compression|trustStore)=/.test(a))).toEqual([]);
  });

  it('keeps its queries on its node when ours do not take turns on the DataNodes it would learn (enableAutoFetch off)', () => {
    const autoFetch = (o: Partial<BenchConfig>) =>
      javaArgs(sampleConfig(o), 'h', 1).filter((a) => a.startsWith('autoFetch='));
    expect(autoFetch({})).toEqual([]); // the Java client's default: its queries take turns, as ours
    expect(autoFetch({ spreadQueries: false })).toEqual(['autoFetch=false']);
    expect(autoFetch({ discoverNodes: false })).toEqual(['autoFetch=false']);
  });

  it('waits for a reply as long as ours, where the Java Session would wait without end (a read a server never answers)', () => {
    const wait = (o: Partial<BenchConfig>) =>
      javaArgs(sampleConfig(o), 'h', 1).filter((a) => a.startsWith('replyTimeout='));
    expect(wait({})).toEqual(['replyTimeout=60000']); // the client's requestTimeoutMs
    expect(wait({ queryTimeoutMs: 1000 })).toEqual(['replyTimeout=60000']);
    expect(wait({ queryTimeoutMs: 120_000 })).toEqual(['replyTimeout=120000']); // ours waits as long for a query
    expect(wait({ queryTimeoutMs: 0 })).toEqual(['replyTimeout=0']); // no limit: neither waits less
    expect(wait({ queryTimeoutMs: 2 ** 40 })).toEqual([`replyTimeout=${2 ** 31 - 1}`]); // a Java int
  });

  it('sends its writes and one-device last queries to its node alone when ours do not follow redirects', () => {
    const redirection = (o: Partial<BenchConfig>) =>
      javaArgs(sampleConfig(o), 'h', 1).filter((a) => a.startsWith('redirection='));
    expect(redirection({})).toEqual([]); // the Java client's default: enableRedirection, as ours
    expect(redirection({ redirection: false })).toEqual(['redirection=false']);
  });

  it('keeps its run when its count cannot be read back after it (the server not back yet): verify says why', () => {
    const unread = OUTPUT.replace(
      'VERIFY count=2500000 expected=2500000',
      'VERIFY expected=2505000 error=720: Query execution is time out\nFLUSH error=Fail to reconnect to server.',
    );
    const r = javaRun(unread, sampleConfig());
    expect(r.verify).toEqual({
      expected: 2_505_000,
      ok: false,
      error: 'the Java client: 720: Query execution is time out',
    });
    expect([r.okOps, r.points]).toEqual([100, 2_500_000]); // the run's figures, kept
    expect(formatReport(r)).toMatch(
      /^verify +NOT READ BACK: expected 2,505,000 points \(2,500,000 timed, 5,000 untimed: the warm-up\); the Java client: 720: /m,
    );
    expect(resultLine(r)).toMatch(/ verify=unread /);
  });

  it('counts the writes that failed, as ours: their latencies in a row of their own, the first error kept', () => {
    const out = [
      OUTPUT,
      'FAILED kind=insertTablet ops=3 avg=40.000 min=2.000 p10=2.000 p25=2.000 p50=18.000 p75=100.000 p90=100.000 p95=100.000 p99=100.000 p999=100.000 max=100.000',
      'QERROR kind=insertTablet error=org.apache.iotdb.rpc.IoTDBConnectionException: Fail to reconnect to server.',
    ].join('\n');
    const r = javaRun(out, sampleConfig());
    expect([r.okOps, r.failedOps]).toEqual([100, 3]);
    expect(r.latency['failed insertTablet']).toMatchObject({ count: 3, p50: 18, max: 100 });
    expect(r.latency.insertTablet.count).toBe(100); // the writes that succeeded alone
    expect(r.errors).toEqual([
      'the Java client: insertTablet: org.apache.iotdb.rpc.IoTDBConnectionException: Fail to reconnect to server.',
    ]);
    expect(formatReport(r)).toMatch(/^ +failed insertTablet +3 /m);
  });

  it("reads a mixed run's QTYPE, FAILED and QERROR lines: each query type's figures beside the writes", () => {
    const mixed = [
      OUTPUT,
      'FAILED kind=AGG_RANGE ops=2 avg=1.500 min=1.000 p10=1.000 p25=1.000 p50=2.000 p75=2.000 p90=2.000 p95=2.000 p99=2.000 p999=2.000 max=2.000',
      'QERROR kind=AGG_RANGE error=701: Msg: line 1:7 mismatched input nosuch(s0)',
      'QTYPE kind=AGG_RANGE failed=2 rows=0 ops=0 avg=0.000 min=0.000 p10=0.000 p25=0.000 p50=0.000 p75=0.000 p90=0.000 p95=0.000 p99=0.000 p999=0.000 max=0.000',
      'QTYPE kind=TIME_RANGE failed=0 rows=5000 points=4900 ops=10 avg=4.000 min=2.000 p10=2.500 p25=3.000 p50=4.000 p75=5.000 p90=6.000 p95=7.000 p99=8.000 p999=8.000 max=8.000',
    ].join('\n');
    const r = javaRun(mixed, sampleConfig());
    // ops/s: what succeeded (110 in 0.5 s), as ours
    expect([r.okOps, r.failedOps, r.opsPerS]).toEqual([110, 2, 220]);
    expect(r.queries?.TIME_RANGE).toEqual({
      ops: 10,
      failed: 0,
      rows: 5000,
      rowsPerS: 10_000, // over the run, as ours
      points: 4900, // the values read that were not null
      latency: { count: 10, min: 2, avg: 4, p10: 2.5, p25: 3, p50: 4, p75: 5, p90: 6, p95: 7, p99: 8, p999: 8, max: 8 },
    });
    expect(r.latency.TIME_RANGE).toEqual(r.queries?.TIME_RANGE.latency);
    expect(r.queries?.AGG_RANGE).toMatchObject({ ops: 0, failed: 2, rows: 0 });
    expect(r.latency.AGG_RANGE).toBeUndefined(); // no latency of nothing read, as ours
    expect(r.latency['failed AGG_RANGE']).toMatchObject({ count: 2, avg: 1.5, max: 2 }); // the failures' own row
    expect(r.errors).toEqual(['the Java client: AGG_RANGE: 701: Msg: line 1:7 mismatched input nosuch(s0)']);
    expect(formatReport(r)).not.toContain('NaN');
  });

  it("keeps a mixed run's query types in iot-benchmark's order, as ours, whatever order its QTYPE lines come in", () => {
    const qtype = (kind: string) =>
      `QTYPE kind=${kind} failed=0 rows=10 ops=10 avg=1 min=1 p10=1 p25=1 p50=1 p75=1 p90=1 p95=1 p99=1 p999=1 max=1`;
    // Mixed.java prints them sorted by name
    const lines = ['AGG_RANGE', 'LATEST_POINT', 'PRECISE_POINT', 'TIME_RANGE'].map(qtype);
    const r = javaRun([OUTPUT, ...lines].join('\n'), sampleConfig());
    expect(Object.keys(r.queries ?? {})).toEqual(['PRECISE_POINT', 'TIME_RANGE', 'AGG_RANGE', 'LATEST_POINT']);
  });

  it("keeps a query of the warm-up that failed (WERROR) among the errors, named as the warm-up's, nothing counted", () => {
    const r = javaRun([OUTPUT, 'WERROR kind=TIME_RANGE error=701: Msg: something refused'].join('\n'), sampleConfig());
    expect(r.errors).toEqual(["the Java client: the warm-up's TIME_RANGE: 701: Msg: something refused"]);
    expect(r.queries?.TIME_RANGE).toBeUndefined();
    expect(r.failedOps).toBe(0);
  });

  it("counts a query type's sensor values as its points, not the table model's time and tag columns or LAST's path", () => {
    // the Java client's reads count every value not null (QueryBench.readAll), as ours: time and device_id too
    const qtype = (kind: string, rows: number, points: number) =>
      `QTYPE kind=${kind} failed=0 rows=${rows} points=${points} ops=1 avg=1 min=1 p10=1 p25=1 p50=1 p75=1 p90=1 p95=1 p99=1 p999=1 max=1`;
    const out = [OUTPUT, qtype('TIME_RANGE', 100, 400), qtype('AGG_RANGE', 2, 6), qtype('LATEST_POINT', 2, 8)];
    const points = (model: 'tree' | 'table') =>
      Object.entries(javaRun(out.join('\n'), sampleConfig({ model })).queries ?? {}).map(([k, q]) => [k, q.points]);
    // table: time, device_id, 2 sensors a row; device_id and 2 aggregates; device_id, last(time), 2 last_by
    expect(points('table')).toEqual([
      ['TIME_RANGE', 200],
      ['AGG_RANGE', 4],
      ['LATEST_POINT', 4],
    ]);
    // tree: the time is no value; a LAST row is Timeseries, Value, DataType (here 4 rows would print 12)
    expect(points('tree')).toEqual([
      ['TIME_RANGE', 400],
      ['AGG_RANGE', 6],
      ['LATEST_POINT', 4],
    ]);
  });

  it('passes the pacing on (--target-rate, --rate-limit, --batch-interval-ms); an unpaced run gives none', () => {
    const paced = javaArgs(sampleConfig({ targetRate: 250, rateLimit: 0, batchIntervalMs: 5 }), 'h', 1);
    expect(paced).toEqual(expect.arrayContaining(['targetRate=250', 'batchIntervalMs=5']));
    expect(paced.some((a) => a.startsWith('rateLimit='))).toBe(false);
    expect(javaArgs(sampleConfig({ rateLimit: 1e6 }), 'h', 1)).toContain('rateLimit=1000000');
    expect(javaArgs(sampleConfig(), 'h', 1).filter((a) => /^(targetRate|rateLimit|batchIntervalMs)=/.test(a))).toEqual(
      [],
    );
  });

  it("reads an open-loop run's UNCORRECTED lines as the 'uncorrected <op>' rows, as ours", () => {
    const paced = [
      OUTPUT,
      'UNCORRECTED kind=insertTablet ops=100 avg=2.000 min=1.000 p10=1.100 p25=1.500 p50=2.000 p75=2.500 p90=3.000 p95=3.500 p99=4.000 p999=4.000 max=4.000',
    ].join('\n');
    const r = javaRun(paced, sampleConfig({ targetRate: 200 }));
    expect(r.latency['uncorrected insertTablet']).toMatchObject({ count: 100, p50: 2, max: 4 });
    expect(r.latency.insertTablet.p50).toBe(2.7); // from the due time
  });

  it("reads an open-loop run's START_LAG line as the 'start lag' row, as ours", () => {
    const paced = [
      OUTPUT,
      'START_LAG ops=140 avg=0.080 min=0.010 p10=0.020 p25=0.030 p50=0.060 p75=0.090 p90=0.120 p95=0.150 p99=0.400 p999=0.900 max=0.950',
    ].join('\n');
    const r = javaRun(paced, sampleConfig({ targetRate: 200 }));
    expect(r.latency['start lag']).toMatchObject({ count: 140, p50: 0.06, p99: 0.4, max: 0.95 });
    expect(javaRun(OUTPUT, sampleConfig({ targetRate: 200 })).latency['start lag']).toBeUndefined();
  });

  it('reads its INTERVAL lines as latency and failures over time and points/s over the run; reads alone add no points/s', () => {
    const timed = [
      OUTPUT,
      'INTERVAL at_s=1.000 to_s=1.000 ops=60 failed=0 points=1500000 points_per_s=1500000 p50=2.500 p99=9.000 max=12.000',
      'INTERVAL at_s=2.000 to_s=2.000 ops=3 failed=2 points=0 points_per_s=0 p50=4.000 p99=5.000 max=5.000',
      'INTERVAL at_s=3.000 to_s=3.000 ops=0 failed=6 points=0 points_per_s=0', // failures alone: no percentiles
      // the last interval: the phase ended half way through it
      'INTERVAL at_s=4.000 to_s=3.500 ops=40 failed=0 points=1000000 points_per_s=2000000 p50=2.000 p99=150.000 max=180.100',
    ].join('\n');
    const r = javaRun(timed, sampleConfig());
    expect(r.latencyOverTime).toEqual([
      [1, 60, 2.5, 9, 12],
      [2, 3, 4, 5, 5],
      [4, 40, 2, 150, 180.1],
    ]);
    expect(r.failuresOverTime).toEqual([
      [2, 2],
      [3, 6],
    ]);
    expect(r.throughput).toEqual([
      [1, 1_500_000],
      [3.5, 2_000_000],
    ]);
    // output from before the lines: neither, as before
    expect(javaRun(OUTPUT, sampleConfig()).latencyOverTime).toBeUndefined();
    expect(javaRun(OUTPUT, sampleConfig()).failuresOverTime).toBeUndefined();
    expect(javaRun(OUTPUT, sampleConfig()).throughput).toEqual([]);
  });

  it('passes --report-interval-ms on as the interval of its INTERVAL lines', () => {
    expect(javaArgs(sampleConfig({ reportIntervalMs: 250 }), 'h', 1)).toContain('intervalMs=250');
  });

  it('refuses output without its MATRIX line, quoting it', () => {
    const old = OUTPUT.split('\n')
      .filter((l) => !l.startsWith('MATRIX'))
      .join('\n');
    expect(() => javaRun(old, sampleConfig())).toThrow(/printed no MATRIX line:\nsetup: 100 devices/);
  });
});
