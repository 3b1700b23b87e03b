// Types and errors
export { TSDataType, ColumnCategory, dataTypeName, dataTypeFromName, isTSDataType } from './types/data-type.js';
export type { TSDataTypeName, ColumnCategoryName } from './types/data-type.js';
export { IoTDBError, IoTDBValidationError, IoTDBProtocolError, prefixField } from './errors.js';
export type { ValidationIssue, ValidationErrorOptions } from './errors.js';
export { isArray } from './types/is-array.js';
export { INT64_MAX, INT64_MIN } from './types/int64.js';
export { nearestName } from './types/nearest-name.js';
export { KnownKeys } from './types/known-keys.js';

// Buffers
export { BufferPool, globalBufferPool } from './pool/buffer-pool.js';
export type { BufferPoolOptions, BufferPoolStats } from './pool/buffer-pool.js';
export { ByteWriter } from './io/byte-writer.js';
export { ByteReader } from './io/byte-reader.js';

// Thrift binary protocol
export { TType, TMessageType, FRAME_HEADER_BYTES, VERSION_1 } from './thrift/ttype.js';
export { readStruct, writeStruct, readValue, writeValue, ttypeOf, holdsViews } from './thrift/struct-codec.js';
export { schema } from './thrift/struct-codec.js';
export type {
  FieldType,
  FieldSpec,
  StructSchema,
  StructOf,
  StructInput,
  ValueOf,
  InputOf,
  ScalarType,
} from './thrift/struct-codec.js';
export {
  beginCall,
  endCall,
  readMessageHeader,
  readReplyHeader,
  writeMessageHeader,
  TApplicationError,
} from './thrift/message.js';
export type { ReplyHeader } from './thrift/message.js';
export { writeWithSessionId } from './thrift/session-id.js';
export * from './thrift/iotdb-idl.js';

// Writes
export type {
  CellValue,
  ColumnInput,
  DataTypeInput,
  TableTablet,
  Tablet,
  TabletData,
  TimestampsInput,
} from './tablet/tablet-input.js';
export {
  prepareTablet,
  prepareTableTablet,
  dataTypeCode,
  sortOrder,
  tableTypeProblem,
} from './tablet/prepare-tablet.js';
export type { PreparedTablet } from './tablet/prepare-tablet.js';
export { checkDevicePath, deviceName, pathLevels, pathNodes, pathSeparators, unquoted } from './types/device-path.js';
export { nodeNameProblem, type NodeKind } from './types/node-name.js';
export { checkTableName } from './types/table-name.js';
export { StridedColumn } from './tablet/strided-column.js';
export { RowMajorColumn, columnCells } from './tablet/row-major-column.js';
export type { PreparedColumn } from './tablet/row-major-column.js';
export { valuesUpperBound, writeTimestamps, writeValues, bitmapBytes, fixedWidth } from './tablet/encode-tablet.js';
export { encodeTabletPlain, plainInsertTabletReq } from './tablet/plain-tablet-encoder.js';
export { checkCell, cellError, isInt64, overflowsFloat32 } from './tablet/cell.js';
export type { WireCell } from './tablet/cell.js';
export { writeInsertTabletReq, writeInsertTabletsReq } from './tablet/insert-tablet-request.js';
export { writeInsertTabletReqCompact, writeInsertTabletsReqCompact } from './tablet/insert-tablet-request-compact.js';
export {
  CType,
  beginCallCompact,
  readMessageHeaderCompact,
  readReplyHeaderCompact,
  readStructCompact,
  writeMessageHeaderCompact,
  writeStructCompact,
  writeValueCompact,
} from './thrift/compact.js';
export { encodeDate, decodeDate, dateIntOf } from './tablet/date.js';
export { describe as describeValue } from './types/describe.js';
export { keyInAnyCase } from './types/key-in-any-case.js';
export { notWellFormed } from './types/well-formed.js';
export { notUtf8Bytes, tagBytesError } from './tablet/tag-bytes.js';
export { checkName, columnNameProblem, sameColumnAs, serverName } from './types/name.js';
export { dateToTime, timeToDate } from './tablet/time-unit.js';
export type { TimestampPrecision } from './tablet/time-unit.js';
export { encodeRecord, checkTimestamp } from './record/encode-record.js';
export type { RecordInput, EncodedRecord, RecordShapeCache } from './record/encode-record.js';
export { writeInsertRecordsReq } from './record/insert-records-request.js';
export { recordsAsTablets, repeatsTime } from './record/records-as-tablets.js';
export type { RecordsAsTablets } from './record/records-as-tablets.js';
export { checkStringRecord } from './record/string-record.js';
export type { StringRecordInput, CheckedStringRecord } from './record/string-record.js';

// Query results
export { decodeTsBlock, type DecodeOptions } from './tsblock/decode-tsblock.js';
export { ColumnEncoding } from './tsblock/tsblock.js';
export type { ColumnValues, DecodedColumn, DecodedTsBlock } from './tsblock/tsblock.js';

// Reference vectors
export { parseVectorFile } from './vectors/vector-file.js';
export type { VectorFile, InsertTabletCase, TsBlockCase } from './vectors/vector-file.js';
export { checkVectorFile, checkInsertTabletCase, checkTsBlockCase } from './vectors/check-vectors.js';
export type { CaseResult } from './vectors/check-vectors.js';
