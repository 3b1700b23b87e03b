import { afterEach, describe, expect, it, vi } from 'vitest';
import { sampleRun, sampleStatement } from '../report/test-fixture.js';
import type { RunResult } from '../types.js';
import { javaServerCpuNote, printRatios, printStatementRatios } from './java-side.js';

describe('--query-file --vs-java', () => {
  afterEach(() => vi.restoreAllMocks());
  const printed = (fn: () => void): string[] => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    fn();
    return log.mock.calls.map((c) => String(c[0]));
  };

  it("prints each statement's ratios ours/Java, beside the run of the same place, and the rows when they differ", () => {
    const ours = [sampleStatement('a', 100, { opsPerS: 4 }), sampleStatement('b', 50)];
    const java = [sampleStatement('java a', 100, { opsPerS: 2 }), sampleStatement('java b', 40)];
    const lines = printed(() => printStatementRatios(ours, java));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^ours\/Java a: reads\/s 2\.00x, latency p50 1\.00x, p99 1\.00x, client CPU per read [\d.]+x$/,
    );
    expect(lines[1]).toMatch(/^ours\/Java b: .* \(rows read differ: ours 50, Java 40\)$/);
  });

  it("compares no client CPU the JVM's clock could not measure: under ten of its 10 ms steps", () => {
    const ours = [sampleStatement('a', 100)];
    const java = [{ ...sampleStatement('java a', 100), clientCpuS: 0.03 }];
    const lines = printed(() => printStatementRatios(ours, java));
    expect(lines[0]).toMatch(/, client CPU per read n\/a \(the Java client's 0\.03 s: its clock counts 10 ms steps\)$/);
  });

  it('says so when both read the same rows but not the same values', () => {
    const withPoints = (label: string, points: number) => {
      const r = sampleStatement(label, 100);
      return { ...r, queries: { [label]: { ...r.queries![label], points } } };
    };
    const lines = printed(() => printStatementRatios([withPoints('a', 300)], [withPoints('java a', 290)]));
    expect(lines[0]).toMatch(/\(points read differ: ours 300, Java 290\)$/);
    vi.restoreAllMocks();
    const same = printed(() => printStatementRatios([withPoints('a', 300)], [withPoints('java a', 300)]));
    expect(same).toHaveLength(1);
    expect(same[0]).not.toContain('differ');
  });

  it('gives how late each side started its paced reads, the times beside their ratio', () => {
    const lagged = (label: string, p50: number, p99: number) => {
      const r = sampleStatement(label, 100);
      return { ...r, latency: { ...r.latency, 'start lag': { ...r.latency[label], p50, p99 } } };
    };
    const lines = printed(() => printStatementRatios([lagged('a', 0.4, 3)], [lagged('java a', 0.16, 3.75)]));
    expect(lines[0]).toMatch(
      /, start lag p50 2\.50x \(0\.400 vs 0\.160 ms\), p99 0\.80x \(3\.000 vs 3\.750 ms\), client CPU/,
    );
    vi.restoreAllMocks();
    const unpaced = printed(() => printStatementRatios([lagged('a', 0.4, 3)], [sampleStatement('java a', 100)]));
    expect(unpaced[0]).not.toContain('start lag');
  });

  it("sets each statement's typical and worst interval p99 beside the Java client's, in a line of its own", () => {
    const overTime = (p99s: number[]): NonNullable<RunResult['latencyOverTime']> =>
      p99s.map((p99, i) => [i + 1, 10, 1, p99, p99]);
    const ours = [sampleStatement('a', 100, { latencyOverTime: overTime([2, 2.2, 6, 2.1]) }), sampleStatement('b', 5)];
    const java = [
      sampleStatement('java a', 100, { latencyOverTime: overTime([3, 9, 2.8, 3.2]) }),
      sampleStatement('java b', 5),
    ];
    const lines = printed(() => printStatementRatios(ours, java));
    expect(lines.filter((l) => l.includes('over time'))).toEqual([
      'ours/Java a p99 over time: typical 0.69x (2.150 vs 3.100 ms), worst 0.67x (6.000 vs 9.000 ms)',
    ]); // b: too few intervals to tell
  });

  it('says nothing of a statement one side never read, nor of rows when a side stopped early or failed reads', () => {
    const ours = [sampleStatement('a', 100), sampleStatement('b', 50), sampleStatement('c', 10)];
    const java = [
      sampleStatement('java a', 0, { okOps: 0 }),
      sampleStatement('java b', 40, { stopped: 'test-max-time' }),
      sampleStatement('java c', 5, { failedOps: 1 }),
    ];
    const lines = printed(() => printStatementRatios(ours, java));
    expect(lines.map((l) => l.split(':')[0])).toEqual(['ours/Java b', 'ours/Java c']);
    expect(lines.join('\n')).not.toContain('differ');
  });
});

