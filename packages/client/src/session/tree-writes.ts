import {
  IoTDBValidationError,
  encodeRecord,
  prefixField,
  prepareTablet,
  writeInsertTabletsReq,
  writeInsertTabletsReqCompact,
  writeInsertRecordsReq,
  recordsAsTablets,
  repeatsTime,
  writeValueCompact,
  TSInsertRecordsReqSchema,
  type RecordShapeCache,
  checkStringRecord,
  type CheckedStringRecord,
  type EncodedRecord,
  type StringRecordInput,
  type PreparedTablet,
  type RecordInput,
  type Tablet,
  type TSInsertRecordsReq,
  type TSStatus,
  type ByteWriter,
  KnownKeys,
} from '@iotdb/fast-serializer';
import { compareTime, itemPlan, recordPlan, sameAlignment } from '../write/item-plan.js';
import type { ArgsWriter } from '../connection/rpc-connection.js';
import type { WritePlan } from '../write/write-plan.js';
import { BaseSession, type CallOptions } from './base-session.js';
import { checkCallOptions } from '../config/issues.js';
import { checkList } from '../config/checks.js';
import type { NodeSession } from './node-session.js';
import type { SessionOptions } from './options.js';
import { sendForWriter, treeWriter, type TreeWriterOptions } from '../writer/sink.js';
import type { Writer } from '../writer/writer.js';
import type { TreeRow } from '../writer/rows.js';

/**
 * The tree model's writes (Session adds schema management and queries on top): devices are paths
 * (`root.sg.d1`), measurements are their series.
 *
 * ```ts
 * const session = new Session({ host: '127.0.0.1', port: 6667 });
 * await session.open();
 * await session.insertTablet({ deviceId: 'root.demo.d1', measurements: ['temp'], dataTypes: [TSDataType.FLOAT],
 *   timestamps: [Date.now()], values: [[25.5]] });
 * ```
 * Calls on one session run one at a time per connection. Use a SessionPool for parallel writes.
 */
export abstract class TreeWriteSession extends BaseSession {
  protected constructor(options: SessionOptions | string) {
    super(options, 'tree');
  }

  /** Writes a tablet: rows of one device. Rows are sorted by time first, as the Java client does. */
  async insertTablet(tablet: Tablet, opts: CallOptions = {}): Promise<void> {
    this.checkOpen();
    const p = prepareTablet(tablet, this.timestampPrecision);
    await this.write(
      itemPlan('insertTablet', [p], tabletDevice, (ns) => this.sendTablet(ns, p)),
      opts,
      [p],
    );
  }

  /** insertTablet to an aligned device. */
  async insertAlignedTablet(tablet: Tablet, opts: CallOptions = {}): Promise<void> {
    await this.insertTablet({ ...tablet, isAligned: true }, opts);
  }

  /**
   * Several tablets (devices) in one request per DataNode. They must agree on `isAligned`. When the
   * devices live on different nodes (known from redirects), each node gets its share in parallel. If
   * only some tablets fail, IoTDBBatchError lists them by their index in `tablets`.
   */
  async insertTablets(tablets: readonly Tablet[], opts: CallOptions = {}): Promise<void> {
    this.checkOpen();
    await this.#writeTablets(this.#preparedTablets(tablets), opts);
  }

