import { describe, expect, it } from 'vitest';
import { IoTDBProtocolError } from '../errors.js';
import { ByteReader } from '../io/byte-reader.js';
import { ByteWriter } from '../io/byte-writer.js';
import {
  IClientRPCService,
  TSExecuteStatementRespSchema,
  TSStatusSchema,
  type TSExecuteStatementResp,
  type TSStatus,
} from './iotdb-idl.js';
import { holdsViews, readStruct, writeStruct, type StructOf, type StructSchema } from './struct-codec.js';
import { TType } from './ttype.js';

function encode(schema: StructSchema, value: object): Buffer {
  const w = new ByteWriter(8);
  writeStruct(w, schema, value);
  return Buffer.from(w.view());
}

function decode<S extends StructSchema>(schema: S, bytes: Buffer): StructOf<S> {
  const r = new ByteReader(bytes);
  const v = readStruct(r, schema);
  expect(r.remaining).toBe(0);
  return v;
}

const status: TSStatus = {
  code: 302,
  message: 'multiple errors: é中😀',
  subStatus: [
    { code: 200, redirectNode: { ip: '10.0.0.2', port: 6667 } },
    { code: 507, message: '', needRetry: true, subStatus: [{ code: 400, redirectNode: { ip: '::1', port: 65535 } }] },
    { code: -1, needRetry: false },
  ],
  redirectNode: { ip: '0.0.0.0', port: 0 },
  needRetry: false,
};

const resp: TSExecuteStatementResp = {
  status: { code: 200, message: 'ok' },
  queryId: -(2n ** 63n),
  columns: ['root.sg.d1.s1', 'root.sg.d1.s2'],
  operationType: 'QUERY',
  ignoreTimeStamp: false,
  dataTypeList: ['INT64', 'TEXT'],
  columnNameIndexMap: new Map([
    ['root.sg.d1.s1', 0],
    ['root.sg.d1.s2', -7],
  ]),
  queryResult: [Buffer.from('000102ff', 'hex'), Buffer.alloc(0), Buffer.from('hello')],
  moreData: true,
  database: 'db',
  tableModel: true,
  columnIndex2TsBlockColumnIndexList: [0, 1, 1, -1],
};

describe('writeStruct / readStruct round trip', () => {
  it('round-trips TSStatus with nested subStatus and redirectNode', () => {
    expect(decode(TSStatusSchema, encode(TSStatusSchema, status))).toEqual(status);
  });

  it('round-trips TSExecuteStatementResp with queryResult binaries and a map', () => {
    const back = decode(TSExecuteStatementRespSchema, encode(TSExecuteStatementRespSchema, resp));
    expect(back).toEqual(resp);
    expect(back.queryResult!.map((b) => b.toString('hex'))).toEqual(['000102ff', '', '68656c6c6f']);
    expect(back.columnNameIndexMap).toBeInstanceOf(Map);
  });

  it('writes the TBinaryProtocol bytes of a TSStatus', () => {
    const bytes = encode(TSStatusSchema, {
      code: 400,
      message: 'é',
      redirectNode: { ip: 'h', port: 1 },
      needRetry: true,
    });
    expect(bytes.toString('hex')).toBe(
      '08000100000190' +
        '0b000200000002c3a9' +
        '0c0004' +
        '0b00010000000168' +
        '080002' +
        '00000001' +
        '00' +
        '02000501' +
        '00',
    );
  });

  it('writes a map given as a plain object like a Map', () => {
    const asObject = { ...resp, columnNameIndexMap: { 'root.sg.d1.s1': 0, 'root.sg.d1.s2': -7 } };
    expect(encode(TSExecuteStatementRespSchema, asObject)).toEqual(encode(TSExecuteStatementRespSchema, resp));
  });

  it('leaves out absent optional fields and refuses to write a missing required one', () => {
    expect(encode(TSStatusSchema, { code: 1, message: undefined, subStatus: null }).toString('hex')).toBe(
      '0800010000000100',
    );
    expect(() => encode(TSStatusSchema, { message: 'x' })).toThrow(/TSStatus.code is required/);
  });

  it('reads binary fields as views on the input, without copying', () => {
    const bytes = encode(TSExecuteStatementRespSchema, resp);
    const back = decode(TSExecuteStatementRespSchema, bytes);
    expect(back.queryResult![0].buffer).toBe(bytes.buffer);
  });
});

