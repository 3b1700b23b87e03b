import { schema, type FieldType, type StructInput, type StructOf } from './struct-codec.js';

/**
 * The subset of IoTDB 2.0.1-beta's client.thrift / common.thrift that this client speaks, written as data
 * for struct-codec.ts. Each struct is defined once, as a schema; its TypeScript types are derived from
 * it: `StructOf` for what the decoder returns (replies), `StructInput` for what the encoder takes
 * (requests). Field ids and types follow the release IDL exactly; fields added after 2.0.1
 * (TSInsertTabletReq 11-13, TSFetchResultsReq.statementId) are left out on purpose.
 */

export const TEndPointSchema = schema({
  name: 'TEndPoint',
  fields: [
    { id: 1, name: 'ip', type: 'string', required: true },
    { id: 2, name: 'port', type: 'i32', required: true },
  ],
});
export type TEndPoint = StructOf<typeof TEndPointSchema>;

export const TSStatusSchema = schema({
  name: 'TSStatus',
  fields: [
    { id: 1, name: 'code', type: 'i32', required: true },
    { id: 2, name: 'message', type: 'string' },
    { id: 3, name: 'subStatus', type: { list: { struct: 'self' } } },
    { id: 4, name: 'redirectNode', type: { struct: TEndPointSchema } },
    { id: 5, name: 'needRetry', type: 'bool' },
  ],
});
export type TSStatus = StructOf<typeof TSStatusSchema>;

/** TSProtocolVersion.IOTDB_SERVICE_PROTOCOL_V3: anything else gets INCOMPATIBLE_VERSION (201). */
export const IOTDB_SERVICE_PROTOCOL_V3 = 2;

export const TSOpenSessionReqSchema = schema({
  name: 'TSOpenSessionReq',
  fields: [
    { id: 1, name: 'client_protocol', type: 'i32', required: true },
    { id: 2, name: 'zoneId', type: 'string', required: true },
    { id: 3, name: 'username', type: 'string', required: true },
    { id: 4, name: 'password', type: 'string' },
    { id: 5, name: 'configuration', type: { map: ['string', 'string'] } },
  ],
});
export type TSOpenSessionReq = StructInput<typeof TSOpenSessionReqSchema>;

export const TSOpenSessionRespSchema = schema({
  name: 'TSOpenSessionResp',
  fields: [
    { id: 1, name: 'status', type: { struct: TSStatusSchema }, required: true },
    { id: 2, name: 'serverProtocolVersion', type: 'i32' },
    { id: 3, name: 'sessionId', type: 'i64' },
    { id: 4, name: 'configuration', type: { map: ['string', 'string'] } },
  ],
});
export type TSOpenSessionResp = StructOf<typeof TSOpenSessionRespSchema>;

export const TSCloseSessionReqSchema = schema({
  name: 'TSCloseSessionReq',
  fields: [{ id: 1, name: 'sessionId', type: 'i64', required: true }],
});
export type TSCloseSessionReq = StructInput<typeof TSCloseSessionReqSchema>;

export const TSExecuteStatementReqSchema = schema({
  name: 'TSExecuteStatementReq',
  fields: [
    { id: 1, name: 'sessionId', type: 'i64', required: true },
    { id: 2, name: 'statement', type: 'string', required: true },
    { id: 3, name: 'statementId', type: 'i64', required: true },
    { id: 4, name: 'fetchSize', type: 'i32' },
    { id: 5, name: 'timeout', type: 'i64' },
    { id: 6, name: 'enableRedirectQuery', type: 'bool' },
    { id: 7, name: 'jdbcQuery', type: 'bool' },
  ],
});
export type TSExecuteStatementReq = StructInput<typeof TSExecuteStatementReqSchema>;

export const TSExecuteStatementRespSchema = schema({
  name: 'TSExecuteStatementResp',
  fields: [
    { id: 1, name: 'status', type: { struct: TSStatusSchema }, required: true },
    { id: 2, name: 'queryId', type: 'i64' },
    { id: 3, name: 'columns', type: { list: 'string' } },
    { id: 4, name: 'operationType', type: 'string' },
    { id: 5, name: 'ignoreTimeStamp', type: 'bool' },
    { id: 6, name: 'dataTypeList', type: { list: 'string' } },
    // 7, 8 (V1 TSQueryDataSet), 10 sgColumns, 11 aliasColumns, 12 tracingInfo: skipped
    { id: 9, name: 'columnNameIndexMap', type: { map: ['string', 'i32'] } },
    { id: 13, name: 'queryResult', type: { list: 'binary' } },
    { id: 14, name: 'moreData', type: 'bool' },
    { id: 15, name: 'database', type: 'string' },
    { id: 16, name: 'tableModel', type: 'bool' },
    { id: 17, name: 'columnIndex2TsBlockColumnIndexList', type: { list: 'i32' } },
  ],
});
export type TSExecuteStatementResp = StructOf<typeof TSExecuteStatementRespSchema>;

