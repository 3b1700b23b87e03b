// The packages through `require` (CommonJS): the same checks as esm.mjs, and the proof that require() and import
// give the same classes (the require entry loads the ES module build: one copy, no dual-package hazard).
'use strict';
const client = require('@iotdb/client');
const codec = require('@iotdb/fast-serializer');

async function main() {
  const writer = new codec.ByteWriter(64);
  const tablet = {
    deviceId: 'root.packaging.d1',
    measurements: ['temp'],
    dataTypes: [codec.TSDataType.FLOAT],
    timestamps: [1, 2],
    values: [[20.5], [21]],
  };
  codec.writeInsertTabletReq(writer, 1n, codec.prepareTablet(tablet));
  const request = codec.readStruct(new codec.ByteReader(Buffer.from(writer.view())), codec.TSInsertTabletReqSchema);
  console.log(`codec: ${request.prefixPath} ${request.size} rows`);
  console.log(`client: ${client.escapeString("it's")}`);

  const esm = await import('@iotdb/client');
  const esmCodec = await import('@iotdb/fast-serializer');
  console.log(`one copy: ${esm.Session === client.Session && esmCodec.ByteWriter === codec.ByteWriter}`);

  if (process.env.IOTDB_HOST) {
    const session = new client.Session({ host: process.env.IOTDB_HOST, port: Number(process.env.IOTDB_PORT ?? 6667) });
    await session.open();
    const version = await session.executeQueryStatement('SHOW VERSION');
    console.log(`server: ${(await version.next()).getValue('Version')}`);
    await version.close();
    await session.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
