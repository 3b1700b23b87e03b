import {
  KnownKeys,
  IoTDBProtocolError,
  IoTDBValidationError,
  TAggregationType,
  INT64_MIN,
  checkTimestamp,
  dateToTime,
  type TAggregationTypeName,
  isArray,
  keyInAnyCase,
} from '@iotdb/fast-serializer';
import { deviceOfPaths } from '../sql/device-path.js';
import { checkPath, checkPathList } from '../sql/escape.js';
import {
  isRange,
  schemaSql,
  type AlignedTimeseriesSpec,
  type DeleteRange,
  type SchemaTemplateSpec,
  type TimeseriesSpec,
} from '../sql/schema-statements.js';
import { checkList } from '../config/checks.js';
import type { ArgsOf } from '../connection/rpc-connection.js';
import {
  QUERY_OPTION_KEYS,
  QUERY_OPTION_NAMES,
  type CallOptions,
  type QueryOptions,
  type StatementOptions,
} from './base-session.js';
import { checkCallOptions } from '../config/issues.js';
import type { NodeSession, QueryFields } from './node-session.js';
import type { SessionOptions } from './options.js';
import type { DeviceQuery } from './query-router.js';
import type { SessionDataSet } from './session-data-set.js';
import { TreeWriteSession } from './tree-writes.js';
import { runInOrder } from './run-in-order.js';

/** The structured queries' RPCs: each answers with a TSExecuteStatementResp. */
type StructuredQuery =
  | 'executeRawDataQueryV2'
  | 'executeLastDataQueryV2'
  | 'executeFastLastDataQueryForOneDeviceV2'
  | 'executeAggregationQueryV2';

/** The options each structured query takes: a query's, and its own. */
const STRUCTURED_OPTION_KEYS: Record<StructuredQuery, KnownKeys> = {
  executeRawDataQueryV2: QUERY_OPTION_KEYS,
  executeLastDataQueryV2: KnownKeys.of<LastQueryOptions>('options')(...QUERY_OPTION_NAMES, 'lastTime'),
  executeFastLastDataQueryForOneDeviceV2: QUERY_OPTION_KEYS,
  executeAggregationQueryV2: KnownKeys.of<AggregationQueryOptions>('options')(
    ...QUERY_OPTION_NAMES,
    'startTime',
    'endTime',
    'interval',
    'slidingStep',
  ),
};

/** A time argument: in the server's unit (number or bigint), or a Date converted to it. */
export type TimeInput = number | bigint | Date;

export interface AggregationQueryOptions extends QueryOptions {
  /** the range is [startTime, endTime) */
  startTime?: TimeInput;
  endTime?: TimeInput;
  /** group-by window, in the server's unit */
  interval?: number | bigint;
  /** group-by step, in the server's unit; defaults to `interval` on the server */
  slidingStep?: number | bigint;
}

export interface LastQueryOptions extends QueryOptions {
  /** only points with time >= lastTime, as Java. @default every point */
  lastTime?: TimeInput;
}

/**
 * A tree-model session: devices are paths (`root.sg.d1`), measurements are their series.
 *
 * ```ts
 * const session = new Session({ host: '127.0.0.1', port: 6667 }); // or new Session('iotdb://root:root@127.0.0.1:6667')
 * await session.open();
 * await session.insertTablet({ deviceId: 'root.demo.d1', measurements: ['temp'], dataTypes: [TSDataType.FLOAT],
 *   timestamps: [Date.now()], values: [[25.5]] });
 * ```
 * Calls on one session run one at a time per connection. Use a SessionPool for parallel writes.
 */
export class Session extends TreeWriteSession {
  /**
   * @param options options, or a connection string (`iotdb://user:password@host:port?name=value`);
   *   options over their `url`, over the IOTDB_* environment variables, over the defaults.
   * @throws IoTDBValidationError listing every unknown or invalid option
   */
  constructor(options: SessionOptions | string = {}) {
    super(options);
  }

  // ---------- queries (tree model), as the Java Session's; each returns a SessionDataSet ----------