export const TSFetchResultsReqSchema = schema({
  name: 'TSFetchResultsReq',
  fields: [
    { id: 1, name: 'sessionId', type: 'i64', required: true },
    { id: 2, name: 'statement', type: 'string', required: true },
    { id: 3, name: 'fetchSize', type: 'i32', required: true },
    { id: 4, name: 'queryId', type: 'i64', required: true },
    { id: 5, name: 'isAlign', type: 'bool', required: true },
    { id: 6, name: 'timeout', type: 'i64' },
  ],
});
export type TSFetchResultsReq = StructInput<typeof TSFetchResultsReqSchema>;

export const TSFetchResultsRespSchema = schema({
  name: 'TSFetchResultsResp',
  fields: [
    { id: 1, name: 'status', type: { struct: TSStatusSchema }, required: true },
    { id: 2, name: 'hasResultSet', type: 'bool', required: true },
    { id: 3, name: 'isAlign', type: 'bool', required: true },
    { id: 6, name: 'queryResult', type: { list: 'binary' } },
    { id: 7, name: 'moreData', type: 'bool' },
  ],
});
export type TSFetchResultsResp = StructOf<typeof TSFetchResultsRespSchema>;

export const TSCloseOperationReqSchema = schema({
  name: 'TSCloseOperationReq',
  fields: [
    { id: 1, name: 'sessionId', type: 'i64', required: true },
    { id: 2, name: 'queryId', type: 'i64' },
    { id: 3, name: 'statementId', type: 'i64' },
  ],
});
export type TSCloseOperationReq = StructInput<typeof TSCloseOperationReqSchema>;

export const TSCancelOperationReqSchema = schema({
  name: 'TSCancelOperationReq',
  fields: [
    { id: 1, name: 'sessionId', type: 'i64', required: true },
    { id: 2, name: 'queryId', type: 'i64', required: true },
  ],
});
export type TSCancelOperationReq = StructInput<typeof TSCancelOperationReqSchema>;

export const TSSetTimeZoneReqSchema = schema({
  name: 'TSSetTimeZoneReq',
  fields: [
    { id: 1, name: 'sessionId', type: 'i64', required: true },
    { id: 2, name: 'timeZone', type: 'string', required: true },
  ],
});
export type TSSetTimeZoneReq = StructInput<typeof TSSetTimeZoneReqSchema>;

export const TSRawDataQueryReqSchema = schema({
  name: 'TSRawDataQueryReq',
  fields: [
    { id: 1, name: 'sessionId', type: 'i64', required: true },
    { id: 2, name: 'paths', type: { list: 'string' }, required: true },
    { id: 3, name: 'fetchSize', type: 'i32' },
    { id: 4, name: 'startTime', type: 'i64', required: true },
    { id: 5, name: 'endTime', type: 'i64', required: true },
    { id: 6, name: 'statementId', type: 'i64', required: true },
    { id: 7, name: 'enableRedirectQuery', type: 'bool' },
    { id: 8, name: 'jdbcQuery', type: 'bool' },
    { id: 9, name: 'timeout', type: 'i64' },
    { id: 10, name: 'legalPathNodes', type: 'bool' },
  ],
});
export type TSRawDataQueryReq = StructInput<typeof TSRawDataQueryReqSchema>;

export const TSLastDataQueryReqSchema = schema({
  name: 'TSLastDataQueryReq',
  fields: [
    { id: 1, name: 'sessionId', type: 'i64', required: true },
    { id: 2, name: 'paths', type: { list: 'string' }, required: true },
    { id: 3, name: 'fetchSize', type: 'i32' },
    { id: 4, name: 'time', type: 'i64', required: true },
    { id: 5, name: 'statementId', type: 'i64', required: true },
    { id: 6, name: 'enableRedirectQuery', type: 'bool' },
    { id: 7, name: 'jdbcQuery', type: 'bool' },
    { id: 8, name: 'timeout', type: 'i64' },
    { id: 9, name: 'legalPathNodes', type: 'bool' },
  ],
});
export type TSLastDataQueryReq = StructInput<typeof TSLastDataQueryReqSchema>;

