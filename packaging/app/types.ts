// Type-checked (tsc --noEmit, no skipLibCheck) under moduleResolution node16 and bundler: the public types resolve
// and are precise (the @ts-expect-error lines fail the check if anything degrades to `any`).
import { Session, SessionPool, TSDataType, type ColumnarResult, type SessionOptions, type Tablet } from '@iotdb/client';
import { ByteWriter, prepareTablet, writeInsertTabletReq, type PreparedTablet } from '@iotdb/fast-serializer';

const options: SessionOptions = { host: '127.0.0.1', port: 6667, fetchSize: 1000 };
// @ts-expect-error the port is a number
const wrongPort: SessionOptions = { port: '6667' };

const tablet: Tablet = {
  deviceId: 'root.packaging.d1',
  measurements: ['temp'],
  dataTypes: [TSDataType.FLOAT],
  timestamps: [1, 2],
  values: [[20.5], [21]],
};
const prepared: PreparedTablet = prepareTablet(tablet);
writeInsertTabletReq(new ByteWriter(64), 1n, prepared);

export async function temperatures(): Promise<ColumnarResult> {
  const session = new Session(options);
  await session.open();
  await session.insertTablet(tablet);
  const columns = await (await session.executeQueryStatement('SELECT temp FROM root.packaging.d1')).toColumnar();
  const times: BigInt64Array | null = columns.timestamps;
  // @ts-expect-error rowCount is a number
  const rows: string = columns.rowCount;
  await session.close();
  return { ...columns, timestamps: times, rowCount: Number(rows) };
}

export const pool = new SessionPool({ ...options, maxSize: 2 });
export { wrongPort };
