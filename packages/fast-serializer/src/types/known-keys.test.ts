import { describe, expect, it } from 'vitest';
import { IoTDBValidationError } from '../errors.js';
import { KnownKeys } from './known-keys.js';
import { nearestName } from './nearest-name.js';

describe('KnownKeys', () => {
  interface Row {
    deviceId: string;
    timestamp: number;
    values: unknown[];
    isAligned?: boolean;
  }
  const keys: KnownKeys = KnownKeys.of<Row>('row')('deviceId', 'timestamp', 'values', 'isAligned');

  it('takes objects of known keys in any order and any subset, one after another', () => {
    for (const o of [
      { deviceId: 'a', timestamp: 1, values: [] },
      { deviceId: 'a', timestamp: 1, values: [] },
      { values: [], timestamp: 1, deviceId: 'a', isAligned: true },
      { deviceId: 'a' },
      {},
      { deviceId: 'a', timestamp: 1, values: [] },
    ])
      expect(keys.fits(o)).toBe(true);
  });

  it('refuses a key none of them is, after objects that fit and before, naming the nearest', () => {
    expect(keys.fits({ deviceId: 'a', timestamp: 1, values: [] })).toBe(true);
    for (const o of [
      { deviceId: 'a', timestamp: 1, values: [], aligned: true },
      { deviceId: 'a', timestamp: 1, aligned: true, values: [] },
      { aligned: true },
    ]) {
      expect(keys.fits(o)).toBe(false);
      const e = (() => {
        try {
          keys.check(o, 'records[2]');
        } catch (err) {
          return err as IoTDBValidationError;
        }
        throw new Error('not refused');
      })();
      expect(e).toBeInstanceOf(IoTDBValidationError);
      expect(e.field).toBe('records[2].aligned');
      expect(e.message).toMatch(/unknown key \(did you mean isAligned\?\)/);
    }
    expect(keys.fits({ deviceId: 'a', timestamp: 1, values: [] })).toBe(true);
  });

  it('names the key alone when the object is the input itself, and suggests nothing for a key far from all', () => {
    expect(() => keys.check({ note: 'x' }, '')).toThrow(
      /^note: unknown key; known: deviceId, timestamp, values, isAligned$/,
    );
  });

  it("names the keys it takes when given no object (insertRecord('root.sg.d', ...), as the Java Session's arguments)", () => {
    expect(() => keys.check('root.sg.d', '')).toThrow(
      /^row: expected an object \{ deviceId, timestamp, values, isAligned \}, got string "root\.sg\.d"$/,
    );
    expect(() => keys.check(null, 'rows[2]')).toThrow(/^rows\[2\]: expected an object \{ deviceId, .* \}, got null$/);
    // options of many keys (TLS's) are not listed
    const many = KnownKeys.of<Record<'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g' | 'h' | 'i', number>>('tls')(
      ...(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'] as const),
    );
    expect(() => many.check(1, '')).toThrow(/^tls: expected an object, got number 1$/);
  });

  it('names an array given for one object (insertTablet([a, b])) by its noun or field', () => {
    expect(() => keys.check([{}, {}], '')).toThrow(/^row: needs an object, got an array of 2$/);
    expect(() => keys.check([{}], 'records[3]')).toThrow(/^records\[3\]: needs an object, got an array of 1$/);
  });

  it("lets an inherited enumerable key through (a method set on a prototype is not the caller's data)", () => {
    function Reading(this: Record<string, unknown>) {
      this.deviceId = 'a';
      this.timestamp = 1;
      this.values = [];
    }
    (Reading.prototype as Record<string, unknown>).describe = () => 'a reading';
    const r = new (Reading as unknown as new () => object)();
    expect(keys.fits(r)).toBe(true);
    expect(keys.fits(r)).toBe(true);
    (r as Record<string, unknown>).aligned = true;
    expect(() => keys.check(r, '')).toThrow(/^aligned: unknown key/);
  });

  it('lists its keys in the order given, and says whether a name is one (a Set of names, for an options check)', () => {
    expect([...keys]).toEqual(['deviceId', 'timestamp', 'values', 'isAligned']);
    expect([keys.has('values'), keys.has('value'), keys.has('toString')]).toEqual([true, false, false]);
  });

  it('a key set to undefined is a key', () => {
    expect(keys.fits({ deviceId: 'a', aligned: undefined })).toBe(false);
  });
});

describe('nearestName', () => {
  it('finds the same name in another case, or one within two edits, else nothing', () => {
    const known = ['signal', 'timeoutMs', 'isAligned'];
    expect(nearestName('SIGNAL', known)).toBe('signal');
    expect(nearestName('signl', known)).toBe('signal');
    expect(nearestName('aligned', known)).toBe('isAligned');
    expect(nearestName('timeout', known)).toBe('timeoutMs');
    expect(nearestName('deadline', known)).toBeUndefined();
    expect(nearestName('x', [])).toBeUndefined();
  });
});
