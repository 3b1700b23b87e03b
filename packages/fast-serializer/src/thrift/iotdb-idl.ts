import type { FieldType, StructSchema } from './struct-codec.js';

/**
 * The subset of IoTDB 2.0.1-beta's client.thrift / common.thrift that this client speaks,
 * written as data for struct-codec.ts. Field ids and types follow the release IDL exactly;
 * fields added after 2.0.1 (TSInsertTabletReq 11-13, TSFetchResultsReq.statementId) are left out on purpose.
 */
const list = (t: FieldType): FieldType => ({ list: t });
const struct = (s: StructSchema): FieldType => ({ struct: s });

export interface TEndPoint {
  ip: string;
  port: number;
}
export const TEndPointSchema: StructSchema = {
  name: 'TEndPoint',
  fields: [
    { id: 1, name: 'ip', type: 'string', required: true },
    { id: 2, name: 'port', type: 'i32', required: true },
  ],
};

export interface TSStatus {
  code: number;
  message?: string;
  subStatus?: TSStatus[];
  redirectNode?: TEndPoint;
  needRetry?: boolean;
}
export const TSStatusSchema: StructSchema = {
  name: 'TSStatus',
  fields: [
    { id: 1, name: 'code', type: 'i32', required: true },
    { id: 2, name: 'message', type: 'string' },
    // id 3 (subStatus: list<TSStatus>) is added below: the schema refers to itself
    { id: 4, name: 'redirectNode', type: struct(TEndPointSchema) },
    { id: 5, name: 'needRetry', type: 'bool' },
  ],
};
TSStatusSchema.fields.splice(2, 0, { id: 3, name: 'subStatus', type: list(struct(TSStatusSchema)) });

/** TSProtocolVersion.IOTDB_SERVICE_PROTOCOL_V3: anything else gets INCOMPATIBLE_VERSION (201). */
export const IOTDB_SERVICE_PROTOCOL_V3 = 2;

export interface TSOpenSessionReq {
  client_protocol: number;
  zoneId: string;
  username: string;
  password?: string;
  configuration?: Map<string, string>;
}
export const TSOpenSessionReqSchema: StructSchema = {
  name: 'TSOpenSessionReq',
  fields: [
    { id: 1, name: 'client_protocol', type: 'i32', required: true },
    { id: 2, name: 'zoneId', type: 'string', required: true },
    { id: 3, name: 'username', type: 'string', required: true },
    { id: 4, name: 'password', type: 'string' },
    { id: 5, name: 'configuration', type: { map: ['string', 'string'] } },
  ],
};

export interface TSOpenSessionResp {
  status: TSStatus;
  serverProtocolVersion: number;
  sessionId?: bigint;
  configuration?: Map<string, string>;
}
export const TSOpenSessionRespSchema: StructSchema = {
  name: 'TSOpenSessionResp',
  fields: [
    { id: 1, name: 'status', type: struct(TSStatusSchema), required: true },
    { id: 2, name: 'serverProtocolVersion', type: 'i32' },
    { id: 3, name: 'sessionId', type: 'i64' },
    { id: 4, name: 'configuration', type: { map: ['string', 'string'] } },
  ],
};

export interface TSCloseSessionReq {
  sessionId: bigint;
}
export const TSCloseSessionReqSchema: StructSchema = {
  name: 'TSCloseSessionReq',
  fields: [{ id: 1, name: 'sessionId', type: 'i64', required: true }],
};

export interface TSExecuteStatementReq {
  sessionId: bigint;
  statement: string;
  statementId: bigint;
  fetchSize?: number;
  timeout?: bigint | number;
  enableRedirectQuery?: boolean;
  jdbcQuery?: boolean;
}
export const TSExecuteStatementReqSchema: StructSchema = {
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
};

