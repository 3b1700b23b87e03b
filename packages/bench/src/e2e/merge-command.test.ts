import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { sampleRun } from '../report/test-fixture.js';
import { mergeCommand } from './merge-command.js';

const dir = mkdtempSync(join(tmpdir(), 'bench-merge-command-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A machine's results.json of a sweep of 100 and 300 operations/s over its own 5 devices. */
function share(name: string, deviceOffset: number): string {
  const path = join(dir, `${name}.json`);
  const config = { ...sampleRun('x').config, deviceOffset, deviceCount: 5, sweepRates: [100, 300] };
  const atRate = (targetRate: number) =>
    sampleRun(`tree-insertTablet@${targetRate}/s`, { config: { ...config, targetRate } });
  writeFileSync(path, JSON.stringify([atRate(100), atRate(300)]));
  return path;
}

describe('iotdb-bench merge', () => {
  it("prints a merged sweep's table, a column per rate the machines ran together", () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      expect(mergeCommand([share('a', 0), share('b', 5)])).toBe(0);
      const printed = log.mock.calls.map((c) => String(c[0])).join('\n');
      expect(printed).toContain('RESULT label=tree-insertTablet@600/s');
      expect(printed).toMatch(/sweep tree-insertTablet: p99 ms .*\n *target +200 +600\n/);
    } finally {
      log.mockRestore();
    }
  });
});
