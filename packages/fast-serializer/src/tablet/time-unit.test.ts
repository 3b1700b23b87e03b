import { describe, expect, it } from 'vitest';
import { IoTDBValidationError } from '../errors.js';
import { ByteReader } from '../io/byte-reader.js';
import { ByteWriter } from '../io/byte-writer.js';
import { encodeRecord } from '../record/encode-record.js';
import { TSInsertTabletReqSchema } from '../thrift/iotdb-idl.js';
import { readStruct } from '../thrift/struct-codec.js';
import { writeInsertTabletReq } from './insert-tablet-request.js';
import { encodeTabletPlain } from './plain-tablet-encoder.js';
import { prepareTablet } from './prepare-tablet.js';
import type { Tablet } from './tablet-input.js';
import { dateToTime, timeToDate, type TimestampPrecision } from './time-unit.js';

const D = new Date(Date.UTC(2024, 1, 29, 12, 0, 0, 123)); // 1709208000123 ms
const FAR = new Date(8.64e15); // the last Date: past 2^53 in us, past int64 in ns
const Y2200 = new Date(Date.UTC(2200, 0, 1)); // past 2^53 in us and ns, within int64

function times(t: Tablet, precision: TimestampPrecision): { timestamps: bigint[]; values: Buffer } {
  const w = new ByteWriter(256);
  const p = prepareTablet(t, precision);
  writeInsertTabletReq(w, 1n, p);
  const req = readStruct(new ByteReader(Buffer.from(w.view())), TSInsertTabletReqSchema);
  const ts = Buffer.from(req.timestamps);
  expect(Buffer.from(encodeTabletPlain(p).values)).toEqual(Buffer.from(req.values)); // the plain path agrees
  return {
    timestamps: Array.from({ length: ts.length / 8 }, (_, i) => ts.readBigInt64BE(i * 8)),
    values: Buffer.from(req.values),
  };
}

describe('Dates in the server precision', () => {
  it('dateToTime / timeToDate convert by the unit, exact past 2^53, flooring before 1970', () => {
    expect(dateToTime(D, 'ms', 'f')).toBe(1709208000123);
    expect(dateToTime(D, 'us', 'f')).toBe(1709208000123000);
    expect(dateToTime(D, 'ns', 'f')).toBe(1709208000123000000n);
    expect(dateToTime(FAR, 'us', 'f')).toBe(8640000000000000000n);
    expect(timeToDate(1709208000123456789n, 'ns')).toEqual(D);
    expect(timeToDate(-1n, 'us')).toEqual(new Date(-1));
    expect(() => dateToTime(new Date('x'), 'ms', 'timestamps[0]')).toThrow(IoTDBValidationError);
    expect(() => dateToTime(FAR, 'ns', 'timestamps[0]')).toThrow(/beyond the int64 range in ns/);
  });

  it.each<[TimestampPrecision, bigint]>([
    ['ms', 1709208000123n],
    ['us', 1709208000123000n],
    ['ns', 1709208000123000000n],
  ])('tablet row times and TIMESTAMP cells given as Dates go out in %s', (precision, expected) => {
    const t: Tablet = {
      deviceId: 'root.a.d',
      measurements: ['ts'],
      dataTypes: ['TIMESTAMP'],
      timestamps: [D, 5],
      values: [[D], [Y2200]],
    };
    const out = times(t, precision);
    expect(out.timestamps).toEqual([5n, expected]); // sorted by time: the Date is later than 5
    const cells = [out.values.readBigInt64BE(0), out.values.readBigInt64BE(8)]; // rows in time order: Y2200 (t=5), then D
    expect(cells).toEqual([BigInt(Y2200.getTime()) * (expected / 1709208000123n), expected]);
  });

  it('a record time and TIMESTAMP value given as Dates, in ns', () => {
    const r = encodeRecord(
      { deviceId: 'root.a.d', timestamp: D, measurements: ['ts'], dataTypes: ['TIMESTAMP'], values: [D] },
      'record',
      'ns',
    );
    expect(r.timestamp).toBe(1709208000123000000n);
    expect(r.values.readBigInt64BE(1)).toBe(1709208000123000000n);
  });
});
