// The packages as ES modules: `import`, the codec encoding a tablet request and reading it back, the client
// escaping SQL and, given IOTDB_HOST/IOTDB_PORT, asking the server for its version.
import { Session, escapeString } from '@iotdb/client';
import {
  ByteReader,
  ByteWriter,
  TSDataType,
  TSInsertTabletReqSchema,
  prepareTablet,
  readStruct,
  writeInsertTabletReq,
} from '@iotdb/fast-serializer';

const writer = new ByteWriter(64);
const tablet = {
  deviceId: 'root.packaging.d1',
  measurements: ['temp'],
  dataTypes: [TSDataType.FLOAT],
  timestamps: [1, 2],
  values: [[20.5], [21]],
};
writeInsertTabletReq(writer, 1n, prepareTablet(tablet));
const request = readStruct(new ByteReader(Buffer.from(writer.view())), TSInsertTabletReqSchema);
console.log(`codec: ${request.prefixPath} ${request.size} rows`);
console.log(`client: ${escapeString("it's")}`);

if (process.env.IOTDB_HOST) {
  const session = new Session({ host: process.env.IOTDB_HOST, port: Number(process.env.IOTDB_PORT ?? 6667) });
  await session.open();
  const version = await session.executeQueryStatement('SHOW VERSION');
  console.log(`server: ${(await version.next()).getValue('Version')}`);
  await version.close();
  await session.close();
}
