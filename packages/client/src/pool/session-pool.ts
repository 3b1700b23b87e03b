import { tableWriter, treeWriter, type TableWriterOptions, type TreeWriterOptions } from '../writer/sink.js';
import type { Writer } from '../writer/writer.js';
import type { TableRow, TreeRow } from '../writer/rows.js';
import {
  KnownKeys,
  IoTDBValidationError,
  type RecordInput,
  type StringRecordInput,
  type Tablet,
  type TableTablet,
  isArray,
} from '@iotdb/fast-serializer';
import type { AlignedTimeseriesSpec, SchemaTemplateSpec, TimeseriesSpec } from '../sql/schema-statements.js';
import type { BaseSession, CallOptions, QueryOptions, StatementOptions } from '../session/base-session.js';
import type { SessionOptions, TableSessionOptions } from '../session/options.js';
import { whenSessionFree, type SessionDataSet } from '../session/session-data-set.js';
import { Session, type TimeInput } from '../session/session.js';
import type { OneDeviceOptions, OneDeviceRow } from '../session/tree-writes.js';
import { TableSession } from '../session/table-session.js';
import { firstDeviceOf } from '../session/table-devices.js';
import { runAll, slotOf } from './parallel.js';
import { Pool } from './pool.js';
import { resolvePoolConfig } from '../config/pool-config.js';
import { checkCallOptions } from '../config/issues.js';
import type { PoolOptions } from './pool-options.js';

export interface ParallelOptions extends CallOptions {
  /** Tasks at once; at most the pool's maxSize are really concurrent. @default maxSize */
  concurrency?: number;
}
const PARALLEL_OPTION_KEYS: KnownKeys = KnownKeys.of<ParallelOptions>('options')('signal', 'concurrency');

/** Statements and queries on any pooled session; shared by the tree and table pools. */
abstract class StatementPool<S extends BaseSession> extends Pool<S> {
  /** Runs a statement that returns no rows on any pooled session. */
  async executeNonQueryStatement(sql: string, opts: StatementOptions = {}): Promise<void> {
    return this.onAnySession((s) => s.executeNonQueryStatement(sql, opts), opts);
  }

  /**
   * Runs a query on a pooled session, which stays borrowed until the data set is closed (read to the
   * end, or `close()`): close every data set you open, or the pool runs dry. pool.close() closes them.
   */
  async executeQueryStatement(sql: string, opts: QueryOptions = {}): Promise<SessionDataSet> {
    return this.borrow(undefined, opts, async (s, giveBack) => {
      const ds = await s.executeQueryStatement(sql, opts);
      this.openDataSets++;
      // lent again once the data set's release is sent (the next borrower's call goes once it is answered), before
      // the read or close() that freed it resolves
      ds[whenSessionFree](() => {
        this.openDataSets--;
        giveBack();
      });
      return ds;
    });
  }

  /** Runs each task with a pooled session, `concurrency` at a time; see IoTDBBatchError for failures. */
  async executeParallel<T>(tasks: readonly ((session: S) => Promise<T>)[], opts: ParallelOptions = {}): Promise<T[]> {
    const { concurrency, call } = this.parallelOptions(opts);
    return runAll('executeParallel', tasks.length, concurrency, (i) => this.execute(tasks[i], call));
  }

  /** A parallel call's options checked: its concurrency (the pool's size by default), and what each call takes. */
  protected parallelOptions(opts: ParallelOptions): { concurrency: number; call: CallOptions } {
    checkCallOptions(opts, PARALLEL_OPTION_KEYS);
    return { concurrency: opts.concurrency ?? this.maxSize, call: { signal: opts.signal } }; // opts checked: an object
  }

  /** With device binding: the slot of `key`'s session; without: any session. */
  protected slotFor(key: unknown): number | undefined {
    // a missing key is left to the session, whose validation error names the field
    return this.poolOptions.deviceBinding && typeof key === 'string' ? slotOf(key, this.maxSize) : undefined;
  }
}

