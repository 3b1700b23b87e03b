// A CommonJS TypeScript file (tsc --noEmit under moduleResolution node16): `import` here compiles to require(),
// so the packages' `require` types (dist/cjs/*.d.ts) are the ones checked.
import { Session, TSDataType, type SessionOptions } from '@iotdb/client';
import { ByteWriter, prepareTablet, writeInsertTabletReq } from '@iotdb/fast-serializer';

const options: SessionOptions = { host: '127.0.0.1', port: 6667 };
// @ts-expect-error the port is a number
const wrongPort: SessionOptions = { port: '6667' };

const writer = new ByteWriter(64);
writeInsertTabletReq(
  writer,
  1n,
  prepareTablet({
    deviceId: 'root.packaging.d1',
    measurements: ['temp'],
    dataTypes: [TSDataType.FLOAT],
    timestamps: [1],
    values: [[20.5]],
  }),
);

export const session: Session = new Session(options);
export { wrongPort };
