import { describe, expect, it } from 'vitest';
import * as api from '@iotdb/client';

/** The template introspection of the Java Session, on a session and a pool alike. */
const TEMPLATE_QUERIES = [
  'showAllTemplates',
  'showMeasurementsInTemplate',
  'countMeasurementsInTemplate',
  'isMeasurementInTemplate',
  'showPathsTemplateSetOn',
  'showPathsTemplateUsingOn',
] as const;

/** The Java Session's and SessionPool's test writes (decoded and acknowledged by the server, nothing stored). */
const TEST_INSERTS = [
  'testInsertTablet',
  'testInsertTablets',
  'testInsertRecord',
  'testInsertRecords',
  'testInsertStringRecord',
  'testInsertStringRecords',
] as const;

/** The public names a Java Session user is promised (user's guide, "From the Java Session"), as the package exports them. */
const SESSION_METHODS = [
  'open',
  'close',
  'executeQueryStatement',
  'executeNonQueryStatement',
  'insertTablet',
  'insertAlignedTablet',
  'insertTablets',
  'insertRecord',
  'insertRecords',
  'insertStringRecord',
  'insertStringRecords',
  'insertRecordsOfOneDevice',
  'insertAlignedRecordsOfOneDevice',
  'createDatabase',
  'deleteDatabase',
  'deleteDatabases',
  'createTimeseries',
  'createAlignedTimeseries',
  'createMultiTimeseries',
  'deleteTimeseries',
  'checkTimeseriesExists',
  'deleteData',
  'createSchemaTemplate',
  'setSchemaTemplate',
  'createTimeseriesUsingSchemaTemplate',
  'unsetSchemaTemplate',
  'dropSchemaTemplate',
  ...TEMPLATE_QUERIES,
  'executeRawDataQuery',
  'executeLastDataQuery',
  'executeLastDataQueryForOneDevice',
  'executeAggregationQuery',
  'setTimeZone',
  'getTimeZone',
  ...TEST_INSERTS,
] as const;
const POOL_METHODS = [
  'execute',
  'executeQueryStatement',
  'executeNonQueryStatement',
  'insertTablet',
  'insertAlignedTablet',
  'insertTablets',
  'insertRecord',
  'insertRecords',
  'insertStringRecord',
  'insertStringRecords',
  'insertRecordsOfOneDevice',
  'insertAlignedRecordsOfOneDevice',
  'insertTabletsParallel',
  'executeParallel',
  'createDatabase',
  'deleteDatabase',
  'deleteDatabases',
  'createTimeseries',
  'createAlignedTimeseries',
  'createMultiTimeseries',
  'deleteTimeseries',
  'checkTimeseriesExists',
  'deleteData',
  'createSchemaTemplate',
  'setSchemaTemplate',
  'createTimeseriesUsingSchemaTemplate',
  'unsetSchemaTemplate',
  'dropSchemaTemplate',
  ...TEMPLATE_QUERIES,
  ...TEST_INSERTS,
  'close',
] as const;
const ROW_GETTERS = [
  'getBoolean',
  'getInt',
  'getLong',
  'getFloat',
  'getDouble',
  'getString',
  'getTimestamp',
  'getDate',
  'getBlob',
  'isNull',
] as const;

describe('the public API', () => {
  it('Session has every call of the Java Session table', () => {
    for (const m of SESSION_METHODS) expect(typeof api.Session.prototype[m], m).toBe('function');
  });
  it('SessionPool has the same calls', () => {
    for (const m of POOL_METHODS) expect(typeof api.SessionPool.prototype[m], m).toBe('function');
  });
  it('rows have the typed getters', () => {
    for (const m of ROW_GETTERS) expect(typeof api.RowRecord.prototype[m], m).toBe('function');
  });
  it('exports the helpers, enums and errors by name', () => {
    for (const name of [
      'sql',
      'escapeIdentifier',
      'escapeTableIdentifier',
      'escapeString',
      'TSEncoding',
      'CompressionType',
      'TAggregationType',
      'TSDataType',
      'tcpTransport',
      'tlsTransport',
      'decideRetry',
      'dateToTime',
      'timeToDate',
    ] as const) {
      expect(api[name], name).toBeDefined();
    }
    for (const e of [
      'IoTDBError',
      'IoTDBValidationError',
      'IoTDBServerError',
      'IoTDBConnectionError',
      'IoTDBTimeoutError',
      'IoTDBProtocolError',
      'IoTDBSessionClosedError',
      'IoTDBQueryTimeoutError',
      'IoTDBAbortError',
      'IoTDBBatchError',
      'IoTDBPoolTimeoutError',
      'TApplicationError',
    ] as const) {
      const E = api[e] as unknown as { prototype: object };
      expect(E === api.IoTDBError || E.prototype instanceof api.IoTDBError, e).toBe(true);
    }
  });
});