/**
 * A pool of tree-model sessions with the Session write methods. With device binding (the default) a
 * device is always written through the same session.
 *
 * ```ts
 * const pool = new SessionPool({ host: '127.0.0.1', maxSize: 4 }); // or new SessionPool('iotdb://127.0.0.1:6667?maxSize=4')
 * await pool.insertTabletsParallel(tablets, { concurrency: 4 });
 * await pool.execute((session) => session.executeNonQueryStatement('FLUSH'));
 * await pool.close();
 * ```
 */
export class SessionPool extends StatementPool<Session> {
  /**
   * @param options session and pool options, or a connection string (pool options may be parameters:
   *   `iotdb://host:6667?maxSize=4`); options over their `url`, over the IOTDB_* environment variables,
   *   over the defaults. Checked here, before any session opens.
   * @throws IoTDBValidationError listing every unknown or invalid option
   */
  constructor(options: (SessionOptions & PoolOptions) | string = {}) {
    const config = resolvePoolConfig(options, 'tree');
    // each session takes the options resolved once here (its constructor recognizes them)
    super(() => new Session(config.session), config.pool);
  }

  /** A batching writer over this pool (see Session.writer): up to `maxSize` requests in flight by default. */
  writer(options: TreeWriterOptions = {}): Writer<TreeRow> {
    return treeWriter(this.writerRun(), options, this.maxSize, this.writers);
  }

  async insertTablet(tablet: Tablet, opts: CallOptions = {}): Promise<void> {
    return this.executeOn(this.slotFor(tablet?.deviceId), (s) => s.insertTablet(tablet, opts), opts);
  }

  async insertAlignedTablet(tablet: Tablet, opts: CallOptions = {}): Promise<void> {
    return this.executeOn(this.slotFor(tablet?.deviceId), (s) => s.insertAlignedTablet(tablet, opts), opts);
  }

  /** Several devices in one request (per DataNode), on one pooled session. */
  async insertTablets(tablets: readonly Tablet[], opts: CallOptions = {}): Promise<void> {
    return this.onAnySession((s) => s.insertTablets(tablets, opts), opts);
  }

  async insertRecord(record: RecordInput, opts: CallOptions = {}): Promise<void> {
    return this.executeOn(this.slotFor(record?.deviceId), (s) => s.insertRecord(record, opts), opts);
  }

  async insertRecords(records: readonly RecordInput[], opts: CallOptions = {}): Promise<void> {
    return this.onAnySession((s) => s.insertRecords(records, opts), opts);
  }

  async insertStringRecord(record: StringRecordInput, opts: CallOptions = {}): Promise<void> {
    return this.executeOn(this.slotFor(record?.deviceId), (s) => s.insertStringRecord(record, opts), opts);
  }
  async insertStringRecords(records: readonly StringRecordInput[], opts: CallOptions = {}): Promise<void> {
    return this.onAnySession((s) => s.insertStringRecords(records, opts), opts);
  }
  async insertRecordsOfOneDevice(
    deviceId: string,
    rows: readonly OneDeviceRow[],
    opts: OneDeviceOptions = {},
  ): Promise<void> {
    return this.executeOn(this.slotFor(deviceId), (s) => s.insertRecordsOfOneDevice(deviceId, rows, opts), opts);
  }
  async insertAlignedRecordsOfOneDevice(
    deviceId: string,
    rows: readonly OneDeviceRow[],
    opts: OneDeviceOptions = {},
  ): Promise<void> {
    return this.executeOn(this.slotFor(deviceId), (s) => s.insertAlignedRecordsOfOneDevice(deviceId, rows, opts), opts);
  }