  /** The points of `paths` in [startTime, endTime) (executeRawDataQueryV2). */
  async executeRawDataQuery(
    paths: readonly string[],
    startTime: TimeInput,
    endTime: TimeInput,
    opts: QueryOptions = {},
  ): Promise<SessionDataSet> {
    const ps = checkPathList(paths, 'paths', true);
    const start = this.#time(startTime, 'startTime');
    const end = this.#time(endTime, 'endTime');
    return this.#structured(
      `executeRawDataQuery ${ps.length} paths`,
      'executeRawDataQueryV2',
      opts,
      (ns, q) => ({
        sessionId: ns.sessionId,
        paths: ps,
        startTime: start,
        endTime: end,
        ...pathQueryFields(q),
      }),
      oneDevice(ps),
    );
  }

  /** The last point of each path, with time >= lastTime when given (executeLastDataQueryV2). */
  async executeLastDataQuery(paths: readonly string[], opts: LastQueryOptions = {}): Promise<SessionDataSet> {
    const ps = checkPathList(paths, 'paths', true);
    const time = opts.lastTime === undefined ? INT64_MIN : this.#time(opts.lastTime, 'lastTime');
    return this.#structured(
      `executeLastDataQuery ${ps.length} paths`,
      'executeLastDataQueryV2',
      opts,
      (ns, q) => ({
        sessionId: ns.sessionId,
        paths: ps,
        time,
        ...pathQueryFields(q),
      }),
      oneDevice(ps),
    );
  }

  /** The last point of each measurement of one device, by the server's fast-last path (executeFastLastDataQueryForOneDeviceV2). */
  async executeLastDataQueryForOneDevice(
    database: string,
    deviceId: string,
    measurements: readonly string[],
    opts: QueryOptions = {},
  ): Promise<SessionDataSet> {
    checkPath(database, 'database');
    checkPath(deviceId, 'deviceId');
    if (
      !isArray(measurements) ||
      measurements.length === 0 ||
      measurements.some((m) => typeof m !== 'string' || m.length === 0)
    ) {
      throw new IoTDBValidationError('measurements', 'needs at least one measurement name');
    }
    return this.#structured(
      `executeLastDataQueryForOneDevice ${deviceId}`,
      'executeFastLastDataQueryForOneDeviceV2',
      opts,
      (ns, q) => ({
        sessionId: ns.sessionId,
        db: database,
        deviceId,
        sensors: measurements,
        ...pathQueryFields(q),
      }),
      { device: deviceId, named: true },
    );
  }

  /**
   * Aggregations over `paths`: `aggregations[i]` applies to `paths[i]`, as Java; over [startTime, endTime)
   * and, with `interval` (and `slidingStep`), per window (executeAggregationQueryV2).
   */
  async executeAggregationQuery(
    paths: readonly string[],
    aggregations: readonly (TAggregationTypeName | number)[],
    opts: AggregationQueryOptions = {},
  ): Promise<SessionDataSet> {
    const ps = checkPathList(paths, 'paths', true);
    if (!isArray(aggregations) || aggregations.length !== ps.length)
      throw new IoTDBValidationError('aggregations', `needs one aggregation per path (${ps.length})`);
    const codes = aggregations.map((a, i) => aggregationCode(a, `aggregations[${i}]`));
    if (opts.slidingStep !== undefined && opts.interval === undefined)
      throw new IoTDBValidationError('slidingStep', 'needs interval (the window it slides by)');
    const range = {
      ...(opts.startTime === undefined ? {} : { startTime: this.#time(opts.startTime, 'startTime') }),
      ...(opts.endTime === undefined ? {} : { endTime: this.#time(opts.endTime, 'endTime') }),
      ...(opts.interval === undefined ? {} : { interval: positiveTime(opts.interval, 'interval') }),
      ...(opts.slidingStep === undefined ? {} : { slidingStep: positiveTime(opts.slidingStep, 'slidingStep') }),
    };
    return this.#structured(
      `executeAggregationQuery ${ps.length} paths`,
      'executeAggregationQueryV2',
      opts,
      (ns, q) => ({
        sessionId: ns.sessionId,
        statementId: q.statementId,
        paths: ps,
        aggregations: codes,
        ...range,
        fetchSize: q.fetchSize,
        timeout: q.timeout,
        legalPathNodes: false,
      }),
      oneDevice(ps),
    );
  }

  // ---------- schema and data management (the Java Session's names; statements through executeNonQueryStatement) ----------

  /** `CREATE DATABASE name` (Java: createDatabase / setStorageGroup). */
  async createDatabase(name: string, opts: StatementOptions = {}): Promise<void> {
    return this.executeNonQueryStatement(schemaSql.createDatabase(name), opts);
  }

  async deleteDatabase(name: string, opts: StatementOptions = {}): Promise<void> {
    return this.executeNonQueryStatement(schemaSql.deleteDatabase(name), opts);
  }

  /** One statement, as Java's deleteStorageGroups is one request: those that exist are deleted, an error only when none does. */
  async deleteDatabases(names: readonly string[], opts: StatementOptions = {}): Promise<void> {
    return this.executeNonQueryStatement(schemaSql.deleteDatabases(names), opts);
  }

  async createTimeseries(spec: TimeseriesSpec, opts: StatementOptions = {}): Promise<void> {
    return this.executeNonQueryStatement(schemaSql.createTimeseries(spec), opts);
  }

  async createAlignedTimeseries(spec: AlignedTimeseriesSpec, opts: StatementOptions = {}): Promise<void> {
    return this.executeNonQueryStatement(schemaSql.createAlignedTimeseries(spec), opts);
  }

  /**
   * One statement per series, in order, all checked before the first is sent. As Java's one request: a series the
   * server refuses (one that exists) does not stop the others; IoTDBBatchError lists those refused (see runInOrder).
   */
  async createMultiTimeseries(specs: readonly TimeseriesSpec[], opts: StatementOptions = {}): Promise<void> {
    checkList('specs', specs, 'time series spec');
    const statements = specs.map((spec, i) => schemaSql.createTimeseries(spec, `specs[${i}]`));
    const run = (i: number) => this.executeNonQueryStatement(statements[i], opts);
    return runInOrder('createMultiTimeseries', statements.length, run, (i) => specs[i].path);
  }

  async deleteTimeseries(pathOrPaths: string | readonly string[], opts: StatementOptions = {}): Promise<void> {
    return this.executeNonQueryStatement(schemaSql.deleteTimeseries(pathOrPaths), opts);
  }

  /** Whether the series exists (`SHOW TIMESERIES path` has a row). */
  async checkTimeseriesExists(path: string, opts: CallOptions = {}): Promise<boolean> {
    const ds = await this.executeQueryStatement(schemaSql.showTimeseries(path), opts);
    try {
      return await ds.hasNext();
    } finally {
      await ds.close();
    }
  }

  /** Deletes the points of the series in [startTime, endTime], both ends inclusive as in Java; without startTime, all up to endTime. */
  async deleteData(
    pathOrPaths: string | readonly string[],
    range: { startTime?: TimeInput; endTime: TimeInput },
    opts: StatementOptions = {},
  ): Promise<void> {
    // Dates in the server's unit, as a write's; anything else is for deleteData's own checks to name
    const time = (t: unknown, field: string) => (t instanceof Date ? this.#time(t, field) : t);
    const times = isRange(range)
      ? { ...range, startTime: time(range.startTime, 'startTime'), endTime: time(range.endTime, 'endTime') }
      : range;
    return this.executeNonQueryStatement(schemaSql.deleteData(pathOrPaths, times as DeleteRange), opts);
  }

  async createSchemaTemplate(template: SchemaTemplateSpec, opts: StatementOptions = {}): Promise<void> {
    return this.executeNonQueryStatement(schemaSql.createSchemaTemplate(template), opts);
  }

  async setSchemaTemplate(name: string, prefixPath: string, opts: StatementOptions = {}): Promise<void> {
    return this.executeNonQueryStatement(schemaSql.setSchemaTemplate(name, prefixPath), opts);
  }

  /** One statement per device (IoTDB's takes one path), as createMultiTimeseries sends its series. */
  async createTimeseriesUsingSchemaTemplate(
    devicePaths: readonly string[],
    opts: StatementOptions = {},
  ): Promise<void> {
    const statements = schemaSql.createTimeseriesUsingSchemaTemplate(devicePaths);
    const run = (i: number) => this.executeNonQueryStatement(statements[i], opts);
    return runInOrder('createTimeseriesUsingSchemaTemplate', statements.length, run, (i) => devicePaths[i]);
  }

  async unsetSchemaTemplate(prefixPath: string, name: string, opts: StatementOptions = {}): Promise<void> {
    return this.executeNonQueryStatement(schemaSql.unsetSchemaTemplate(prefixPath, name), opts);
  }

  async dropSchemaTemplate(name: string, opts: StatementOptions = {}): Promise<void> {
    return this.executeNonQueryStatement(schemaSql.dropSchemaTemplate(name), opts);
  }

  /** The schema templates' names (SHOW SCHEMA TEMPLATES). */
  async showAllTemplates(opts: StatementOptions = {}): Promise<string[]> {
    return this.#column(schemaSql.showSchemaTemplates(), 'TemplateName', opts);
  }

  /** The measurements of a template (SHOW NODES IN SCHEMA TEMPLATE). */
  async showMeasurementsInTemplate(name: string, opts: StatementOptions = {}): Promise<string[]> {
    return this.#column(schemaSql.showTemplateNodes(name), 'ChildNodes', opts);
  }

  async countMeasurementsInTemplate(name: string, opts: StatementOptions = {}): Promise<number> {
    return (await this.showMeasurementsInTemplate(name, opts)).length;
  }

  async isMeasurementInTemplate(name: string, measurement: string, opts: StatementOptions = {}): Promise<boolean> {
    return (await this.showMeasurementsInTemplate(name, opts)).includes(measurement);
  }

  /** The paths a template is set on (SHOW PATHS SET SCHEMA TEMPLATE). */
  async showPathsTemplateSetOn(name: string, opts: StatementOptions = {}): Promise<string[]> {
    return this.#column(schemaSql.showPathsSetTemplate(name), 'Paths', opts);
  }

  /** The devices a template is active on (SHOW PATHS USING SCHEMA TEMPLATE). */
  async showPathsTemplateUsingOn(name: string, opts: StatementOptions = {}): Promise<string[]> {
    return this.#column(schemaSql.showPathsUsingTemplate(name), 'Paths', opts);
  }

  /** The strings of one column of a SHOW statement's rows. */
  async #column(sql: string, column: string, opts: StatementOptions): Promise<string[]> {
    const result = await (await this.executeQueryStatement(sql, opts)).toColumnar({ signal: opts.signal });
    const values = result.values[result.columnNames.indexOf(column)];
    if (values === undefined) throw new IoTDBProtocolError(`${sql}: no column ${column} in its answer`);
    return Array.from(values as ArrayLike<unknown>, String);
  }

  /** A structured query: `method` with the request `request` makes, on the node its device or the turn gives. */
  #structured<M extends StructuredQuery>(
    operation: string,
    method: M,
    opts: QueryOptions,
    request: (ns: NodeSession, q: QueryFields) => ArgsOf<M>,
    device: DeviceQuery | undefined,
  ): Promise<SessionDataSet> {
    checkCallOptions(opts, STRUCTURED_OPTION_KEYS[method]);
    return this.query(operation, '', opts, (ns, q) => ns.connection.call(method, request(ns, q), q.call), device);
  }

  /** A time argument in the server's unit. */
  #time(t: TimeInput, field: string): number | bigint {
    const time = t instanceof Date ? dateToTime(t, this.timestampPrecision, field) : t;
    checkTimestamp(field, time);
    return time;
  }
}

