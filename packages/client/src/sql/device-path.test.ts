import { describe, expect, it } from 'vitest';
import { deviceOfPaths, pathNodes } from './device-path.js';

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

describe('pathNodes', () => {
  it('splits a path at the dots outside backquotes, each node without its backquotes', () => {
    expect(pathNodes('root.sg.d1.s')).toEqual(['root', 'sg', 'd1', 's']);
    expect(pathNodes('root.sg.`d.1`.`a``b`')).toEqual(['root', 'sg', 'd.1', 'a`b']);
    expect(pathNodes('root.sg.`d1`')).toEqual(pathNodes('root.sg.d1'));
    expect(pathNodes('root.`a``.b`.c')).toEqual(['root', 'a`.b', 'c']);
  });
});