  // the test writes, as on Session (nothing stored, nothing routed: any session)
  testInsertTablet(tablet: Tablet, opts: CallOptions = {}): Promise<void> {
    return this.onAnySession((s) => s.testInsertTablet(tablet, opts), opts);
  }
  testInsertTablets(tablets: readonly Tablet[], opts: CallOptions = {}): Promise<void> {
    return this.onAnySession((s) => s.testInsertTablets(tablets, opts), opts);
  }
  testInsertRecord(record: RecordInput, opts: CallOptions = {}): Promise<void> {
    return this.onAnySession((s) => s.testInsertRecord(record, opts), opts);
  }
  testInsertRecords(records: readonly RecordInput[], opts: CallOptions = {}): Promise<void> {
    return this.onAnySession((s) => s.testInsertRecords(records, opts), opts);
  }
  testInsertStringRecord(record: StringRecordInput, opts: CallOptions = {}): Promise<void> {
    return this.onAnySession((s) => s.testInsertStringRecord(record, opts), opts);
  }
  testInsertStringRecords(records: readonly StringRecordInput[], opts: CallOptions = {}): Promise<void> {
    return this.onAnySession((s) => s.testInsertStringRecords(records, opts), opts);
  }

  // schema and data management, as on Session
  createDatabase(name: string, opts: StatementOptions = {}): Promise<void> {
    return this.onAnySession((s) => s.createDatabase(name, opts), opts);
  }
  deleteDatabase(name: string, opts: StatementOptions = {}): Promise<void> {
    return this.onAnySession((s) => s.deleteDatabase(name, opts), opts);
  }
  deleteDatabases(names: readonly string[], opts: StatementOptions = {}): Promise<void> {
    return this.onAnySession((s) => s.deleteDatabases(names, opts), opts);
  }
  createTimeseries(spec: TimeseriesSpec, opts: StatementOptions = {}): Promise<void> {
    return this.onAnySession((s) => s.createTimeseries(spec, opts), opts);
  }
  createAlignedTimeseries(spec: AlignedTimeseriesSpec, opts: StatementOptions = {}): Promise<void> {
    return this.onAnySession((s) => s.createAlignedTimeseries(spec, opts), opts);
  }
  createMultiTimeseries(specs: readonly TimeseriesSpec[], opts: StatementOptions = {}): Promise<void> {
    return this.onAnySession((s) => s.createMultiTimeseries(specs, opts), opts);
  }
  deleteTimeseries(pathOrPaths: string | readonly string[], opts: StatementOptions = {}): Promise<void> {
    return this.onAnySession((s) => s.deleteTimeseries(pathOrPaths, opts), opts);
  }
  checkTimeseriesExists(path: string, opts: CallOptions = {}): Promise<boolean> {
    return this.onAnySession((s) => s.checkTimeseriesExists(path, opts), opts);
  }
  deleteData(
    pathOrPaths: string | readonly string[],
    range: { startTime?: TimeInput; endTime: TimeInput },
    opts: StatementOptions = {},
  ): Promise<void> {
    return this.onAnySession((s) => s.deleteData(pathOrPaths, range, opts), opts);
  }
  createSchemaTemplate(template: SchemaTemplateSpec, opts: StatementOptions = {}): Promise<void> {
    return this.onAnySession((s) => s.createSchemaTemplate(template, opts), opts);
  }
  setSchemaTemplate(name: string, prefixPath: string, opts: StatementOptions = {}): Promise<void> {
    return this.onAnySession((s) => s.setSchemaTemplate(name, prefixPath, opts), opts);
  }
  createTimeseriesUsingSchemaTemplate(devicePaths: readonly string[], opts: StatementOptions = {}): Promise<void> {
    return this.onAnySession((s) => s.createTimeseriesUsingSchemaTemplate(devicePaths, opts), opts);
  }
  unsetSchemaTemplate(prefixPath: string, name: string, opts: StatementOptions = {}): Promise<void> {
    return this.onAnySession((s) => s.unsetSchemaTemplate(prefixPath, name, opts), opts);
  }
  dropSchemaTemplate(name: string, opts: StatementOptions = {}): Promise<void> {
    return this.onAnySession((s) => s.dropSchemaTemplate(name, opts), opts);
  }
  showAllTemplates(opts: StatementOptions = {}): Promise<string[]> {
    return this.onAnySession((s) => s.showAllTemplates(opts), opts);
  }
  showMeasurementsInTemplate(name: string, opts: StatementOptions = {}): Promise<string[]> {
    return this.onAnySession((s) => s.showMeasurementsInTemplate(name, opts), opts);
  }
  countMeasurementsInTemplate(name: string, opts: StatementOptions = {}): Promise<number> {
    return this.onAnySession((s) => s.countMeasurementsInTemplate(name, opts), opts);
  }
  isMeasurementInTemplate(name: string, measurement: string, opts: StatementOptions = {}): Promise<boolean> {
    return this.onAnySession((s) => s.isMeasurementInTemplate(name, measurement, opts), opts);
  }
  showPathsTemplateSetOn(name: string, opts: StatementOptions = {}): Promise<string[]> {
    return this.onAnySession((s) => s.showPathsTemplateSetOn(name, opts), opts);
  }
  showPathsTemplateUsingOn(name: string, opts: StatementOptions = {}): Promise<string[]> {
    return this.onAnySession((s) => s.showPathsTemplateUsingOn(name, opts), opts);
  }

