import { describe, expect, it } from 'vitest';
import { IoTDBValidationError } from '../errors.js';
import { TSDataType, type TSDataTypeName } from '../types/data-type.js';
import type { CellValue, DataTypeInput } from '../tablet/tablet-input.js';
import { checkTimestamp, encodeRecord, type RecordInput } from './encode-record.js';
import { checkStringRecord } from './string-record.js';

const rec = (dataTypes: DataTypeInput[], values: CellValue[], extra: Partial<RecordInput> = {}): RecordInput => ({
  deviceId: 'root.sg.d1',
  timestamp: 1700000000000,
  measurements: dataTypes.map((_, i) => `s${i}`),
  dataTypes,
  values,
  ...extra,
});

const hexOf = (type: DataTypeInput, value: CellValue) => encodeRecord(rec([type], [value])).values.toString('hex');

describe('encodeRecord byte layout (type byte, then the big-endian value)', () => {
  it.each<[TSDataTypeName, CellValue, string]>([
    ['BOOLEAN', true, '00' + '01'],
    ['BOOLEAN', false, '00' + '00'],
    ['INT32', 1, '01' + '00000001'],
    ['INT32', -2, '01' + 'fffffffe'],
    ['INT32', -2147483648, '01' + '80000000'],
    ['INT32', 2147483647, '01' + '7fffffff'],
    ['INT64', 258, '02' + '0000000000000102'],
    ['INT64', -1, '02' + 'ffffffffffffffff'],
    ['INT64', Number.MAX_SAFE_INTEGER, '02' + '001fffffffffffff'],
    ['INT64', Number.MIN_SAFE_INTEGER, '02' + 'ffe0000000000001'],
    ['INT64', -(2n ** 63n), '02' + '8000000000000000'],
    ['INT64', 2n ** 63n - 1n, '02' + '7fffffffffffffff'],
    ['FLOAT', 1.5, '03' + '3fc00000'],
    ['FLOAT', -0, '03' + '80000000'],
    ['FLOAT', NaN, '03' + '7fc00000'],
    ['DOUBLE', 1.5, '04' + '3ff8000000000000'],
    ['DOUBLE', -Infinity, '04' + 'fff0000000000000'],
    ['TEXT', 'hé', '05' + '00000003' + '68c3a9'],
    ['TEXT', '', '05' + '00000000'],
    ['TIMESTAMP', 1700000000000n, '08' + '0000018bcfe56800'],
    ['TIMESTAMP', new Date(1700000000000), '08' + '0000018bcfe56800'],
    ['DATE', '2024-02-29', '09' + '0134d765'],
    ['DATE', new Date(Date.UTC(1000, 0, 1, 23, 59)), '09' + '009896e5'],
    ['BLOB', Buffer.from('cafe', 'hex'), '0a' + '00000002' + 'cafe'],
    ['BLOB', new Uint8Array(0), '0a' + '00000000'],
    ['STRING', '😀', '0b' + '00000004' + 'f09f9880'],
  ])('writes %s %s as %s', (type, value, hex) => {
    expect(hexOf(type, value)).toBe(hex);
  });

  it('accepts type codes as well as names', () => {
    expect(hexOf(TSDataType.INT32, 7)).toBe(hexOf('INT32', 7));
  });

  it('concatenates the measurements in order and returns the record fields', () => {
    const out = encodeRecord(rec(['INT32', 'TEXT', 'BOOLEAN'], [1, 'a', true], { timestamp: 5n, isAligned: true }));
    expect(out.values.toString('hex')).toBe('0100000001' + '050000000161' + '0001');
    expect(out).toMatchObject({
      deviceId: 'root.sg.d1',
      timestamp: 5n,
      measurements: ['s0', 's1', 's2'],
      isAligned: true,
    });
    expect(encodeRecord(rec(['INT32'], [1])).isAligned).toBe(false);
  });
});

