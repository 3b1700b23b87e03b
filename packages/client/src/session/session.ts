import {
  IoTDBValidationError,
  encodeRecord,
  prefixField,
  prepareTablet,
  type RecordInput,
  type Tablet,
} from '@iotdb/fast-serializer';
import { rpc } from '../rpc/client-rpc.js';
import { verifySuccess } from '../rpc/status.js';
import { BaseSession } from './base-session.js';
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
 * One session is one connection; its calls run one at a time. Use several sessions for parallel writes.
 */
export class Session extends BaseSession {
  constructor(options: SessionOptions = {}) {
    super(options, 'tree');
  }

  /** Writes a tablet: rows of one device. Rows are sorted by time first, as the Java client does. */
  async insertTablet(tablet: Tablet): Promise<void> {
    this.state();
    await this.writeTablet(prepareTablet(tablet));
  }

  /** insertTablet to an aligned device. */
  async insertAlignedTablet(tablet: Tablet): Promise<void> {
    await this.insertTablet({ ...tablet, isAligned: true });
  }

  /** Several tablets (devices) in one request. They must agree on `isAligned` (the request has one flag). */
  async insertTablets(tablets: readonly Tablet[]): Promise<void> {
    const s = this.state();
    if (!Array.isArray(tablets) || tablets.length === 0) throw new IoTDBValidationError('tablets', 'needs at least one tablet');
    const prepared = tablets.map((t, i) => {
      try {
        return prepareTablet(t);
      } catch (e) {
        throw prefixField(e, `tablets[${i}]`);
      }
    });
    const aligned = prepared[0].isAligned;
    prepared.forEach((p, i) => {
      if (p.isAligned !== aligned) throw new IoTDBValidationError(`tablets[${i}].isAligned`, 'all tablets of one insertTablets call must agree on isAligned');
    });
    verifySuccess(await rpc.insertTablets(s.connection, s.sessionId, prepared), `insertTablets (${tablets.length} tablets)`);
  }

  /** One row of one device. Null values are left out (nothing is written for them). */
  async insertRecord(record: RecordInput): Promise<void> {
    const s = this.state();
    const r = encodeRecord(record);
    const status = await rpc.insertRecord(s.connection, {
      sessionId: s.sessionId,
      prefixPath: r.deviceId,
      measurements: r.measurements,
      values: r.values,
      timestamp: r.timestamp,
      isAligned: r.isAligned,
    });
    verifySuccess(status, `insertRecord ${r.deviceId}`);
  }

  /** Rows of any devices in one request. They must agree on `isAligned`. */
  async insertRecords(records: readonly RecordInput[]): Promise<void> {
    const s = this.state();
    if (!Array.isArray(records) || records.length === 0) throw new IoTDBValidationError('records', 'needs at least one record');
    const encoded = records.map((r, i) => encodeRecord(r, `records[${i}]`));
    const aligned = encoded[0].isAligned;
    encoded.forEach((r, i) => {
      if (r.isAligned !== aligned) throw new IoTDBValidationError(`records[${i}].isAligned`, 'all records of one insertRecords call must agree on isAligned');
    });
    const status = await rpc.insertRecords(s.connection, {
      sessionId: s.sessionId,
      prefixPaths: encoded.map((r) => r.deviceId),
      measurementsList: encoded.map((r) => r.measurements),
      valuesList: encoded.map((r) => r.values),
      timestamps: encoded.map((r) => r.timestamp),
      isAligned: aligned,
    });
    verifySuccess(status, `insertRecords (${records.length} records)`);
  }
}
