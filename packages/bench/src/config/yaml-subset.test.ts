import { describe, expect, it } from 'vitest';
import { ConfigError } from './errors.js';
import { parseYamlSubset } from './yaml-subset.js';

const parse = (text: string) => parseYamlSubset(text, 'b.yaml').map(({ key, value }) => [key, value]);

function failure(text: string): ConfigError {
  try {
    parseYamlSubset(text, 'b.yaml');
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('no error');
}

describe('flat YAML subset', () => {
  it('key: value lines, comments, quotes, inline lists, null', () => {
    const text = [
      '# benchmark',
      '',
      'workers: 4   # four',
      'host: "db #1"',
      "database: 'it''s'",
      'typeProportions: 1:1:1:1:1:1',
      'queries: [raw, "last" , latest]',
      'compare: []',
      'out: null',
      'nodeUrls: ~',
      'escaped: "a\\"b\\\\c\\n"',
      'url: http://x:1/y',
    ].join('\n');
    expect(parse(text)).toEqual([
      ['workers', '4'],
      ['host', 'db #1'],
      ['database', "it's"],
      ['typeProportions', '1:1:1:1:1:1'],
      ['queries', ['raw', 'last', 'latest']],
      ['compare', []],
      ['out', null],
      ['nodeUrls', null],
      ['escaped', 'a"b\\c\n'],
      ['url', 'http://x:1/y'],
    ]);
    expect(parse('host: "null"')).toEqual([['host', 'null']]);
  });

  it('knows the line of every entry; CRLF is fine', () => {
    expect(parseYamlSubset('\r\n# c\r\nloop: 3\r\n', 'b.yaml')).toEqual([{ key: 'loop', value: '3', line: 3 }]);
  });

  it('anything nested is an error naming the line', () => {
    const cases: [string, RegExp][] = [
      ['workers: 1\nsession:\n  size: 3', /^b\.yaml:2: session: has no value; nested YAML/],
      ['workers: 1\n  size: 3', /^b\.yaml:2: nested YAML is not supported \(indented line\)/],
      ['queries:\n- raw', /^b\.yaml:1: queries: has no value/],
      ['- raw', /^b\.yaml:1: block lists/],
      ['pool: {max: 3}', /^b\.yaml:1: pool: nested YAML \("\{"\)/],
      ['text: |', /^b\.yaml:1: text: nested YAML \("\|"\)/],
      ['queries: [raw, [last]]', /^b\.yaml:1: queries: nested lists/],
      ['a: b: c', /^b\.yaml:1: a: nested maps/],
    ];
    for (const [text, message] of cases) expect(failure(text).message, text).toMatch(message);
  });

  it('other syntax errors name the line too', () => {
    const cases: [string, RegExp][] = [
      ['workers 4', /^b\.yaml:1: expected "key: value"/],
      ['a: 1\na: 2', /^b\.yaml:2: duplicate key "a" \(first on line 1\)/],
      ['host: "open', /^b\.yaml:1: host: unterminated "-quoted string/],
      ['host: "a" b', /^b\.yaml:1: host: unexpected "b" after the value/],
      ['queries: [raw, ]', /^b\.yaml:1: queries: empty list entry/],
      ['queries: [raw', /^b\.yaml:1: queries: unterminated list/],
      ['host: *ref', /^b\.yaml:1: host: "\*" \(YAML anchors/],
      ['host: "\\x"', /^b\.yaml:1: host: unsupported escape/],
    ];
    for (const [text, message] of cases) expect(failure(text).message, text).toMatch(message);
    expect(failure('a: 1\na: 2').knob).toBe('a');
  });
});
