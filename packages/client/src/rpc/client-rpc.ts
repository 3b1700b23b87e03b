import {
  TSCloseOperationReqSchema,
  TSCloseSessionReqSchema,
  TSExecuteStatementReqSchema,
  TSExecuteStatementRespSchema,
  TSFetchResultsReqSchema,
  TSFetchResultsRespSchema,
  TSInsertRecordReqSchema,
  TSInsertRecordsReqSchema,
  TSInsertTabletReqSchema,
  TSOpenSessionReqSchema,
  TSOpenSessionRespSchema,
  TSStatusSchema,
  TType,
  resultSchema,
  structType,
  writeInsertTabletReq,
  writeInsertTabletsReq,
  writeStruct,
  type PreparedTablet,
  type StructSchema,
  type TSCloseOperationReq,
  type TSExecuteStatementReq,
  type TSExecuteStatementResp,
  type TSFetchResultsReq,
  type TSFetchResultsResp,
  type TSInsertRecordReq,
  type TSInsertRecordsReq,
  type TSInsertTabletReq,
  type TSOpenSessionReq,
  type TSOpenSessionResp,
  type TSStatus,
} from '@iotdb/fast-serializer';
import type { ThriftConnection } from '../connection/thrift-connection.js';

/**
 * The IClientRPCService calls this client makes, typed. Each one is a single Thrift call on one
 * connection; sessions add ids, status checks and retries on top.
 */
const STATUS = resultSchema('TSStatus', structType(TSStatusSchema));
const EXECUTE_RESP = resultSchema('TSExecuteStatementResp', structType(TSExecuteStatementRespSchema));
const FETCH_RESP = resultSchema('TSFetchResultsResp', structType(TSFetchResultsRespSchema));
const OPEN_RESP = resultSchema('TSOpenSessionResp', structType(TSOpenSessionRespSchema));
const I64 = resultSchema('i64', 'i64');

function structCall<T>(c: ThriftConnection, method: string, schema: StructSchema, req: object, result: StructSchema, timeoutMs?: number): Promise<T> {
  return c.call<T>(method, (w) => writeStruct(w, schema, req), result, { timeoutMs });
}

export const rpc = {
  openSession: (c: ThriftConnection, req: TSOpenSessionReq) =>
    structCall<TSOpenSessionResp>(c, 'openSession', TSOpenSessionReqSchema, req, OPEN_RESP),

  closeSession: (c: ThriftConnection, sessionId: bigint) =>
    structCall<TSStatus>(c, 'closeSession', TSCloseSessionReqSchema, { sessionId }, STATUS),

  /** `requestStatementId(1: i64 sessionId)`: the args field is an i64, not a struct. */
  requestStatementId: (c: ThriftConnection, sessionId: bigint) =>
    c.call<bigint>('requestStatementId', (w) => w.i64(sessionId), I64, { argType: TType.I64 }),

  /** `timeoutMs` is the query's own (QueryOptions.timeoutMs): it replaces requestTimeoutMs for the reply wait. */
  executeQueryStatementV2: (c: ThriftConnection, timeoutMs: number, req: TSExecuteStatementReq) =>
    structCall<TSExecuteStatementResp>(c, 'executeQueryStatementV2', TSExecuteStatementReqSchema, req, EXECUTE_RESP, timeoutMs),

  executeUpdateStatementV2: (c: ThriftConnection, req: TSExecuteStatementReq) =>
    structCall<TSExecuteStatementResp>(c, 'executeUpdateStatementV2', TSExecuteStatementReqSchema, req, EXECUTE_RESP),

  fetchResultsV2: (c: ThriftConnection, timeoutMs: number, req: TSFetchResultsReq) =>
    structCall<TSFetchResultsResp>(c, 'fetchResultsV2', TSFetchResultsReqSchema, req, FETCH_RESP, timeoutMs),

  closeOperation: (c: ThriftConnection, req: TSCloseOperationReq) =>
    structCall<TSStatus>(c, 'closeOperation', TSCloseOperationReqSchema, req, STATUS),

  /**
   * The fast path: the whole request written straight from the tablet into one pooled buffer.
   * `testInsertTablet` is the same request that the server decodes and acknowledges without storing.
   */
  insertTablet: (c: ThriftConnection, sessionId: bigint, tablet: PreparedTablet, method: 'insertTablet' | 'testInsertTablet' = 'insertTablet') =>
    c.call<TSStatus>(method, (w) => writeInsertTabletReq(w, sessionId, tablet), STATUS),

  /** The plain path (`enableFastSerialization: false`): a prebuilt request struct through the generic codec. */
  insertTabletStruct: (c: ThriftConnection, req: TSInsertTabletReq) =>
    structCall<TSStatus>(c, 'insertTablet', TSInsertTabletReqSchema, req, STATUS),

  insertTablets: (c: ThriftConnection, sessionId: bigint, tablets: readonly PreparedTablet[], method: 'insertTablets' | 'testInsertTablets' = 'insertTablets') =>
    c.call<TSStatus>(method, (w) => writeInsertTabletsReq(w, sessionId, tablets), STATUS),

  insertRecord: (c: ThriftConnection, req: TSInsertRecordReq) =>
    structCall<TSStatus>(c, 'insertRecord', TSInsertRecordReqSchema, req, STATUS),

  insertRecords: (c: ThriftConnection, req: TSInsertRecordsReq, method: 'insertRecords' | 'testInsertRecords' = 'insertRecords') =>
    structCall<TSStatus>(c, method, TSInsertRecordsReqSchema, req, STATUS),
};