describe('encodeRecord null values', () => {
  it('leaves out null and undefined values together with their measurement', () => {
    const out = encodeRecord(rec(['INT32', 'TEXT', 'DOUBLE', 'BOOLEAN'], [null, 'x', undefined, false]));
    expect(out.measurements).toEqual(['s1', 's3']);
    expect(out.values.toString('hex')).toBe('050000000178' + '0000');
  });

  it('encodes a record whose values are all null to nothing to write (no measurements), as Java skips it', () => {
    expect(encodeRecord(rec(['INT32', 'TEXT'], [null, undefined])).measurements).toEqual([]);
  });

  it('writes a Buffer in TEXT or STRING as its bytes, like the string', () => {
    const asString = encodeRecord(rec(['TEXT', 'STRING'], ['hé', 'x'])).values;
    expect(encodeRecord(rec(['TEXT', 'STRING'], [Buffer.from('hé'), new Uint8Array([0x78])])).values).toEqual(asString);
  });

  it('still checks the data type of a null value', () => {
    expect(catchValidation(() => encodeRecord(rec(['INT32', 'FOO' as TSDataTypeName], [1, null]))).field).toBe(
      'record.dataTypes[1]',
    );
  });
});

function catchValidation(fn: () => unknown): IoTDBValidationError {
  try {
    fn();
  } catch (e) {
    if (e instanceof IoTDBValidationError) return e;
    throw e;
  }
  throw new Error('expected an IoTDBValidationError, nothing was thrown');
}

