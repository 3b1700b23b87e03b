import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { sampleQueriesAlone, sampleRun } from '../report/test-fixture.js';
import { compareCommand, readRuns } from './compare-command.js';

const dir = mkdtempSync(join(tmpdir(), 'bench-read-runs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('readRuns: a results.json for compare and merge', () => {
  it('reads the runs of a results.json', () => {
    const path = file('ok.json', JSON.stringify([sampleRun('a')]));
    expect(readRuns(path).map((r) => r.label)).toEqual(['a']);
  });

  it('names the file and what is wrong with it', () => {
    expect(() => readRuns(join(dir, 'none.json'))).toThrow(/none\.json: cannot read it \(ENOENT\)$/);
    expect(() => readRuns(file('results.csv', 'label,model\na,tree\n'))).toThrow(/results\.csv: not JSON \(/);
    expect(() => readRuns(file('obj.json', '{"label": "a"}'))).toThrow(/obj\.json: not a results\.json/);
    expect(() => readRuns(file('nums.json', '[1, 2]'))).toThrow(/nums\.json: run 1: the run needs an object/);
  });

  it('refuses a run without the figures compare and merge read, naming the run and the field', () => {
    const { throughput: _, ...cut } = sampleRun('tree-insertTablet');
    expect(() => readRuns(file('cut.json', JSON.stringify([sampleRun('a'), cut])))).toThrow(
      /cut\.json: run 2 \("tree-insertTablet"\): throughput needs \[seconds, points\/s\] pairs \(not a results\.json/,
    );
    const edited = sampleRun('x');
    (edited.latency.insertTablet as unknown as Record<string, unknown>).p99 = '12 ms';
    expect(() => readRuns(file('edited.json', JSON.stringify([edited])))).toThrow(
      /edited\.json: run 1 \("x"\): latency\.insertTablet\.p99 needs a number/,
    );
    // a figure not measured (NaN, written as null) is read as NaN
    const java = { ...sampleRun('java'), peakRssMb: NaN };
    expect(readRuns(file('java.json', JSON.stringify([java])))[0].peakRssMb).toBeNaN();
    // the server's CPU, when a run measured it: its processes, and its seconds or why they were not read
    const measured = { ...sampleRun('m'), serverCpu: { pids: [12], seconds: 1.5 } };
    expect(readRuns(file('server.json', JSON.stringify([measured])))[0].serverCpu).toEqual(measured.serverCpu);
    const bad = { ...sampleRun('m'), serverCpu: { pids: [12], seconds: '1.5 s' } };
    expect(() => readRuns(file('server-bad.json', JSON.stringify([bad])))).toThrow(
      /server-bad\.json: run 1 \("m"\): serverCpu needs \{ pids, seconds \} or \{ pids, error \}/,
    );
    const cores = { ...sampleRun('c'), serverCoresOverTime: [[1, 'busy']] };
    expect(() => readRuns(file('cores.json', JSON.stringify([cores])))).toThrow(
      /cores\.json: run 1 \("c"\): serverCoresOverTime needs \[seconds, cores\] pairs/,
    );
    const signal = { ...sampleRun('s'), stopped: 'interrupted', interruptedBy: 'SIGKILL' };
    expect(() => readRuns(file('signal.json', JSON.stringify([signal])))).toThrow(
      /signal\.json: run 1 \("s"\): interruptedBy needs SIGINT or SIGTERM/,
    );
    const minimal = JSON.stringify([{ label: 'x' }]);
    expect(() => readRuns(file('minimal.json', minimal))).toThrow(
      /minimal\.json: run 1 \("x"\): startedAt needs a string/,
    );
  });
});

describe('compareCommand', () => {
  it('names the runs of each file when none pairs by label', () => {
    const a = file('a.json', JSON.stringify([sampleRun('tree-insertTablet'), sampleRun('tree-insertRecords')]));
    const b = file('b.json', JSON.stringify([sampleRun('count, all'), sampleRun('query 2')]));
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(compareCommand([a, b])).toBe(2);
      expect(error).toHaveBeenCalledWith(
        'iotdb-bench compare: no run of A has a run of the same label in B ' +
          '(A: "tree-insertTablet", "tree-insertRecords"; B: "count, all", "query 2"). ' + // a label may hold a comma
          "A run's label is its workload's (model-method, -mixed with queries) or its query file statement's: compare " +
          'the same workload run on two servers, settings or builds; methods side by side are one run of --compare METHOD,...',
      );
    } finally {
      error.mockRestore();
    }
  });

  it('prints the figures of one run alone under its side, and does not count them for --fail-on-regression', () => {
    const writes = file('writes.json', JSON.stringify([sampleRun('x')]));
    const reads = file('reads.json', JSON.stringify([sampleQueriesAlone('x')]));
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      expect(compareCommand([writes, reads, '--fail-on-regression'])).toBe(0);
      const text = log.mock.calls.map(([line]) => String(line)).join('\n');
      expect(text).toMatch(/^points\/s\s+1,000,000\s+-\s+-\s+A only$/m);
      expect(text).toMatch(/^TIME_RANGE p50 ms\s+-\s+[\d.]+\s+-\s+B only$/m);
      expect(text).toMatch(/^no figure worse beyond noise$/m);
    } finally {
      log.mockRestore();
    }
  });

  it('names the runs of either file that no run of the other pairs with, after the tables', () => {
    const a = file('a3.json', JSON.stringify([sampleRun('x'), sampleRun('only in A')]));
    const b = file('b3.json', JSON.stringify([sampleRun('x#1'), sampleRun('x#2'), sampleRun('y'), sampleRun('z')]));
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      expect(compareCommand([a, b])).toBe(0);
      expect(log).toHaveBeenLastCalledWith(
        'not compared, no run of the same label in the other file: A "only in A"; B "y", "z"',
      );
      log.mockClear();
      expect(compareCommand([a, a])).toBe(0);
      expect(log.mock.calls.some(([line]) => String(line).startsWith('not compared'))).toBe(false);
    } finally {
      log.mockRestore();
    }
  });

  it('with --fail-on-regression, exits 1 naming each figure that got worse beyond noise (and 0 when none did)', () => {
    const steady = (pointsPerS: number) =>
      sampleRun(
        'x',
        { throughput: Array.from({ length: 12 }, (_, i): [number, number] => [i + 1, pointsPerS]) },
        pointsPerS,
      );
    const base = file('base.json', JSON.stringify([steady(2e6)]));
    const slower = file('slower.json', JSON.stringify([steady(1e6)]));
    const faster = file('faster.json', JSON.stringify([steady(4e6)]));
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      expect(compareCommand([base, slower])).toBe(0); // without the flag: a report, not a verdict
      expect(compareCommand([base, slower, '--fail-on-regression'])).toBe(1);
      expect(log).toHaveBeenLastCalledWith('regressions beyond noise: x points/s 0.500x');
      expect(compareCommand(['--fail-on-regression', base, faster])).toBe(0);
    } finally {
      log.mockRestore();
    }
  });
});
