export { Session } from './session/session.js';
export type { OneDeviceRow, OneDeviceOptions } from './session/tree-writes.js';
export type { TimeInput, AggregationQueryOptions, LastQueryOptions } from './session/session.js';
export { TableSession } from './session/table-session.js';
export { BaseSession } from './session/base-session.js';
export type {
  CallOptions,
  QueryOptions,
  StatementOptions,
  SqlDialect,
  TimestampPrecision,
} from './session/base-session.js';
export { SessionDataSet, type DataSetReadStats, type RowBatch } from './session/session-data-set.js';
export type { FetchOptions } from './session/session-data-set.js';
export { SessionPool, TableSessionPool } from './pool/session-pool.js';
export type { ParallelOptions } from './pool/session-pool.js';
export { Pool } from './pool/pool.js';
export type { PoolStats, ExecuteOptions } from './pool/pool.js';
export type { PoolOptions } from './pool/pool-options.js';
export { RowRecord } from './session/row-record.js';
export type { IoTDBValue } from './session/cell-value.js';
export type { ColumnarResult } from './session/columnar.js';
export type { SessionOptions, TableSessionOptions, Int64Mode, TimestampMode } from './session/options.js';
export { SESSION_DEFAULTS } from './session/options.js';
export { CHANNELS } from './diagnostics/channels.js';
export type {
  TraceContext,
  ConnectTraceContext,
  QueryTraceContext,
  InsertTraceContext,
} from './diagnostics/channels.js';
export type { Logger } from './diagnostics/logger.js';
export type { SessionStats } from './diagnostics/stats.js';
export {
  IoTDBError,
  IoTDBValidationError,
  IoTDBProtocolError,
  IoTDBServerError,
  IoTDBConnectionError,
  IoTDBTimeoutError,
  IoTDBSessionClosedError,
  IoTDBQueryTimeoutError,
  IoTDBBatchError,
  IoTDBPoolTimeoutError,
  IoTDBAbortError,
  IoTDBWriterClosedError,
  IoTDBWriteFailedError,
} from './errors.js';
export type { ConnectionFailure, BatchFailure } from './errors.js';
export { StatusCode } from './protocol/status.js';
export { escapeIdentifier, escapeTableIdentifier, escapeString, sql, SqlFragment } from './sql/escape.js';
export type { SqlValue } from './sql/escape.js';
export { TSEncoding, CompressionType } from './sql/schema-statements.js';
export type {
  TimeseriesSpec,
  AlignedTimeseriesSpec,
  SchemaTemplateSpec,
  TSEncodingName,
  CompressionTypeName,
} from './sql/schema-statements.js';
export { RETRYABLE_WRITE_CODES, isRetryableWriteStatus } from './retry/retryable-status.js';
export { decideRetry, RETRY_DEFAULTS } from './retry/retry-policy.js';
export { MAX_I32, MAX_POOL_SIZE, MAX_TIMER_MS } from './config/checks.js';
export type { RetryOptions, OperationKind, RetryDecision, FailedAttempt } from './retry/retry-policy.js';
export { tcpTransport } from './transport/tcp-transport.js';
export { tlsTransport } from './transport/tls-transport.js';
export type { TlsOptions } from './transport/tls-options.js';
export type { Transport, TransportStream, StreamEvents, ConnectOptions } from './transport/transport.js';
export type { Endpoint } from './cluster/endpoint.js';
export {
  TApplicationError,
  TAggregationType,
  TSDataType,
  ColumnCategory,
  BufferPool,
  globalBufferPool,
  decodeDate,
  dateToTime,
  timeToDate,
} from '@iotdb/fast-serializer';
export type {
  Tablet,
  TableTablet,
  TabletData,
  RecordInput,
  StringRecordInput,
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
  TAggregationTypeName,
  ValidationIssue,
  ValidationErrorOptions,
} from '@iotdb/fast-serializer';
export { Writer } from './writer/writer.js';
export type { WriterStats } from './writer/writer.js';
export type { WriterOptions } from './writer/writer-options.js';
export { WRITER_DEFAULTS } from './writer/writer-options.js';
export type { TreeWriterOptions, TableWriterOptions } from './writer/sink.js';
export type { TreeRow, TableRow } from './writer/rows.js';
export type { WriterStreamOptions } from './writer/writer-stream.js';
