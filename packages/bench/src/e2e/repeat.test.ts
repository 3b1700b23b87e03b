import { describe, expect, it } from 'vitest';
import { sampleConfig, sampleHistogram, sampleRun, sampleStatement } from '../report/test-fixture.js';
import { LatencyHistogram } from '../report/histogram.js';
import { WRITES_ONLY } from '../workload/operations.js';
import { javaFirstIn, oneOrderNote, repeatLabel, repeatSummary, type Repeat } from './repeat.js';

describe('--repeat', () => {
  it('alternates the order of the two clients, starting from the one --java-first asks for', () => {
    expect([1, 2, 3, 4].map((k) => javaFirstIn(k, false))).toEqual([false, true, false, true]);
    expect([1, 2, 3, 4].map((k) => javaFirstIn(k, true))).toEqual([true, false, true, false]);
  });

  it('says a single --vs-java run on a server given ran one order only, the first side warming it for the second', () => {
    const config = (over: Partial<ReturnType<typeof sampleConfig>>) =>
      sampleConfig({ vsJava: true, repeat: 1, ...over });
    expect(oneOrderNote(config({ warmupRounds: 0 }), true)).toBe(
      'order        one run each, ours first, on the same server: the first also warmed it for the second ' +
        '(its JIT, its caches); --repeat 2 runs both orders, --warmup-rounds warms it before each',
    );
    expect(oneOrderNote(config({ warmupRounds: 1 }), true)).toMatch(/; --repeat 2 runs both orders$/);
    expect(oneOrderNote(config({ javaFirst: true }), true)).toContain('one run each, the Java client first, on');
    expect(oneOrderNote(config({ repeat: 2 }), true)).toBeUndefined(); // both orders: the summary has them
    expect(oneOrderNote(config({ vsJava: false }), true)).toBeUndefined();
    expect(oneOrderNote(config({}), false)).toBeUndefined(); // a local server, restarted between the sides
  });

  it('labels each repeat’s runs by its number, and a single run as it was', () => {
    expect(repeatLabel(sampleRun('java'), 2, 3).label).toBe('java#2');
    expect(repeatLabel(sampleRun('java'), 1, 1).label).toBe('java');
  });

  it('prints each side as the median and range over the repeats, the ratios likewise and by order', () => {
    // ours 2, 3, 4 M points/s; Java 1 M each time; the same CPU: ours' CPU per point falls as its rate rises
    const repeat = (k: number, rate: number, javaFirst: boolean): Repeat => ({
      ours: [sampleRun('tree-insertTablet', {}, rate)],
      java: [sampleRun('java', {}, 1_000_000)],
      javaFirst,
    });
    const lines = repeatSummary([repeat(1, 2e6, false), repeat(2, 4e6, true), repeat(3, 3e6, false)]);
    expect(lines[0]).toBe('over 3 repeats, median (min-max):');
    expect(lines[1]).toMatch(/^ {2}tree-insertTablet {2}points\/s 3,000,000 \(2,000,000-4,000,000\), p50 ms [\d.]+ \(/);
    expect(lines[1]).toContain('client CPU s/Mpts 0.167 (0.125-0.250)');
    expect(lines[2]).toMatch(/^ {2}java {15}points\/s 1,000,000 \(1,000,000-1,000,000\)/);
    expect(lines[3]).toBe(
      '  ours/Java points/s: median 3.00x (2.00x-4.00x), client CPU per point: median 0.33x (0.25x-0.50x)',
    );
    expect(lines[4]).toBe('  ours/Java points/s by order: ours first 2.00x, 3.00x; Java first 4.00x');
  });

  it("compares a mix's (or a paced run's) ops/s and client CPU per operation with the Java client's, as each run does", () => {
    // ours 1,000 operations in 5 s each time, Java's in 4 s then 5 s; the same CPU, 2.5 s
    const mixed = sampleConfig({ operationProportion: { ...WRITES_ONLY, TIME_RANGE: 1 } });
    const repeat = (javaOpsPerS: number, javaFirst: boolean): Repeat => ({
      ours: [sampleRun('tree-insertTablet-mixed', { config: mixed })],
      java: [sampleRun('java', { config: mixed, opsPerS: javaOpsPerS, clientCpuS: 2 })],
      javaFirst,
    });
    const lines = repeatSummary([repeat(250, false), repeat(200, true)]);
    expect(lines).toContain(
      '  ours/Java ops/s: median 0.90x (0.80x-1.00x), client CPU per operation: median 1.25x (1.25x-1.25x)',
    );
    expect(lines).toContain('  ours/Java ops/s by order: ours first 0.80x; Java first 1.00x');
    const paced = sampleConfig({ targetRate: 200 });
    const open = repeatSummary([
      { ours: [sampleRun('a', { config: paced })], java: [sampleRun('java', { config: paced })], javaFirst: false },
    ]);
    expect(open.join('\n')).toMatch(/ours\/Java ops\/s: median 1\.00x/);
  });

  it("gives the server's CPU per point of each side and its ratio, when every repeat measured it", () => {
    // 5 M points a run: 0.5, 1.0, 1.5 s of the server's CPU under ours; 1.0 s under Java each time
    const repeat = (ours: number, javaFirst: boolean): Repeat => ({
      ours: [sampleRun('tree-insertTablet', { serverCpu: { pids: [1], seconds: ours } })],
      java: [sampleRun('java', { serverCpu: { pids: [1], seconds: 1 } })],
      javaFirst,
    });
    const lines = repeatSummary([repeat(0.5, false), repeat(1.5, true), repeat(1, false)]);
    expect(lines[1]).toMatch(/, server CPU s\/Mpts 0\.200 \(0\.100-0\.300\)$/);
    expect(lines[2]).toMatch(/, server CPU s\/Mpts 0\.200 \(0\.200-0\.200\)$/);
    expect(lines[3]).toMatch(/, server CPU per point: median 1\.00x \(0\.50x-1\.50x\)$/);
    const once = repeatSummary([repeat(1, false), { ...repeat(1, true), java: [sampleRun('java')] }]);
    expect(once.join('\n')).not.toMatch(/server CPU per point/);
  });

  it("gives an open loop's start lag p50 for each side, when every repeat recorded one", () => {
    const lagged = (label: string, p50: number) => {
      const r = sampleRun(label);
      return { ...r, latency: { ...r.latency, 'start lag': { ...r.latency.insertTablet, p50 } } };
    };
    const repeat = (ours: number, java: number, javaFirst: boolean): Repeat => ({
      ours: [lagged('tree-insertTablet', ours)],
      java: [lagged('java', java)],
      javaFirst,
    });
    const lines = repeatSummary([repeat(0.05, 0.12, false), repeat(0.07, 0.11, true)]);
    expect(lines[1]).toContain(', start lag p50 ms 0.060 (0.050-0.070), client CPU');
    expect(lines[2]).toContain(', start lag p50 ms 0.115 (0.110-0.120), client CPU');
    const closed = repeatSummary([{ ours: [sampleRun('a')], java: [sampleRun('java')], javaFirst: false }]);
    expect(closed.join('\n')).not.toContain('start lag');
  });

  it("pairs each Java run with ours' in its place (a query file's statements), the ratios named by ours' label", () => {
    const repeat = (k: number, javaFirst: boolean): Repeat => ({
      ours: [sampleStatement('a', 10, { opsPerS: 4 * k }), sampleStatement('b', 10, { opsPerS: 3 })],
      // the Java client failed on b in the second repeat: that repeat has no pair for it
      java: [
        sampleStatement('java a', 10, { opsPerS: 2 }),
        ...(k === 2 ? [] : [sampleStatement('java b', 10, { opsPerS: 2 })]),
      ],
      javaFirst,
    });
    const lines = repeatSummary([repeat(1, false), repeat(2, true)]);
    expect(lines.map((l) => l.split(/ {2}ops\/s| ops\/s/)[0].trim())).toEqual([
      'over 2 repeats, median (min-max):',
      'a',
      'b',
      'java a',
      'java b',
      'ours/Java (a)',
      'ours/Java (a)',
      'ours/Java (b)',
      'ours/Java (b)',
    ]);
    expect(lines[5]).toMatch(/^ {2}ours\/Java \(a\) ops\/s: median 3\.00x \(2\.00x-4\.00x\)/);
    expect(lines[6]).toBe('  ours/Java (a) ops/s by order: ours first 2.00x; Java first 4.00x');
    expect(lines[8]).toBe('  ours/Java (b) ops/s by order: ours first 1.50x; Java first -');
  });

  it("gives a run of queries its CPU per operation in ms, and each query type's rows/s, p50 and p99", () => {
    const summary = (centerMs: number) => LatencyHistogram.from(sampleHistogram(1000, centerMs)).summaryMs();
    const query = (rows: number, centerMs: number) => ({
      ops: 500,
      failed: 0,
      rows,
      rowsPerS: rows / 5,
      latency: summary(centerMs),
    });
    const reads = (k: number) =>
      sampleRun('tree-queries', {
        config: sampleConfig({ operationProportion: { ...WRITES_ONLY, INGESTION: 0, TIME_RANGE: 1, LATEST_POINT: 1 } }),
        points: 0,
        pointsPerS: 0,
        clientCpuS: k, // 1000 operations: k ms each
        clientCpuSPerMpts: 0,
        latency: { TIME_RANGE: summary(2 * k), LATEST_POINT: summary(k) },
        queries: { TIME_RANGE: query(100_000 * k, 2 * k), LATEST_POINT: query(500, k) },
      });
    const lines = repeatSummary([1, 3, 2].map((k) => ({ ours: [reads(k)], java: [], javaFirst: false })));
    // no write to give a p50 of: each query type's figures under the run's, their latency the median of the repeats'
    expect(lines[1]).toBe('  tree-queries  ops/s 200 (200-200), client CPU ms/op 2.000 (1.000-3.000)');
    expect(lines[2]).toMatch(
      /^ {4}TIME_RANGE {4}rows\/s 40,000 \(20,000-60,000\), p50 ms 3\.9\d \(1\.9\d-5\.9\d\), p99 ms /,
    );
    expect(lines[3]).toMatch(/^ {4}LATEST_POINT {2}rows\/s 100 \(100-100\), p50 ms 1\.9\d \(0\.9\d-2\.9\d\), p99 ms /);
    expect(lines).toHaveLength(4);
    // a mixed run: its write's p50 on its line, its query types' under it
    const mixed = (k: number) =>
      sampleRun('tree-insertTablet-mixed', {
        config: sampleConfig({ operationProportion: { ...WRITES_ONLY, TIME_RANGE: 1 } }),
        queries: { TIME_RANGE: query(1000, k) },
      });
    const mixedLines = repeatSummary([1, 2].map((k) => ({ ours: [mixed(k)], java: [], javaFirst: false })));
    expect(mixedLines[1]).toMatch(
      /^ {2}tree-insertTablet-mixed {2}points\/s 1,000,000 .*, p50 ms [\d.]+ \(.*client CPU s\/Mpts /,
    );
    expect(mixedLines[2]).toMatch(/^ {4}TIME_RANGE {2}rows\/s 200 \(200-200\), p50 ms 1\.4\d /);
    // a query type some repeats did not draw (--test-max-time ended them first): over those that did, and how many
    const cut = (k: number) => (k === 1 ? { ...mixed(k), queries: {} } : mixed(k));
    const cutLines = repeatSummary([1, 2, 3].map((k) => ({ ours: [cut(k)], java: [], javaFirst: false })));
    expect(cutLines[2]).toMatch(/^ {4}TIME_RANGE {2}rows\/s 200 \(200-200\), p50 ms 2\.\d+ .*, in 2 of 3 repeats$/);
    // a query file's statement: its own p50, its CPU per operation in ms (10 reads, 2.5 s)
    const statement = repeatSummary([{ ours: [sampleStatement('count', 10)], java: [], javaFirst: false }]);
    expect(statement[1]).toMatch(
      /^ {2}count {2}ops\/s 200 \(200-200\), p50 ms [\d.]+ \(.*\), client CPU ms\/op 250\.000 /,
    );
    expect(statement).toHaveLength(2);
  });

  it('prints ours alone without --vs-java, each of ours’ runs by its place', () => {
    const lines = repeatSummary([
      { ours: [sampleRun('a', {}, 1e6), sampleRun('b', {}, 2e6)], java: [], javaFirst: false },
      { ours: [sampleRun('a', {}, 3e6), sampleRun('b', {}, 4e6)], java: [], javaFirst: false },
    ]);
    expect(lines.map((l) => l.split(', p50')[0])).toEqual([
      'over 2 repeats, median (min-max):',
      '  a  points/s 2,000,000 (1,000,000-3,000,000)',
      '  b  points/s 3,000,000 (2,000,000-4,000,000)',
    ]);
  });

  it('lines up the figures of labels whose characters take two columns on a terminal (a Chinese query-file label)', () => {
    const lines = repeatSummary([
      { ours: [sampleRun('计数', {}, 1e6), sampleRun('count', {}, 2e6)], java: [], javaFirst: false },
      { ours: [sampleRun('计数', {}, 3e6), sampleRun('count', {}, 4e6)], java: [], javaFirst: false },
    ]);
    expect(lines.slice(1).map((l) => l.split(', p50')[0])).toEqual([
      '  计数   points/s 2,000,000 (1,000,000-3,000,000)',
      '  count  points/s 3,000,000 (2,000,000-4,000,000)',
    ]);
  });
});