export const TSFastLastDataQueryForOneDeviceReqSchema = schema({
  name: 'TSFastLastDataQueryForOneDeviceReq',
  fields: [
    { id: 1, name: 'sessionId', type: 'i64', required: true },
    { id: 2, name: 'db', type: 'string', required: true },
    { id: 3, name: 'deviceId', type: 'string', required: true },
    { id: 4, name: 'sensors', type: { list: 'string' }, required: true },
    { id: 5, name: 'fetchSize', type: 'i32' },
    { id: 6, name: 'statementId', type: 'i64', required: true },
    { id: 7, name: 'enableRedirectQuery', type: 'bool' },
    { id: 8, name: 'jdbcQuery', type: 'bool' },
    { id: 9, name: 'timeout', type: 'i64' },
    { id: 10, name: 'legalPathNodes', type: 'bool' },
  ],
});
export type TSFastLastDataQueryForOneDeviceReq = StructInput<typeof TSFastLastDataQueryForOneDeviceReqSchema>;

/** common.thrift TAggregationType: the wire value is the ordinal. */
export const TAggregationType = {
  COUNT: 0,
  AVG: 1,
  SUM: 2,
  FIRST_VALUE: 3,
  LAST_VALUE: 4,
  MAX_TIME: 5,
  MIN_TIME: 6,
  MAX_VALUE: 7,
  MIN_VALUE: 8,
  EXTREME: 9,
  COUNT_IF: 10,
  TIME_DURATION: 11,
  MODE: 12,
  COUNT_TIME: 13,
  STDDEV: 14,
  STDDEV_POP: 15,
  STDDEV_SAMP: 16,
  VARIANCE: 17,
  VAR_POP: 18,
  VAR_SAMP: 19,
  MAX_BY: 20,
  MIN_BY: 21,
  UDAF: 22,
  FIRST: 23,
  LAST: 24,
  FIRST_BY: 25,
  LAST_BY: 26,
  MIN: 27,
  MAX: 28,
} as const;
export type TAggregationTypeName = keyof typeof TAggregationType;

export const TSAggregationQueryReqSchema = schema({
  name: 'TSAggregationQueryReq',
  fields: [
    { id: 1, name: 'sessionId', type: 'i64', required: true },
    { id: 2, name: 'statementId', type: 'i64', required: true },
    { id: 3, name: 'paths', type: { list: 'string' }, required: true },
    { id: 4, name: 'aggregations', type: { list: 'i32' }, required: true },
    { id: 5, name: 'startTime', type: 'i64' },
    { id: 6, name: 'endTime', type: 'i64' },
    { id: 7, name: 'interval', type: 'i64' },
    { id: 8, name: 'slidingStep', type: 'i64' },
    { id: 9, name: 'fetchSize', type: 'i32' },
    { id: 10, name: 'timeout', type: 'i64' },
    { id: 11, name: 'legalPathNodes', type: 'bool' },
  ],
});
export type TSAggregationQueryReq = StructInput<typeof TSAggregationQueryReqSchema>;

/** TSInsertTabletReq: the fast path writes it without this schema (tablet/insert-tablet-request.ts). */
export const TSInsertTabletReqSchema = schema({
  name: 'TSInsertTabletReq',
  fields: [
    { id: 1, name: 'sessionId', type: 'i64', required: true },
    { id: 2, name: 'prefixPath', type: 'string', required: true },
    { id: 3, name: 'measurements', type: { list: 'string' }, required: true },
    { id: 4, name: 'values', type: 'binary', required: true },
    { id: 5, name: 'timestamps', type: 'binary', required: true },
    { id: 6, name: 'types', type: { list: 'i32' }, required: true },
    { id: 7, name: 'size', type: 'i32', required: true },
    { id: 8, name: 'isAligned', type: 'bool' },
    { id: 9, name: 'writeToTable', type: 'bool' },
    { id: 10, name: 'columnCategories', type: { list: 'byte' } },
  ],
});
export type TSInsertTabletReq = StructInput<typeof TSInsertTabletReqSchema>;

