import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  parseOptions,
  readCompareCommand,
  readRounds,
  summary,
  warmUpReads,
  type Passes,
} from './read-compare-command.js';

const pass = (mValuesPerS: number, cpuSPerMpts: number, serverCpuSPerMpts?: number) => ({
  rows: 1000,
  points: 1_000_000,
  wallS: 1 / mValuesPerS,
  pointsPerS: mValuesPerS * 1e6,
  cpuSPerMpts,
  ...(serverCpuSPerMpts === undefined ? {} : { serverCpuSPerMpts }),
});
const options = { sql: 'SELECT * FROM root.bench.** ALIGN BY DEVICE', fetchSize: 5000, rounds: 1 };

/** A result of 4,000 values each reader read, the Java reader's client CPU 30 ms: three steps of its clock. */
function smallResult(serverCpuSPerMpts?: number): Passes {
  const small = (mValuesPerS: number, cpuSPerMpts: number) => ({
    ...pass(mValuesPerS, cpuSPerMpts, serverCpuSPerMpts),
    points: 4000,
  });
  return {
    rows: [small(0.6, 0.4)],
    rowBatches: [small(0.7, 0.3)],
    columns: [small(0.4, 0.3)],
    batches: [small(0.8, 0.2)],
    java: [small(0.5, 7.5)],
  };
}

describe('read-compare summary', () => {
  it('gives each reader its rate and client CPU against the Java reader', () => {
    const passes: Passes = {
      rows: [pass(8, 0.04)],
      rowBatches: [pass(8.5, 0.035)],
      columns: [pass(7, 0.05)],
      batches: [pass(9, 0.02)],
      java: [pass(6, 0.12)],
    };
    const text = summary(options, passes, 2);
    expect(text).toMatch(/ours: rows \(for await\) +8\.00 +8\.00 +1\.33x +0\.040 +0\.33x$/m);
    expect(text).toMatch(/ours: rows \(rowBatches\) +8\.50 +8\.50 +1\.42x +0\.035 +0\.29x$/m);
    expect(text).toMatch(/Java: SessionDataSet iterator +6\.00 +6\.00 +1\.00x +0\.120 +1\.00x$/m);
    expect(text).not.toMatch(/server CPU/);
  });

  it("with the server's CPU per value, bounds each reader on the shared cores, and a reader that costs nothing", () => {
    const passes: Passes = {
      rows: [pass(8, 0.04, 0.16)],
      rowBatches: [pass(8.5, 0.035, 0.16)],
      columns: [pass(7, 0.05, 0.16)],
      batches: [pass(9, 0.02, 0.16)],
      java: [pass(6, 0.12, 0.16)],
    };
    const text = summary(options, passes, 2);
    expect(text).toMatch(/server CPU s\/M values +at most on 2 cores +vs Java$/m);
    // 2 cores / (0.16 + 0.04 s per M values) = 10 M values/s, 1.67x Java's 6
    expect(text).toMatch(/ours: rows \(for await\) .* 0\.33x +0\.160 +10\.00 +1\.67x$/m);
    // Java's own bound: 2 / (0.16 + 0.12) = 7.14
    expect(text).toMatch(/Java: SessionDataSet iterator .* 1\.00x +0\.160 +7\.14 +1\.19x$/m);
    expect(text).toContain(
      'The server used 0.160 s of CPU per million values (median of every read); on 2 cores shared with it, ' +
        "a reader that cost no CPU could read at most 12.50 M values/s, 2.08x the Java reader's median.",
    );
  });

  it("bounds a reader round by round: its median rate never above its median bound (a round's rate is under its own)", () => {
    const ours = [pass(8, 0.04, 0.16), pass(8, 0.04, 0.16)];
    // two rounds at their own bound: 2 / (0.10 + 0.30) = 5, 2 / (0.05 + 0.17) = 9.09; the medians of the CPU
    // figures (0.075, 0.235) would bound it at 6.45, under its median rate of 7
    const java = [pass(5, 0.1, 0.3), pass(9, 0.05, 0.17)].map((x) => ({ ...x, points: 10_000_000 })); // 1 s, 0.5 s of CPU
    const passes: Passes = { rows: ours, rowBatches: ours, columns: ours, batches: ours, java };
    const text = summary({ ...options, rounds: 2 }, passes, 2);
    expect(text).toMatch(
      /Java: SessionDataSet iterator +5\.00, 9\.00 +7\.00 +1\.00x +0\.075 +1\.00x +0\.235 +7\.05 +1\.01x$/m,
    );
  });

  it("compares no client CPU of the Java reader's that its clock could not measure: under ten of its 10 ms steps", () => {
    const passes = smallResult();
    const text = summary(options, passes, 2);
    expect(text).toMatch(/ours: rows \(for await\) +0\.60 +0\.60 +1\.20x +0\.400 +n\/a$/m);
    expect(text).toMatch(/Java: SessionDataSet iterator +0\.50 +0\.50 +1\.00x +- +n\/a$/m);
    expect(text).toContain(
      "The Java reader's CPU (0.030 s a read) is not compared: the JVM's CPU clock counts 10 ms steps, and a figure " +
        'of fewer than ten is off by a tenth or more; read a larger result.',
    );
  });

  it("bounds no Java read by a client CPU its clock could not measure; ours still against Java's measured rate", () => {
    const passes = smallResult(0.6);
    const text = summary(options, passes, 2);
    // 2 cores / (0.6 + 0.4 s per M values) = 2 M values/s, 4x Java's measured 0.5
    expect(text).toMatch(/ours: rows \(for await\) .* n\/a +0\.600 +2\.00 +4\.00x$/m);
    expect(text).toMatch(/Java: SessionDataSet iterator +0\.50 +0\.50 +1\.00x +- +n\/a +0\.600 +- +n\/a$/m);
  });

  it('gives no bound where the clock saw no CPU (a read under a clock tick)', () => {
    const passes: Passes = {
      rows: [pass(8, 0, 0)],
      rowBatches: [pass(8.5, 0.035, 0)],
      columns: [pass(7, 0.05, 0)],
      batches: [pass(9, 0.02, 0)],
      java: [pass(6, 0.12, 0)],
    };
    const text = summary(options, passes, 2);
    expect(text).toMatch(/ours: rows \(for await\) .* 0\.000 +- +n\/a$/m);
    expect(text).toMatch(/ours: columns \(toColumnar\) .* 0\.000 +40\.00 +6\.67x$/m);
    expect(text).toContain("The server's processes used no CPU the clock could see (under a tick a read).");
    expect(text).not.toMatch(/Infinity|NaN/);
  });
});

