import { describe, expect, it } from 'vitest';
import { deviceOfSelect } from './select-device.js';

describe('deviceOfSelect', () => {
  it('names the one device a tree SELECT reads', () => {
    expect(deviceOfSelect('SELECT s0 FROM root.sg.d1')).toBe('root.sg.d1');
    expect(deviceOfSelect('select last s0, s1 from root.sg.d1')).toBe('root.sg.d1');
    expect(
      deviceOfSelect('  SELECT count(s0) FROM root.sg.d1 WHERE time >= 10 AND s0 > 1.5 GROUP BY ([0, 100), 10ms);'),
    ).toBe('root.sg.d1');
    expect(deviceOfSelect('SELECT * FROM root.sg.d1 ORDER BY time DESC LIMIT 10')).toBe('root.sg.d1');
    expect(deviceOfSelect('SELECT s0 FROM root.sg.`d.1` WHERE time = 1')).toBe('root.sg.`d.1`');
    expect(deviceOfSelect('SELECT s0 FROM root.sg.`d*` WHERE time = 1')).toBe('root.sg.`d*`'); // a star in backquotes
    expect(deviceOfSelect('SELECT\ns0\nFROM\nroot.sg.d1\nLIMIT 1')).toBe('root.sg.d1');
    expect(deviceOfSelect('SELECT max_value(s0) FROM root.sg.d1 ALIGN BY DEVICE')).toBe('root.sg.d1');
    expect(deviceOfSelect('SELECT s0 FROM root.sg.d1;')).toBe('root.sg.d1');
  });

  it('is undefined for whatever may read more than one device or is not a plain SELECT', () => {
    for (const sql of [
      'SELECT s0 FROM root.sg.*',
      'SELECT s0 FROM root.sg.**',
      'SELECT ** FROM root.sg.d1',
      'SELECT s0 FROM root.sg.d1, root.sg.d2',
      'SELECT s0 FROM root.sg.d1 , root.sg.d2',
      'SELECT d1.s0, d2.s0 FROM root.sg',
      "SELECT top_k(s0, 'k'='3') FROM root.sg.d1",
      'SELECT s0 INTO root.sg.copy(s0) FROM root.sg.d1',
      'SHOW TIMESERIES root.sg.d1.**',
      'INSERT INTO root.sg.d1(time, s0) VALUES (1, 1)',
      'SELECT s0 FROM table1',
      'SELECT s0 FROM root',
      'SELECT s0 FROM root.sg.d1 UNION SELECT s0 FROM root.sg.d2',
      'SELECT s0 FROM root.sg.d1 WHERE s0 > 0; SELECT s0 FROM root.sg.d2',
      '',
      `SELECT s0 FROM root.sg.d1 WHERE ${'s0 > 0 AND '.repeat(100)} s0 > 0`, // not looked at: too long
    ])
      expect(deviceOfSelect(sql), sql).toBeUndefined();
  });
});