export const TSInsertTabletsReqSchema = schema({
  name: 'TSInsertTabletsReq',
  fields: [
    { id: 1, name: 'sessionId', type: 'i64', required: true },
    { id: 2, name: 'prefixPaths', type: { list: 'string' }, required: true },
    { id: 3, name: 'measurementsList', type: { list: { list: 'string' } }, required: true },
    { id: 4, name: 'valuesList', type: { list: 'binary' }, required: true },
    { id: 5, name: 'timestampsList', type: { list: 'binary' }, required: true },
    { id: 6, name: 'typesList', type: { list: { list: 'i32' } }, required: true },
    { id: 7, name: 'sizeList', type: { list: 'i32' }, required: true },
    { id: 8, name: 'isAligned', type: 'bool' },
  ],
});
export type TSInsertTabletsReq = StructInput<typeof TSInsertTabletsReqSchema>;

export const TSInsertRecordReqSchema = schema({
  name: 'TSInsertRecordReq',
  fields: [
    { id: 1, name: 'sessionId', type: 'i64', required: true },
    { id: 2, name: 'prefixPath', type: 'string', required: true },
    { id: 3, name: 'measurements', type: { list: 'string' }, required: true },
    { id: 4, name: 'values', type: 'binary', required: true },
    { id: 5, name: 'timestamp', type: 'i64', required: true },
    { id: 6, name: 'isAligned', type: 'bool' },
    { id: 7, name: 'isWriteToTable', type: 'bool' },
    { id: 8, name: 'columnCategoryies', type: { list: 'byte' } }, // sic: the IDL's spelling
  ],
});
export type TSInsertRecordReq = StructInput<typeof TSInsertRecordReqSchema>;

export const TSInsertRecordsReqSchema = schema({
  name: 'TSInsertRecordsReq',
  fields: [
    { id: 1, name: 'sessionId', type: 'i64', required: true },
    { id: 2, name: 'prefixPaths', type: { list: 'string' }, required: true },
    { id: 3, name: 'measurementsList', type: { list: { list: 'string' } }, required: true },
    { id: 4, name: 'valuesList', type: { list: 'binary' }, required: true },
    { id: 5, name: 'timestamps', type: { list: 'i64' }, required: true },
    { id: 6, name: 'isAligned', type: 'bool' },
  ],
});
export type TSInsertRecordsReq = StructInput<typeof TSInsertRecordsReqSchema>;

export const TSInsertStringRecordReqSchema = schema({
  name: 'TSInsertStringRecordReq',
  fields: [
    { id: 1, name: 'sessionId', type: 'i64', required: true },
    { id: 2, name: 'prefixPath', type: 'string', required: true },
    { id: 3, name: 'measurements', type: { list: 'string' }, required: true },
    { id: 4, name: 'values', type: { list: 'string' }, required: true },
    { id: 5, name: 'timestamp', type: 'i64', required: true },
    { id: 6, name: 'isAligned', type: 'bool' },
    { id: 7, name: 'timeout', type: 'i64' },
  ],
});
export type TSInsertStringRecordReq = StructInput<typeof TSInsertStringRecordReqSchema>;

export const TSInsertStringRecordsReqSchema = schema({
  name: 'TSInsertStringRecordsReq',
  fields: [
    { id: 1, name: 'sessionId', type: 'i64', required: true },
    { id: 2, name: 'prefixPaths', type: { list: 'string' }, required: true },
    { id: 3, name: 'measurementsList', type: { list: { list: 'string' } }, required: true },
    { id: 4, name: 'valuesList', type: { list: { list: 'string' } }, required: true },
    { id: 5, name: 'timestamps', type: { list: 'i64' }, required: true },
    { id: 6, name: 'isAligned', type: 'bool' },
  ],
});
export type TSInsertStringRecordsReq = StructInput<typeof TSInsertStringRecordsReqSchema>;

export const TSInsertRecordsOfOneDeviceReqSchema = schema({
  name: 'TSInsertRecordsOfOneDeviceReq',
  fields: [
    { id: 1, name: 'sessionId', type: 'i64', required: true },
    { id: 2, name: 'prefixPath', type: 'string', required: true },
    { id: 3, name: 'measurementsList', type: { list: { list: 'string' } }, required: true },
    { id: 4, name: 'valuesList', type: { list: 'binary' }, required: true },
    { id: 5, name: 'timestamps', type: { list: 'i64' }, required: true },
    { id: 6, name: 'isAligned', type: 'bool' },
  ],
});
export type TSInsertRecordsOfOneDeviceReq = StructInput<typeof TSInsertRecordsOfOneDeviceReqSchema>;