describe('--vs-java: p99 over time', () => {
  afterEach(() => vi.restoreAllMocks());

  it("sets each side's typical and worst interval's p99 beside the other's, when both kept three intervals or more", () => {
    const overTime = (p99s: number[]): NonNullable<RunResult['latencyOverTime']> =>
      p99s.map((p99, i) => [i + 1, 100, 1, p99, p99]);
    const ours = sampleRun('tree-insertTablet', { latencyOverTime: overTime([4, 4.2, 9.5, 4.1]) });
    const java = sampleRun('java', { latencyOverTime: overTime([5, 20.5, 4.8, 5.2]) });
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    printRatios(ours, java);
    printRatios(ours, { ...java, latencyOverTime: overTime([5, 6]) }); // too few to tell: no line
    const lines = log.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('over time'));
    expect(lines).toEqual([
      'ours/Java p99 over time: typical 0.81x (4.150 vs 5.100 ms), worst 0.46x (9.500 vs 20.50 ms)',
    ]);
  });
});

describe("--vs-java: the server's CPU", () => {
  afterEach(() => vi.restoreAllMocks());

  it("sets the server's CPU per point under ours beside that under the Java client, when both measured it", () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const ours = sampleRun('tree-insertTablet', { serverCpu: { pids: [12], seconds: 1 } });
    const java = sampleRun('java', { serverCpu: { pids: [12], seconds: 2 } });
    printRatios(ours, java);
    printRatios(ours, sampleRun('java')); // the Java run without the figure: nothing said of it
    const lines = log.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('server CPU'));
    expect(lines).toEqual(['ours/Java server CPU per point: 0.50x (0.200 vs 0.400 s per million points)']);
  });

  it("says why the server's CPU under the Java client was not measured (its report is its RESULT line alone)", () => {
    const gone = sampleRun('java', { serverCpu: { pids: [12], error: 'process 12 was gone at the end' } });
    expect(javaServerCpuNote(gone)).toBe(
      "the Java client's run: server CPU not measured: process 12 was gone at the end",
    );
    expect(javaServerCpuNote(sampleRun('java', { serverCpu: { pids: [12], seconds: 1 } }))).toBeUndefined();
    expect(javaServerCpuNote(sampleRun('java'))).toBeUndefined();
  });
});

describe('--vs-java --queries: each query type after the writes', () => {
  afterEach(() => vi.restoreAllMocks());

  it("sets its rows/s, p50 and p99 beside the Java client's, both sides keeping its latency row", () => {
    const latency = sampleRun('x').latency.insertTablet;
    const withQueries = (label: string, rowsPerS: number, p50: number, p99: number) => {
      const l = { ...latency, p50, p99 };
      const time = { ops: 10, failed: 0, rows: 5_000, rowsPerS, latency: l };
      return sampleRun(label, {
        latency: { insertTablet: latency, TIME_RANGE: l },
        queries: { TIME_RANGE: time },
      });
    };
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    printRatios(withQueries('tree-insertTablet', 20_000, 2, 6), withQueries('java', 10_000, 1, 2));
    const lines = log.mock.calls.map((c) => String(c[0])).filter((l) => l.startsWith('ours/Java TIME_RANGE'));
    expect(lines).toEqual(['ours/Java TIME_RANGE: rows/s 2.00x, p50 2.00x, p99 3.00x']);
  });
});
