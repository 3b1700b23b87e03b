import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TimestampPrecision } from './node-session.js';
import { javaDateTimeText } from './java-date-time-text.js';

// RpcUtils.formatDatetime("default", precision, value, ZoneId.of(zone)) of IoTDB 2.0.1-beta's client, on OpenJDK 17
const JAVA: [bigint, TimestampPrecision, string, string][] = [
  [-1000n, 'ms', 'UTC', '1969-12-31T23:59:59.000Z'],
  [1n, 'ms', 'UTC', '1970-01-01T00:00:00.001Z'],
  [-1n, 'ms', 'UTC', '1969-12-31T23:59:59.999Z'],
  [0n, 'ms', 'Z', '1970-01-01T00:00:00.000Z'],
  [1709164800001n, 'ms', 'Asia/Shanghai', '2024-02-29T08:00:00.001+08:00'],
  [1709164800001n, 'ms', '+08:00', '2024-02-29T08:00:00.001+08:00'],
  [1709164800001n, 'ms', 'Asia/Kathmandu', '2024-02-29T05:45:00.001+05:45'],
  [1n, 'us', 'UTC', '1970-01-01T00:00:00.000001Z'],
  [-9223372036854775808n, 'ms', 'UTC', '-292275055-05-16T16:47:04.192Z'],
  [1720000000000n, 'ms', 'Europe/Berlin', '2024-07-03T11:46:40.000+02:00'],
  [1700000000000n, 'ms', 'Europe/Berlin', '2023-11-14T23:13:20.000+01:00'],
  [1700000000000n, 'ms', 'UTC+8', '2023-11-15T06:13:20.000+08:00'],
  [1700000000000n, 'ms', '+0530', '2023-11-15T03:43:20.000+05:30'],
  [1700000000000n, 'ms', 'UT', '2023-11-14T22:13:20.000Z'],
  [1700000000000n, 'ms', 'GMT', '2023-11-14T22:13:20.000Z'],
  [-62135596800000n, 'ms', 'UTC', '0001-01-01T00:00:00.000Z'],
  [-62135596800001n, 'ms', 'UTC', '0000-12-31T23:59:59.999Z'],
  [-1n, 'us', 'UTC', '1969-12-31T23:59:59.999999Z'],
  [-999999n, 'us', 'UTC', '1969-12-31T23:59:59.000001Z'],
  [-1000000n, 'us', 'UTC', '1969-12-31T23:59:59.000000Z'],
  [1234567891n, 'ns', 'Asia/Tokyo', '1970-01-01T09:00:01.234567891+09:00'],
];

describe('javaDateTimeText', () => {
  it("prints a TIMESTAMP as the Java client's getString: in the zone, to the server's unit, then the offset", () => {
    for (const [value, precision, zone, java] of JAVA)
      expect([value, zone, javaDateTimeText(value, precision, zone)]).toEqual([value, zone, java]);
  });

  it('puts the fraction before the offset where Java garbles it (a negative offset, seconds in one, a year past 9999)', () => {
    // Java: 2023-11-14T14:13:20-08:00.000, 1969-12-31T18:59:59-05:00.999999999, 1840-01-01T05:53:28+05.000:53:28,
    // +10000-01-01T00:.00000:00Z
    expect(javaDateTimeText(1700000000000n, 'ms', '-8')).toBe('2023-11-14T14:13:20.000-08:00');
    expect(javaDateTimeText(1700000000000n, 'ms', 'GMT-03:30')).toBe('2023-11-14T18:43:20.000-03:30');
    expect(javaDateTimeText(-1n, 'ns', 'America/New_York')).toBe('1969-12-31T18:59:59.999999999-05:00');
    expect(javaDateTimeText(-4102444800000n, 'ms', 'Asia/Kolkata')).toBe('1840-01-01T05:53:28.000+05:53:28');
    expect(javaDateTimeText(253402300800000n, 'ms', 'UTC')).toBe('+10000-01-01T00:00:00.000Z');
  });

  it.each<[string, string, number, string, string]>([
    // a daylight saving change on the hour, and one at 18:38:50 UTC (India's standard time after Madras time)
    ['America/New_York', '2024-03-10T07:00:00Z', 7, '-05:00', '-04:00'],
    ['America/New_York', '2024-11-03T06:00:00Z', 13, '-04:00', '-05:00'],
    ['Asia/Kolkata', '1905-12-31T18:38:50Z', 1, '+05:21:10', '+05:30'],
  ])(
    'gives every second of %s around %s its own offset, however close the values are',
    (zone, at, step, before, after) => {
      const change = Date.parse(at) / 1000;
      // values every `step` s from two hours before the change to two after, then the first hour again: in time
      // order, as a result gives them, and back again
      const seconds = Array.from({ length: (4 * 3600) / step }, (_, i) => change - 7200 + i * step);
      for (const s of [...seconds, ...seconds.slice(0, 3600 / step)]) {
        const text = javaDateTimeText(BigInt(s) * 1000n, 'ms', zone);
        expect([s, text.endsWith(s < change ? before : after)]).toEqual([s, true]);
      }
    },
  );

  it("gives at UTC what Date's toISOString gives, any millisecond of years 0 to 9999", () => {
    fc.assert(
      fc.property(fc.integer({ min: -62167219200000, max: 253402300799999 }), (ms) => {
        expect(javaDateTimeText(BigInt(ms), 'ms', 'UTC')).toBe(new Date(ms).toISOString());
      }),
    );
  });
});
