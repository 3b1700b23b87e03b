import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readConfigFile } from './config-file.js';
import { ConfigError } from './errors.js';

const dir = mkdtempSync(join(tmpdir(), 'bench-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function failure(path: string): ConfigError {
  try {
    readConfigFile(path);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('no error');
}

describe('config files', () => {
  it('JSON: keys are field names, values JSON values, null is "not set"', () => {
    const path = file(
      'a.json',
      JSON.stringify({ workers: 3, queries: ['raw'], typeProportions: { FLOAT: 1 }, out: null, totalPoints: '1000' }),
    );
    expect(readConfigFile(path)).toEqual([
      { key: 'workers', raw: 3, source: { kind: 'file', path, key: 'workers', line: undefined } },
      { key: 'queries', raw: ['raw'], source: { kind: 'file', path, key: 'queries', line: undefined } },
      {
        key: 'typeProportions',
        raw: { FLOAT: 1 },
        source: { kind: 'file', path, key: 'typeProportions', line: undefined },
      },
      { key: 'totalPoints', raw: '1000', source: { kind: 'file', path, key: 'totalPoints', line: undefined } },
    ]);
  });

  it('YAML (.yaml and .yml) with lines', () => {
    const path = file('a.yml', '# x\nsensors: 7\nmodel: aligned\n');
    expect(readConfigFile(path)).toEqual([
      { key: 'sensors', raw: '7', source: { kind: 'file', path, key: 'sensors', line: 2 } },
      { key: 'model', raw: 'aligned', source: { kind: 'file', path, key: 'model', line: 3 } },
    ]);
  });

  it('an unknown key is an error naming it (and a near miss)', () => {
    const e = failure(file('b.yaml', 'workers: 1\nbatch_size: 3\n'));
    expect(e.knob).toBe('batch_size');
    expect(e.message).toMatch(/b\.yaml:2: unknown key "batch_size" \(did you mean batchSize\?\)/);
    const j = failure(file('b.json', '{"threads": 2}'));
    expect(j.knob).toBe('threads');
    expect(j.message).toMatch(/b\.json: unknown key "threads"/);
  });

  it('bad JSON, a JSON non-object, another extension, a missing file', () => {
    expect(failure(file('c.json', '{"workers": ')).message).toMatch(/c\.json: invalid JSON/);
    expect(failure(file('d.json', '[1]')).message).toMatch(/d\.json: needs a JSON object/);
    expect(failure(file('e.toml', 'workers = 1')).message).toMatch(/needs a \.json, \.yaml or \.yml file/);
    expect(failure(join(dir, 'missing.json')).message).toMatch(/--config: cannot read .*missing\.json/);
  });
});