/** Field headers and values of every Thrift type, none of which the schemas know (ids 100+). */
function unknownFields(): Buffer {
  const w = new ByteWriter(64);
  w.i8(TType.BOOL).i16(100).i8(1);
  w.i8(TType.BYTE).i16(101).i8(-5);
  w.i8(TType.DOUBLE).i16(102).f64(3.25);
  w.i8(TType.I16).i16(103).i16(-2);
  w.i8(TType.I32).i16(104).i32(123456);
  w.i8(TType.I64).i16(105).i64(-1n);
  w.i8(TType.STRING).i16(106).lengthPrefixedUtf8('ignored');
  w.i8(TType.STRUCT).i16(107); // a struct with a nested struct and a list inside
  w.i8(TType.I32).i16(1).i32(9).i8(TType.STRUCT).i16(2).i8(TType.STRING).i16(1).lengthPrefixedUtf8('x').i8(TType.STOP);
  w.i8(TType.LIST).i16(3).i8(TType.I64).i32(2).i64(1n).i64(2n).i8(TType.STOP);
  w.i8(TType.MAP).i16(108).i8(TType.STRING).i8(TType.LIST).i32(2);
  w.lengthPrefixedUtf8('k1').i8(TType.I16).i32(1).i16(7);
  w.lengthPrefixedUtf8('k2').i8(TType.I16).i32(0);
  w.i8(TType.SET).i16(109).i8(TType.I32).i32(3).i32(1).i32(2).i32(3);
  w.i8(TType.LIST).i16(110).i8(TType.STRUCT).i32(2).i8(TType.STOP).i8(TType.BOOL).i16(1).i8(0).i8(TType.STOP);
  w.i8(TType.MAP).i16(111).i8(TType.BOOL).i8(TType.DOUBLE).i32(0);
  w.i8(TType.I32).i16(2).i32(77); // a known id (TSStatus.message) with the wrong type: skipped as well
  return Buffer.from(w.view());
}

/** Inserts `extra` field bytes right before the struct's final STOP. */
const beforeStop = (struct: Buffer, extra: Buffer) =>
  Buffer.concat([struct.subarray(0, -1), extra, struct.subarray(-1)]);
const atStart = (struct: Buffer, extra: Buffer) => Buffer.concat([extra, struct]);

describe('unknown fields', () => {
  it('skips unknown fields of every Thrift type before the known ones', () => {
    const bytes = atStart(encode(TSStatusSchema, status), unknownFields());
    expect(decode(TSStatusSchema, bytes)).toEqual(status);
  });

  it('skips unknown fields of every Thrift type after the known ones', () => {
    const bytes = beforeStop(encode(TSExecuteStatementRespSchema, resp), unknownFields());
    expect(decode(TSExecuteStatementRespSchema, bytes)).toEqual(resp);
  });

  it('skips unknown fields inside a nested struct', () => {
    const inner = beforeStop(encode(TSStatusSchema, { code: 7 }), unknownFields());
    const w = new ByteWriter(64);
    w.i8(TType.STRUCT).i16(1).bytes(inner).i8(TType.I64).i16(2).i64(5n).i8(TType.STOP);
    const back = decode(TSExecuteStatementRespSchema, Buffer.from(w.view()));
    expect(back).toEqual({ status: { code: 7 }, queryId: 5n });
  });

  it('skips a known field id that arrives with another type', () => {
    const bytes = Buffer.from('0b000100000001' + '31' + '0800010000000c' + '00', 'hex'); // code as string "1", then as i32 12
    expect(decode(TSStatusSchema, bytes)).toEqual({ code: 12 });
  });

  it('rejects an unknown Thrift type code', () => {
    const bytes = atStart(encode(TSStatusSchema, { code: 1 }), Buffer.from('07006400', 'hex'));
    expect(() => decode(TSStatusSchema, bytes)).toThrow(/unknown Thrift type 7/);
  });
});

