import { describe, expect, it } from 'vitest';
import type { LatencySummary, RunResult } from '../types.js';
import { sweepText } from './sweep-table.js';
import { sampleRun, sampleStatement } from './test-fixture.js';

/** A run of a sweep at `rate`: 1000 operations over 5 s (200 started a second), its p99s as given. */
function atRate(label: string, rate: number, p99s: Record<string, number>, over: Partial<RunResult> = {}): RunResult {
  const base = sampleRun(label);
  const row = (p99: number): LatencySummary => ({ ...base.latency.insertTablet, p99 });
  const latency: Record<string, LatencySummary> = {};
  for (const [kind, p99] of Object.entries(p99s)) {
    latency[kind] = row(p99);
    if (kind !== 'start lag') latency[`uncorrected ${kind}`] = row(p99 / 2);
  }
  latency['TIME_RANGE after the writes'] = row(7); // not on the schedule: --queries after the run
  return sampleRun(`${label}@${rate}/s`, { config: { ...base.config, targetRate: rate }, latency, ...over });
}

describe('sweepText', () => {
  it("gives each swept run's p99s by rate, the rate achieved and its verdict, the operations on the schedule only", () => {
    const runs = [
      atRate('tree-tablet-mixed', 100, { insertTablet: 3.5, PRECISE_POINT: 2.25, 'start lag': 0.07 }),
      atRate('tree-tablet-mixed', 200, { insertTablet: 4.5, PRECISE_POINT: 3.25, 'start lag': 0.09 }),
      atRate('tree-tablet-mixed', 400, { insertTablet: 812, PRECISE_POINT: 790, 'start lag': 780 }),
    ];
    const text = sweepText(runs).join('\n');
    expect(text).toContain('sweep tree-tablet-mixed: p99 ms from the intended start, by target rate (operations/s)');
    const line = (name: string) =>
      text
        .split('\n')
        .find((l) => l.trimStart().startsWith(name))!
        .trim()
        .split(/\s{2,}/);
    expect(line('target')).toEqual(['target', '100', '200', '400']);
    // the fixture starts 200 a second at every rate: within 10 % of 100 and 200 or over, short of 400
    expect(line('achieved')).toEqual(['achieved', '200.0', '200.0', '200.0']);
    expect(line('open loop')).toEqual(['open loop', 'met', 'met', 'NOT met']);
    expect(line('start lag p99')).toEqual(['start lag p99', '0.070', '0.090', '780.0']);
    expect(line('insertTablet')).toEqual(['insertTablet', '3.500', '4.500', '812.0']);
    expect(line('PRECISE_POINT')).toEqual(['PRECISE_POINT', '2.250', '3.250', '790.0']);
    expect(text).not.toContain('after the writes');
    expect(text).not.toContain('uncorrected');
    expect(text).not.toContain('failed ops');
  });

  it("gives the server's cores busy at each rate when the runs measured its CPU (--server-pid): where it saturates", () => {
    // 5 s runs: 1, 5 and 9.5 s of the server's CPU
    const runs = [1, 5, 9.5].map((seconds, i) =>
      atRate('tree-mixed', 100 * 2 ** i, { insertTablet: 3 }, { serverCpu: { pids: [7], seconds } }),
    );
    expect(sweepText(runs).join('\n')).toMatch(/^ *server cores +0\.20 +1\.00 +1\.90$/m);
    const unmeasured = [atRate('a', 100, { insertTablet: 3 }), atRate('a', 200, { insertTablet: 3 })];
    expect(sweepText(unmeasured).join('\n')).not.toContain('server cores');
  });

  it("lists the operations in the latency matrix's order (writes, then the query types), whatever order the run kept", () => {
    const p99s = { GROUP_BY: 5, insertTablet: 3, 'start lag': 1, TIME_RANGE: 4, PRECISE_POINT: 2 };
    const text = sweepText([atRate('tree-tablet-mixed', 100, p99s), atRate('tree-tablet-mixed', 200, p99s)]);
    const names = text[1]
      .split('\n')
      .slice(2)
      .map((l) => l.trim().split(/\s{2,}/)[0]);
    expect(names).toEqual([
      'achieved',
      'open loop',
      'start lag p99',
      'insertTablet',
      'PRECISE_POINT',
      'TIME_RANGE',
      'GROUP_BY',
    ]);
  });

  it("keeps each side's and each repeat's runs apart, and counts failures where a run had any", () => {
    const runs = [
      atRate('tree-queries', 50, { TIME_RANGE: 2 }),
      atRate('java', 50, { TIME_RANGE: 3 }),
      atRate('tree-queries', 80, { TIME_RANGE: 4 }, { failedOps: 12 }),
      atRate('java', 80, { TIME_RANGE: 5 }),
    ];
    runs.push({ ...runs[0], label: 'tree-queries@50/s#2' });
    const tables = sweepText(runs);
    expect(tables.filter((l) => l.startsWith('sweep '))).toEqual([
      'sweep tree-queries: p99 ms from the intended start, by target rate (operations/s)',
      'sweep java: p99 ms from the intended start, by target rate (operations/s)',
      'sweep tree-queries#2: p99 ms from the intended start, by target rate (operations/s)',
    ]);
    expect(tables[1]).toMatch(/TIME_RANGE +2\.000 +4\.000/);
    expect(tables[1]).toMatch(/failed ops +0 +12/);
    expect(tables[3]).toMatch(/TIME_RANGE +3\.000 +5\.000/);
    expect(tables[3]).not.toContain('failed ops');
  });

  it("names a query-file statement's run by its label, its own row its p99", () => {
    const base = sampleStatement('point', 10);
    const own = base.latency.point;
    const statement = (rate: number, p99: number) =>
      sampleStatement('point', 10, {
        label: `point@${rate}/s`,
        config: { ...base.config, targetRate: rate },
        latency: { point: { ...own, p99 }, 'uncorrected point': own },
      });
    const text = sweepText([statement(10, 1.5), statement(20, 2.5)]).join('\n');
    expect(text).toContain('sweep point:');
    expect(text).toMatch(/point +1\.500 +2\.500/);
  });
});