describe('read-compare options', () => {
  it('warms each reader up on 5 M values before timing it, in one read of a big result, at most 30 of a small one', () => {
    expect(warmUpReads(10_000_000)).toBe(1); // the java-anchor data
    expect(warmUpReads(360_000)).toBe(14);
    expect(warmUpReads(1)).toBe(30);
  });

  it('times each of our readers as the Java reader is timed: the last of a run of its own reads of a small result', async () => {
    const order: string[] = [];
    const readers = (points: number) => {
      const reader = (key: string) => () => {
        order.push(key);
        return Promise.resolve({ ...pass(1, 0.1), points });
      };
      const read = { rows: reader('r'), rowBatches: reader('R'), batches: reader('b'), columns: reader('c') };
      return { javaReads: 2, read: { ...read, java: reader('J') } };
    };
    const quiet = () => undefined;
    const small = await readRounds({ rounds: 2 }, readers(2_500_000), quiet); // 2 reads warm a reader up
    expect(order.join(' ')).toBe('r r R R b b c c r r R R b b c c J r r r R R b b c c J');
    expect(small.rows).toHaveLength(2);
    order.length = 0;
    await readRounds({ rounds: 2 }, readers(10_000_000), quiet); // one read warms: none more before a timed one
    expect(order.join(' ')).toBe('r R b c r R b c J r r R b c J');
  });

  it('takes --warmup-reads as the reads that warm each reader up, whatever the result (the Java child one more)', async () => {
    const order: string[] = [];
    const reader = (key: string) => () => {
      order.push(key);
      return Promise.resolve({ ...pass(1, 0.1), points: 1 }); // a tiny result: 30 reads by default
    };
    const read = { rows: reader('r'), rowBatches: reader('R'), batches: reader('b'), columns: reader('c') };
    const readers = { javaReads: 0, read: { ...read, java: reader('J') } };
    await readRounds({ rounds: 1, warmupReads: 1 }, readers, () => undefined);
    expect(order.join(' ')).toBe('r R b c r R b c J');
    expect(readers.javaReads).toBe(2); // one untimed, one timed, in its JVM
    expect(parseOptions(['--warmup-reads', '3']).warmupReads).toBe(3);
    expect(parseOptions([]).warmupReads).toBeUndefined(); // enough reads for 5 M values, 1 to 30
    expect(() => parseOptions(['--warmup-reads', '0'])).toThrow('--warmup-reads needs an integer in [1, 1000], got 0');
  });

  it('refuses an --out that is a directory before reading (the file was written, and failed, after every round)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'read-compare-'));
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      // no server at port 1: the check comes before the session opens
      expect(await readCompareCommand(['--port', '1', '--out', dir])).toBe(2);
      expect(errors.mock.calls[0][0]).toBe(
        `iotdb-bench read-compare: --out: ${dir} is a directory, and read-compare's --out names a file: --out ${join(dir, 'read-compare.json')}`,
      );
    } finally {
      errors.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes --tls and --rpc-compression as switches between the options with values', () => {
    const o = parseOptions([
      '--rpc-compression',
      '--rounds',
      '2',
      '--tls',
      '--java-trust-store',
      't.jks',
      '--tls-ca',
      'ca.pem',
    ]);
    expect(o).toMatchObject({ rpcCompression: true, rounds: 2, tls: true, javaTrustStore: 't.jks', tlsCa: 'ca.pem' });
    expect(parseOptions([])).toMatchObject({ tls: false, rpcCompression: false });
  });

  it("--query-timeout-ms as the main command takes it: 0 for no limit, at most a timer's 2147483647", () => {
    expect(parseOptions(['--query-timeout-ms', '0']).queryTimeoutMs).toBe(0);
    expect(parseOptions([]).queryTimeoutMs).toBeUndefined();
    expect(() => parseOptions(['--query-timeout-ms', '3000000000'])).toThrow(
      '--query-timeout-ms needs an integer in [0, 2147483647], got 3000000000',
    );
  });

  it('--fetch-size within its 32-bit field, refused as the other flags are (not by the client once connected)', () => {
    expect(parseOptions(['--fetch-size', '2147483647']).fetchSize).toBe(2147483647);
    expect(() => parseOptions(['--fetch-size', '10000000000'])).toThrow(
      '--fetch-size needs an integer in [1, 2147483647], got 10000000000',
    );
  });

  it("reads the bench's own data by default: root.bench's devices, or with --database the table model's table", () => {
    expect(parseOptions([]).sql).toBe('SELECT * FROM root.bench.** ALIGN BY DEVICE');
    // a tree statement in a table session failed at once ([700] mismatched input '*')
    expect(parseOptions(['--database', 'bench']).sql).toBe('SELECT * FROM t');
    expect(parseOptions(['--sql', 'SELECT s0 FROM t', '--database', 'bench']).sql).toBe('SELECT s0 FROM t');
    expect(parseOptions(['--database', 'bench', '--sql', 'SELECT s0 FROM t']).sql).toBe('SELECT s0 FROM t');
    expect(() => parseOptions(['--sql', ' '])).toThrow('--sql needs a statement');
  });

  it('needs a trust store for the Java reader over TLS, and --tls for what to trust', () => {
    expect(() => parseOptions(['--tls'])).toThrow('--tls needs --java-trust-store');
    expect(() => parseOptions(['--tls-ca', 'ca.pem'])).toThrow('they need --tls');
    expect(() => parseOptions(['--rounds'])).toThrow('--rounds needs a value');
  });
});