export interface TSExecuteStatementResp {
  status: TSStatus;
  queryId?: bigint;
  columns?: string[];
  operationType?: string;
  ignoreTimeStamp?: boolean;
  dataTypeList?: string[];
  columnNameIndexMap?: Map<string, number>;
  queryResult?: Buffer[];
  moreData?: boolean;
  database?: string;
  tableModel?: boolean;
  columnIndex2TsBlockColumnIndexList?: number[];
}
export const TSExecuteStatementRespSchema: StructSchema = {
  name: 'TSExecuteStatementResp',
  fields: [
    { id: 1, name: 'status', type: struct(TSStatusSchema), required: true },
    { id: 2, name: 'queryId', type: 'i64' },
    { id: 3, name: 'columns', type: list('string') },
    { id: 4, name: 'operationType', type: 'string' },
    { id: 5, name: 'ignoreTimeStamp', type: 'bool' },
    { id: 6, name: 'dataTypeList', type: list('string') },
    // 7, 8 (V1 TSQueryDataSet), 10 sgColumns, 11 aliasColumns, 12 tracingInfo: skipped
    { id: 9, name: 'columnNameIndexMap', type: { map: ['string', 'i32'] } },
    { id: 13, name: 'queryResult', type: list('binary') },
    { id: 14, name: 'moreData', type: 'bool' },
    { id: 15, name: 'database', type: 'string' },
    { id: 16, name: 'tableModel', type: 'bool' },
    { id: 17, name: 'columnIndex2TsBlockColumnIndexList', type: list('i32') },
  ],
};

export interface TSFetchResultsReq {
  sessionId: bigint;
  statement: string;
  fetchSize: number;
  queryId: bigint;
  isAlign: boolean;
  timeout?: bigint | number;
}
export const TSFetchResultsReqSchema: StructSchema = {
  name: 'TSFetchResultsReq',
  fields: [
    { id: 1, name: 'sessionId', type: 'i64', required: true },
    { id: 2, name: 'statement', type: 'string', required: true },
    { id: 3, name: 'fetchSize', type: 'i32', required: true },
    { id: 4, name: 'queryId', type: 'i64', required: true },
    { id: 5, name: 'isAlign', type: 'bool', required: true },
    { id: 6, name: 'timeout', type: 'i64' },
  ],
};

export interface TSFetchResultsResp {
  status: TSStatus;
  hasResultSet: boolean;
  isAlign: boolean;
  queryResult?: Buffer[];
  moreData?: boolean;
}
export const TSFetchResultsRespSchema: StructSchema = {
  name: 'TSFetchResultsResp',
  fields: [
    { id: 1, name: 'status', type: struct(TSStatusSchema), required: true },
    { id: 2, name: 'hasResultSet', type: 'bool' },
    { id: 3, name: 'isAlign', type: 'bool' },
    { id: 6, name: 'queryResult', type: list('binary') },
    { id: 7, name: 'moreData', type: 'bool' },
  ],
};

export interface TSCloseOperationReq {
  sessionId: bigint;
  queryId?: bigint;
  statementId?: bigint;
}
export const TSCloseOperationReqSchema: StructSchema = {
  name: 'TSCloseOperationReq',
  fields: [
    { id: 1, name: 'sessionId', type: 'i64', required: true },
    { id: 2, name: 'queryId', type: 'i64' },
    { id: 3, name: 'statementId', type: 'i64' },
  ],
};

/** TSInsertTabletReq: the fast path writes it without this schema (tablet/insert-tablet-request.ts). */
export interface TSInsertTabletReq {
  sessionId: bigint;
  prefixPath: string;
  measurements: readonly string[];
  values: Uint8Array;
  timestamps: Uint8Array;
  types: readonly number[];
  size: number;
  isAligned?: boolean;
  writeToTable?: boolean;
  columnCategories?: readonly number[];
}
export const TSInsertTabletReqSchema: StructSchema = {
  name: 'TSInsertTabletReq',
  fields: [
    { id: 1, name: 'sessionId', type: 'i64', required: true },
    { id: 2, name: 'prefixPath', type: 'string', required: true },
    { id: 3, name: 'measurements', type: list('string'), required: true },
    { id: 4, name: 'values', type: 'binary', required: true },
    { id: 5, name: 'timestamps', type: 'binary', required: true },
    { id: 6, name: 'types', type: list('i32'), required: true },
    { id: 7, name: 'size', type: 'i32', required: true },
    { id: 8, name: 'isAligned', type: 'bool' },
    { id: 9, name: 'writeToTable', type: 'bool' },
    { id: 10, name: 'columnCategories', type: list('byte') },
  ],
};

