import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IoTDBProtocolError } from '../errors.js';
import { ByteReader } from '../io/byte-reader.js';
import { ByteWriter } from '../io/byte-writer.js';
import { prepareTablet } from '../tablet/prepare-tablet.js';
import { writeInsertTabletReqCompact, writeInsertTabletsReqCompact } from '../tablet/insert-tablet-request-compact.js';
import { writeInsertTabletReq } from '../tablet/insert-tablet-request.js';
import { beginCallCompact, readMessageHeaderCompact, readStructCompact, writeStructCompact } from './compact.js';
import {
  TSExecuteStatementRespSchema,
  TSInsertTabletReqSchema,
  TSInsertTabletsReqSchema,
  TSStatusSchema,
} from './iotdb-idl.js';
import { readStruct } from './struct-codec.js';

const bytes = (f: (w: ByteWriter) => void) => {
  const w = new ByteWriter(16);
  f(w);
  return Buffer.from(w.view());
};

describe('compact protocol', () => {
  it('round-trips a status and a query response, int64 extremes and nested statuses included', () => {
    const status = {
      code: 302,
      message: 'm é',
      subStatus: [
        { code: 200, redirectNode: { ip: '10.0.0.1', port: 6667 }, needRetry: false },
        { code: -1, needRetry: true },
      ],
    };
    expect(
      readStructCompact(new ByteReader(bytes((w) => writeStructCompact(w, TSStatusSchema, status))), TSStatusSchema),
    ).toEqual(status);
    const resp = {
      status: { code: 200 },
      queryId: -(2n ** 63n),
      columns: Array.from({ length: 20 }, (_, i) => `c${i}`), // a list of 15 or more: the long list header
      ignoreTimeStamp: false,
      columnNameIndexMap: new Map([
        ['a', 0],
        ['b', -7],
      ]),
      queryResult: [Buffer.from('0102', 'hex'), Buffer.alloc(0)],
      moreData: true,
      columnIndex2TsBlockColumnIndexList: [0, 2 ** 31 - 1, -(2 ** 31)],
    };
    expect(
      readStructCompact(
        new ByteReader(bytes((w) => writeStructCompact(w, TSExecuteStatementRespSchema, resp))),
        TSExecuteStatementRespSchema,
      ),
    ).toEqual(resp);
  });

  it('writes a call header a compact reader reads back', () => {
    const b = bytes((w) => {
      const at = beginCallCompact(w, 'insertTablet', 77, { struct: TSInsertTabletReqSchema });
      void at;
    });
    const h = readMessageHeaderCompact(new ByteReader(b.subarray(4)));
    expect(h).toEqual({ method: 'insertTablet', seqid: 77, type: 1 });
  });

  it('the fast-path tablet request carries the same values and timestamps as the binary one', () => {
    const t = {
      deviceId: 'root.a.d',
      measurements: ['x', 'y'],
      dataTypes: ['INT64' as const, 'TEXT' as const],
      timestamps: [3, 1, 2],
      values: [
        [1n, 'a'],
        [null, 'b'],
        [3n, null],
      ],
    };
    const p = prepareTablet(t);
    const compact = readStructCompact(
      new ByteReader(bytes((w) => writeInsertTabletReqCompact(w, 9n, p))),
      TSInsertTabletReqSchema,
    );
    const binary = readStruct(new ByteReader(bytes((w) => writeInsertTabletReq(w, 9n, p))), TSInsertTabletReqSchema);
    expect(compact).toEqual(binary);
    const many = readStructCompact(
      new ByteReader(bytes((w) => writeInsertTabletsReqCompact(w, 9n, [p, p]))),
      TSInsertTabletsReqSchema,
    );
    expect(many.valuesList).toEqual([binary.values, binary.values]);
    expect(many.sizeList).toEqual([3, 3]);
  });

  it('meets hostile bytes with IoTDBProtocolError only', () => {
    const base = bytes((w) =>
      writeStructCompact(w, TSStatusSchema, { code: 302, message: 'x', subStatus: [{ code: 1 }] }),
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.nat(), (noise, at) => {
        const b = Buffer.concat([base.subarray(0, at % (base.length + 1)), Buffer.from(noise)]);
        try {
          readStructCompact(new ByteReader(b), TSStatusSchema);
        } catch (e) {
          expect(e).toBeInstanceOf(IoTDBProtocolError);
        }
      }),
      { seed: 20261123, numRuns: 500 },
    );
    // nesting 6000 deep: { 1: code, 3: [ { ... } ] }
    const level = Buffer.from([0x15, 2, 0x29, 0x1c]);
    const deep = Buffer.concat([...Array.from({ length: 6000 }, () => level), Buffer.alloc(6000, 0)]);
    expect(() => readStructCompact(new ByteReader(deep), TSStatusSchema)).toThrow(/nested deeper than 64/);
  });
});
