import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Session, TableSession } from '@iotdb/client';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { sampleConfig, sampleRun } from '../report/test-fixture.js';
import { runJava } from '../run/java.js';
import type { Environment } from '../types.js';
import { RunError } from '../run/run-error.js';
import type { RunResult } from '../types.js';
import { QUERY_KINDS } from '../workload/operations.js';

/** Runs the built CLI (pnpm test builds first) against the suite's server. */
const cli = fileURLToPath(new URL('../../dist/e2e/main.js', import.meta.url));
const { host, port, control } = inject('iotdb');
const run = promisify(execFile);
/**
 * A query the server cut at its timeout: IoTDB answers [712] "Current query is time out" or, when the timeout meets
 * the query while it runs, [720] "Query execution is time out" (seen with a 1 ms timeout, from either client).
 */
const SERVER_CUT_QUERY = /\[?(712\]?:? Current query|720\]?:? Query execution) is time out/;
/** The environment without the server the suite was given: the CLI picks its server from its flags alone. */
const { IOTDB_HOST: _host, IOTDB_PORT: _port, NODE_URLS: _urls, ...noServerEnv } = process.env;

async function bench(...args: string[]): Promise<{ stdout: string; fields: Map<string, string> }> {
  const { stdout } = await run('node', [cli, '--host', host, '--port', String(port), ...args], { timeout: 120_000 });
  const line = stdout.split('\n').find((l) => l.startsWith('RESULT ')) ?? '';
  return {
    stdout,
    fields: new Map(
      line
        .split(' ')
        .slice(1)
        .map((kv) => kv.split('=') as [string, string]),
    ),
  };
}

const TREE_DATABASES = [
  ...[
    'tree',
    'mix_tree',
    'read',
    'qf',
    'qfj',
    'whole',
    'shares',
    'records',
    'cmp',
    'noop',
    'vsjava',
    'urls',
    'qt',
    'many',
    'sweep',
    'srv',
    'repeat',
  ].map((d) => `root.it_bench_${d}`),
  'root.bench', // the Java anchor's (--vs-java)
];
const TABLE_DATABASES = ['it_bench_mix_table', 'it_bench_table', 'it_bench_qfe', 'select'];

/** The directories a test wrote its files to (tempDir): removed when it ends. */
const tempDirs: string[] = [];
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/**
 * Once `series` exists (SHOW TIMESERIES: schema queries answer at once where a count waits for the writes under
 * way), drops it and makes it again a BOOLEAN: the next FLOAT written to it is refused at once ([507], the row's
 * other columns stored). Gives up when `run` ends first.
 */
async function retypeOnceMade(series: string, run: Promise<unknown>): Promise<void> {
  let ended = false;
  void run.finally(() => (ended = true)).catch(() => undefined);
  const made = () =>
    withSession(
      async (s) => (await (await s.executeQueryStatement(`SHOW TIMESERIES ${series}`)).toColumnar()).rowCount,
    );
  while (!ended && (await made().catch(() => 0)) === 0) await new Promise((r) => setTimeout(r, 20));
  if (ended) return;
  await withSession(async (s) => {
    await s.executeNonQueryStatement(`DELETE TIMESERIES ${series}`);
    await s.executeNonQueryStatement(`CREATE TIMESERIES ${series} WITH DATATYPE=BOOLEAN`);
  });
}

async function withSession<T>(fn: (s: Session) => Promise<T>): Promise<T> {
  const s = new Session({ host, port });
  await s.open();
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

/** Each test's databases go when it ends: a 1C1D server has room for a few at a time only. */
afterEach(async () => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  const tree = new Session({ host, port });
  const table = new TableSession({ host, port });
  await Promise.all([tree.open(), table.open()]);
  try {
    for (const db of [...TREE_DATABASES, 'root.iotdb_bench_results'])
      await tree.deleteDatabase(db).catch(() => undefined); // not made by this test
    for (const db of TABLE_DATABASES) await table.executeNonQueryStatement(`DROP DATABASE IF EXISTS "${db}"`);
  } finally {
    await Promise.all([tree.close(), table.close()]);
  }
});