export interface TSInsertTabletsReq {
  sessionId: bigint;
  prefixPaths: readonly string[];
  measurementsList: readonly (readonly string[])[];
  valuesList: readonly Uint8Array[];
  timestampsList: readonly Uint8Array[];
  typesList: readonly (readonly number[])[];
  sizeList: readonly number[];
  isAligned?: boolean;
}
export const TSInsertTabletsReqSchema: StructSchema = {
  name: 'TSInsertTabletsReq',
  fields: [
    { id: 1, name: 'sessionId', type: 'i64', required: true },
    { id: 2, name: 'prefixPaths', type: list('string'), required: true },
    { id: 3, name: 'measurementsList', type: list(list('string')), required: true },
    { id: 4, name: 'valuesList', type: list('binary'), required: true },
    { id: 5, name: 'timestampsList', type: list('binary'), required: true },
    { id: 6, name: 'typesList', type: list(list('i32')), required: true },
    { id: 7, name: 'sizeList', type: list('i32'), required: true },
    { id: 8, name: 'isAligned', type: 'bool' },
  ],
};

export interface TSInsertRecordReq {
  sessionId: bigint;
  prefixPath: string;
  measurements: readonly string[];
  values: Uint8Array;
  timestamp: bigint | number;
  isAligned?: boolean;
  isWriteToTable?: boolean;
  columnCategoryies?: readonly number[];
}
export const TSInsertRecordReqSchema: StructSchema = {
  name: 'TSInsertRecordReq',
  fields: [
    { id: 1, name: 'sessionId', type: 'i64', required: true },
    { id: 2, name: 'prefixPath', type: 'string', required: true },
    { id: 3, name: 'measurements', type: list('string'), required: true },
    { id: 4, name: 'values', type: 'binary', required: true },
    { id: 5, name: 'timestamp', type: 'i64', required: true },
    { id: 6, name: 'isAligned', type: 'bool' },
    { id: 7, name: 'isWriteToTable', type: 'bool' },
    { id: 8, name: 'columnCategoryies', type: list('byte') }, // sic: the IDL's spelling
  ],
};

export interface TSInsertRecordsReq {
  sessionId: bigint;
  prefixPaths: readonly string[];
  measurementsList: readonly (readonly string[])[];
  valuesList: readonly Uint8Array[];
  timestamps: readonly (bigint | number)[];
  isAligned?: boolean;
}
export const TSInsertRecordsReqSchema: StructSchema = {
  name: 'TSInsertRecordsReq',
  fields: [
    { id: 1, name: 'sessionId', type: 'i64', required: true },
    { id: 2, name: 'prefixPaths', type: list('string'), required: true },
    { id: 3, name: 'measurementsList', type: list(list('string')), required: true },
    { id: 4, name: 'valuesList', type: list('binary'), required: true },
    { id: 5, name: 'timestamps', type: list('i64'), required: true },
    { id: 6, name: 'isAligned', type: 'bool' },
  ],
};

/** Argument structs of single-argument RPCs: `service.method(1: Req req)` and `requestStatementId(1: i64)`. */
export function argsSchema(name: string, argType: FieldType): StructSchema {
  return { name: `${name}_args`, fields: [{ id: 1, name: 'req', type: argType, required: true }] };
}

/** Result structs: field 0 carries the return value. */
export function resultSchema(name: string, returnType: FieldType): StructSchema {
  return { name: `${name}_result`, fields: [{ id: 0, name: 'success', type: returnType }] };
}

export { struct as structType, list as listType };
