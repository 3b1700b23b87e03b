import { describe, expect, it } from 'vitest';
import { ByteWriter } from '../io/byte-writer.js';
import { TSInsertRecordsReqSchema } from '../thrift/iotdb-idl.js';
import { writeStruct } from '../thrift/struct-codec.js';
import { encodeRecord, type RecordShapeCache } from './encode-record.js';
import { writeInsertRecordsReq } from './insert-records-request.js';

describe('writeInsertRecordsReq', () => {
  it('writes the bytes of the generic struct codec, repeated devices and shared measurement arrays included', () => {
    const names = ['a', 'b', 'c'];
    const types = ['INT32', 'TEXT', 'DOUBLE'] as const;
    const cache: RecordShapeCache = {};
    const records = [
      { deviceId: 'root.sg.d1', timestamp: 1, measurements: names, dataTypes: types, values: [1, 'x', 1.5] },
      { deviceId: 'root.sg.d1', timestamp: 2n ** 60n, measurements: names, dataTypes: types, values: [2, null, 2.5] },
      { deviceId: 'root.sg.d2', timestamp: 3, measurements: names, dataTypes: types, values: [3, 'é', 3.5] },
      { deviceId: 'root.sg.d1', timestamp: 4, measurements: ['z'], dataTypes: ['INT64' as const], values: [4n] },
      { deviceId: 'root.sg.d1', timestamp: 5, measurements: names, dataTypes: types, values: [5, 'y', 5.5] },
    ].map((r, i) => encodeRecord(r, `records[${i}]`, 'ms', cache));
    const fast = new ByteWriter(16);
    writeInsertRecordsReq(fast, 7n, records, true);
    const generic = new ByteWriter(16);
    writeStruct(generic, TSInsertRecordsReqSchema, {
      sessionId: 7n,
      prefixPaths: records.map((r) => r.deviceId),
      measurementsList: records.map((r) => r.measurements),
      valuesList: records.map((r) => r.values),
      timestamps: records.map((r) => r.timestamp),
      isAligned: true,
    });
    expect(Buffer.from(fast.view()).toString('hex')).toBe(Buffer.from(generic.view()).toString('hex'));
  });
});
