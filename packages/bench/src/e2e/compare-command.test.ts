import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { compareCommand, readRuns } from './compare-command.js';

const dir = mkdtempSync(join(tmpdir(), 'bench-read-runs-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('readRuns: a results.json for compare and merge', () => {
  it('reads the runs of a results.json', () => {
    const path = file('ok.json', JSON.stringify([{ label: 'a', config: {} }]));
    expect(readRuns(path).map((r) => r.label)).toEqual(['a']);
  });

  it('names the file and what is wrong with it', () => {
    expect(() => readRuns(join(dir, 'none.json'))).toThrow(/none\.json: cannot read it \(ENOENT\)$/);
    expect(() => readRuns(file('results.csv', 'label,model\na,tree\n'))).toThrow(/results\.csv: not JSON \(/);
    expect(() => readRuns(file('obj.json', '{"label": "a"}'))).toThrow(/obj\.json: not a results\.json/);
    expect(() => readRuns(file('nums.json', '[1, 2]'))).toThrow(/nums\.json: not a results\.json/);
  });
});

describe('compareCommand', () => {
  it('names the runs of each file when none pairs by label', () => {
    const a = file('a.json', JSON.stringify([{ label: 'tree-insertTablet' }, { label: 'tree-insertRecords' }]));
    const b = file('b.json', JSON.stringify([{ label: 'count-all' }, { label: 'query 2' }]));
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(compareCommand([a, b])).toBe(2);
      expect(error).toHaveBeenCalledWith(
        'iotdb-bench compare: no run of A has a run of the same label in B ' +
          '(A: tree-insertTablet, tree-insertRecords; B: count-all, query 2)',
      );
    } finally {
      error.mockRestore();
    }
  });
});