  /** Tablets of one request, checked for the wire: at least one, each named by its index, alike aligned. */
  #preparedTablets(tablets: readonly Tablet[]): PreparedTablet[] {
    checkList('tablets', tablets, 'tablet');
    const prepared = tablets.map((t, i) => {
      try {
        return prepareTablet(t, this.timestampPrecision);
      } catch (e) {
        throw prefixField(e, `tablets[${i}]`);
      }
    });
    sameAlignment(prepared, 'tablets');
    return prepared;
  }

  /** One row of one device. Null values are left out; a record whose values are all null writes nothing (as in Java). */
  async insertRecord(record: RecordInput, opts: CallOptions = {}): Promise<void> {
    await this.#writeRecord('insertRecord', record, opts);
  }

  /** One record through `method`: insertRecord (routed to its device's node) or testInsertRecord (nothing stored). */
  async #writeRecord(
    method: 'insertRecord' | 'testInsertRecord',
    record: RecordInput,
    opts: CallOptions,
  ): Promise<void> {
    this.checkOpen();
    const r = encodeRecord(record, 'record', this.timestampPrecision);
    if (r.measurements.length === 0) return; // every value is null: nothing to write (Java skips it too)
    const send = (ns: NodeSession) => ns.connection.call(method, oneRecordReq(ns, r));
    await this.write(itemPlan(method, [r], recordDevice, send, method === 'insertRecord'), opts, [r]);
  }

  /**
   * Rows of any devices in one request per DataNode. They must agree on `isAligned`. A record whose values
   * are all null is skipped (as in Java) and the others are written; IoTDBBatchError indexes are into `records`.
   */
  async insertRecords(records: readonly RecordInput[], opts: CallOptions = {}): Promise<void> {
    this.checkOpen();
    checkList('records', records, 'record');
    if (await this.#asTablets('insertRecords', records, opts)) return;
    const encoded = this.#encodedRecords(records);
    const plan = recordPlan('insertRecords', encoded, recordDevice, (ns: NodeSession, group) =>
      this.sendRecords(ns, group),
    );
    if (plan !== null) await this.write(plan, opts, encoded);
  }

  /** Records of one request (at least one: checkList), encoded for the wire, each named by its index, alike aligned. */
  #encodedRecords(records: readonly RecordInput[]): EncodedRecord[] {
    const shape: RecordShapeCache = {};
    const encoded = records.map((r, i) => encodeRecord(r, `records[${i}]`, this.timestampPrecision, shape));
    sameAlignment(encoded, 'records');
    return encoded;
  }

  /**
   * Writes the records as their devices' tablets (`recordsAsTablets`) when they make tablets: one insertTablets
   * request, failures named by the records' indexes. False when they do not: the caller sends them as records.
   */
  async #asTablets(what: string, records: readonly RecordInput[], opts: CallOptions): Promise<boolean> {
    const tablets = this.options.recordsAsTablets ? this.#recordTablets(records) : null;
    if (tablets === null) return false;
    const { prepared, recordsOf, empty } = tablets;
    const plan = this.#tabletsPlan(what, prepared, (k) => recordsOf[k]);
    try {
      await this.write({ ...plan, settled: empty }, opts, prepared);
    } catch (e) {
      // a refused cell, found as the one request encoded (or by the check before several): nothing was sent, and
      // the records' own checks name its record
      if (e instanceof IoTDBValidationError) return false;
      throw e;
    }
    return true;
  }

  /** The records as their devices' tablets; null when they do not make tablets or a device has a time twice. */
  #recordTablets(records: readonly RecordInput[]) {
    const grouped = recordsAsTablets(records);
    if (grouped === null) return null;
    try {
      const prepared = grouped.tablets.map((t) => prepareTablet(t, this.timestampPrecision));
      return prepared.some(repeatsTime) ? null : { ...grouped, prepared };
    } catch (e) {
      if (e instanceof IoTDBValidationError) return null;
      throw e;
    }
  }

  /** One row whose values are strings: the server infers the types (Java's insertRecord with String values). Nulls are left out. */
  async insertStringRecord(record: StringRecordInput, opts: CallOptions = {}): Promise<void> {
    await this.#writeStringRecord('insertStringRecord', record, opts);
  }

  /** One string record through `method`, as #writeRecord. */
  async #writeStringRecord(
    method: 'insertStringRecord' | 'testInsertStringRecord',
    record: StringRecordInput,
    opts: CallOptions,
  ): Promise<void> {
    this.checkOpen();
    const r = checkStringRecord(record, 'record', this.timestampPrecision);
    if (r.measurements.length === 0) return; // every value null: nothing to write
    const send = (ns: NodeSession) => ns.connection.call(method, oneRecordReq(ns, r));
    await this.write(itemPlan(method, [r], stringDevice, send, method === 'insertStringRecord'), opts, [r]);
  }

  /** String rows of any devices, one request per DataNode; the server infers the types. Failures as insertRecords. */
  async insertStringRecords(records: readonly StringRecordInput[], opts: CallOptions = {}): Promise<void> {
    this.checkOpen();
    const checked = this.#checkedStringRecords(records);
    const send = (ns: NodeSession, group: readonly CheckedStringRecord[]) =>
      ns.connection.call('insertStringRecords', recordsReq(ns, group));
    const plan = recordPlan('insertStringRecords', checked, stringDevice, send);
    if (plan !== null) await this.write(plan, opts, checked);
  }

  /** String records of one request, checked for the wire: at least one, each named by its index, alike aligned. */
  #checkedStringRecords(records: readonly StringRecordInput[]): CheckedStringRecord[] {
    checkList('records', records, 'record');
    const checked = records.map((r, i) => checkStringRecord(r, `records[${i}]`, this.timestampPrecision));
    sameAlignment(checked, 'records');
    return checked;
  }

  /**
   * Rows of one device in one request (typed values, as insertRecord). Rows are sorted by time first
   * unless `sorted` says they are (their values travel with them, as in Java); rows whose values are
   * all null are skipped. IoTDBBatchError indexes are into `rows`.
   */
  async insertRecordsOfOneDevice(
    deviceId: string,
    rows: readonly OneDeviceRow[],
    opts: OneDeviceOptions = {},
  ): Promise<void> {
    await this.#recordsOfOneDevice('insertRecordsOfOneDevice', deviceId, rows, false, opts);
  }

  /** insertRecordsOfOneDevice to an aligned device. */
  async insertAlignedRecordsOfOneDevice(
    deviceId: string,
    rows: readonly OneDeviceRow[],
    opts: OneDeviceOptions = {},
  ): Promise<void> {
    await this.#recordsOfOneDevice('insertAlignedRecordsOfOneDevice', deviceId, rows, true, opts);
  }

  async #recordsOfOneDevice(
    what: string,
    deviceId: string,
    rows: readonly OneDeviceRow[],
    aligned: boolean,
    opts: OneDeviceOptions,
  ): Promise<void> {
    this.checkOpen();
    checkCallOptions(opts, ONE_DEVICE_OPTION_KEYS);
    const { sorted, ...callOpts } = opts;
    checkList('rows', rows, 'row');
    rows.forEach((row, i) => ONE_DEVICE_ROW_KEYS.check(row, `rows[${i}]`));
    const records = rows.map((row): RecordInput => ({ ...row, deviceId, isAligned: aligned }));
    if (await this.#asTablets(what, records, callOpts)) return;
    const shape: RecordShapeCache = {};
    const encoded = records.map((r, i) => encodeRecord(r, `rows[${i}]`, this.timestampPrecision, shape));
    const send = (ns: NodeSession, group: readonly EncodedRecord[]) =>
      ns.connection.call('insertRecordsOfOneDevice', {
        sessionId: ns.sessionId,
        prefixPath: deviceId,
        measurementsList: group.map((r) => r.measurements),
        valuesList: group.map((r) => r.values),
        timestamps: group.map((r) => r.timestamp),
        isAligned: aligned,
      });
    const byTime =
      sorted === true ? undefined : (a: EncodedRecord, b: EncodedRecord) => compareTime(a.timestamp, b.timestamp);
    const plan = recordPlan(what, encoded, recordDevice, send, byTime);
    if (plan !== null) await this.write(plan, callOpts, encoded);
  }

  /**
   * A batching writer over this session: `write({ deviceId, timestamp, values })` row by row; rows are
   * buffered per device in columns and sent as insertTablets (see the user's guide, "Batching writer").
   * The session must be open when rows are written.
   */
  writer(options: TreeWriterOptions = {}): Writer<TreeRow> {
    return treeWriter((fn) => (this.checkOpen(), fn(this)), options, 2, this.writers);
  }

  /** @internal one request of a writer: its tablets, routed and retried as insertTablets */
  [sendForWriter](tablets: readonly PreparedTablet[]): Promise<void> {
    this.checkOpen();
    return this.#writeTablets(tablets, {});
  }

  /** Prepared tablets as insertTablets: routed per node, retried, failures by tablet index. */
  #writeTablets(tablets: readonly PreparedTablet[], opts: CallOptions): Promise<void> {
    return this.write(this.#tabletsPlan('insertTablets', tablets), opts, tablets);
  }

  /**
   * Tablets as insertTablets requests, one per node, each encoded before any is sent when they go to several (a
   * tablet named by its index in `tablets`); `indexesOf`: the caller's items a tablet carries.
   */
  #tabletsPlan(
    what: string,
    tablets: readonly PreparedTablet[],
    indexesOf?: (k: number) => readonly number[],
  ): WritePlan<NodeSession> {
    const send = (ns: NodeSession, group: readonly PreparedTablet[], encoded?: ByteWriter) =>
      this.sendTablets(ns, group, 'insertTablets', encoded);
    const part = (ks: readonly number[]) => ks.map((k) => tablets[k]);
    const encode = (ks: readonly number[]) => this.encodeArgs('insertTablets', tabletsArgs(part(ks), ks));
    return { ...itemPlan(what, tablets, tabletDevice, send, true, indexesOf), encode };
  }

  /**
   * The Java Session's testInsert* calls, for benchmarks (`--server-noop`): the requests of insertTablet,
   * insertTablets, insertRecord(s) and insertStringRecord(s), checked alike, through IoTDB's testInsert* RPCs, which
   * the server decodes and acknowledges but does not store. They measure the client with a real server and socket;
   * nothing is written, and each is one request to the session's node (nothing is redirected). Records go as
   * records (never as tablets).
   */
  async testInsertTablet(tablet: Tablet, opts: CallOptions = {}): Promise<void> {
    this.checkOpen();
    const p = prepareTablet(tablet, this.timestampPrecision);
    await this.write(
      itemPlan('testInsertTablet', [p], tabletDevice, (ns) => this.sendTablet(ns, p, 'testInsertTablet'), false),
      opts,
      [p],
    );
  }

  /** insertTablets's request through IoTDB's testInsertTablets, nothing stored (see testInsertTablet). */
  async testInsertTablets(tablets: readonly Tablet[], opts: CallOptions = {}): Promise<void> {
    this.checkOpen();
    const prepared = this.#preparedTablets(tablets);
    const send = (ns: NodeSession) => this.sendTablets(ns, prepared, 'testInsertTablets');
    await this.write(itemPlan('testInsertTablets', prepared, tabletDevice, send, false), opts, prepared);
  }

  /** insertRecords's request through IoTDB's testInsertRecords, nothing stored (see testInsertTablet). */
  async testInsertRecords(records: readonly RecordInput[], opts: CallOptions = {}): Promise<void> {
    this.checkOpen();
    checkList('records', records, 'record');
    const encoded = this.#encodedRecords(records);
    const send = (ns: NodeSession) => this.sendRecords(ns, encoded, 'testInsertRecords');
    await this.write(itemPlan('testInsertRecords', encoded, recordDevice, send, false), opts, encoded);
  }

  /** insertRecord's request through IoTDB's testInsertRecord, nothing stored (see testInsertTablet). */
  async testInsertRecord(record: RecordInput, opts: CallOptions = {}): Promise<void> {
    await this.#writeRecord('testInsertRecord', record, opts);
  }

  /** insertStringRecord's request through IoTDB's testInsertStringRecord, nothing stored (see testInsertTablet). */
  async testInsertStringRecord(record: StringRecordInput, opts: CallOptions = {}): Promise<void> {
    await this.#writeStringRecord('testInsertStringRecord', record, opts);
  }

  /** insertStringRecords's request through IoTDB's testInsertStringRecords, nothing stored (see testInsertTablet). */
  async testInsertStringRecords(records: readonly StringRecordInput[], opts: CallOptions = {}): Promise<void> {
    this.checkOpen();
    const checked = this.#checkedStringRecords(records);
    const send = (ns: NodeSession) => ns.connection.call('testInsertStringRecords', recordsReq(ns, checked));
    await this.write(itemPlan('testInsertStringRecords', checked, stringDevice, send, false), opts, checked);
  }

  /** One insertTablets request (several devices) to one node; `encoded` as sendArgs. */
  protected sendTablets(
    ns: NodeSession,
    group: readonly PreparedTablet[],
    method: 'insertTablets' | 'testInsertTablets' = 'insertTablets',
    encoded?: ByteWriter,
  ): Promise<TSStatus> {
    return this.sendArgs(ns, method, tabletsArgs(group), encoded);
  }

  /** One insertRecords request to one node: the binary fast path, or the generic codec in the compact protocol. */
  protected sendRecords(
    ns: NodeSession,
    group: readonly EncodedRecord[],
    method: 'insertRecords' | 'testInsertRecords' = 'insertRecords',
  ): Promise<TSStatus> {
    return ns.connection.call(method, (w, compact) =>
      compact
        ? writeValueCompact(w, RECORDS_REQ, recordsReq(ns, group) satisfies TSInsertRecordsReq)
        : writeInsertRecordsReq(w, ns.sessionId, group, group[0]?.isAligned ?? false),
    );
  }
}