/** A service method: the type of its single argument (args field 1) and of its return value (result field 0). */
export interface MethodSpec {
  readonly args: FieldType;
  readonly result: FieldType;
}

const returns = <const A extends FieldType, const R extends FieldType>(args: A, result: R) => ({ args, result });
const STATUS = { struct: TSStatusSchema } as const;

/** The IClientRPCService methods this client calls, each with its argument and return type. */
export const IClientRPCService = {
  openSession: returns({ struct: TSOpenSessionReqSchema }, { struct: TSOpenSessionRespSchema }),
  closeSession: returns({ struct: TSCloseSessionReqSchema }, STATUS),
  requestStatementId: returns('i64', 'i64'),
  executeQueryStatementV2: returns({ struct: TSExecuteStatementReqSchema }, { struct: TSExecuteStatementRespSchema }),
  executeRawDataQueryV2: returns({ struct: TSRawDataQueryReqSchema }, { struct: TSExecuteStatementRespSchema }),
  executeLastDataQueryV2: returns({ struct: TSLastDataQueryReqSchema }, { struct: TSExecuteStatementRespSchema }),
  executeFastLastDataQueryForOneDeviceV2: returns(
    { struct: TSFastLastDataQueryForOneDeviceReqSchema },
    { struct: TSExecuteStatementRespSchema },
  ),
  executeAggregationQueryV2: returns({ struct: TSAggregationQueryReqSchema }, { struct: TSExecuteStatementRespSchema }),
  executeUpdateStatementV2: returns({ struct: TSExecuteStatementReqSchema }, { struct: TSExecuteStatementRespSchema }),
  fetchResultsV2: returns({ struct: TSFetchResultsReqSchema }, { struct: TSFetchResultsRespSchema }),
  closeOperation: returns({ struct: TSCloseOperationReqSchema }, STATUS),
  cancelOperation: returns({ struct: TSCancelOperationReqSchema }, STATUS),
  setTimeZone: returns({ struct: TSSetTimeZoneReqSchema }, STATUS),
  insertTablet: returns({ struct: TSInsertTabletReqSchema }, STATUS),
  insertTablets: returns({ struct: TSInsertTabletsReqSchema }, STATUS),
  insertRecord: returns({ struct: TSInsertRecordReqSchema }, STATUS),
  insertRecords: returns({ struct: TSInsertRecordsReqSchema }, STATUS),
  insertStringRecord: returns({ struct: TSInsertStringRecordReqSchema }, STATUS),
  insertStringRecords: returns({ struct: TSInsertStringRecordsReqSchema }, STATUS),
  insertRecordsOfOneDevice: returns({ struct: TSInsertRecordsOfOneDeviceReqSchema }, STATUS),
  // the server decodes and acknowledges these without storing anything (benchmarks: --server-noop)
  testInsertTablet: returns({ struct: TSInsertTabletReqSchema }, STATUS),
  testInsertTablets: returns({ struct: TSInsertTabletsReqSchema }, STATUS),
  testInsertRecord: returns({ struct: TSInsertRecordReqSchema }, STATUS),
  testInsertRecords: returns({ struct: TSInsertRecordsReqSchema }, STATUS),
  testInsertStringRecord: returns({ struct: TSInsertStringRecordReqSchema }, STATUS),
  testInsertStringRecords: returns({ struct: TSInsertStringRecordsReqSchema }, STATUS),
} as const satisfies Record<string, MethodSpec>;

export type ClientMethod = keyof typeof IClientRPCService;

/** Argument structs: `service.method(1: Req req)` and `requestStatementId(1: i64)`. */
export function argsSchema(method: string, argType: FieldType) {
  return schema({ name: `${method}_args`, fields: [{ id: 1, name: 'req', type: argType, required: true }] });
}

/** Result structs: field 0 carries the return value. */
export function resultSchema(method: string, returnType: FieldType) {
  return schema({ name: `${method}_result`, fields: [{ id: 0, name: 'success', type: returnType }] });
}
