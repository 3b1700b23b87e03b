import {
  IoTDBValidationError,
  encodeRecord,
  prefixField,
  prepareTablet,
  type EncodedRecord,
  type PreparedTablet,
  type RecordInput,
  type Tablet,
  type TSInsertRecordsReq,
  type TSStatus,
} from '@iotdb/fast-serializer';
import { IoTDBBatchError, type BatchFailure } from '../errors.js';
import { rpc } from '../rpc/client-rpc.js';
import { BaseSession } from './base-session.js';
import { endpointKey, type Endpoint } from './endpoint.js';
import type { NodeSession } from './node-session.js';
import type { SessionOptions } from './options.js';

/**
 * A tree-model session: devices are paths (`root.sg.d1`), measurements are their series.
 *
 * ```ts
 * const session = new Session({ host: '127.0.0.1', port: 6667 });
 * await session.open();
 * await session.insertTablet({ deviceId: 'root.demo.d1', measurements: ['temp'], dataTypes: [TSDataType.FLOAT],
 *   timestamps: [Date.now()], values: [[25.5]] });
 * ```
 * Calls on one session run one at a time per connection. Use a SessionPool for parallel writes.
 */
export class Session extends BaseSession {
  constructor(options: SessionOptions = {}) {
    super(options, 'tree');
  }

  /** Writes a tablet: rows of one device. Rows are sorted by time first, as the Java client does. */
  async insertTablet(tablet: Tablet): Promise<void> {
    this.checkOpen();
    const p = prepareTablet(tablet);
    const status = await this.write(this.routeOf(p.prefixPath), (ns) => this.sendTablet(ns, p), `insertTablet ${p.prefixPath}`);
    this.learnRoutes(status, p.prefixPath, () => null);
  }

  /** insertTablet to an aligned device. */
  async insertAlignedTablet(tablet: Tablet): Promise<void> {
    await this.insertTablet({ ...tablet, isAligned: true });
  }

