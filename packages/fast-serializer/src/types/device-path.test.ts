import { describe, expect, it } from 'vitest';
import { checkDevicePath } from './device-path.js';

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
