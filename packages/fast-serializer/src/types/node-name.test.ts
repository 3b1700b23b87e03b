import { describe, expect, it } from 'vitest';
import { IoTDBValidationError } from '../errors.js';
import { checkDevicePath } from './device-path.js';
import { nodeNameProblem } from './node-name.js';

// What IoTDB 2.0.1-beta took and refused as a tree measurement and as a device's level (probed by insertTablet; the
// integration test node-names.integration.test.ts asks the server again about generated names).

const TAKEN = [
  'd1',
  '0d',
  '00d',
  '0f',
  '0l',
  '1e5l',
  '0e',
  '2e5e',
  '1h',
  '1ms',
  '_',
  '__',
  '_1',
  '1_',
  '12ab',
  '0x1f',
  '1E',
  'e',
  'e5',
  '1e5x',
  'ROOT1',
  'null',
  'NaN',
  'true',
  '中文',
  '日本語',
  'カタカナ',
  '\u2E80',
  '\u9FFF',
  '``',
  '` `',
  '`a``b`',
  '`123`',
  '`a.b`',
  '`*`',
  '`a-b`',
  '`root`',
  '`Root`',
];
const REFUSED = [
  'a-b',
  '1d',
  '2D',
  '01d',
  '1e5d',
  '1f',
  '1L',
  '0001d',
  '0e1d',
  '12E3d',
  '08',
  '0e0',
  '00',
  'a:b',
  'a@b',
  'a#b',
  'a$b',
  'a{b}',
  'a/b',
  "a'b",
  'a"b',
  'a\\b',
  'a(b)',
  'a+b',
  'a,b',
  'a;b',
  'a=b',
  'a[b]',
  'a%b',
  'a&b',
  'a!b',
  'a?b',
  'a~b',
  'a^b',
  'a|b',
  'a<b',
  'a*b',
  '*',
  '**',
  'é',
  'ß',
  'Ω',
  '한국',
  '😀',
  '\u2E7F',
  '\uA000',
  '\u0661',
  '\u00a0',
  'a\u200bb',
  '123',
  '01',
  '1e5',
  '1E5',
  '1e05',
  '00e1',
  '-1',
  '1.5',
  '`a`b`',
  'a`',
  '`a`x',
  'x`a`',
  '`',
  'time',
  'Time',
  'TIMESTAMP',
  '`time`',
  '`Timestamp`',
  'root',
  'ROOT',
  'Root',
];

describe('tree node names (IoTDB 2.0.1-beta)', () => {
  it.each(TAKEN)('takes %j as a measurement', (name) => {
    expect(nodeNameProblem(name)).toBeUndefined();
  });

  it.each(REFUSED)('refuses %j as a measurement', (name) => {
    expect(nodeNameProblem(name)).toMatch(/^".*" /);
  });

  it('says why, and how to write such a name', () => {
    expect(nodeNameProblem('a-b')).toBe(
      '"a-b" is not a legal name in IoTDB: unquoted, a measurement holds letters, digits, _ and CJK characters (U+2E80 to U+9FFF) only; put it in backquotes (`a-b`)',
    );
    expect(nodeNameProblem('123')).toBe(
      '"123" is not a legal name in IoTDB: unquoted, a number; put it in backquotes (`123`)',
    );
    expect(nodeNameProblem('a`b')).toMatch(/put it in backquotes, each backquote in it doubled \(`a``b`\)$/);
    expect(nodeNameProblem('`a`b`')).toMatch(/a backquote inside a backquoted name is written twice \(`a``b`\)$/);
  });
});

describe('device paths, level by level', () => {
  const refused = (deviceId: string) => {
    try {
      checkDevicePath('deviceId', deviceId);
    } catch (e) {
      expect(e).toBeInstanceOf(IoTDBValidationError);
      return (e as Error).message;
    }
    return undefined;
  };

  it('takes the levels IoTDB took, with the characters a measurement may not have (:, @, #, $, {, })', () => {
    for (const d of [
      'root.nd.1d',
      'root.nd.1f',
      'root.nd.:',
      'root.nd.:::',
      'root.nd.a:b',
      'root.nd.@',
      'root.nd.#',
      'root.nd.$',
      'root.nd.a{b}',
      'root.nd.`a-b`',
      'root.nd.中文',
      'root.nd.d1.`a.b`',
      'root.nd.d1.`x.y`.z',
      'root.nd.`a``b`',
      'root.`nd2`.x',
      'root.nd.`root`',
      'root.nd.``',
      ' root.sg.d1',
    ])
      expect(refused(d)).toBeUndefined();
  });

  it('refuses the levels IoTDB refused, naming the level', () => {
    for (const d of [
      'root.nd.a-b',
      'root.nd.123',
      'root.nd.é',
      'root.nd.1e5',
      'root.nd.time',
      'root.nd.TIME',
      'root.nd.timestamp.x',
      'root.nd.root',
      'root.nd.Root',
      'root.ROOT.x',
      'root.nd.`time`',
      'root.nd.`timestamp`.x',
      'root.nd.*',
      'root.nd.a`b',
      'root.nd.`a`b`',
      'root.nd.`a`x',
      'root.nd.x`a`',
      'root.nd.::',
    ])
      expect(refused(d)).toMatch(/^deviceId: needs a legal path, and its level \d+ /);
    expect(refused('root.nd.a-b')).toBe(
      'deviceId: needs a legal path, and its level 3 "a-b" is not a legal name in IoTDB: unquoted, a device\'s level holds letters, digits, _, :, @, #, $, {, } and CJK characters (U+2E80 to U+9FFF) only; put it in backquotes (`a-b`)',
    );
  });

  it('refuses an empty level: a path that ends with a dot or has two together', () => {
    expect(refused('root.nd..x')).toBe('deviceId: needs a legal path, and its level 3 is empty, got "root.nd..x"');
    expect(refused('root.nd.x.')).toBe('deviceId: needs a legal path, and its level 4 is empty, got "root.nd.x."');
  });
});