  /**
   * Several tablets (devices) in one request per DataNode. They must agree on `isAligned`. When the
   * devices live on different nodes (known from redirects), each node gets its share in parallel; if
   * only some shares fail, an IoTDBBatchError says which tablets were written and which were not.
   */
  async insertTablets(tablets: readonly Tablet[]): Promise<void> {
    this.checkOpen();
    if (!Array.isArray(tablets) || tablets.length === 0) throw new IoTDBValidationError('tablets', 'needs at least one tablet');
    const prepared = tablets.map((t, i) => {
      try {
        return prepareTablet(t);
      } catch (e) {
        throw prefixField(e, `tablets[${i}]`);
      }
    });
    sameAlignment(prepared, 'tablets');
    await this.#writeGroups('insertTablets', prepared, (p) => p.prefixPath, (ns, group) =>
      rpc.insertTablets(ns.connection, ns.sessionId, group),
    );
  }

  /** One row of one device. Null values are left out (nothing is written for them). */
  async insertRecord(record: RecordInput): Promise<void> {
    this.checkOpen();
    const r = encodeRecord(record);
    const status = await this.write(
      this.routeOf(r.deviceId),
      (ns) =>
        rpc.insertRecord(ns.connection, {
          sessionId: ns.sessionId,
          prefixPath: r.deviceId,
          measurements: r.measurements,
          values: r.values,
          timestamp: r.timestamp,
          isAligned: r.isAligned,
        }),
      `insertRecord ${r.deviceId}`,
    );
    this.learnRoutes(status, r.deviceId, () => null);
  }

  /** Rows of any devices in one request per DataNode. They must agree on `isAligned`. */
  async insertRecords(records: readonly RecordInput[]): Promise<void> {
    this.checkOpen();
    if (!Array.isArray(records) || records.length === 0) throw new IoTDBValidationError('records', 'needs at least one record');
    const encoded = records.map((r, i) => encodeRecord(r, `records[${i}]`));
    sameAlignment(encoded, 'records');
    await this.#writeGroups('insertRecords', encoded, (r) => r.deviceId, (ns, group) => rpc.insertRecords(ns.connection, recordsReq(ns, group)));
  }

  /**
   * For benchmarks (`--server-noop`): the same requests as insertTablet / insertTablets / insertRecords
   * through IoTDB's testInsert* RPCs, which the server decodes and acknowledges but does not store.
   * They measure the client with a real server and socket; nothing is written.
   */
  async testInsertTablet(tablet: Tablet): Promise<void> {
    this.checkOpen();
    const p = prepareTablet(tablet);
    await this.write(undefined, (ns) => rpc.insertTablet(ns.connection, ns.sessionId, p, 'testInsertTablet'), `testInsertTablet ${p.prefixPath}`);
  }

  async testInsertTablets(tablets: readonly Tablet[]): Promise<void> {
    this.checkOpen();
    const prepared = tablets.map((t) => prepareTablet(t));
    await this.write(undefined, (ns) => rpc.insertTablets(ns.connection, ns.sessionId, prepared, 'testInsertTablets'), 'testInsertTablets');
  }

  async testInsertRecords(records: readonly RecordInput[]): Promise<void> {
    this.checkOpen();
    const encoded = records.map((r, i) => encodeRecord(r, `records[${i}]`));
    await this.write(undefined, (ns) => rpc.insertRecords(ns.connection, recordsReq(ns, encoded), 'testInsertRecords'), 'testInsertRecords');
  }

  /** Splits a multi-device write by the node each device is routed to and sends the groups in parallel. */
  async #writeGroups<T>(
    what: string,
    items: readonly T[],
    deviceOf: (item: T) => string,
    send: (ns: NodeSession, group: T[]) => Promise<TSStatus>,
  ): Promise<void> {
    const groups = new Map<string, { target: Endpoint | undefined; indexes: number[] }>();
    items.forEach((item, i) => {
      const target = this.routeOf(deviceOf(item));
      const key = target === undefined ? '' : endpointKey(target);
      const g = groups.get(key) ?? { target, indexes: [] };
      g.indexes.push(i);
      groups.set(key, g);
    });
    const outcomes = await Promise.allSettled(
      [...groups.values()].map(async ({ target, indexes }) => {
        const group = indexes.map((i) => items[i]);
        const status = await this.write(target, (ns) => send(ns, group), `${what} (${group.length})`);
        this.learnRoutes(status, null, (k) => (k < group.length ? deviceOf(group[k]) : null));
      }),
    );
    const failed = outcomes.flatMap((o, g) => (o.status === 'rejected' ? [{ g, error: o.reason as Error }] : []));
    if (failed.length === 0) return;
    const all = [...groups.values()];
    if (all.length === 1) throw failed[0].error;
    const failures: BatchFailure[] = failed.flatMap(({ g, error }) => all[g].indexes.map((index) => ({ index, error })));
    const succeeded = outcomes.flatMap((o, g) => (o.status === 'fulfilled' ? all[g].indexes : []));
    throw new IoTDBBatchError(what, failures, succeeded);
  }
}

function recordsReq(ns: NodeSession, group: readonly EncodedRecord[]): TSInsertRecordsReq {
  return {
    sessionId: ns.sessionId,
    prefixPaths: group.map((r) => r.deviceId),
    measurementsList: group.map((r) => r.measurements),
    valuesList: group.map((r) => r.values),
    timestamps: group.map((r) => r.timestamp),
    isAligned: group[0]?.isAligned ?? false,
  };
}

function sameAlignment(items: readonly (PreparedTablet | EncodedRecord)[], field: string): void {
  const aligned = items[0].isAligned;
  items.forEach((x, i) => {
    if (x.isAligned !== aligned) {
      throw new IoTDBValidationError(`${field}[${i}].isAligned`, `all ${field} of one call must agree on isAligned`);
    }
  });
}