describe('malformed input', () => {
  it('throws IoTDBProtocolError for a missing required field', () => {
    const noCode = Buffer.from('0b000200000001' + '78' + '00', 'hex'); // only message "x"
    expect(() => decode(TSStatusSchema, noCode)).toThrow(IoTDBProtocolError);
    expect(() => decode(TSStatusSchema, noCode)).toThrow(/TSStatus.code is required/);
  });

  it('throws IoTDBProtocolError for a missing required field of a nested struct', () => {
    const w = new ByteWriter(32);
    w.i8(TType.I32)
      .i16(1)
      .i32(200)
      .i8(TType.STRUCT)
      .i16(4)
      .i8(TType.STRING)
      .i16(1)
      .lengthPrefixedUtf8('h')
      .i8(TType.STOP)
      .i8(TType.STOP);
    expect(() => decode(TSStatusSchema, Buffer.from(w.view()))).toThrow(/TEndPoint.port is required/);
  });

  it('throws IoTDBProtocolError for a response without its required status', () => {
    expect(() => decode(TSExecuteStatementRespSchema, Buffer.from('0a0002000000000000000100', 'hex'))).toThrow(
      IoTDBProtocolError,
    );
  });

  it.each<[string, StructSchema, object]>([
    ['TSStatus', TSStatusSchema, status],
    ['TSExecuteStatementResp', TSExecuteStatementRespSchema, resp],
  ])('throws IoTDBProtocolError for every truncation of a %s', (_name, schema, value) => {
    for (const bytes of [encode(schema, value), atStart(encode(schema, value), unknownFields())]) {
      for (let n = 0; n < bytes.length; n++) {
        const prefix = Buffer.from(bytes.subarray(0, n));
        expect(() => readStruct(new ByteReader(prefix), schema), `prefix of ${n} bytes`).toThrow(IoTDBProtocolError);
      }
    }
  });

  it('throws IoTDBProtocolError for a string length beyond the end', () => {
    expect(() => decode(TSStatusSchema, Buffer.from('080001000000010b00027fffffff00', 'hex'))).toThrow(
      IoTDBProtocolError,
    );
  });

  it('throws IoTDBProtocolError for a negative list count', () => {
    const bytes = Buffer.from('08000100000001' + '0f0003' + '0c' + 'ffffffff' + '00', 'hex'); // subStatus with count -1
    expect(() => decode(TSStatusSchema, bytes)).toThrow(IoTDBProtocolError);
  });
});

describe('holdsViews: whether a decoded value keeps views of its frame', () => {
  it('is true wherever a binary is, in a list, a map or a struct, and false for the rest', () => {
    expect(holdsViews('binary')).toBe(true);
    expect(holdsViews('string')).toBe(false);
    expect(holdsViews({ list: 'binary' })).toBe(true);
    expect(holdsViews({ map: ['string', { list: 'binary' }] })).toBe(true);
    expect(holdsViews({ map: ['string', 'i64'] })).toBe(false);
    expect(holdsViews({ struct: TSStatusSchema })).toBe(false); // its subStatus the struct itself
  });

  it("is true for a query's reply (its TsBlocks, and the older data sets), false for a write's", () => {
    expect(holdsViews(IClientRPCService.executeQueryStatementV2.result)).toBe(true);
    expect(holdsViews(IClientRPCService.fetchResultsV2.result)).toBe(true);
    expect(holdsViews(IClientRPCService.insertTablet.result)).toBe(false);
    expect(holdsViews(IClientRPCService.openSession.result)).toBe(false);
  });
});
