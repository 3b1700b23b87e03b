export { Session } from './session/session.js';
export { TableSession } from './session/table-session.js';
export { BaseSession } from './session/base-session.js';
export type { QueryOptions, SqlDialect, TimestampPrecision } from './session/base-session.js';
export { SessionDataSet } from './session/session-data-set.js';
export { SessionPool, TableSessionPool } from './pool/session-pool.js';
export type { ParallelOptions } from './pool/session-pool.js';
export { Pool } from './pool/pool.js';
export type { PoolStats } from './pool/pool.js';
export type { PoolOptions } from './pool/pool-options.js';
export { RowRecord } from './session/row-record.js';
export type { IoTDBValue } from './session/row-record.js';
export type { ColumnarResult } from './session/columnar.js';
export type { SessionOptions, TableSessionOptions, Int64Mode } from './session/options.js';
export {
  IoTDBError,
  IoTDBValidationError,
  IoTDBProtocolError,
  IoTDBServerError,
  IoTDBConnectionError,
  IoTDBTimeoutError,
  IoTDBSessionClosedError,
  IoTDBBatchError,
  IoTDBPoolTimeoutError,
} from './errors.js';
export type { ConnectionFailure, BatchFailure } from './errors.js';
export { StatusCode } from './rpc/status.js';
export {
  TSDataType,
  ColumnCategory,
  BufferPool,
  globalBufferPool,
  decodeDate,
} from '@iotdb/fast-serializer';
export type {
  Tablet,
  TableTablet,
  TabletData,
  RecordInput,
  CellValue,
  ColumnInput,
  TimestampsInput,
  DataTypeInput,
  TSDataTypeName,
  ColumnCategoryName,
  ColumnValues,
  BufferPoolOptions,
  BufferPoolStats,
  TSStatus,
} from '@iotdb/fast-serializer';
