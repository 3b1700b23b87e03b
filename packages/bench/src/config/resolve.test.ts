import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { constants } from 'node:buffer';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BenchConfig } from '../types.js';
import { ConfigError, resolveConfig } from './resolve.js';
import { proportions } from './type-proportions.js';
import { WRITES_ONLY } from '../workload/operations.js';

const dir = mkdtempSync(join(tmpdir(), 'bench-resolve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const resolve = (argv: string[], env: Record<string, string | undefined> = {}): BenchConfig =>
  resolveConfig(argv, env).config;

/** The ConfigError resolving throws; checks the knob it names and its message. */
function rejects(argv: string[], env: Record<string, string | undefined>, knob: string, message: RegExp): void {
  let error: unknown;
  try {
    resolveConfig(argv, env);
  } catch (e) {
    error = e;
  }
  expect(error, `${argv.join(' ')} ${JSON.stringify(env)}`).toBeInstanceOf(ConfigError);
  expect((error as ConfigError).knob).toBe(knob);
  expect((error as ConfigError).message).toMatch(message);
}

describe('resolveConfig: defaults', () => {
  it('match the documented defaults', () => {
    expect(resolveConfig([], {})).toEqual({
      help: false,
      config: {
        host: undefined,
        port: 6667,
        nodeUrls: undefined,
        tls: false,
        tlsCa: undefined,
        javaTrustStore: undefined,
        rpcCompression: false,
        spreadQueries: true,
        discoverNodes: true,
        redirection: true,
        database: 'bench',
        workers: Math.min(availableParallelism(), 100),
        clients: 1,
        poolMaxSize: 1,
        devices: 100,
        sensors: 50,
        batchSize: 500,
        loop: 10,
        deviceOffset: 0,
        deviceCount: 100,
        model: 'tree',
        method: 'insertTablet',
        tabletsPerRequest: 10,
        typeProportions: proportions({ BOOLEAN: 1, INT32: 1, INT64: 1, FLOAT: 1, DOUBLE: 1, TEXT: 1 }),
        values: 'pattern',
        stringLength: 8,
        timeStep: 1000,
        precision: 'ms',
        outOfOrderRatio: 0,
        outOfOrderRange: 10,
        interlacedDevices: 1,
        nullRatio: 0,
        rateLimit: 0,
        targetRate: 0,
        sweepRates: [],
        batchIntervalMs: 0,
        testMaxTime: 0,
        retryMaxMs: 60_000,
        warmupRounds: 0,
        reportIntervalMs: 1000,
        progress: false,
        workload: 'custom',
        seed: 42,
        operationProportion: WRITES_ONLY,
        queryInterval: 500 * 1000,
        queryDeviceNum: 1,
        querySensorNum: 1,
        groupByTimeUnit: 50 * 1000,
        queryAggregateFun: 'count',
        queryLowerValue: 0,
        queryFile: undefined,
        serverPid: undefined,
        persistResults: undefined,
        queries: [],
        queryLoops: 10,
        verify: false,
        dryRun: false,
        dryRunSend: false,
        serverNoop: false,
        trace: false,
        out: undefined,
        compare: [],
        vsJava: false,
        javaFirst: false,
        repeat: 1,
      },
    });
  });

  it('derived defaults follow their knobs: poolMaxSize = clients, deviceCount = devices - deviceOffset, workers <= deviceCount', () => {
    const c = resolve(['--clients', '3', '--devices', '10', '--device-offset', '8']);
    expect([c.poolMaxSize, c.deviceCount, c.workers]).toEqual([3, 2, Math.min(availableParallelism(), 2)]);
  });
});

describe("resolveConfig: the client's bounds", () => {
  it("a pool of at most 65535 sessions, the client's bound: refused here, not by a worker with a stack", () => {
    rejects(['--pool-max-size', '70000'], {}, 'poolMaxSize', /needs an integer in \[1, 65535\]/);
    expect(resolve(['--clients', '40000', '--method', 'writer']).poolMaxSize).toBe(65535);
  });

  it('an interval of 100 ms or more (finer ones flood the progress line, and cost memory per interval)', () => {
    rejects(['--report-interval-ms', '1'], {}, 'reportIntervalMs', /needs an integer in \[100, 2147483647\]/);
    expect(resolve(['--report-interval-ms', '100']).reportIntervalMs).toBe(100);
  });

  it("the waits a timer times, 2^31 - 1 ms at most: a longer one Node's timer ends at once", () => {
    // a run given --test-max-time 1000000000000 stopped after its first write, "at --test-max-time"
    rejects(['--test-max-time', '3000000000'], {}, 'testMaxTime', /needs an integer in \[0, 2147483647\]/);
    rejects(['--batch-interval-ms', '3000000000'], {}, 'batchIntervalMs', /needs an integer in \[0, 2147483647\]/);
    rejects(['--report-interval-ms', '3000000000'], {}, 'reportIntervalMs', /needs an integer in \[100, 2147483647\]/);
    const c = resolve([
      '--test-max-time',
      '2147483647',
      '--batch-interval-ms',
      '0',
      '--report-interval-ms',
      '2147483647',
    ]);
    expect([c.testMaxTime, c.batchIntervalMs, c.reportIntervalMs]).toEqual([2147483647, 0, 2147483647]);
  });

  it('a write one request can carry, before the run: not a worker out of memory or a RangeError', () => {
    // --batch-size 1000000000 ended the process out of memory, --string-length 1000000000 with "Invalid string length"
    rejects(
      ['--batch-size', '1000000000', '--sensors', '2'],
      {},
      'batchSize',
      /each write would carry about 13,000 MB \(--batch-size x --sensors\), more than one request can \(2,147 MB\)/,
    );
    rejects(
      ['--string-length', '1000000000'],
      {},
      'stringLength',
      new RegExp(`in \\[1, ${constants.MAX_STRING_LENGTH}\\]`),
    );
    expect(resolve(['--batch-size', '1000000', '--sensors', '2']).batchSize).toBe(1_000_000);
  });

  it("rows and times a device's writes can have, before the run: not a worker's RangeError or writes all refused", () => {
    // --loop 100000000 --batch-size 100 failed a worker with a stack ("RangeError: more than 2^31 rows per device");
    // --time-step 4000000000000000 had every write refused by the client (timestamps[2]: needs a safe integer ...)
    rejects(
      ['--loop', '100000000', '--batch-size', '100', '--warmup-rounds', '1'],
      {},
      'loop',
      /10,000,000,100 rows a device \(--warmup-rounds \+ --loop\) x --batch-size, more than the 2,147,483,646 the benchmark numbers; at most 21,474,835 rounds of this batch size/,
    );
    expect(resolve(['--loop', '21474835', '--batch-size', '100', '--warmup-rounds', '1']).loop).toBe(21_474_835);
    rejects(
      ['--warmup-rounds', '30000000', '--batch-size', '100'],
      {},
      'warmupRounds',
      /3,000,001,000 rows a device .*; the warm-up rounds alone are more/,
    );
    rejects(
      ['--time-step', '4000000000000000', '--loop', '2', '--batch-size', '10'],
      {},
      'timeStep',
      /the last row's time would be 80,001,700,000,000,000 ms \(row 20 of a device\), past 9,007,199,254,740,991, the largest ms timestamp the benchmark writes/,
    );
    rejects(
      ['--time-step', '10000000000', '--precision', 'ns', '--loop', '1000', '--batch-size', '1000'],
      {},
      'timeStep',
      /past 9,223,372,036,854,775,807, the largest ns timestamp/,
    );
    expect(resolve(['--time-step', '1000000', '--precision', 'ns', '--loop', '1000']).timeStep).toBe(1e6);
  });

  it('a query timeout a timer can wait (2^31 - 1 ms at most), 0 for none', () => {
    rejects(['--query-timeout-ms', '3000000000'], {}, 'queryTimeoutMs', /needs an integer in \[0, 2147483647\]/);
    expect(resolve(['--query-timeout-ms', '0']).queryTimeoutMs).toBe(0);
    expect(resolve([]).queryTimeoutMs).toBeUndefined();
  });
});

describe('resolveConfig: sources and precedence', () => {
  it('defaults < config file < environment < flags', () => {
    const yaml = file('p.yaml', 'workers: 2\nsensors: 3\nbatchSize: 4\nhost: from-file\n');
    const env = { WORKER_COUNT: '5', SENSOR_NUMBER: '6', IOTDB_HOST: 'from-env' };
    const c = resolve(['--config', yaml, '--workers', '9'], env);
    expect([c.workers, c.sensors, c.batchSize, c.host, c.devices]).toEqual([9, 6, 4, 'from-env', 100]);
    const j = file('p.json', JSON.stringify({ workers: 2, sensors: 3, batchSize: 4, host: 'from-file' }));
    expect(resolve([`--config=${j}`], {}).sensors).toBe(3);
    expect(resolve([`--config=${j}`], { SENSOR_NUMBER: '6' }).sensors).toBe(6);
    expect(resolve([`--config=${j}`, '--sensors=8'], { SENSOR_NUMBER: '6' }).sensors).toBe(8);
  });

  it.runIf(process.platform === 'linux')(
    "the server's processes whose CPU a run measures: a list of pids, from the flag, the environment or a file",
    () => {
      const [a, b] = [process.pid, process.ppid];
      expect(resolve(['--server-pid', `${a},${b}`]).serverPid).toEqual([a, b]);
      expect(resolve([], { IOTDB_SERVER_PID: String(b) }).serverPid).toEqual([b]);
      expect(resolve(['--config', file('pids.yaml', `serverPid: [${a}, ${b}]\n`)]).serverPid).toEqual([a, b]);
    },
  );

  it('the environment names of iot-benchmark and the seed docs', () => {
    const env = {
      CLIENT_NUMBER: '2',
      DEVICE_NUMBER: '20',
      SENSOR_NUMBER: '5',
      BATCH_SIZE_PER_WRITE: '50',
      LOOP: '3',
      WORKER_COUNT: '4',
      POOL_MAX_SIZE: '6',
      WARMUP_ROUNDS: '1',
      REPORT_INTERVAL: '500',
      IOTDB_HOST: 'h',
      IOTDB_PORT: '6668',
      NODE_URLS: 'h:6668,b:2',
      OUT_OF_ORDER_RATIO: '0.1',
      NULL_RATIO: '0.2',
      STRING_LENGTH: '12',
      TIME_STEP: '10',
      PRECISION: 'us',
      MODEL: 'aligned',
      METHOD: 'insertTablets',
      RATE_LIMIT: '1000',
      SEED: '7',
      DATABASE: 'db1',
    };
    expect(resolve([], env)).toMatchObject({
      clients: 2,
      devices: 20,
      sensors: 5,
      batchSize: 50,
      loop: 3,
      workers: 4,
      poolMaxSize: 6,
      warmupRounds: 1,
      reportIntervalMs: 500,
      host: 'h',
      port: 6668,
      nodeUrls: ['h:6668', 'b:2'],
      outOfOrderRatio: 0.1,
      nullRatio: 0.2,
      stringLength: 12,
      timeStep: 10,
      precision: 'us',
      model: 'aligned',
      method: 'insertTablets',
      rateLimit: 1000,
      seed: 7,
      database: 'db1',
    });
  });

  it('empty environment variables count as unset', () => {
    expect(resolve([], { IOTDB_HOST: '', WORKER_COUNT: ' ' }).host).toBeUndefined();
  });

  it('--flag value, --flag=value, boolean flags with and without a value', () => {
    const c = resolve([
      '--devices=40',
      '--sensors',
      '7',
      '--verify',
      '--progress=false',
      '--queries=raw,last',
      '--out',
      'r.json',
    ]);
    expect([c.devices, c.sensors, c.verify, c.progress, c.queries, c.out]).toEqual([
      40,
      7,
      true,
      false,
      ['TIME_RANGE', 'LATEST_POINT'],
      'r.json',
    ]);
    expect(resolve(['--verify=false'], { VERIFY: 'true' }).verify).toBe(false);
    expect(resolve(['--dry-run', '--dry-run-send', '--progress']).dryRunSend).toBe(true);
    expect(resolve(['--compare=']).compare).toEqual([]);
    expect(resolve(['--loop', '2', '--loop', '3']).loop).toBe(3); // the last one wins
  });

  it('--help wins over everything else and returns the defaults', () => {
    const r = resolveConfig(['--workers', 'abc', '--help', '--bogus'], { WORKER_COUNT: 'x' });
    expect(r.help).toBe(true);
    expect(r.config.workers).toBe(Math.min(availableParallelism(), 100));
    expect(resolveConfig(['-h'], {}).help).toBe(true);
  });
});

describe('resolveConfig: totalPoints derives loop', () => {
  it('TOTAL_DATA_POINTS / --total-points: loop = ceil(total / (devices x sensors x batchSize))', () => {
    expect(resolve([], { TOTAL_DATA_POINTS: '10000000' }).loop).toBe(4); // 10 M / 2.5 M
    expect(resolve([], { TOTAL_DATA_POINTS: '10000001' }).loop).toBe(5);
    expect(resolve(['--total-points', '1', '--devices', '1', '--sensors', '1', '--batch-size', '1']).loop).toBe(1);
    expect(resolve(['--total-points=1000', '--devices', '2', '--sensors', '5', '--batch-size', '10']).loop).toBe(10);
    expect(resolve(['--config', file('t.yaml', 'totalPoints: 5000000\n')]).loop).toBe(2);
  });

  it('the higher source wins between loop and totalPoints; both in one source is an error', () => {
    expect(resolve(['--loop', '3'], { TOTAL_DATA_POINTS: '10000000' }).loop).toBe(3);
    expect(resolve(['--total-points', '10000000'], { LOOP: '3' }).loop).toBe(4);
    rejects(
      ['--loop', '3', '--total-points', '5'],
      {},
      'loop',
      /--loop and --total-points both set the number of rounds/,
    );
    rejects(
      [],
      { LOOP: '3', TOTAL_DATA_POINTS: '5' },
      'loop',
      /env LOOP \(loop\) and env TOTAL_DATA_POINTS \(totalPoints\)/,
    );
    rejects(['--total-points', '0'], {}, 'totalPoints', /^--total-points: needs an integer >= 1, got "0"$/);
  });
});

describe('resolveConfig: INSERT_DATATYPE_PROPORTION', () => {
  it('6 and 10 entries', () => {
    expect(resolve([], { INSERT_DATATYPE_PROPORTION: '1:0:0:3:0:0' }).typeProportions).toEqual(
      proportions({ BOOLEAN: 1, FLOAT: 3 }),
    );
    expect(resolve([], { INSERT_DATATYPE_PROPORTION: '0:0:0:0:0:1:1:1:1:1' }).typeProportions).toEqual(
      proportions({ TEXT: 1, TIMESTAMP: 1, DATE: 1, BLOB: 1, STRING: 1 }),
    );
    expect(resolve(['--type-proportions=1:1:1:1:1:1:0:0:0:2']).typeProportions.STRING).toBe(2);
  });

  it('bad input and all zeros name the knob and its source', () => {
    rejects(
      [],
      { INSERT_DATATYPE_PROPORTION: '1:1:1' },
      'typeProportions',
      /^env INSERT_DATATYPE_PROPORTION \(typeProportions\): needs 6 or 10 weights/,
    );
    rejects(
      ['--type-proportions', '0:0:0:0:0:0'],
      {},
      'typeProportions',
      /^--type-proportions: needs 6 or 10 weights >= 0, at least one > 0.*got "0:0:0:0:0:0"$/,
    );
    rejects(['--type-proportions', '1:a:1:1:1:1'], {}, 'typeProportions', /^--type-proportions: needs/);
    const f = file('tp.json', JSON.stringify({ typeProportions: { FLOAT: 0 } }));
    rejects(['--config', f], {}, 'typeProportions', /tp\.json key "typeProportions": needs 6 or 10 weights/);
  });
});

describe('resolveConfig: --workload java-anchor', () => {
  const anchorTypes = proportions({ FLOAT: 15, DOUBLE: 10, INT32: 10, INT64: 5, TEXT: 5, BOOLEAN: 5 });

  it("forces Bench.java's workload whatever the defaults", () => {
    const c = resolve(['--workload', 'java-anchor']);
    expect(c).toMatchObject({
      workload: 'java-anchor',
      devices: 100,
      sensors: 50,
      batchSize: 500,
      model: 'tree',
      values: 'pattern',
      stringLength: 8,
      timeStep: 1000,
      precision: 'ms',
      nullRatio: 0,
      outOfOrderRatio: 0,
      deviceCount: 100,
    });
    expect(c.typeProportions).toEqual(anchorTypes);
  });

  it('leaves the model (tree, aligned, table), the writers and the rounds free', () => {
    for (const model of ['aligned', 'table'] as const)
      expect(resolve(['--workload=java-anchor', '--model', model]).model).toBe(model);
    const c = resolve([
      '--workload',
      'java-anchor',
      '--clients',
      '4',
      '--total-points',
      '10000000',
      '--method',
      'insertTablets',
    ]);
    expect([c.clients, c.loop, c.method]).toEqual([4, 4, 'insertTablets']);
  });

  it('accepts explicit values that agree (type weights: the same shares)', () => {
    const c = resolve([
      '--workload',
      'java-anchor',
      '--sensors',
      '50',
      '--type-proportions',
      '1:2:1:3:2:1',
      '--values',
      'pattern',
    ]);
    expect(c.typeProportions).toEqual(anchorTypes);
  });

  it('a conflicting explicit knob is an error naming it and its source', () => {
    rejects(
      ['--workload', 'java-anchor', '--sensors', '10'],
      {},
      'sensors',
      /^--sensors: the java-anchor workload \(--workload\) fixes sensors at 50, got 10$/,
    );
    // Bench.java's records go one device after another
    rejects(
      ['--vs-java', '--method', 'insertRecords', '--interlaced-devices', '2'],
      {},
      'interlacedDevices',
      /^--interlaced-devices: the java-anchor workload \(from --vs-java\) fixes interlacedDevices at 1, got 2$/,
    );
    rejects(
      ['--workload', 'java-anchor'],
      { BATCH_SIZE_PER_WRITE: '100' },
      'batchSize',
      /^env BATCH_SIZE_PER_WRITE \(batchSize\): .* fixes batchSize at 500, got 100/,
    );
    rejects(
      ['--config', file('a.yaml', 'workload: java-anchor\nnullRatio: 0.5\n')],
      {},
      'nullRatio',
      /a\.yaml:2 key "nullRatio": the java-anchor workload \(.*a\.yaml:1 key "workload"\)/,
    );
    rejects(['--workload', 'java-anchor', '--values', 'random'], {}, 'values', /fixes values at pattern/);
    rejects(
      ['--workload', 'java-anchor', '--type-proportions', '1:1:1:1:1:1'],
      {},
      'typeProportions',
      /fixes typeProportions at 5:10:5:15:10:5, got 1:1:1:1:1:1/,
    );
    rejects(['--workload', 'java-anchor', '--precision', 'us'], {}, 'precision', /^--precision:/);
  });

  it('--vs-java implies it; --vs-java with --workload custom is a contradiction', () => {
    expect(resolve(['--vs-java']).workload).toBe('java-anchor');
    rejects(
      ['--vs-java', '--devices', '10'],
      {},
      'devices',
      /the java-anchor workload \(from --vs-java\) fixes devices at 100/,
    );
    rejects(
      ['--vs-java', '--workload', 'custom'],
      {},
      'workload',
      /workload custom \(--workload\): vsJava true \(--vs-java\) compares on Bench\.java's workload/,
    );
  });

  it('--vs-java writing a share of the devices is a contradiction; reading one is not', () => {
    const share = ['--vs-java', '--device-offset', '10', '--device-count', '20'];
    rejects(share, {}, 'vsJava', /vsJava true \(--vs-java\) .* every device .*deviceOffset 10 \(--device-offset\)/);
    rejects(['--vs-java', '--device-count', '50'], {}, 'vsJava', /deviceCount 50 \(--device-count\)/);
    expect(resolve([...share, '--operation-proportion', '0:1:0:0:0:0:0:0:0:0:0']).deviceCount).toBe(20);
  });
});

describe('resolveConfig: errors name the knob and where it came from', () => {
  it('bad values from a flag, the environment and a config file', () => {
    rejects(['--workers', 'abc'], {}, 'workers', /^--workers: needs an integer >= 1, got "abc"$/);
    rejects(['--workers=0'], {}, 'workers', /^--workers: needs an integer >= 1, got "0"$/);
    rejects([], { WORKER_COUNT: 'abc' }, 'workers', /^env WORKER_COUNT \(workers\): needs an integer >= 1, got "abc"$/);
    const y = file('bad.yaml', '# c\nworkers: abc\n');
    rejects(
      ['--config', y],
      {},
      'workers',
      new RegExp(`^${y.replace(/[.\\]/g, '\\$&')}:2 key "workers": needs an integer >= 1, got "abc"$`),
    );
    const j = file('bad.json', '{"workers": 1.5}');
    rejects(['--config', j], {}, 'workers', /bad\.json key "workers": needs an integer >= 1, got 1\.5$/);
    rejects(['--null-ratio', '2'], {}, 'nullRatio', /^--null-ratio: needs a number in \[0, 1\], got "2"$/);
    rejects([], { MODEL: 'graph' }, 'model', /^env MODEL \(model\): needs one of tree, aligned, table, got "graph"$/);
    rejects(['--port', '70000'], {}, 'port', /^--port: needs an integer in \[1, 65535\]/);
    rejects(['--node-urls', 'a:1,b'], {}, 'nodeUrls', /^--node-urls: entry "b" needs host:port/);
    rejects(['--server-pid', '12,x'], {}, 'serverPid', /^--server-pid: entry "x" needs an integer >= 1/);
    rejects(['--server-pid', ''], {}, 'serverPid', /^--server-pid: needs at least 1 comma-separated entry/);
    rejects(['--database', 'a.b'], {}, 'database', /^--database: needs a name of letters/);
    // the server refused them only at the run's DELETE DATABASE root.time ([700] mismatched input 'time')
    for (const word of ['root', 'Time', 'TIMESTAMP'])
      rejects(
        ['--database', word],
        {},
        'database',
        /is a word IoTDB reserves in a tree path \(root, time, timestamp\)/,
      );
    expect(resolve(['--database', 'time', '--model', 'table']).database).toBe('time');
    rejects(['--verify=maybe'], {}, 'verify', /^--verify: needs true or false, got "maybe"$/);
  });

  it('a bad value is an error even where a higher source overrides it', () => {
    rejects(['--workers', '2'], { WORKER_COUNT: 'abc' }, 'workers', /^env WORKER_COUNT/);
  });

  it('command-line mistakes', () => {
    rejects(['--bogus', '1'], {}, '--bogus', /^--bogus: unknown flag/);
    rejects(['--batchSize', '1'], {}, '--batchSize', /did you mean --batch-size\?/);
    rejects(['--devcies', '1'], {}, '--devcies', /did you mean --devices\?/);
    rejects(['--warmpu-rounds', '1'], {}, '--warmpu-rounds', /did you mean --warmup-rounds\?/);
    rejects(['--verfy'], {}, '--verfy', /did you mean --verify\?/);
    rejects(['--zzzzzz', '1'], {}, '--zzzzzz', /^--zzzzzz: unknown flag \(see --help\)$/);
    rejects(['workers'], {}, 'workers', /^unexpected argument "workers"/);
    rejects(
      ['--host', 'h', 'merge'],
      {},
      'merge',
      /^"merge" is a command: it goes first \(iotdb-bench merge \.\.\.\)$/,
    );
    rejects(['--workers'], {}, 'workers', /^--workers: needs a value$/);
    rejects(['--host', '--verify'], {}, 'host', /^--host: needs a value$/);
    rejects(['--config'], {}, 'config', /^--config: needs a value$/);
  });

  it('compare entries that are not methods', () => {
    rejects(
      ['--compare', 'insertTablet,insertFast'],
      {},
      'compare',
      /^--compare: entry "insertFast" needs one of insertTablet, insertTablets, insertTabletsParallel, insertRecords/,
    );
    rejects(
      [],
      { COMPARE: 'insertTablet,insertTablet' },
      'compare',
      /^env COMPARE \(compare\): lists "insertTablet" twice/,
    );
  });

  it('a --host and --port that are not one of --node-urls: two servers named, refused (the Java client went to the one)', () => {
    const cluster = ['--node-urls', '127.0.0.1:13667,127.0.0.1:13668'];
    rejects(
      ['--host', '127.0.0.1', ...cluster],
      {},
      'host',
      /host 127\.0\.0\.1 \(--host\) and port 6667 \(default\) are not one of nodeUrls .*\(--node-urls\).*give --node-urls alone/,
    );
    rejects(cluster, { IOTDB_HOST: 'db1' }, 'host', /host db1 \(env IOTDB_HOST/);
    // one of them: the node the Java client and the run's own checks go to
    expect(resolve(['--host', '127.0.0.1', '--port', '13668', ...cluster])).toMatchObject({ port: 13668 });
    expect(resolve(cluster)).toMatchObject({ host: undefined });
    expect(resolve(['--host', '127.0.0.1', '--port', '13667'])).toMatchObject({ nodeUrls: undefined });
  });

  it('deviceOffset + deviceCount > devices', () => {
    rejects(
      ['--device-offset', '90', '--device-count', '20'],
      {},
      'deviceCount',
      /deviceOffset 90 \(--device-offset\) \+ deviceCount 20 \(--device-count\) > devices 100 \(default\)/,
    );
    rejects(
      ['--device-count', '20'],
      { DEVICE_NUMBER: '10' },
      'deviceCount',
      /> devices 10 \(env DEVICE_NUMBER \(devices\)\)/,
    );
    rejects(
      ['--device-offset', '100'],
      {},
      'deviceOffset',
      /^deviceOffset 100 \(--device-offset\) leaves no devices: needs to be below devices 100 \(default\)$/,
    );
    expect(resolve(['--device-offset', '90', '--device-count', '10', '--workers', '2'])).toMatchObject({
      deviceOffset: 90,
      deviceCount: 10,
    });
  });

  it('more workers than devices', () => {
    rejects(
      ['--workers', '5', '--devices', '4'],
      {},
      'workers',
      /^workers 5 \(--workers\) exceeds deviceCount 4 \(default\)/,
    );
  });

  it('serverNoop with the table model or insertTabletsParallel', () => {
    rejects(
      ['--server-noop', '--model', 'table'],
      {},
      'serverNoop',
      /^serverNoop true \(--server-noop\) works with the tree and aligned models only, got model table \(--model\)$/,
    );
    rejects(
      ['--server-noop', '--method', 'insertTabletsParallel'],
      {},
      'serverNoop',
      /works with insertTablet, insertTablets, insertRecords only, got insertTabletsParallel in method insertTabletsParallel \(--method\)/,
    );
    rejects(
      ['--server-noop', '--compare', 'insertTablet,insertTabletsParallel'],
      {},
      'serverNoop',
      /in compare insertTablet,insertTabletsParallel \(--compare\)/,
    );
    for (const method of ['insertTablet', 'insertTablets', 'insertRecords']) {
      for (const model of ['tree', 'aligned'])
        expect(resolve(['--server-noop', '--method', method, '--model', model]).serverNoop).toBe(true);
    }
  });

  it('the table model has no insertRecords', () => {
    rejects(
      ['--model', 'table', '--method', 'insertRecords'],
      {},
      'method',
      /^method insertRecords \(--method\): the table model has no insertRecords/,
    );
    rejects(
      ['--model', 'table', '--compare', 'insertTablet,insertRecords'],
      {},
      'compare',
      /the table model has no insertRecords/,
    );
  });

  it('queries that cannot run: the writer or nothing stored in a mix, too many devices or sensors, two rates', () => {
    const mix = ['--operation-proportion', '1:1:1:1:1:1:1:1:1:1:1'];
    rejects([...mix, '--method', 'writer'], {}, 'operationProportion', /the writer batches rows on its own/);
    rejects([...mix, '--server-noop'], {}, 'operationProportion', /nothing is stored with serverNoop/);
    rejects(
      ['--queries', 'TIME_RANGE', '--device-count', '2', '--query-device-num', '3'],
      {},
      'queryDeviceNum',
      /^queryDeviceNum 3 \(--query-device-num\) exceeds this machine's deviceCount 2/,
    );
    rejects(
      [...mix, '--type-proportions', '1:0:0:0:0:1'],
      {},
      'querySensorNum',
      /queries read numeric sensors .* and the schema has 0/,
    );
    rejects(['--target-rate', '100', '--rate-limit', '1000'], {}, 'targetRate', /give one/);
  });

  it('a sweep of rates: each a run, not beside one rate, a rate limit or --compare; no rate twice or of 0', () => {
    expect(resolveConfig(['--sweep-rates', '100,400,200'], {}).config).toMatchObject({
      sweepRates: [100, 400, 200],
      targetRate: 0,
    });
    expect(resolveConfig([], { SWEEP_RATES: '50' }).config.sweepRates).toEqual([50]);
    rejects(['--sweep-rates', '100,200', '--target-rate', '100'], {}, 'sweepRates', /does not go with targetRate 100/);
    rejects(['--sweep-rates', '100', '--rate-limit', '1000'], {}, 'sweepRates', /does not go with rateLimit 1000/);
    rejects(
      ['--sweep-rates', '100', '--compare', 'insertTablet,insertTablets'],
      {},
      'sweepRates',
      /once per rate and compare .* once per method: sweep one method at a time/,
    );
    rejects(['--sweep-rates', '100,100'], {}, 'sweepRates', /lists "100" twice/);
    rejects(['--sweep-rates', '100,0'], {}, 'sweepRates', /entry "0"/);
    rejects(
      ['--sweep-rates', '100', '--vs-java', '--method', 'writer'],
      {},
      'vsJava',
      /paces the Java client's writes as sweepRates .* no batching writer/,
    );
  });

  it('dryRun with vsJava; verify when nothing is stored', () => {
    rejects(
      ['--dry-run', '--vs-java'],
      {},
      'vsJava',
      /^vsJava true \(--vs-java\) runs the Java client but dryRun true \(--dry-run\) runs nothing/,
    );
    rejects(['--verify', '--server-noop'], {}, 'verify', /serverNoop true \(--server-noop\)/);
    rejects(['--verify'], { DRY_RUN_SEND: 'true' }, 'verify', /dryRunSend true \(env DRY_RUN_SEND \(dryRunSend\)\)/);
    rejects(
      ['--verify', '--operation-proportion', '0:1:0:0:0:0:0:0:0:0:0'],
      {},
      'verify',
      /operationProportion .* has no INGESTION: it writes none/,
    );
  });

  it("--server-pid names processes of this machine: the server's CPU is read from them", () => {
    expect(() => resolveConfig(['--server-pid', `${process.pid},${2 ** 30}`], {})).toThrow(
      `serverPid ${process.pid},${2 ** 30} (--server-pid): no process ${2 ** 30} on this machine (the server's processes, read through Linux's /proc)`,
    );
    if (process.platform === 'linux')
      expect(resolve(['--server-pid', String(process.pid)]).serverPid).toEqual([process.pid]);
  });

  it('--tls-ca and --java-trust-store need --tls and a file that is there; --vs-java with --tls a trust store', () => {
    expect(() => resolveConfig(['--tls-ca', '/etc/hostname'], {})).toThrow(
      'tlsCa /etc/hostname (--tls-ca) is what to trust over TLS: it needs tls false (default)',
    );
    expect(() => resolveConfig(['--java-trust-store', '/etc/hostname'], {})).toThrow(/it needs tls false/);
    expect(() => resolveConfig(['--tls', '--tls-ca', '/nonexistent/ca.pem'], {})).toThrow(
      'tlsCa /nonexistent/ca.pem (--tls-ca): no such file',
    );
    expect(resolveConfig(['--tls', '--tls-ca', '/etc/hostname'], {}).config).toMatchObject({ tls: true });
    // a given server: the Java client needs a trust store; a local one the run starts gives its own
    const given = ['--host', 'h', '--vs-java', '--tls'];
    expect(() => resolveConfig(given, {})).toThrow(/the Java client trusts a server through a JKS trust store/);
    expect(resolveConfig([...given, '--java-trust-store', '/etc/hostname'], {}).config.javaTrustStore).toBe(
      '/etc/hostname',
    );
    expect(resolveConfig(['--vs-java', '--tls'], {}).config.tls).toBe(true);
    expect(resolveConfig(['--vs-java', '--rpc-compression'], {}).config).toMatchObject({ rpcCompression: true });
  });

  it('--java-first orders the Java client before ours, so it needs --vs-java', () => {
    rejects(['--java-first'], {}, 'javaFirst', /^javaFirst true \(--java-first\) orders .* it needs vsJava false/);
    expect(resolve(['--vs-java', '--java-first']).javaFirst).toBe(true);
    expect(resolve(['--vs-java']).javaFirst).toBe(false);
  });

  it('--vs-java paces the Java client as ours, which it cannot do for the batching writer', () => {
    rejects(
      ['--vs-java', '--method', 'writer', '--batch-interval-ms', '5'],
      {},
      'vsJava',
      /batchIntervalMs 5 \(--batch-interval-ms\) paces ours, but it has no batching writer to pace \(method writer/,
    );
    expect(resolve(['--vs-java', '--method', 'writer']).method).toBe('writer'); // unpaced: its tablets, as before
    expect(resolve(['--vs-java', '--target-rate', '100']).targetRate).toBe(100);
  });

  it('--query-file refuses the knobs of a write run, which it would not use', () => {
    const qf = ['--query-file', 'q.yaml'];
    const says = (what: RegExp) =>
      new RegExp(
        `^queryFile q\\.yaml \\(--query-file\\) runs its statements instead of the writes: it does not go with ${what.source}`,
      );
    rejects([...qf, '--queries', 'TIME_RANGE'], {}, 'queryFile', says(/queries TIME_RANGE \(--queries\)/));
    rejects([...qf, '--verify'], {}, 'queryFile', says(/verify true \(--verify\)/));
    rejects([...qf, '--rate-limit', '100'], {}, 'queryFile', says(/rateLimit 100 \(--rate-limit\)/));
    rejects([...qf, '--compare', 'insertTablet,writer'], {}, 'queryFile', says(/compare insertTablet,writer/));
    rejects([...qf, '--method', 'writer'], {}, 'queryFile', says(/method writer \(--method\)/));
  });

  it("refuses a knob of the benchmark's own queries given on the command line to a run that draws none", () => {
    const none = /draws none of the benchmark's queries/;
    rejects(['--query-interval', '5000'], {}, 'queryInterval', /^queryInterval 5000 \(--query-interval\) shapes/);
    rejects(['--query-lower-value', '0.5'], {}, 'queryLowerValue', none);
    rejects(['--query-file', 'q.yaml', '--query-aggregate-fun', 'max_value'], {}, 'queryAggregateFun', /its own SQL/);
    // --query-loops: --queries' alone (a mixed run draws its queries from the mix)
    const mix = ['--operation-proportion', '1:0:1:0:0:0:0:0:0:0:0'];
    rejects([...mix, '--query-loops', '5'], {}, 'queryLoops', /--queries/);
    expect(resolve([...mix, '--query-interval', '5000']).queryInterval).toBe(5000);
    expect(resolve(['--queries', 'TIME_RANGE', '--query-loops', '5']).queryLoops).toBe(5);
    // a config file's or the environment's may stay: shared with the runs that query
    expect(resolve([], { QUERY_INTERVAL: '5000' }).queryInterval).toBe(5000);
    expect(resolve(['--config', file('shared.yaml', 'queryInterval: 5000\n')]).queryInterval).toBe(5000);
  });

  it('refuses --tablets-per-request given to a run whose every write is one tablet (insertTablet)', () => {
    rejects(
      ['--tablets-per-request', '5'],
      {},
      'tabletsPerRequest',
      /^tabletsPerRequest 5 \(--tablets-per-request\) .*method insertTablet \(default\)/,
    );
    expect(resolve(['--tablets-per-request', '5', '--method', 'insertTablets']).tabletsPerRequest).toBe(5);
    expect(resolve(['--tablets-per-request', '5', '--compare', 'insertTablet,insertRecords']).tabletsPerRequest).toBe(
      5,
    );
    expect(resolve([], { TABLETS_PER_REQUEST: '5' }).tabletsPerRequest).toBe(5); // shared with other runs
    expect(resolve(['--query-file', 'q.yaml', '--tablets-per-request', '5']).tabletsPerRequest).toBe(5); // no writes
    // --interlaced-devices: the order of insertRecords' records, which no other method makes
    rejects(['--interlaced-devices', '2'], {}, 'interlacedDevices', /insertRecords.*method insertTablet \(default\)/);
    expect(resolve(['--interlaced-devices', '2', '--method', 'insertRecords']).interlacedDevices).toBe(2);
  });

  it('refuses a data knob given by flag where the data has nothing for it to shape', () => {
    rejects(['--out-of-order-range', '5'], {}, 'outOfOrderRange', /^outOfOrderRange 5 .*outOfOrderRatio 0 \(default\)/);
    expect(resolve(['--out-of-order-range', '5', '--out-of-order-ratio', '0.1']).outOfOrderRange).toBe(5);
    const numbers = ['--type-proportions', '0:1:1:1:1:0'];
    rejects([...numbers, '--string-length', '20'], {}, 'stringLength', /no TEXT, STRING or BLOB sensor/);
    expect(resolve(['--string-length', '20']).stringLength).toBe(20); // the default types have TEXT
    expect(resolve([...numbers], { STRING_LENGTH: '20' }).stringLength).toBe(20);
  });

  it('--query-file goes with the pacing knobs and the write knobs left at their defaults', () => {
    const c = resolve(['--query-file', 'q.yaml', '--target-rate', '50', '--test-max-time', '1000']);
    expect(c).toMatchObject({ queryFile: 'q.yaml', targetRate: 50, testMaxTime: 1000, method: 'insertTablet' });
    expect(resolve(['--query-file', 'q.yaml', '--batch-interval-ms', '100']).batchIntervalMs).toBe(100);
    // untimed reads of each statement before its timed ones
    expect(resolve(['--query-file', 'q.yaml', '--warmup-rounds', '20']).warmupRounds).toBe(20);
  });

  it('rateLimit with dryRunSend is fine', () => {
    expect(resolve(['--rate-limit', '1000000', '--dry-run-send'])).toMatchObject({
      rateLimit: 1_000_000,
      dryRunSend: true,
    });
  });
});
