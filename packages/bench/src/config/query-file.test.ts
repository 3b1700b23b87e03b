import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from './errors.js';
import { readOnly, readQueryFile } from './query-file.js';

const dir = mkdtempSync(join(tmpdir(), 'bench-query-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const defaults = { model: 'tree' as const, database: 'bench' };

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const read = (name: string, text: string) => readQueryFile(file(name, text), defaults);
const error = (name: string, text: string): string => {
  try {
    read(name, text);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('no error');
};

describe('--query-file', () => {
  it('reads a YAML list with the defaults filled in and each entry where it is', () => {
    const entries = read(
      'q.yaml',
      [
        '# two statements',
        '- label: one device',
        '  sql: SELECT s0 FROM root.bench.d000',
        '  concurrency: 4',
        '  repetitions: 10',
        '- sql: >-',
        '    SELECT count(*)',
        '    FROM t',
        '  model: table',
      ].join('\n'),
    );
    expect(entries).toEqual([
      {
        label: 'one device',
        sql: 'SELECT s0 FROM root.bench.d000',
        concurrency: 4,
        repetitions: 10,
        model: 'tree',
        database: 'bench',
        line: 2,
      },
      {
        label: 'query 2',
        sql: 'SELECT count(*) FROM t',
        concurrency: 1,
        repetitions: 1,
        model: 'table',
        database: 'bench',
        line: 6,
      },
    ]);
  });

  it('reads JSON, as a list or under "queries", with lines too', () => {
    const json = JSON.stringify({ queries: [{ sql: 'SELECT 1' }, { sql: 'SELECT 2', database: 'db2' }] }, null, 2);
    const entries = read('q.json', json);
    expect(entries.map((e) => [e.sql, e.database, e.line])).toEqual([
      ['SELECT 1', 'bench', 3],
      ['SELECT 2', 'db2', 6],
    ]);
    expect(read('l.json', '[{"sql": "SELECT 3", "repetitions": 2}]')[0].repetitions).toBe(2);
  });

  it("follows YAML anchors, aliases and merge keys (`<<: *defaults`), an entry's own keys over merged ones", () => {
    const entries = read(
      'anchors.yaml',
      [
        'defaults: &defaults',
        '  concurrency: 4',
        '  repetitions: 10',
        'slow: &slow',
        '  concurrency: 1',
        'queries:',
        '  - &point',
        '    sql: &one SELECT s0 FROM root.bench.d000',
        '    label: point',
        '    <<: *defaults',
        '  - <<: [*slow, *defaults]',
        '    sql: *one',
        '    label: slow point',
        '  - <<: *defaults',
        '    repetitions: 2',
        '    sql: SELECT count(*) FROM t',
        '    model: table',
      ].join('\n'),
    );
    expect(
      entries.map(({ label, sql, concurrency, repetitions, model }) => [label, sql, concurrency, repetitions, model]),
    ).toEqual([
      ['point', 'SELECT s0 FROM root.bench.d000', 4, 10, 'tree'],
      // the first map of a merge list wins, as YAML's merge key says
      ['slow point', 'SELECT s0 FROM root.bench.d000', 1, 10, 'tree'],
      ['query 3', 'SELECT count(*) FROM t', 4, 2, 'table'],
    ]);
    expect(error('merge.yaml', 'x: &x 3\nqueries:\n  - sql: SELECT 1\n    <<: *x\n')).toMatch(
      /merge\.yaml:4: "<<" needs a map or a list of maps to merge/,
    );
  });

  it('reads forEach: a query whose rows each give the statement, its {column} placeholders filled', () => {
    const [e] = read('fe.yaml', '- sql: SELECT LAST s0 FROM {Device}\n  forEach: "  SHOW DEVICES root.bench.** "\n');
    expect(e).toMatchObject({ sql: 'SELECT LAST s0 FROM {Device}', forEach: 'SHOW DEVICES root.bench.**' });
    expect(read('nfe.yaml', '- sql: SELECT 1\n')[0].forEach).toBeUndefined();
    expect(error('fe2.yaml', '- sql: SELECT LAST s0 FROM {Device}\n  forEach: DELETE DATABASE root.x\n')).toMatch(
      /fe2\.yaml:2: forEach needs a query \(SHOW DEVICES \.\.\., SELECT \.\.\.\), got "DELETE DATABASE root\.x"/,
    );
    expect(error('fe3.yaml', '- sql: SELECT LAST s0 FROM root.bench.d0\n  forEach: SHOW DEVICES\n')).toMatch(
      /fe3\.yaml:2: forEach needs a \{column\} placeholder in sql:/,
    );
  });

  it('names the file and line of what is wrong', () => {
    expect(error('a.yaml', '- sql: SELECT 1\n- label: x\n')).toMatch(/a\.yaml:2: entry 2 needs "sql:"/);
    expect(error('b.yaml', '- sql: SELECT 1\n  concurency: 2\n')).toMatch(
      /b\.yaml:2: unknown key "concurency" \(did you mean concurrency\?; known: label, sql/,
    );
    expect(error('c.yaml', '- sql: SELECT 1\n  repetitions: 0\n')).toMatch(
      /c\.yaml:2: repetitions needs an integer >= 1, got 0/,
    );
    expect(error('c2.yaml', '- sql: SELECT 1\n  concurrency: 70000\n')).toMatch(
      /c2\.yaml:2: concurrency needs an integer from 1 to 65535 \(a session each: a connection\), got 70000/,
    );
    expect(error('d.yaml', '- sql: SELECT 1\n  model: graph\n')).toMatch(/d\.yaml:2: model needs tree or table/);
    expect(error('e.yaml', 'sql: SELECT 1\n')).toMatch(/e\.yaml:1: needs a list of statements/);
    expect(error('f.json', '[{"sql": "SELECT 1",\n "concurrency": "x"}]')).toMatch(
      /f\.json:2: concurrency needs an integer/,
    );
    expect(error('g.yaml', '- sql: [unclosed\n')).toMatch(/g\.yaml:\d+: invalid YAML\/JSON/);
    expect(error('h.yaml', '[]')).toMatch(/h\.yaml:1: lists no statement/);
    // each statement's results go by its label (the report's columns, compare, merge, --persist-results)
    expect(error('i.yaml', '- sql: SELECT 1\n  label: a\n- sql: SELECT 2\n  label: a\n')).toMatch(
      /i\.yaml:3: entry 2 has the label "a" of entry 1 \(line 1\): each statement's results go by its label/,
    );
    expect(error('j.yaml', '- sql: SELECT 1\n  label: query 2\n- sql: SELECT 2\n')).toMatch(
      /j\.yaml:3: entry 2 has the label "query 2" of entry 1/,
    );
    // with --vs-java, "java x" is the Java client's run of "x"
    const java = '- sql: SELECT 1\n  label: x\n- sql: SELECT 2\n  label: java x\n';
    expect(read('k.yaml', java).map((e) => e.label)).toEqual(['x', 'java x']);
    expect(() => readQueryFile(file('l.yaml', java), defaults, { vsJava: true })).toThrow(
      /l\.yaml:3: entry 2's label "java x" is the Java client's run of "x" \(line 1\) with --vs-java/,
    );
    // a label names the statement's run on a line of the console and a row of each file: one line of text
    expect(error('n.yaml', '- sql: SELECT 1\n  label: "two\\nlines"\n')).toMatch(
      /n\.yaml:1: entry 1's label "two\\nlines" needs one line of text, no control characters/,
    );
    expect(error('o.yaml', '- sql: SELECT 1\n  label: " "\n')).toMatch(
      /o\.yaml:1: entry 1's label " " needs one line of text/,
    );
    // the open loop's row of how late each read started: a statement's own row of that name would be lost
    expect(error('m.yaml', '- sql: SELECT 1\n  label: start lag\n')).toMatch(
      /m\.yaml:1: entry 1's label "start lag" names the open loop's start lag row: each statement's results go by its label/,
    );
    expect(() => readQueryFile(join(dir, 'missing.yaml'), defaults)).toThrow(
      /missing\.yaml: cannot read it \(ENOENT\)/,
    );
  });
});

describe('examples/queries.yaml', () => {
  it('is a valid query file', () => {
    const path = new URL('../../examples/queries.yaml', import.meta.url);
    expect(readQueryFile(path.pathname, defaults).map((e) => e.label)).toEqual([
      'one device, raw range',
      'latest values, ten devices',
      'one-minute averages of one device',
      'every device, every value',
    ]);
  });
});

describe('readOnly', () => {
  it('takes the statements that only read, and no statement that changes something', () => {
    for (const sql of [
      'SELECT 1',
      '  select * from t',
      'SHOW DATABASES',
      'count timeseries root.**',
      'EXPLAIN SELECT 1',
    ])
      expect(readOnly(sql), sql).toBe(true);
    for (const sql of ['INSERT INTO root.a.b(time, s) VALUES (1, 1)', 'FLUSH', 'CREATE DATABASE root.x', 'selected'])
      expect(readOnly(sql), sql).toBe(false);
  });
});
