import { describe, expect, it } from 'vitest';
import { InvalidValue } from './errors.js';
import { bool, hostPort, integer, listOf, oneOf, ratio, text } from './parsers.js';

describe('knob parsers', () => {
  it('integer: strings and JSON numbers, digit groups, bounds', () => {
    const p = integer(1);
    expect(p('42')).toBe(42);
    expect(p(' 10_000_000 ')).toBe(10_000_000);
    expect(p(7)).toBe(7);
    for (const bad of ['abc', '', '0', '-1', '1.5', '1e3', '0x10', 1.5, 0, true, null, ['1']]) {
      expect(() => p(bad), JSON.stringify(bad)).toThrow(new InvalidValue('needs an integer >= 1'));
    }
    expect(integer(0)('0')).toBe(0);
    expect(() => integer(1, 65535)('65536')).toThrow('needs an integer in [1, 65535]');
    expect(() => p('99999999999999999999')).toThrow(InvalidValue);
  });

  it('ratio: [0, 1]', () => {
    expect(ratio('0.25')).toBe(0.25);
    expect(ratio('.5')).toBe(0.5);
    expect(ratio(1)).toBe(1);
    for (const bad of ['1.5', '-0.1', 'half', '', 2]) expect(() => ratio(bad)).toThrow('needs a number in [0, 1]');
  });

  it('oneOf, bool, text', () => {
    expect(oneOf(['a', 'b'])('b')).toBe('b');
    expect(() => oneOf(['a', 'b'])('c')).toThrow('needs one of a, b');
    expect([bool('true'), bool('FALSE'), bool('1'), bool('no'), bool(true)]).toEqual([true, false, true, false, true]);
    expect(() => bool('maybe')).toThrow('needs true or false');
    expect(() => text()('  ')).toThrow('needs a non-empty string');
  });

  it('listOf: comma strings and arrays, distinct entries, the bad entry named', () => {
    const p = listOf(oneOf(['raw', 'last']));
    expect(p('raw, last')).toEqual(['raw', 'last']);
    expect(p(['last'])).toEqual(['last']);
    expect(p('')).toEqual([]);
    expect(() => p('raw,nope')).toThrow('entry "nope" needs one of raw, last');
    expect(() => p('raw,,last')).toThrow('entry "" needs one of');
    expect(() => p('raw,raw')).toThrow('lists "raw" twice');
    expect(() => p(3)).toThrow('needs a comma-separated list');
    expect(() => listOf(hostPort, 1)('')).toThrow('needs at least 1 comma-separated entry');
  });

  it('hostPort', () => {
    expect(hostPort('a:6667')).toBe('a:6667');
    expect(hostPort('[::1]:6668')).toBe('[::1]:6668');
    for (const bad of ['a', 'a:0', 'a:70000', '::1:6667', ':6667'])
      expect(() => hostPort(bad), bad).toThrow('needs host:port');
  });
});