describe('iotdb-bench against a real server', () => {
  it('writes, verifies count(*) against what was acknowledged, runs queries and writes its results', async () => {
    const out = tempDir('iotdb-bench-');
    const { stdout, fields } = await bench(
      '--database',
      'it_bench_tree',
      '--workers',
      '2',
      '--clients',
      '2',
      '--devices',
      '8',
      '--sensors',
      '10',
      '--batch-size',
      '100',
      '--loop',
      '3',
      '--warmup-rounds',
      '1',
      '--null-ratio',
      '0.1',
      '--out-of-order-ratio',
      '0.2',
      '--out-of-order-range',
      '1',
      '--verify',
      '--queries',
      'raw,aggregation,last,latest',
      '--query-loops',
      '2',
      '--out',
      out,
    );
    expect(fields.get('verify')).toBe('ok');
    expect(Number(fields.get('failed_ops'))).toBe(0);
    expect(Number(fields.get('points_per_s'))).toBeGreaterThan(0);
    expect(stdout).toMatch(/GROUP_BY/); // --queries' former names still work
    for (const f of ['results.json', 'results.csv', 'report.html']) expect(existsSync(join(out, f))).toBe(true);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('<svg');
    const [run] = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult[];
    expect(run.environment?.server?.version).toMatch(/^2\./); // where it ran: the server's own word
    expect(run.environment?.server?.settings).toHaveProperty('DataReplicationFactor');
    expect(run.environment?.server?.dataNodes).toContain(`${host}:${port} Running`); // the node it ran against, among them
    expect(run.config.verify).toBe(true); // and the whole resolved configuration
    // each query timed to its last row: none under a round trip to the server (a read timed to its call was 2 us)
    for (const q of Object.values(run.queries ?? {})) expect(q.latency.min).toBeGreaterThan(0.05);
    // and each type's latency matrix beside the writes' (console and files), as a mixed run's query types have
    for (const [kind, q] of Object.entries(run.queries ?? {})) expect(run.latency[kind]?.count).toBe(q.ops);
    expect(stdout).toMatch(/^ {2}TIME_RANGE +2 +[\d.]+ /m);
    // a healthy cluster: nothing retried, no connect failed (a pool connects once per session it opens, and once
    // per node a redirect sends it to: with several DataNodes, redirects and connects grow with the devices)
    expect(stdout).toMatch(/\nclient +retries 0, connects \d+, failovers 0, redirects \d+ /);
    expect(run.client).toMatchObject({ retries: 0, connectFailures: 0, failovers: 0 });
  });

  it.each(['tree', 'table'])(
    '%s model: a mixed run of ingestion and every query type shows the latency matrix in the console and the files',
    async (model) => {
      const out = tempDir(`iotdb-bench-mix-${model}-`);
      const { stdout, fields } = await bench(
        ...['--database', `it_bench_mix_${model}`, '--model', model, '--workers', '1', '--clients', '2'],
        ...['--devices', '4', '--sensors', '6', '--batch-size', '50', '--loop', '40', '--warmup-rounds', '1'],
        ...['--operation-proportion', '1:1:1:1:1:1:1:1:1:1:1', '--query-device-num', '2', '--query-sensor-num', '2'],
        // value filters above 0.5 on integer sensors (the first two numeric: INT32, INT64), as IoTDB takes them
        ...['--query-lower-value', '0.5', '--verify', '--out', out],
      );
      expect(fields.get('verify')).toBe('ok');
      expect(Number(fields.get('failed_ops'))).toBe(0);
      const operations = [model === 'table' ? 'insert' : 'insertTablet', ...QUERY_KINDS];
      expect(stdout).toMatch(/AVG\s+MIN\s+P10\s+P25\s+MEDIAN\s+P75\s+P90\s+P95\s+P99\s+P999\s+MAX\s+SLOWEST_CLIENT/);
      for (const op of operations) expect(stdout).toMatch(new RegExp(`^\\s+${op}\\s+\\d+(\\s+[\\d.]+){12}\\s*$`, 'm'));
      const csv = readFileSync(join(out, 'latency.csv'), 'utf8').trim().split('\n');
      expect(csv.slice(1).map((row) => row.split(',')[1])).toEqual(operations);
      const html = readFileSync(join(out, 'report.html'), 'utf8');
      for (const op of operations) expect(html).toContain(`<td class="l">${op}</td>`);
      const [run] = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult[];
      expect(Object.keys(run.latency).sort()).toEqual([...operations].sort());
      for (const op of operations) {
        expect(run.latency[op].count).toBeGreaterThan(0);
        expect(run.slowestClientMs?.[op]).toBeGreaterThanOrEqual(run.latency[op].max);
      }
      for (const kind of QUERY_KINDS) expect(run.queries?.[kind]?.rows, kind).toBeGreaterThan(0); // they found data
    },
  );

  it("--trace: a query's wait for a pooled session is its own row, apart from its first reply (4 clients, 1 session)", async () => {
    const { stdout, fields } = await bench(
      ...['--database', 'it_bench_trace_wait', '--workers', '1', '--clients', '4', '--pool-max-size', '1'],
      ...['--devices', '4', '--sensors', '2', '--batch-size', '10', '--loop', '10', '--trace'],
      ...['--operation-proportion', '1:1:0:0:0:0:0:0:0:0:0'],
    );
    expect(Number(fields.get('failed_ops'))).toBe(0);
    const avg = (row: string) => Number(new RegExp(`^ {2}${row} +\\d+ +([\\d.]+) `, 'm').exec(stdout)?.[1]);
    // three clients wait while one holds the session: every operation, write or query, waits on average
    expect(avg('traced insertTablet: pool wait')).toBeGreaterThan(0);
    expect(avg('traced PRECISE_POINT: pool wait')).toBeGreaterThan(0);
    expect(avg('traced PRECISE_POINT: first reply')).toBeLessThan(avg('PRECISE_POINT'));
  });

  it.each(['tree', 'table'])(
    '%s model: a run of queries only keeps the database and reads every row a write run with its knobs stored',
    async (model) => {
      const knobs = [
        ...['--database', `it_bench_reads_${model}`, '--model', model, '--workers', '1', '--clients', '2'],
        ...['--devices', '4', '--sensors', '6', '--batch-size', '50', '--loop', '20', '--warmup-rounds', '1'],
      ];
      const written = await bench(...knobs, '--verify');
      expect(written.fields.get('verify')).toBe('ok');
      const out = tempDir(`iotdb-bench-reads-${model}-`);
      const reads = await bench(
        ...knobs,
        ...['--operation-proportion', '0:1:1:1:1:1:1:1:1:1:1', '--query-device-num', '2', '--query-sensor-num', '2'],
        ...['--out', out],
      );
      expect(Number(reads.fields.get('failed_ops'))).toBe(0);
      expect(reads.fields.get('points')).toBe('0'); // it wrote nothing
      const [run] = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult[];
      expect(Object.keys(run.latency).sort()).toEqual([...QUERY_KINDS].sort());
      for (const kind of QUERY_KINDS) expect(run.queries?.[kind]?.rows, kind).toBeGreaterThan(0);
      // a range is 50 rows of two devices (tree: one row a time for both; table: one row a device and time):
      // every TIME_RANGE found all of its range's rows, none fell beyond the stored data
      const perRange = model === 'table' ? 100 : 50;
      expect(run.queries?.TIME_RANGE.rows).toBe(perRange * (run.queries?.TIME_RANGE.ops ?? 0));
      // points are the sensor values read: tree, 2 sensors of 2 devices a row (LAST: a row a series, its Value);
      // table, 2 sensors a row (time, device_id, window_start, last(time) hold none)
      for (const kind of QUERY_KINDS) {
        const { rows, points } = run.queries![kind];
        expect(points, kind).toBe(rows * (model === 'table' ? 2 : kind === 'LATEST_POINT' ? 1 : 4));
      }
    },
  );

  it("read-compare reads the same rows and values as the Java client, in the same run, and with --server-pid the server's CPU per value read", async () => {
    const out = join(tempDir('iotdb-bench-read-'), 'read.json');
    await bench(
      ...'--database it_bench_read --devices 2 --sensors 10 --batch-size 500 --loop 20 --null-ratio 0.1'.split(' '),
    );
    const sql = 'SELECT * FROM root.it_bench_read.** ALIGN BY DEVICE';
    // one read warms each reader up (20,000 rows would take 25 by default): the values are what this test checks
    const args = [cli, 'read-compare', '--host', host, '--port', String(port), '--sql', sql, '--rounds', '1'];
    args.push('--warmup-reads', '1');
    // the server's processes, as iotdb-local.sh gives them for this flag (none when the suite was given a server)
    const pids = control === null ? '' : (await run('bash', [control.script, 'pids', control.dir])).stdout.trim();
    const serverPid = control === null ? [] : ['--server-pid', pids];
    // no limit to the query (0): both readers read it whole
    const { stdout } = await run('node', [...args, '--out', out, '--query-timeout-ms', '0', ...serverPid], {
      timeout: 120_000,
    });
    expect(stdout).toMatch(/Java: SessionDataSet iterator/);
    const { passes, environment } = JSON.parse(readFileSync(out, 'utf8')) as {
      passes: Record<string, { rows: number; points: number; serverCpuSPerMpts?: number }[]>;
      environment: Environment;
    };
    // a result file an operator keeps: where it ran, as a run's results.json says it
    expect(environment.node).toBe(process.version);
    expect(environment.cores).toBeGreaterThan(0);
    expect(environment.server?.version).toMatch(/^2\./);
    expect(environment.jvm).toMatch(/version/);
    expect(stdout).toMatch(/ours: columns \(batches\)/);
    const all = [...passes.rows, ...passes.rowBatches, ...passes.columns, ...passes.batches, ...passes.java];
    expect(all.map((p) => p.rows)).toEqual(Array(5).fill(20_002)); // 2 devices x (20 x 500 rows + the warm-up row)
    expect(new Set(all.map((p) => p.points)).size).toBe(1); // the same values, nulls skipped alike
    if (control !== null) {
      expect(pids).toMatch(/^\d+(,\d+)+$/); // the ConfigNode and the DataNodes
      expect(stdout).toMatch(/server CPU s\/M values +at most on \d+ cores +vs Java$/m);
      expect(stdout).toMatch(/^The server (used \d+\.\d{3} s of CPU per million values|'s processes used no CPU)/m);
      for (const p of all) expect(p.serverCpuSPerMpts).toBeGreaterThanOrEqual(0);
      // 20,000 rows x 10 values (a tenth of them null): the server spends CPU on them, which the clock sees
      expect(all.some((p) => p.serverCpuSPerMpts! > 0)).toBe(true);
      const bad = await run('node', [...args, '--server-pid', String(2 ** 30)]).then(
        () => expect.fail('no such process'),
        (e: unknown) => e as { code: number; stderr: string },
      );
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/^iotdb-bench read-compare: --server-pid: no process 1073741824 on this machine/);
    }
    // a query timeout of 1 ms reaches our readers: the server cuts the statement
    const cut = (await run('node', [...args, '--query-timeout-ms', '1']).then(
      () => expect.fail('the statement was cut'),
      (err: unknown) => err,
    )) as { code: number; stderr: string };
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(SERVER_CUT_QUERY);
  });

  it.runIf(control !== null)(
    "--server-pid: the server's CPU per point under ours and under the Java client, and per row of a query file's reads",
    async () => {
      const pids = (await run('bash', [control!.script, 'pids', control!.dir])).stdout.trim();
      const numbers = pids.split(',').map(Number);
      const dir = tempDir('iotdb-bench-server-cpu-');
      const out = join(dir, 'writes');
      const { stdout, fields } = await bench(
        ...['--database', 'it_bench_srv', '--vs-java', '--loop', '1', '--server-pid', pids, '--out', out],
      );
      expect(stdout).toMatch(
        new RegExp(
          `^server CPU +\\d+\\.\\d\\d s, \\d+\\.\\d\\d cores on average \\(\\d+\\.\\d{3} s per million points; processes ${numbers.join(', ')}\\)$`,
          'm',
        ),
      );
      expect(Number(fields.get('server_cpu_s_per_Mpts'))).toBeGreaterThan(0);
      expect(stdout).toMatch(/^ours\/Java server CPU per point: \d+\.\d\dx \(/m);
      const runs = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult[];
      // 2,500,000 points each: the server spends CPU on them, under either client
      for (const r of runs) expect(r.serverCpu).toEqual({ pids: numbers, seconds: expect.any(Number) as number });
      expect(runs.map((r) => (r.serverCpu as { seconds: number }).seconds > 0)).toEqual([true, true]);
      // and sampled over the timed phase, ours and the Java client's (its SERVER lines): the last interval at least
      expect(runs.map((r) => (r.serverCoresOverTime?.length ?? 0) > 0)).toEqual([true, true]);
      const csv = readFileSync(join(out, 'results.csv'), 'utf8').split('\n');
      const column = csv[0].split(',').indexOf('server_cpu_s_per_Mpts');
      expect(csv.slice(1, 3).map((row) => Number(row.split(',')[column]) > 0)).toEqual([true, true]);
      const file = join(dir, 'queries.yaml');
      writeFileSync(file, '- label: all\n  sql: SELECT * FROM root.it_bench_srv.d000\n  repetitions: 3\n');
      const reads = join(dir, 'reads');
      await bench('--query-file', file, '--vs-java', '--server-pid', pids, '--out', reads);
      const statements = JSON.parse(readFileSync(join(reads, 'results.json'), 'utf8')) as RunResult[];
      expect(statements.map((r) => [r.label, r.serverCpu?.pids])).toEqual([
        ['all', numbers],
        ['java all', numbers],
      ]);
      for (const r of statements) expect((r.serverCpu as { seconds: number }).seconds).toBeGreaterThanOrEqual(0);
      // sampled over the reads too, ours and the Java client's (QueryFile.java's SERVER lines): the last interval at least
      expect(statements.map((r) => (r.serverCoresOverTime?.length ?? 0) > 0)).toEqual([true, true]);
    },
  );

  it("prints each command's usage on --help or -h and exits 0, wherever the flag comes", async () => {
    for (const args of [
      ['read-compare', '--help'],
      ['merge', 'a.json', '-h'],
      ['compare', '--help'],
    ]) {
      const { stdout } = await run('node', [cli, ...args]);
      expect(stdout, args.join(' ')).toMatch(new RegExp(`^usage: iotdb-bench ${args[0]} `));
    }
  });

  it("prints its version and the client's on --version and exits 0, wherever the flag comes", async () => {
    const versionOf = (pkg: string) =>
      (
        JSON.parse(readFileSync(new URL(`../../../${pkg}/package.json`, import.meta.url), 'utf8')) as {
          version: string;
        }
      ).version;
    const line = `iotdb-bench ${versionOf('bench')} (@iotdb/client ${versionOf('client')}, Node ${process.version})`;
    for (const args of [['--version'], ['--devices', '3', '--version']]) {
      const { stdout } = await run('node', [cli, ...args]);
      expect(stdout.trim(), args.join(' ')).toBe(line);
    }
  });

  it('read-compare refuses a statement that reads no values, before the rounds (no NaN ratios)', async () => {
    const sql = 'SELECT * FROM root.it_bench_nothing.** ALIGN BY DEVICE';
    // one read warms each reader up (20,000 rows would take 25 by default): the values are what this test checks
    const args = [cli, 'read-compare', '--host', host, '--port', String(port), '--sql', sql, '--rounds', '1'];
    args.push('--warmup-reads', '1');
    const e = (await run('node', args).then(
      () => expect.fail('nothing to compare'),
      (err: unknown) => err,
    )) as { code: number; stdout: string; stderr: string };
    expect(e.code).toBe(1);
    expect(e.stderr).toMatch(/^iotdb-bench read-compare: the statement read no values \(0 rows\): nothing to compare/m);
    expect(e.stdout).not.toContain('NaN');
  });

  it('runs a query file: one result per statement, its rows, its failures with the status code; persists them', async () => {
    const dir = tempDir('iotdb-bench-qf-');
    await bench('--database', 'it_bench_qf', '--devices', '2', '--sensors', '4', '--batch-size', '50', '--loop', '2');
    const file = join(dir, 'queries.yaml');
    writeFileSync(
      file,
      [
        '- label: all rows',
        '  sql: SELECT * FROM root.it_bench_qf.d000',
        '  concurrency: 2',
        '  repetitions: 3',
        '- label: a typo',
        '  sql: SELEC 1',
        '- label: flush',
        '  sql: FLUSH',
      ].join('\n'),
    );
    const out = join(dir, 'out');
    const { stdout } = await bench('--query-file', file, '--out', out, '--persist-results', `${host}:${port}`).catch(
      (e: { stdout: string }) => ({ stdout: e.stdout }), // the failing statement makes the exit code 1
    );
    const runs = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult[];
    expect(runs.map((r) => [r.label, r.okOps, r.failedOps, r.queryFile?.query])).toEqual([
      ['all rows', 6, 0, true],
      ['a typo', 0, 1, undefined], // never answered
      ['flush', 1, 0, false], // not a query: no result set, and the report says so instead of asking for names
    ]);
    expect(stdout).toMatch(/^note {9}not a query: the server answered the statement with no result set$/m);
    expect(stdout).not.toContain('read no rows');
    expect(runs[0].queries?.['all rows'].rows).toBe(6 * 101); // 2 rounds of 50 rows + the warm-up row, 6 times
    expect(runs[1].errors[0]).toMatch(/\[700\]/); // SQL_PARSE_ERROR, as the server said
    // the failure's latency is a row of its own, not the statement's
    expect(Object.keys(runs[1].latency)).toEqual(['failed a typo']);
    expect(Object.keys(runs[1].slowestClientMs ?? {})).toEqual(['failed a typo']);
    expect(runs[1].queries?.['a typo']).toMatchObject({ ops: 0, failed: 1 });
    // when it failed: in the first interval, none of the others' reads
    expect([runs[0].failuresOverTime, runs[1].failuresOverTime]).toEqual([[], [[1, 1]]]);
    expect(stdout).toMatch(/^failures {5}ended 0\.0-1\.0 s into the run; the most, 1, in 0\.0-1\.0 s$/m);
    expect(stdout).toMatch(/persisted \d+ records into root\.iotdb_bench_results/);
    const s = new Session({ host, port });
    await s.open();
    const c = await (
      await s.executeQueryStatement('SELECT ok_ops FROM root.iotdb_bench_results.all_rows')
    ).toColumnar();
    // the statement's rows read and failures beside its latency
    const q = await (
      await s.executeQueryStatement('SELECT count, ops, rows FROM root.iotdb_bench_results.all_rows.all_rows')
    ).toColumnar();
    await s.close();
    expect(c.values[0][c.rowCount - 1]).toBe(6n);
    expect(q.values.map((v) => v[q.rowCount - 1])).toEqual([6n, 6n, 606n]);
  });

  it('persists the runs of kept result files (iotdb-bench persist), as --persist-results would have', async () => {
    const dir = tempDir('iotdb-bench-persist-');
    const file = join(dir, 'results.json');
    const kept = {
      ...sampleRun('kept share'),
      startedAt: '2026-11-26T10:00:00.000Z',
      okOps: 4242,
      latencyOverTime: [
        [1, 2000, 1.5, 8.25, 9],
        [2, 2242, 1.75, 120.5, 130],
      ] as RunResult['latencyOverTime'],
    };
    writeFileSync(file, JSON.stringify([kept]));
    const { stdout } = await run('node', [cli, 'persist', file, '--host', host, '--port', String(port)]);
    expect(stdout).toMatch(/^persisted \d+ records of 1 run into root\.iotdb_bench_results at /m);
    const s = new Session({ host, port });
    await s.open();
    const c = await (
      await s.executeQueryStatement('SELECT ok_ops, points_per_s FROM root.iotdb_bench_results.kept_share')
    ).toColumnar();
    // its latency over time: a series at the run's device, each interval at its time
    const p99 = await (
      await s.executeQueryStatement('SELECT interval_p99_ms FROM root.iotdb_bench_results.kept_share')
    ).toColumnar();
    await s.close();
    expect(c.timestamps).toEqual(BigInt64Array.of(BigInt(Date.parse(kept.startedAt))));
    expect(c.values.map((v) => v[0])).toEqual([4242n, kept.pointsPerS]);
    const second = (n: number) => BigInt(Date.parse(kept.startedAt) + n * 1000);
    expect([p99.timestamps, p99.values[0]]).toEqual([
      BigInt64Array.of(second(1), second(2)),
      Float64Array.of(8.25, 120.5),
    ]);
    // a server that is not there: exit 1, the results' file kept as it was
    const refused = await run('node', [cli, 'persist', file, '--host', '127.0.0.1', '--port', '1']).then(
      () => expect.fail('nothing listens on port 1'),
      (e: unknown) => e as { code: number; stderr: string },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^iotdb-bench persist: could not persist the results at 127\.0\.0\.1:1: /);
    // a user granted nothing on the results' database: SHOW DATABASES hides it, and it is refused the write, not
    // the making of a database that is there
    await withSession(async (root) => {
      await root.executeNonQueryStatement("CREATE USER it_bench_stranger 'It_bench_1'");
      await root.executeNonQueryStatement('GRANT MANAGE_DATABASE ON root.** TO USER it_bench_stranger');
    });
    try {
      const env = { ...process.env, IOTDB_USER: 'it_bench_stranger', IOTDB_PASSWORD: 'It_bench_1' };
      const stranger = await run('node', [cli, 'persist', file, '--host', host, '--port', String(port)], { env }).then(
        () => expect.fail('the user may not write there'),
        (e: unknown) => e as { code: number; stderr: string },
      );
      expect(stranger.code).toBe(1);
      expect(stranger.stderr).toMatch(/\[803\] No permissions for this operation, please add privilege WRITE_DATA/);
    } finally {
      await withSession((root) => root.executeNonQueryStatement('DROP USER it_bench_stranger'));
    }
  });

  it('runs a query file with the Java client too (--vs-java): each statement read alike by both, the same rows', async () => {
    const dir = tempDir('iotdb-bench-qf-java-');
    await bench('--database', 'it_bench_qfj', '--devices', '2', '--sensors', '4', '--batch-size', '50', '--loop', '2');
    const file = join(dir, 'queries.yaml');
    const statements = [
      ['- label: all rows', '  sql: SELECT * FROM root.it_bench_qfj.d000', '  concurrency: 2', '  repetitions: 3'],
      ['- label: counts', '  sql: SELECT count(s0) FROM root.it_bench_qfj.**', '  repetitions: 4'],
      ['- label: flush', '  sql: FLUSH'], // not a query: the Java client's executeNonQueryStatement
      // once per device, the 2 devices dealt to 2 of the 3 sessions, each device's statement read twice
      ['- label: each device', '  forEach: SHOW DEVICES root.it_bench_qfj.**', '  sql: SELECT s0 FROM {Device}'],
      ['  concurrency: 3', '  repetitions: 2'],
    ];
    writeFileSync(file, statements.flat().join('\n'));
    const out = join(dir, 'out');
    // two untimed reads of each statement by each side first: not counted
    const { stdout } = await bench(
      '--query-file',
      file,
      '--vs-java',
      '--target-rate',
      '50',
      '--warmup-rounds',
      '2',
      '--out',
      out,
    );
    const runs = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult[];
    // each statement's run, the Java client's beside it: the same reads, the same rows
    // rows, and points: every value of every row read by both (4 sensors; a count of each device's s0)
    const read = (r: RunResult) => [r.queries?.[r.label].rows, r.queries?.[r.label].points];
    expect(runs.map((r) => [r.label, r.okOps, r.failedOps, ...read(r)])).toEqual([
      ['all rows', 6, 0, 6 * 101, 6 * 101 * 4],
      ['java all rows', 6, 0, 6 * 101, 6 * 101 * 4],
      ['counts', 4, 0, 4, 4 * 2],
      ['java counts', 4, 0, 4, 4 * 2],
      ['flush', 1, 0, 0, 0],
      ['java flush', 1, 0, 0, 0],
      ['each device', 4, 0, 4 * 101, 4 * 101],
      ['java each device', 4, 0, 4 * 101, 4 * 101],
    ]);
    for (const r of runs.slice(6))
      expect(r.queryFile).toMatchObject({
        concurrency: 2,
        forEach: 'SHOW DEVICES root.it_bench_qfj.**',
        statements: 2,
      });
    expect(stdout).toContain('forEach: 2 statements, dealt to 2 sessions');
    expect(Object.keys(runs[1].latency)).toEqual(['java all rows', 'uncorrected java all rows', 'start lag']);
    expect(stdout).toMatch(/^running the Java client on the same 4 statement\(s\) \.\.\.$/m);
    expect(stdout).toMatch(
      /^ours\/Java all rows: reads\/s [\d.]+x, latency p50 [\d.]+x, p99 [\d.]+x, uncorrected p50 [\d.]+x, start lag p50 [\d.]+x \(/m,
    );
    expect(stdout).toMatch(/^ours\/Java counts: reads\/s /m);
    expect(stdout).not.toMatch(/(rows|points) read differ/);
  });

  it('runs a forEach statement of a query file once per table-model device, and says why one gave no statement', async () => {
    const dir = tempDir('iotdb-bench-qf-each-');
    await bench(...'--model table --database it_bench_qfe --devices 3 --sensors 2 --batch-size 10 --loop 1'.split(' '));
    const table = new TableSession({ host, port, database: 'it_bench_qfe' });
    await table.open();
    // a fourth device whose tag holds a quote: its statement must stay one literal
    await table
      .executeNonQueryStatement("INSERT INTO t(time, device_id, s0) VALUES (1, 'd''q', 1)")
      .finally(() => table.close());
    const file = join(dir, 'queries.yaml');
    const statements = [
      ['- label: per device', '  model: table', '  database: it_bench_qfe', '  forEach: SHOW DEVICES FROM t'],
      ["  sql: SELECT count(*) FROM t WHERE device_id = '{device_id}'", '  concurrency: 2', '  repetitions: 2'],
      ['- label: unknown column', '  model: table', '  database: it_bench_qfe', '  forEach: SHOW DEVICES FROM t'],
      ["  sql: SELECT count(*) FROM t WHERE device_id = '{device}'"],
    ];
    writeFileSync(file, statements.flat().join('\n'));
    const out = join(dir, 'out');
    const failed = await bench('--query-file', file, '--out', out).then(
      () => undefined,
      (err: { code?: number }) => err,
    );
    expect(failed).toMatchObject({ code: 1 }); // a statement read nothing
    const runs = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult[];
    expect(runs.map((r) => [r.label, r.okOps, r.failedOps, r.queries?.[r.label]?.rows])).toEqual([
      ['per device', 8, 0, 8],
      ['unknown column', 0, 0, undefined],
    ]);
    expect(runs[0].queryFile).toMatchObject({ concurrency: 2, statements: 4 });
    expect(runs[1].errors).toEqual([
      "forEach SHOW DEVICES FROM t: {device} names no column of forEach's answer (its columns: device_id)",
    ]);
  });

  it('stops a query file at a read that reached no node in its retry budget: not the same wait for every read after it', async () => {
    const file = join(tempDir('iotdb-bench-qf-'), 'q.yaml');
    writeFileSync(
      file,
      '- { label: one, sql: "SELECT s0 FROM root.bench.d000", repetitions: 1000 }\n- sql: SHOW DEVICES\n',
    );
    // nothing listens on port 1: each read would spend its second of retries, 1000 s in all
    const args = [cli, '--host', '127.0.0.1', '--port', '1', '--query-file', file, '--retry-max-ms', '1000'];
    const e = (await run('node', args, { timeout: 60_000 }).then(
      () => new Error('exited 0'),
      (err: unknown) => err,
    )) as { code: number; stdout: string };
    expect(e.code).toBe(1);
    expect(e.stdout).toMatch(/^stopped +early: an operation reached no node in --retry-max-ms 1,000 ms/m);
    expect(e.stdout).toMatch(/^RESULT label=one .* failed_ops=1 .* stopped=unreachable$/m);
    expect(e.stdout).not.toMatch(/^run SHOW DEVICES/m); // nor the statement after it
  }, 90_000);

  it('paces a query file: --target-rate starts its reads on a schedule (open loop), --batch-interval-ms pauses; --trace', async () => {
    const dir = tempDir('iotdb-bench-qf-rate-');
    const file = join(dir, 'queries.yaml');
    writeFileSync(file, ['- label: one', '  sql: SHOW VERSION', '  concurrency: 2', '  repetitions: 5'].join('\n'));
    const paced = await bench('--query-file', file, '--target-rate', '20', '--progress', '--report-interval-ms', '100');
    expect(paced.stdout).toMatch(/^run one: tree model, query file line 1: 2 sessions x 5 repetitions\n/m);
    expect(paced.stdout).toMatch(/^\[0\.\ds\] \d+\/10 reads \(\d+\.\d %\) {2}now /m); // the progress line
    // 10 reads at 20/s: the last one due at 450 ms
    expect(Number(paced.fields.get('wall_s'))).toBeGreaterThanOrEqual(0.45);
    expect(paced.stdout).toMatch(/^open loop {4}target 20 ops\/s, achieved /m);
    expect(paced.stdout).toMatch(/^ {2}uncorrected one +10 /m);
    // how late the reads started: every one, in a row of its own and in the open loop line
    expect(paced.stdout).toMatch(/^ {2}start lag +10 /m);
    expect(paced.stdout).toMatch(/after their due time on average \(p50 [\d.]+, p99 [\d.]+, max [\d.]+ ms\)/);
    const traced = await bench('--query-file', file, '--trace');
    expect(traced.stdout).toMatch(/^ {2}traced one: pool wait +10 /m);
    expect(traced.stdout).toMatch(/^ {2}traced one: first reply +10 /m);
    expect(traced.stdout).toMatch(/^ {2}traced one: decode +10 /m);
    expect(traced.stdout).toMatch(/^ {2}traced one: other client work +10 /m);
    const paused = await bench('--query-file', file, '--batch-interval-ms', '200');
    // each session: 5 reads, 4 pauses of 200 ms between them
    expect(Number(paused.fields.get('wall_s'))).toBeGreaterThanOrEqual(0.8);
    expect(paused.fields.get('ok_ops')).toBe('10');
  });

  it("merges two machines' shares into the totals of one run over every device, each share's devices afresh", async () => {
    const knobs = [
      '--devices',
      '10',
      '--sensors',
      '5',
      '--batch-size',
      '50',
      '--loop',
      '3',
      '--workers',
      '1',
      '--verify',
    ];
    const dirs = ['whole', 'a', 'b', 'merged'].map((d) => tempDir(`iotdb-bench-${d}-`));
    await bench(...knobs, '--database', 'it_bench_whole', '--out', dirs[0]);
    // an earlier run left more rows on every device: each share deletes its own devices' before it writes
    await bench(...knobs, '--loop', '5', '--database', 'it_bench_shares'); // the last --loop counts
    // the two machines' shares run at the same time (merge refuses shares that did not)
    const share = (offset: string, count: string, out: string) =>
      bench(
        ...knobs,
        '--database',
        'it_bench_shares',
        '--device-offset',
        offset,
        '--device-count',
        count,
        '--out',
        out,
      );
    await Promise.all([share('0', '4', dirs[1]), share('4', '6', dirs[2])]);
    const shares = [dirs[1], dirs[2]].map((d) => join(d, 'results.json'));
    const { stdout } = await run('node', [cli, 'merge', ...shares, '--out', dirs[3]]);
    expect(stdout).toMatch(/^RESULT /m);
    const [whole, merged] = [dirs[0], dirs[3]].map(
      (d) => (JSON.parse(readFileSync(join(d, 'results.json'), 'utf8')) as RunResult[])[0],
    );
    expect(merged.points).toBe(whole.points);
    expect(merged.okOps).toBe(whole.okOps);
    expect(merged.failedOps).toBe(0);
    expect(merged.verify).toEqual({ ...whole.verify, ok: true });
    expect(merged.histograms[merged.config.method].count).toBe(whole.histograms[whole.config.method].count);
    expect(merged.config).toMatchObject({ deviceOffset: 0, deviceCount: 10 });
    expect(merged.pointsPerS).toBeCloseTo(merged.points / merged.durationS);
    // a share of two devices later: the others keep what the shares wrote (3 rounds of 50 rows, the untimed first)
    await bench(...knobs, '--loop', '1', '--database', 'it_bench_shares', '--device-count', '2');
    const rows = await withSession(async (s) => {
      const ds = await s.executeQueryStatement('SELECT count(s0) FROM root.it_bench_shares.** ALIGN BY DEVICE');
      return (await ds.toColumnar()).values[1];
    });
    expect(Array.from(rows, Number)).toEqual([51, 51, ...Array<number>(8).fill(151)]);
  });

  it("verifies a share of thousands of devices, more than one count(*) over them all fits in the server's memory", async () => {
    // one count over 2,500 devices at once: [719] "not enough memory to execute current fragment instance" on the
    // suite's server (estimated at 330 MB, 120 MB free; one sensor a device: the schema made in half the time)
    const share = await bench(
      ...['--database', 'it_bench_many', '--devices', '3000', '--device-count', '2500', '--sensors', '1'],
      ...['--batch-size', '1', '--loop', '1', '--workers', '1', '--verify'],
    );
    expect(share.stdout).toMatch(
      /^verify +OK: expected 5,000 points \(2,500 timed, 2,500 untimed: the warm-up\), read back 5,000$/m,
    );
  });

  it('writes the table model and insertRecords, each verified', async () => {
    const table = await bench(
      '--model',
      'table',
      '--database',
      'it_bench_table',
      '--workers',
      '1',
      '--clients',
      '2',
      '--devices',
      '4',
      '--sensors',
      '6',
      '--batch-size',
      '50',
      '--loop',
      '2',
      '--verify',
    );
    expect(table.fields.get('verify')).toBe('ok');
    const records = await bench(
      '--method',
      'insertRecords',
      '--database',
      'it_bench_records',
      '--workers',
      '1',
      '--devices',
      '3',
      '--sensors',
      '5',
      '--batch-size',
      '20',
      '--loop',
      '2',
      '--tablets-per-request',
      '3',
      '--verify',
    );
    expect(records.fields.get('verify')).toBe('ok');
  });

  it('takes a table-model database named as an SQL word (select), as the server does when quoted; the Java client too', async () => {
    const out = tempDir('iotdb-bench-keyword-db-');
    const knobs = '--model table --database select --vs-java --loop 1 --queries TIME_RANGE --query-loops 2 --verify';
    await bench(...knobs.split(' '), '--out', out);
    const [ours, java] = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult[];
    expect([ours.verify?.ok, java.verify?.ok]).toEqual([true, true]);
    expect([ours.latency.insert?.count, java.latency.insert?.count]).toEqual([100, 100]); // each side's insert call
    expect(java.queries?.TIME_RANGE?.rows).toBe(ours.queries?.TIME_RANGE?.rows);
    expect(ours.queries?.TIME_RANGE?.rows).toBeGreaterThan(0);
  });

  it('compares methods side by side, and measures the client alone with --server-noop', async () => {
    const { stdout } = await bench(
      '--database',
      'it_bench_cmp',
      '--workers',
      '1',
      '--devices',
      '4',
      '--sensors',
      '5',
      '--batch-size',
      '50',
      '--loop',
      '2',
      '--compare',
      'insertTablet,insertTablets,insertTabletsParallel',
    );
    expect(stdout.match(/^RESULT /gm)).toHaveLength(3);
    const noop = await bench(
      '--database',
      'it_bench_noop',
      '--workers',
      '1',
      '--devices',
      '4',
      '--sensors',
      '5',
      '--batch-size',
      '50',
      '--loop',
      '2',
      '--server-noop',
    );
    expect(noop.fields.get('insert_op')).toBe('testInsertTablet');
    expect(Number(noop.fields.get('failed_ops'))).toBe(0);
  });

  it('stops with one line naming the cause when the server is unreachable or refuses the run, no stack', async () => {
    const [AGG_RANGE, AGG_VALUE, GROUP_BY] = [
      '1:0:0:0:1:0:0:0:0:0:0',
      '1:0:0:0:0:1:0:0:0:0:0',
      '1:0:0:0:0:0:0:1:0:0:0',
    ];
    const aggregateRun =
      (fun: string, weights: string, model: 'tree' | 'table' = 'tree') =>
      () =>
        bench(
          ...['--model', model, '--database', `it_bench_${model}`, '--devices', '2', '--loop', '1'],
          ...['--operation-proportion', weights, '--query-aggregate-fun', fun],
        );
    const closedPort = ['--host', '127.0.0.1', '--port', '1', '--devices', '2', '--loop', '1'];
    // each started in turn (a command started early would fail before anything awaits it: an unhandled rejection)
    const failures = [
      [() => run('node', [cli, ...closedPort]), 'IOTDB_CONNECTION_REFUSED'],
      [() => run('node', [cli, 'read-compare', ...closedPort.slice(0, 4)]), 'IOTDB_CONNECTION_REFUSED'],
      [
        () => bench('--database', 'it_bench_tree', '--devices', '2', '--loop', '1', '--precision', 'ns'),
        'timestamp_precision ms',
      ],
      // an aggregate the server does not have: every AGG_* and GROUP_BY operation of the run would fail ([701])
      [aggregateRun('cnt', AGG_RANGE), 'the server has no such function (SHOW FUNCTIONS); did you mean count?'],
      [aggregateRun('sin', GROUP_BY), 'sin: a built-in UDTF function here, not an aggregate'],
      // an aggregate the server has that takes other arguments than one sensor: every such operation fails too
      [
        aggregateRun('max_by', GROUP_BY),
        'max_by: the server refused GROUP_BY\'s query "SELECT max_by(s9) FROM root.it_bench_tree.d000 GROUP BY',
      ],
      [
        aggregateRun('count_if', AGG_VALUE, 'table'),
        '[701] Aggregate functions [count_if] should only have one boolean expression as argument',
      ],
    ] as const;
    for (const [start, cause] of failures) {
      const e = (await start().then(
        () => expect.fail('the run went on'),
        (err: unknown) => err,
      )) as { code: number; stderr: string };
      expect(e.code).toBe(1);
      expect(e.stderr).toContain(cause);
      expect(e.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it("says what a deployment's user lacks to prepare the database, in one line: the privilege, and why the run needs it", async () => {
    await withSession((s) => s.executeNonQueryStatement("CREATE USER it_bench_user 'It_bench_1'"));
    try {
      const args = [cli, '--host', host, '--port', String(port), '--database', 'it_bench_tree', '--devices', '2'];
      const env = { ...process.env, IOTDB_USER: 'it_bench_user', IOTDB_PASSWORD: 'It_bench_1' };
      const e = (await run('node', [...args, '--loop', '1'], { env }).then(
        () => expect.fail('the run went on'),
        (err: unknown) => err,
      )) as { code: number; stderr: string };
      expect(e.code).toBe(1);
      expect(e.stderr.trim().split('\n')).toHaveLength(1);
      expect(e.stderr).toMatch(
        /^iotdb-bench: preparing its database root\.it_bench_tree, as the user the run logs in as \(IOTDB_USER\): .*\[803\] .*MANAGE_DATABASE\. A run that writes every device drops the database/,
      );
    } finally {
      await withSession((s) => s.executeNonQueryStatement('DROP USER it_bench_user'));
    }
  });

  it('ends the timed phase at --test-max-time, or at Ctrl-C: a report of what ran, every acknowledged point stored', async () => {
    const endless = ['--database', 'it_bench_tree', '--devices', '4', '--sensors', '5', '--batch-size', '10'];
    const queries = ['--queries', 'TIME_RANGE', '--query-loops', '5']; // each over 10 rows (a write's time)
    const timed = await bench(...endless, '--loop', '1000000', '--test-max-time', '1500', '--verify', ...queries);
    expect(timed.fields.get('stopped')).toBe('test-max-time');
    expect(timed.fields.get('rows')).toBe('50'); // over the rows written before the stop, not the loop's million
    expect(Number(timed.fields.get('wall_s'))).toBeGreaterThan(1.4);
    expect(Number(timed.fields.get('wall_s'))).toBeLessThan(10);
    expect(timed.fields.get('verify')).toBe('ok');
    expect(timed.stdout).toMatch(/\nstopped +at --test-max-time 1,500 ms/);

    const child = spawn('node', [
      cli,
      '--host',
      host,
      '--port',
      String(port),
      ...endless,
      '--loop',
      '1000000',
      '--verify',
      '--progress',
      '--report-interval-ms',
      '200',
    ]);
    let stdout = '';
    let interrupted = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (interrupted || !/^\[[\d.]+s\]/m.test(stdout)) return;
      interrupted = true;
      setTimeout(() => child.kill('SIGINT'), 1000); // timing started (a timed progress line): let it write a while
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(130);
    expect(stdout).toMatch(/\nstopped +early, interrupted \(Ctrl-C\)/);
    const result = stdout.split('\n').find((l) => l.startsWith('RESULT ')) ?? '';
    expect(result).toContain(' stopped=interrupted');
    expect(result).toContain(' verify=ok');
    expect(result).not.toContain(' ok_ops=0 ');
  });

  it("SIGTERM sent to ours alone during the Java client's run (a supervisor's stop): the JVM is stopped too, exit 130", async () => {
    const args = ['--host', host, '--port', String(port), '--database', 'it_bench_term', '--vs-java', '--java-first'];
    const child = spawn('node', [cli, ...args, '--loop', '1000']); // minutes of the Java client's writes
    let [stdout, stderr] = ['', ''];
    let sent = false;
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (sent || !stdout.includes('running the Java client')) return;
      sent = true;
      setTimeout(() => child.kill('SIGTERM'), 3000); // its JVM started and writing
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(130);
    expect(stderr).toContain('iotdb-bench: stopping (SIGTERM)');
    expect(stderr).toContain('the Java client was interrupted (SIGTERM, passed on to it)');
    const left = await run('pgrep', ['-f', 'database=it_bench_term']).then(
      (r) => r.stdout,
      () => '', // pgrep exits 1 when nothing matches
    );
    expect(left).toBe('');
  }, 120_000);

  it('keeps the write run and its files when the queries after it fail: failed queries counted, exit 1', async () => {
    const out = tempDir('iotdb-bench-');
    const args = ['--database', 'it_bench_tree', '--devices', '2', '--sensors', '3', '--loop', '2', '--verify'];
    const queries = ['--queries', 'AGG_RANGE,TIME_RANGE', '--query-aggregate-fun', 'nosuch', '--query-loops', '2'];
    const e = (await bench(...args, ...queries, '--out', out).then(
      () => expect.fail('a run whose query type all failed exits 1'),
      (err: unknown) => err,
    )) as { code: number; stdout: string };
    expect(e.code).toBe(1);
    expect(e.stdout).toMatch(/^RESULT .* verify=ok /m); // the writes' report is there
    expect(e.stdout).toMatch(/^ {2}AGG_RANGE +0 +2 /m); // ops 0, failed 2 (the server's error 701 below)
    expect(e.stdout).toMatch(/^ {2}TIME_RANGE +2 +0 /m);
    expect(e.stdout).toContain('[701]');
    const [run] = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult[];
    expect(run.queries?.AGG_RANGE).toMatchObject({ ops: 0, failed: 2 });
  });

  it('--query-timeout-ms reaches every query of both clients: 1 ms is cut by the server ([712] or [720]), 0 is no limit', async () => {
    const dir = tempDir('iotdb-bench-qt-');
    // queries after the writes (--queries) and --verify's count: ours cut, the writes not
    const after = await bench(
      ...'--database it_bench_qt --devices 4 --sensors 10 --batch-size 500 --loop 4 --queries TIME_RANGE'.split(' '),
      ...'--query-loops 2 --query-timeout-ms 1 --verify'.split(' '),
    ).catch((e: { stdout: string }) => ({ stdout: e.stdout })); // every TIME_RANGE failed: exit 1
    expect(after.stdout).toMatch(/ ok_ops=16 failed_ops=0 /);
    expect(after.stdout).toMatch(SERVER_CUT_QUERY);
    expect(after.stdout).toMatch(
      /^verify +NOT READ BACK: expected 80,040 points \([\d,]+ timed, [\d,]+ untimed: the warm-up\); .*\[(712|720)\]/m,
    );
    expect(after.stdout).toMatch(/ verify=unread /);
    const file = join(dir, 'queries.yaml');
    writeFileSync(file, ['- label: all', '  sql: SELECT * FROM root.it_bench_qt.**', '  repetitions: 2'].join('\n'));
    const runs = async (timeoutMs: number) => {
      const out = join(dir, `out${timeoutMs}`);
      const args = ['--query-file', file, '--vs-java', '--query-timeout-ms', String(timeoutMs), '--out', out];
      await bench(...args).catch(() => undefined); // a failed statement: exit 1
      return JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult[];
    };
    const cut = await runs(1);
    expect(cut.map((r) => [r.label, r.okOps, r.failedOps])).toEqual([
      ['all', 0, 2],
      ['java all', 0, 2],
    ]);
    for (const r of cut) expect(r.errors[0]).toMatch(SERVER_CUT_QUERY);
    const whole = await runs(0);
    expect(whole.map((r) => [r.label, r.okOps, r.queries?.[r.label].rows])).toEqual([
      ['all', 2, 2 * 2001],
      ['java all', 2, 2 * 2001],
    ]);
  });

  it("--vs-java: the Java client's refused statements are counted and shown as ours are, the files kept", async () => {
    const out = tempDir('iotdb-bench-vsjava-');
    const queries = ['--queries', 'AGG_RANGE,TIME_RANGE', '--query-aggregate-fun', 'nosuch', '--query-loops', '2'];
    const e = (await bench('--database', 'it_bench_vsjava', '--loop', '1', '--vs-java', ...queries, '--out', out).then(
      () => expect.fail('a run whose query type all failed exits 1'),
      (err: unknown) => err,
    )) as { code: number; stdout: string; stderr: string };
    expect(e.code).toBe(1);
    expect(e.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(e.stdout).toMatch(/^RESULT label=java .* ok_ops=100 /m); // the Java write run is there
    // its two refused statements failed alike: their error kept once
    expect(e.stdout).toMatch(/^the Java client's errors \(1 collected\)\n {2}- the Java client: 701: /m);
    expect(e.stdout).toMatch(/^ours\/Java TIME_RANGE: /m);
    expect(e.stdout).not.toMatch(/^ours\/Java AGG_RANGE: /m); // no ratio of nothing read
    const [, java] = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult[];
    expect(java.label).toBe('java');
    expect(java.queries?.AGG_RANGE).toMatchObject({ ops: 0, failed: 2 });
    expect(java.queries?.TIME_RANGE).toMatchObject({ ops: 2, failed: 0 });
    // the Java client wrote --database, freshly made again for it: its points alone, none in root.bench
    const s = new Session({ host, port });
    await s.open();
    const count = await (await s.executeQueryStatement('SELECT count(s0) FROM root.it_bench_vsjava.**')).toColumnar();
    const rootBench = await (await s.executeQueryStatement('SHOW DATABASES root.bench')).toColumnar();
    await s.close();
    expect(count.values.map((v) => v[0])).toEqual(Array(100).fill(501n)); // 100 devices: 500 rows + the warm-up row
    expect(rootBench.rowCount).toBe(0);
  });

  it('--vs-java with --operation-proportion: the Java client runs our very operations; queries only keep the data', async () => {
    const out = tempDir('iotdb-bench-vsjava-mix-');
    const mix = ['--database', 'it_bench_vsjava', '--vs-java', '--loop', '1', '--warmup-rounds', '1'];
    const weights = (ingestion: number) => ['--operation-proportion', `${ingestion}:1:1:1:1:1:1:1:1:1:1`];
    const { stdout } = await bench(...mix, ...weights(1), '--out', out);
    expect(stdout).toContain('running the Java client on the same operations');
    const [ours, java] = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult[];
    expect(java.label).toBe('java');
    // the same writes (not a write run of its own) and the same statements, whose rows match ours: with loop 1
    // every range lies in the warm-up round, written before the timed operations began
    expect(java.points).toBe(ours.points);
    expect(java.points).toBeGreaterThan(0);
    expect(java.okOps + java.failedOps).toBe(ours.okOps + ours.failedOps);
    expect(Object.keys(java.queries ?? {}).sort()).toEqual(Object.keys(ours.queries ?? {}).sort());
    for (const [kind, q] of Object.entries(ours.queries ?? {}))
      expect([kind, java.queries?.[kind].ops, java.queries?.[kind].rows]).toEqual([kind, q.ops, q.rows]);
    expect(stdout).toMatch(/^ours\/Java ops\/s: [\d.]+x, points\/s: [\d.]+x, client CPU per operation: /m);
    expect(stdout).toMatch(/^ours\/Java TIME_RANGE: latency p50 [\d.]+x, p99 [\d.]+x$/m);

    // queries only, over what the Java client stored: nothing dropped or written, the same rows read
    const reads = await bench(...mix, ...weights(0), '--out', out);
    const [oursReads, javaReads] = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult[];
    expect(reads.stdout).not.toMatch(/(rows|points) read differ/);
    expect(javaReads.points).toBe(0);
    expect(javaReads.latency.insertTablet).toBeUndefined();
    for (const [kind, q] of Object.entries(oursReads.queries ?? {})) {
      expect(q.rows).toBeGreaterThan(0);
      expect([kind, javaReads.queries?.[kind].rows]).toEqual([kind, q.rows]);
    }
  });

  it.each([
    ['insertTablets', ['--warmup-rounds', '1', '--queries', 'TIME_RANGE', '--query-loops', '10']],
    ['insertRecords', ['--java-first']],
  ])(
    '--vs-java --method %s %j: the Java client makes the same calls, --tablets-per-request devices each, and writes as many rounds',
    async (method, more) => {
      const out = tempDir('iotdb-bench-vsjava-calls-');
      const knobs = ['--database', 'it_bench_vsjava', '--vs-java', '--loop', '1', '--tablets-per-request', '25'];
      const { stdout } = await bench(...knobs, ...more, '--method', method, '--verify', '--out', out);
      const [ours, java] = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult[];
      // 100 devices, 25 a call: 4 calls each (it made 100, one a device), named by the call
      expect([ours.okOps, java.okOps]).toEqual([4, 4]);
      expect([java.points, java.verify?.ok]).toEqual([ours.points, true]);
      expect(Object.keys(java.latency)).toEqual(Object.keys(ours.latency));
      expect(Object.keys(java.latency)[0]).toBe(method);
      // its warm-up round too (untimed): the same statements read the same rows
      expect(java.queries?.TIME_RANGE?.rows).toBe(ours.queries?.TIME_RANGE?.rows);
      // --java-first: the Java client's run, then ours, then the ratios
      const [javaRan, oursRan] = [stdout.indexOf('running the Java client'), stdout.indexOf(`run tree-${method}`)];
      expect(javaRan < oursRan).toBe(more.includes('--java-first'));
      expect(stdout.indexOf('ours/Java points/s')).toBeGreaterThan(Math.max(javaRan, oursRan));
    },
  );

  it("--vs-java --test-max-time --queries: each side's queries range over the rounds it wrote before its stop", async () => {
    const out = tempDir('iotdb-bench-vsjava-stopped-');
    // a warm-up round, untimed: a cold JVM on a busy machine wrote under one round (100 writes) in the timed second,
    // and its queries then ranged over a round some devices did not have yet (4,500 rows)
    const knobs = '--database it_bench_vsjava --vs-java --workers 1 --loop 1000 --test-max-time 1000 --warmup-rounds 1';
    await bench(...knobs.split(' '), ...'--queries TIME_RANGE --query-loops 10 --out'.split(' '), out);
    const [ours, java] = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult[];
    expect([ours.stopped, java.stopped]).toEqual(['test-max-time', 'test-max-time']);
    // 10 statements of 100 rows of 5 devices each, within the rows each side wrote
    expect([ours.queries?.TIME_RANGE?.rows, java.queries?.TIME_RANGE?.rows]).toEqual([5000, 5000]);
  });

  it('--repeat 2: both runs kept, labelled by repeat, and each figure as the median and range over them', async () => {
    const out = tempDir('iotdb-bench-repeat-');
    const knobs = '--database it_bench_repeat --devices 2 --sensors 2 --batch-size 10 --loop 2 --repeat 2';
    const { stdout } = await bench(...knobs.split(' '), '--verify', '--out', out);
    const runs = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult[];
    expect(runs.map((r) => [r.label, r.verify?.ok])).toEqual([
      ['tree-insertTablet#1', true],
      ['tree-insertTablet#2', true],
    ]);
    expect(stdout).toMatch(/^repeat 2 of 2$/m);
    expect(stdout).toMatch(/^RESULT label=tree-insertTablet#2 /m); // as results.json names it
    expect(stdout).toMatch(/^ {2}tree-insertTablet {2}points\/s [\d,]+ \([\d,]+-[\d,]+\), p50 ms /m);
  });

  it('--sweep-rates: the run once per rate on the open-loop schedule, labelled by it, then each p99 by rate', async () => {
    const out = tempDir('iotdb-bench-sweep-');
    const knobs = '--database it_bench_sweep --devices 4 --sensors 4 --batch-size 10 --loop 5 --clients 2';
    const mix = '--operation-proportion 2:1:1:0:0:0:0:0:0:0:0 --sweep-rates 40,100 --verify';
    const { stdout } = await bench(...knobs.split(' '), ...mix.split(' '), '--out', out);
    const runs = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult[];
    expect(runs.map((r) => [r.label, r.config.targetRate, r.okOps, r.verify?.ok])).toEqual([
      ['tree-insertTablet-mixed@40/s', 40, 20, true],
      ['tree-insertTablet-mixed@100/s', 100, 20, true],
    ]);
    expect(stdout).toMatch(/^sweep: 40 operations\/s \(1 of 2\)$/m);
    // each run's report and RESULT line under the name its files keep
    expect(stdout).toMatch(/^== tree-insertTablet-mixed@100\/s: tree model, insertTablet, /m);
    expect(stdout).toMatch(/^RESULT label=tree-insertTablet-mixed@40\/s /m);
    expect(stdout).toMatch(/^open loop {4}target 100 ops\/s, achieved /m);
    const table = stdout.slice(stdout.indexOf('sweep tree-insertTablet-mixed: p99 ms from the intended start'));
    expect(table).toMatch(/^ {2}target +40 +100$/m);
    expect(table).toMatch(/^ {2}achieved +[\d.]+ +[\d.]+$/m);
    for (const op of ['insertTablet', 'PRECISE_POINT', 'TIME_RANGE', 'start lag p99'])
      expect(table).toMatch(new RegExp(`^ {2}${op} +[\\d.]+ +[\\d.]+$`, 'm'));
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('<h3>tree-insertTablet-mixed</h3>');
  });

  it('--vs-java --target-rate: the Java client runs our writes on the same open-loop schedule; one the server refuses is counted, its run goes on', async () => {
    const out = tempDir('iotdb-bench-vsjava-paced-');
    await withSession((s) => s.deleteDatabase('root.it_bench_vsjava').catch(() => undefined)); // no series before
    const args = ['--database', 'it_bench_vsjava', '--vs-java', '--java-first', '--loop', '1', '--target-rate', '25'];
    const running = bench(...args, '--out', out);
    // its last device's s0 made a BOOLEAN once the Java client's warm-up made it: that device's timed write (the
    // round's last, 4 s on) fails
    await retypeOnceMade('root.it_bench_vsjava.d099.s0', running);
    const { stdout } = await running;
    const [ours, java] = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult[];
    expect(java.label).toBe('java'); // ours first in the files, whichever ran first
    // the refused write counted, the others done: its run went on (ours, on the database made again, refused none)
    expect([java.okOps, java.failedOps, ours.okOps, ours.failedOps]).toEqual([99, 1, 100, 0]);
    expect(java.latency['failed insertTablet']?.count).toBe(1);
    expect(java.failuresOverTime?.map(([, failed]) => failed)).toEqual([1]);
    expect(java.errors[0]).toMatch(/^the Java client: insertTablet: 507: .*d099\.s0 is not consistent/);
    expect(java.points).toBe(ours.points - 25_000); // a write: 500 rows x 50 sensors
    // 100 writes due 40 ms apart: the schedule, not the server, sets how long it takes (unpaced: a fraction of it)
    expect(java.durationS).toBeGreaterThan(3);
    expect(java.latency['uncorrected insertTablet']?.count).toBe(99);
    expect([ours.latency['start lag']?.count, java.latency['start lag']?.count]).toEqual([100, 100]);
    // each side's latency over the run, interval by interval (4 s of writes: at least two), every write that
    // succeeded in one
    for (const r of [ours, java]) {
      const overTime = r.latencyOverTime ?? [];
      expect(overTime.length).toBeGreaterThanOrEqual(2);
      expect(overTime.reduce((n, [, count]) => n + count, 0)).toBe(r.okOps);
    }
    expect(java.throughput.length).toBeGreaterThanOrEqual(2); // its points/s over the run, as ours'
    expect(readFileSync(join(out, 'latency-over-time.csv'), 'utf8')).toMatch(/^java,[\d.]+,\d+,1,/m); // its failure's interval
    expect(stdout).toMatch(/^ours\/Java start lag: p50 [\d.]+x \([\d.]+ vs [\d.]+ ms\), p99 [\d.]+x /m);
    expect(stdout).toMatch(/^ours\/Java insertTablet: latency p50 [\d.]+x, p99 [\d.]+x, uncorrected p50 [\d.]+x$/m);
  });

  it('with --node-urls and no --host, talks to that cluster (it started a local server, whose ports were taken)', async () => {
    const { stdout } = await run(
      'node',
      [
        cli,
        '--node-urls',
        `${host}:${port}`,
        ...'--database it_bench_urls --devices 2 --sensors 2 --loop 1'.split(' '),
      ],
      { timeout: 120_000, env: noServerEnv },
    );
    expect(stdout).not.toContain('starting a local IoTDB');
    expect(stdout).toMatch(/^RESULT .* ok_ops=2 failed_ops=0 /m);
  });

  it('says in one line that it could not start its local server, and why (no stack)', async () => {
    // no --host: the harness starts a server on --port, whose ports the running test server holds
    const args = [cli, '--port', String(port), '--devices', '1', '--loop', '1'];
    const e = (await run('node', args, { env: noServerEnv }).then(
      () => expect.fail('a local server on taken ports cannot start'),
      (err: unknown) => err,
    )) as { code: number; stderr: string };
    expect(e.code).toBe(1);
    expect(e.stderr).toMatch(/^iotdb-bench: could not start a local IoTDB on 127\.0\.0\.1:\d+ .*--host/m);
    expect(e.stderr).not.toMatch(/\n\s+at /);
  });

  it("the Java client's failure is one line with its exception, not a stack of the harness", async () => {
    const config = { ...sampleConfig({ loop: 1 }), workload: 'java-anchor' as const };
    const failure = await (async () => {
      try {
        await runJava(config, '127.0.0.1', 1);
      } catch (e) {
        return e;
      }
    })(); // one run of the Java client (each is seconds of javac and JVM start)
    expect(failure).toBeInstanceOf(RunError);
    expect((failure as RunError).message).toMatch(/^the Java client failed \(exit 1\): .*Exception/);
  });

  it('refuses an --out it cannot make before the run (the run would be lost, and Node hung on /proc)', async () => {
    const args = [cli, '--host', '127.0.0.1', '--port', '1', '--out', '/proc/iotdb-bench-out'];
    await expect(run('node', args, { timeout: 20_000 })).rejects.toMatchObject({
      code: 2,
      stderr: 'iotdb-bench: --out: /proc/iotdb-bench-out: cannot make it (ENOENT)\n',
    });
    const readCompare = [cli, 'read-compare', '--port', '1', '--out', '/proc/iotdb-bench-out/read.json'];
    await expect(run('node', readCompare, { timeout: 20_000 })).rejects.toMatchObject({
      code: 2,
      stderr: 'iotdb-bench read-compare: --out: /proc/iotdb-bench-out: cannot make it (ENOENT)\n',
    });
  });

  it('refuses a wrong knob before connecting, naming it', async () => {
    await expect(run('node', [cli, '--workers', 'many'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--workers') as unknown, // a matcher (typed any) in place of the text
    });
  });
});
