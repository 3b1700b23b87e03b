import { describe, expect, it } from 'vitest';
import { deviceOfPaths } from './device-path.js';

describe('deviceOfPaths', () => {
  it('names the device all the paths belong to', () => {
    expect(deviceOfPaths(['root.sg.d1.s1'])).toBe('root.sg.d1');
    expect(deviceOfPaths(['root.sg.d1.s1', 'root.sg.d1.s2'])).toBe('root.sg.d1');
  });

  it('keeps a backquoted node whole, dots and doubled backquotes inside it', () => {
    expect(deviceOfPaths(['root.sg.`d.1`.s'])).toBe('root.sg.`d.1`');
    expect(deviceOfPaths(['root.sg.`d``.1`.s', 'root.sg.`d``.1`.t'])).toBe('root.sg.`d``.1`');
    expect(deviceOfPaths(['root.sg.d.`s.1`'])).toBe('root.sg.d');
    // a star inside backquotes is a character: root.sg.`d*` is one device, written and read as itself
    expect(deviceOfPaths(['root.sg.`d*`.s', 'root.sg.`d*`.t'])).toBe('root.sg.`d*`');
    expect(deviceOfPaths(['root.sg.d.`**`'])).toBe('root.sg.d');
  });

  it('is undefined for paths of several devices, a wildcard, or no device', () => {
    expect(deviceOfPaths(['root.sg.d1.s', 'root.sg.d2.s'])).toBeUndefined();
    expect(deviceOfPaths(['root.sg.d1.s', 'root.sg.d10.s'])).toBeUndefined();
    expect(deviceOfPaths(['root.sg.d1.s', 'root.sg.d1.x.s'])).toBeUndefined();
    expect(deviceOfPaths(['root.sg.d1.*'])).toBeUndefined();
    expect(deviceOfPaths(['root.**.s'])).toBeUndefined();
    expect(deviceOfPaths(['root'])).toBeUndefined();
    expect(deviceOfPaths([])).toBeUndefined();
  });
});