/** What the path queries (raw data, last, last of one device) send alike after their own fields. */
function pathQueryFields(q: QueryFields) {
  return {
    statementId: q.statementId,
    fetchSize: q.fetchSize,
    timeout: q.timeout,
    enableRedirectQuery: false,
    legalPathNodes: false,
  };
}

/** The device the paths all belong to, if one: the query goes to its node (its reply names none). */
function oneDevice(paths: readonly string[]): DeviceQuery | undefined {
  const device = deviceOfPaths(paths);
  return device === undefined ? undefined : { device, named: false };
}

function aggregationCode(a: TAggregationTypeName | number, field: string): number {
  if (typeof a === 'number' && Object.values(TAggregationType).includes(a as never)) return a;
  const name = typeof a === 'string' ? keyInAnyCase(TAggregationType, a) : undefined;
  if (name !== undefined) return TAggregationType[name];
  throw new IoTDBValidationError(
    field,
    `unknown aggregation ${String(a)} (one of ${Object.keys(TAggregationType).join(', ')})`,
  );
}

function positiveTime(v: number | bigint, field: string): number | bigint {
  if ((typeof v === 'number' && Number.isSafeInteger(v) && v > 0) || (typeof v === 'bigint' && v > 0n)) return v;
  throw new IoTDBValidationError(field, `needs a positive integer in the server's unit, got ${String(v)}`);
}
