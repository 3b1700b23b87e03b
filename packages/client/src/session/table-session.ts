import {
  IoTDBValidationError,
  prepareTableTablet,
  type ByteWriter,
  type PreparedTablet,
  type TableTablet,
  type TSStatus,
} from '@iotdb/fast-serializer';
import type { WritePlan } from '../write/write-plan.js';
import { BaseSession, type CallOptions } from './base-session.js';
import type { NodeSession } from './node-session.js';
import type { TableSessionOptions } from './options.js';
import { sendForWriter, tableWriter, type TableWriterOptions } from '../writer/sink.js';
import type { Writer } from '../writer/writer.js';
import type { TableRow } from '../writer/rows.js';
import { tableDevicesOf } from './pool-shared.js';

/**
 * A table-model session (`sql_dialect=table`): databases hold tables whose TAG columns identify
 * devices. `database` picks the database the session starts in; `USE db` changes it.
 *
 * ```ts
 * const session = new TableSession('iotdb://root:root@127.0.0.1:6667/db1');
 * // or: new TableSession({ url: process.env.IOTDB_URL, fetchSize: 10_000 }), new TableSession({ host, database })
 * ```
 */
export class TableSession extends BaseSession {
  /** the devices' keys of the tables this session (or its pool) writes, and of its SELECTs of one of them */
  readonly #devices = tableDevicesOf(this.options);

  /**
   * @param options options, or a connection string (`iotdb://user:password@host:port/database?name=value`);
   *   options over their `url`, over the IOTDB_* environment variables, over the defaults.
   * @throws IoTDBValidationError listing every unknown or invalid option
   */
  constructor(options: TableSessionOptions | string = {}) {
    super(options, 'table');
  }

  /** The current database: the `database` option, or the last `USE`. */
  get database(): string | undefined {
    return this.currentDatabase;
  }

  /**
   * The node this session sends a device's writes and SELECTs to, 'host:port', when known (see nodeOf): the device of
   * `table` in the session's database whose TAG values are `tags` (every TAG of the table, by name, in any order
   * and case). Else undefined: its writes go to the default node, its SELECTs take turns.
   * @throws IoTDBValidationError when `table` is not a string or `tags` not an object of strings
   */
  nodeOfDevice(table: string, tags: Readonly<Record<string, string | null>>): string | undefined {
    if (typeof table !== 'string') throw new IoTDBValidationError('table', 'needs a table name');
    const strings = (o: object) => Object.values(o).every((v) => v === null || typeof v === 'string');
    if (tags === null || typeof tags !== 'object' || !strings(tags)) {
      throw new IoTDBValidationError('tags', "needs each TAG's value by its name, a string or null");
    }
    return this.nodeOf(this.#devices.keyOf(this.currentDatabase, table, tags));
  }

  /**
   * Writes a tablet: rows of one table. With redirection, rows of devices known to live on other
   * DataNodes are split off and sent there in parallel, as the Java client does. If only some rows
   * fail, IoTDBBatchError lists them by their index in the tablet's rows.
   */
  async insert(tablet: TableTablet, opts: CallOptions = {}): Promise<void> {
    this.checkOpen();
    const p = prepareTableTablet(tablet, this.timestampPrecision);
    await this.write(this.#tablePlan(p), opts, [p]);
  }

  /**
   * A batching writer over this session: `write({ table, timestamp, tags, attributes, fields })` row by
   * row; rows are buffered per table in columns and sent as table inserts (see the user's guide).
   */
  writer(options: TableWriterOptions = {}): Writer<TableRow> {
    return tableWriter((fn) => (this.checkOpen(), fn(this)), options, 2, this.writers);
  }

  /** A SELECT of one device of a table this session or its pool wrote: its key (its queries go to its node, as its writes). */
  protected override deviceOfTableSelect(sql: string): string | undefined {
    return this.#devices.ofSelect(sql, this.currentDatabase);
  }

  /** @internal one request of a writer: one table's tablet, split by node and retried as insert */
  [sendForWriter](tablets: readonly PreparedTablet[]): Promise<void> {
    this.checkOpen();
    return this.write(this.#tablePlan(tablets[0]), {}, tablets);
  }

  /** The rows of `p` as write items, each node's part encoded before any is sent when they go to several. */
  #tablePlan(p: PreparedTablet): WritePlan<NodeSession> {
    return tablePlan(
      p,
      this.#devices.rowKeys(p, this.currentDatabase),
      (ns, part, encoded) => this.sendTablet(ns, part, 'insertTablet', encoded),
      (part) => this.encodeArgs('insertTablet', this.tabletArgs(part)),
    );
  }
}

/** The rows of a table tablet as write items, in time order: item k is the k-th row by time. */
function tablePlan(
  p: PreparedTablet,
  deviceOfRow: (row: number) => string,
  send: (ns: NodeSession, part: PreparedTablet, encoded?: ByteWriter) => Promise<TSStatus>,
  encode: (part: PreparedTablet) => ByteWriter,
): WritePlan<NodeSession> {
  const rowOf = (k: number) => (p.order === null ? k : p.order[k]);
  // all rows: the tablet as it is; a part: its rows, still in time order
  const partOf = (ks: readonly number[]): PreparedTablet =>
    ks.length === p.rows ? p : { ...p, rows: ks.length, order: Uint32Array.from(ks, rowOf) };
  return {
    what: 'insert', // errors read "insert <table>: [code] message", the table from labelOf
    count: p.rows,
    deviceOf: (k) => deviceOfRow(rowOf(k)),
    labelOf: () => p.prefixPath,
    indexesOf: (k) => [rowOf(k)],
    send: (ns, ks, encoded) => send(ns, partOf(ks), encoded),
    encode: (ks) => encode(partOf(ks)),
  };
}