const RECORDS_REQ = { struct: TSInsertRecordsReqSchema } as const;

/** The insertTablets argument of `group` on a session, its tablets named `tablets[names[i]]` in errors. */
const tabletsArgs =
  (group: readonly PreparedTablet[], names?: readonly number[]) =>
  (sessionId: bigint): ArgsWriter =>
  (w, compact) =>
    (compact ? writeInsertTabletsReqCompact : writeInsertTabletsReq)(w, sessionId, group, names);

const tabletDevice = (t: PreparedTablet) => t.prefixPath;
const stringDevice = (r: CheckedStringRecord) => r.deviceId;

/** One row of insertRecordsOfOneDevice: a record without its device. */
export type OneDeviceRow = Omit<RecordInput, 'deviceId' | 'isAligned'>;
/** a row's own deviceId or isAligned would be overridden by the call's: refused */
const ONE_DEVICE_ROW_KEYS: KnownKeys = KnownKeys.of<OneDeviceRow>('row')(
  'timestamp',
  'measurements',
  'dataTypes',
  'values',
);

export interface OneDeviceOptions extends CallOptions {
  /** the rows are in time order already (else they are sorted first). @default false */
  sorted?: boolean;
}
const ONE_DEVICE_OPTION_KEYS: KnownKeys = KnownKeys.of<OneDeviceOptions>('options')('signal', 'sorted');
const recordDevice = (r: EncodedRecord) => r.deviceId;

/** Records of any devices in one request: typed values (bytes) or strings alike. */
function recordsReq<V>(ns: NodeSession, group: readonly RecordOf<V>[]) {
  return {
    sessionId: ns.sessionId,
    prefixPaths: group.map((r) => r.deviceId),
    measurementsList: group.map((r) => r.measurements),
    valuesList: group.map((r) => r.values),
    timestamps: group.map((r) => r.timestamp),
    isAligned: group[0]?.isAligned ?? false,
  };
}

/** A record checked for the wire, its values typed (bytes) or strings. */
type RecordOf<V> = Pick<EncodedRecord, 'deviceId' | 'measurements' | 'timestamp' | 'isAligned'> & { values: V };

/** The request of one record: typed values (bytes) or strings alike. */
function oneRecordReq<V>(ns: NodeSession, r: RecordOf<V>) {
  return {
    sessionId: ns.sessionId,
    prefixPath: r.deviceId,
    measurements: r.measurements,
    values: r.values,
    timestamp: r.timestamp,
    isAligned: r.isAligned,
  };
}