  /**
   * One insertTablet per tablet across pooled sessions, `concurrency` at a time. With device binding a
   * device's tablets go through its session in the order given. Every tablet is tried; if any failed,
   * IoTDBBatchError says which (index into `tablets`) and why, and which were written.
   */
  async insertTabletsParallel(tablets: readonly Tablet[], opts: ParallelOptions = {}): Promise<void> {
    if (!isArray(tablets)) throw new IoTDBValidationError('tablets', 'needs an array of tablets');
    const { concurrency, call } = this.parallelOptions(opts);
    const run = (i: number) => this.insertTablet(tablets[i], call);
    await runAll('insertTabletsParallel', tablets.length, concurrency, run, (i) => tablets[i]?.deviceId);
  }
}

/**
 * A pool of table-model sessions; device binding keys on a tablet's device (its first row's: the tablets of one
 * device stay in order, a table's devices are written at once). A session whose borrower changed its database
 * (`USE`) or dialect is not handed on: the next borrower gets a fresh one.
 */
export class TableSessionPool extends StatementPool<TableSession> {
  /**
   * @param options session and pool options, or a connection string (`iotdb://host:6667/db?maxSize=4`);
   *   resolved and checked as SessionPool's.
   * @throws IoTDBValidationError listing every unknown or invalid option
   */
  constructor(options: (TableSessionOptions & PoolOptions) | string = {}) {
    const config = resolvePoolConfig(options, 'table');
    super(() => new TableSession(config.session), config.pool);
  }

  /** A batching writer over this pool (see TableSession.writer): up to `maxSize` requests in flight by default. */
  writer(options: TableWriterOptions = {}): Writer<TableRow> {
    return tableWriter(this.writerRun(), options, this.maxSize, this.writers);
  }

  /** Writes a tablet through a session (with deviceBinding: the session of the device of its first row). */
  async insert(tablet: TableTablet, opts: CallOptions = {}): Promise<void> {
    const device = tablet === null || typeof tablet !== 'object' ? undefined : firstDeviceOf(tablet);
    return this.executeOn(this.slotFor(device), (s) => s.insert(tablet, opts), opts);
  }

  /** One insert per tablet across pooled sessions; failures as in SessionPool.insertTabletsParallel. */
  async insertParallel(tablets: readonly TableTablet[], opts: ParallelOptions = {}): Promise<void> {
    if (!isArray(tablets)) throw new IoTDBValidationError('tablets', 'needs an array of tablets');
    const { concurrency, call } = this.parallelOptions(opts);
    const run = (i: number) => this.insert(tablets[i], call);
    await runAll('insertParallel', tablets.length, concurrency, run, (i) => tablets[i]?.tableName);
  }
}
