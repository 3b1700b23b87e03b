import { describe, expect, it } from 'vitest';
import { checkDevicePath, deviceName, pathNodes } from './device-path.js';

describe('checkDevicePath', () => {
  it('refuses what it refused before, however many good paths it has remembered (and forgotten) since', () => {
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 3000; i++) checkDevicePath('deviceId', `root.sg.d${i}`);
      for (const bad of ['root.sg. d1', 'sg.d1', '', 'root', 'root.sg.d1 '])
        expect(() => checkDevicePath('deviceId', bad)).toThrow(/^deviceId: /);
      expect(() => checkDevicePath('deviceId', 'root.sg.d1')).not.toThrow();
      expect(() => checkDevicePath('deviceId', 'root.sg.d2999')).not.toThrow();
    }
  });

  it('names the field it was given, for a path remembered under another', () => {
    checkDevicePath('records[0].deviceId', 'root.sg.named');
    expect(() => checkDevicePath('records[1].deviceId', 7)).toThrow(/^records\[1\]\.deviceId: /);
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

describe('deviceName', () => {
  it('is one name for the spellings of one device, and another for a node holding a dot', () => {
    expect(deviceName('root.sg.`d1`')).toBe(deviceName('root.sg.d1'));
    expect(deviceName('root.`sg`.`d``1`')).toBe(deviceName('root.sg.`d``1`'));
    expect(deviceName('root.sg.`a.b`')).not.toBe(deviceName('root.sg.a.b'));
  });
});