describe('encodeRecord validation', () => {
  const V0 = 'record.values[0] ("s0")';
  it.each<[string, DataTypeInput, CellValue]>([
    ['a string for INT32', 'INT32', '1'],
    ['1.5 for INT32', 'INT32', 1.5],
    ['2**31 for INT32', 'INT32', 2 ** 31],
    ['a bigint for INT32', 'INT32', 1n],
    ['2**53 for INT64', 'INT64', 2 ** 53],
    ['a bigint beyond int64 for INT64', 'INT64', 2n ** 63n],
    ['a bigint below int64 for TIMESTAMP', 'TIMESTAMP', -(2n ** 63n) - 1n],
    ['NaN for INT64', 'INT64', NaN],
    ['a Date for INT64', 'INT64', new Date(0)],
    ['a number for BOOLEAN', 'BOOLEAN', 1],
    ['a string for FLOAT', 'FLOAT', '1'],
    ['a bigint for DOUBLE', 'DOUBLE', 1n],
    ['a number for TEXT', 'TEXT', 1],
    ['a FLOAT beyond float32', 'FLOAT', 1e40],
    ['an invalid Date for TIMESTAMP', 'TIMESTAMP', new Date('x')],
    ['a string for BLOB', 'BLOB', 'cafe'],
    ['2024-02-30 for DATE', 'DATE', '2024-02-30'],
    ['year 999 for DATE', 'DATE', '0999-01-01'],
    ['a number for DATE', 'DATE', 20240101],
  ])('rejects %s', (_what, type, value) => {
    const err = catchValidation(() => encodeRecord(rec([type], [value])));
    expect(err.field).toBe(V0);
    expect(err.message.startsWith(`${V0}: `)).toBe(true);
  });

  it.each<[string, Partial<RecordInput>, string]>([
    ['an empty device id', { deviceId: '' }, 'record.deviceId'],
    ['a device id that is only root', { deviceId: 'root' }, 'record.deviceId'],
    ['a device id not under root.', { deviceId: 'sg.d1' }, 'record.deviceId'],
    ['a fractional timestamp', { timestamp: 1.5 }, 'record.timestamp'],
    ['a NaN timestamp', { timestamp: NaN }, 'record.timestamp'],
    ['a timestamp beyond 2^53', { timestamp: 2 ** 60 }, 'record.timestamp'],
    ['a bigint timestamp beyond int64', { timestamp: 2n ** 63n }, 'record.timestamp'],
    ['no measurements', { measurements: [], dataTypes: [], values: [] }, 'record.measurements'],
    ['fewer data types than measurements', { dataTypes: ['INT32'] }, 'record.dataTypes'],
    ['fewer values than measurements', { values: [1] }, 'record.values'],
    ['an empty measurement name', { measurements: ['a', ''] }, 'record.measurements[1]'],
    ['a duplicate measurement name', { measurements: ['a', 'a'] }, 'record.measurements[1]'],
    ['a measurement spelt plain and in backquotes', { measurements: ['`a`', 'a'] }, 'record.measurements[1]'],
    ['a measurement named time', { measurements: ['a', 'time'] }, 'record.measurements[1]'],
    ['a measurement named timestamp, backquoted', { measurements: ['a', '`TimeStamp`'] }, 'record.measurements[1]'],
    ['a measurement named root', { measurements: ['root', 'a'] }, 'record.measurements[0]'],
    ['unknown data type 7', { dataTypes: ['INT32', 7 as unknown as TSDataType] }, 'record.dataTypes[1]'],
  ])('rejects %s', (_what, extra, field) => {
    expect(catchValidation(() => encodeRecord(rec(['INT32', 'INT32'], [1, 2], extra))).field).toBe(field);
  });

  it('takes a device id under root. as the server does, leading spaces and backquoted levels too', () => {
    for (const deviceId of ['root.sg.d1', ' root.sg.d1', 'root.sg.`d-1`'])
      expect(() => encodeRecord(rec(['INT32'], [1], { deviceId }))).not.toThrow();
    expect(catchValidation(() => encodeRecord(rec(['INT32'], [1], { deviceId: 'sg.d1' }))).message).toBe(
      'record.deviceId: needs a tree-model path under root. (e.g. root.sg.d1), got "sg.d1"',
    );
  });

  it('refuses whitespace in a device path outside backquotes: IoTDB trims it off a node (root.sg. d1 is stored as root.sg.d1)', () => {
    for (const deviceId of ['root.sg. d1', 'root.sg.d1 ', 'root.sg .d1', 'root.sg.d\t1', 'root.sg.mid dle'])
      expect(catchValidation(() => encodeRecord(rec(['INT32'], [1], { deviceId }))).message).toBe(
        `record.deviceId: needs no whitespace outside backquotes (IoTDB trims it off a node, and refuses it inside one: put such a name in backquotes, root.sg.\`a b\`), got ${JSON.stringify(deviceId)}`,
      );
    expect(() => encodeRecord(rec(['INT32'], [1], { deviceId: 'root.sg.`a b`' }))).not.toThrow();
  });

  it('refuses a key a record does not have, naming the nearest: it would be dropped unsaid', () => {
    const e = catchValidation(() =>
      encodeRecord(rec(['INT32'], [1], { aligned: true } as Partial<RecordInput>), 'records[3]'),
    );
    expect(e.field).toBe('records[3].aligned');
    expect(e.message).toMatch(/unknown key \(did you mean isAligned\?\)/);
  });

  it("refuses dataTypes in a string record (the server infers a string record's types: they would be ignored)", () => {
    const r = { deviceId: 'root.sg.d1', timestamp: 1, measurements: ['a'], values: ['1'], dataTypes: ['INT32'] };
    expect(catchValidation(() => checkStringRecord(r, 'record')).field).toBe('record.dataTypes');
  });

  it('refuses a string record measurement IoTDB would refuse: time', () => {
    const r = { deviceId: 'root.sg.d1', timestamp: 1, measurements: ['a', 'Time'], values: ['1', '2'] };
    const e = catchValidation(() => checkStringRecord(r, 'record'));
    expect(e.field).toBe('record.measurements[1]');
    expect(e.message).toMatch(/"Time" is not a legal name in IoTDB: time and timestamp/);
  });

  it('refuses a string UTF-8 cannot carry (a lone surrogate), in a TEXT or STRING record and a string record', () => {
    const lone = 'x\udc00';
    for (const type of ['TEXT', 'STRING'] as const) {
      const r = { deviceId: 'root.sg.d1', timestamp: 1, measurements: ['s0'], dataTypes: [type], values: [lone] };
      const e = catchValidation(() => encodeRecord(r, 'record'));
      expect(e.field).toBe('record.values[0] ("s0")');
      expect(e.message).toMatch(/value is not well-formed Unicode: a lone surrogate \(U\+DC00\) at index 1/);
    }
    const s = { deviceId: 'root.sg.d1', timestamp: 1, measurements: ['a'], values: [lone] };
    const e = catchValidation(() => checkStringRecord(s, 'record'));
    expect(e.field).toBe('record.values[0] ("a")');
    expect(e.message).toMatch(/is not well-formed Unicode: a lone surrogate \(U\+DC00\) at index 1/);
  });

  it('prefixes fields with the given field name', () => {
    expect(catchValidation(() => encodeRecord(rec(['INT32'], ['x']), 'records[3]')).field).toBe(
      'records[3].values[0] ("s0")',
    );
  });

  it('checkTimestamp accepts safe integers and int64 bigints only', () => {
    expect(() => checkTimestamp('t', -(2n ** 63n))).not.toThrow();
    expect(() => checkTimestamp('t', Number.MIN_SAFE_INTEGER)).not.toThrow();
    expect(() => checkTimestamp('t', '1')).toThrow(IoTDBValidationError);
    expect(() => checkTimestamp('t', Infinity)).toThrow(IoTDBValidationError);
  });
});
