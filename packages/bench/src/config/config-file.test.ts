import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readConfigFile } from './config-file.js';
import { ConfigError } from './errors.js';
import { resolveConfig } from './resolve.js';

const dir = mkdtempSync(join(tmpdir(), 'bench-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** The ConfigError that reading the file throws (or, with `resolve`, resolving a run with it). */
function failure(path: string, resolve = false): ConfigError {
  try {
    if (resolve) resolveConfig(['--config', path], {});
    else readConfigFile(path);
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

  it('YAML (.yaml and .yml): scalars stay text for the knobs, each entry knows its line, null is "not set"', () => {
    const path = file('a.yml', '# x\nsensors: 7\nmodel: aligned\nout: null\nhost: ~\ndatabase: "null"\n');
    expect(readConfigFile(path)).toEqual([
      { key: 'sensors', raw: '7', source: { kind: 'file', path, key: 'sensors', line: 2 } },
      { key: 'model', raw: 'aligned', source: { kind: 'file', path, key: 'model', line: 3 } },
      { key: 'database', raw: 'null', source: { kind: 'file', path, key: 'database', line: 6 } },
    ]);
  });

  const raws = (path: string) => Object.fromEntries(readConfigFile(path).map((s) => [s.key, s.raw]));

  it('YAML comments, quotes, flow and block lists, nested maps, multi-line strings', () => {
    const text = [
      '# a benchmark',
      'workers: 4   # four',
      'host: "db #1"',
      'database: |',
      '  two',
      '  lines',
      'typeProportions: 1:1:1:1:1:1',
      'queries: [raw, "last"]',
      'nodeUrls:',
      '  - 10.0.0.1:6667   # first',
      '  - 10.0.0.2:6667',
      'compare: []',
      'out: >-',
      '  /tmp/bench',
      "  'results'",
    ].join('\n');
    expect(raws(file('many.yaml', text))).toEqual({
      workers: '4',
      host: 'db #1',
      database: 'two\nlines\n',
      typeProportions: '1:1:1:1:1:1',
      queries: ['raw', 'last'],
      nodeUrls: ['10.0.0.1:6667', '10.0.0.2:6667'],
      compare: [],
      out: "/tmp/bench 'results'",
    });
    const nested = file('nested.yaml', 'typeProportions:\n  FLOAT: 3\n  INT64: 1\n');
    expect(raws(nested)).toEqual({ typeProportions: { FLOAT: '3', INT64: '1' } });
  });

  it('YAML anchors, aliases and merge keys', () => {
    const text = [
      'typeProportions: &mix {FLOAT: 2, DOUBLE: 1}',
      'workers: &n 4',
      'clients: *n',
      '<<: {devices: 8, sensors: 5}',
    ].join('\n');
    expect(raws(file('anchors.yaml', text))).toEqual({
      typeProportions: { FLOAT: '2', DOUBLE: '1' },
      workers: '4',
      clients: '4',
      devices: '8',
      sensors: '5',
    });
    const merged = readConfigFile(file('merged.yaml', 'loop: 2\n<<: {devices: 8}\n'));
    expect(merged.find((s) => s.key === 'devices')?.source).toMatchObject({ line: 2 });
  });

  it('the knobs parse what YAML gives them', () => {
    const path = file(
      'knobs.yaml',
      'workers: 3\ntypeProportions:\n  FLOAT: 1\nqueries:\n  - raw\n  - GROUP_BY\nverify: yes\noperationProportion:\n  INGESTION: 2\n  AGG_VALUE: 1\n',
    );
    const c = resolveConfig(['--config', path], {}).config;
    expect(c).toMatchObject({ workers: 3, queries: ['TIME_RANGE', 'GROUP_BY'], verify: true });
    expect(c.operationProportion).toMatchObject({ INGESTION: 2, AGG_VALUE: 1, TIME_RANGE: 0 });
    expect(c.typeProportions.FLOAT).toBe(1);
    expect(failure(file('bad.yaml', 'sensors: 4\nworkers: many\n'), true).message).toMatch(
      /bad\.yaml:2 key "workers": needs an integer >= 1/,
    );
  });

  it('a YAML error names the file and the line', () => {
    const cases: [string, RegExp][] = [
      ['workers: 1\nqueries: [raw\nloop: 2\n', /y\.yaml:3: invalid YAML: Flow sequence .* must .* end with a \]/],
      ['loop: 2\nworkers: 1\n  sensors: 3\n', /y\.yaml:2: invalid YAML: Nested mappings are not allowed/],
      ['workers: 1\nloop: 2\nworkers: 3\n', /y\.yaml:3: invalid YAML: Map keys must be unique/],
      ['workers: 1\nclients: *n\n', /y\.yaml:2: alias \*n has no anchor before it/],
      ['workers: 1\n---\nloop: 2\n', /y\.yaml:2: invalid YAML: Source contains multiple documents/],
      ['# knobs\n- workers\n', /y\.yaml:2: needs a map of knobs/],
      ['workers: 1\nhost: !!binary aGk=\n', /y\.yaml:2: host: a YAML value the knobs do not take/],
    ];
    for (const [text, message] of cases) expect(failure(file('y.yaml', text)).message, text).toMatch(message);
    expect(readConfigFile(file('empty.yaml', '# nothing set\n'))).toEqual([]);
  });

  it('an unknown key is an error naming it (and a near miss)', () => {
    const e = failure(file('b.yaml', 'workers: 1\nbatch_size: 3\n'));
    expect(e.knob).toBe('batch_size');
    expect(e.message).toMatch(/b\.yaml:2: unknown key "batch_size" \(did you mean batchSize\?\)/);
    expect(failure(file('c.yaml', 'devcies: 3\n')).message).toMatch(/unknown key "devcies" \(did you mean devices\?\)/);
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

  it("takes a file or directory it names relative to its own directory, as a flag's is to the working one", () => {
    mkdirSync(join(dir, 'site'), { recursive: true });
    const path = file(
      'site/bench.yaml',
      'queryFile: q.yaml\nout: ../results\ntlsCa: certs/ca.pem\njavaTrustStore: /etc/trust.jks\n',
    );
    const byKey = Object.fromEntries(readConfigFile(path).map((s) => [s.key, s.raw]));
    expect(byKey).toEqual({
      queryFile: join(dir, 'site', 'q.yaml'),
      out: join(dir, 'results'),
      tlsCa: join(dir, 'site', 'certs', 'ca.pem'),
      javaTrustStore: '/etc/trust.jks',
    });
    // the same knobs from the JSON form; a flag's path is as given (the shell's working directory)
    const json = file('site/bench.json', JSON.stringify({ queryFile: 'q.yaml' }));
    expect(readConfigFile(json)[0].raw).toBe(join(dir, 'site', 'q.yaml'));
    const run = file('site/run.yaml', 'queryFile: q.yaml\nout: results\n');
    const flagged = resolveConfig(['--config', run, '--out', 'here'], {}).config;
    expect([flagged.out, flagged.queryFile]).toEqual(['here', join(dir, 'site', 'q.yaml')]);
  });
});
