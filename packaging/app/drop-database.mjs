// `node drop-database.mjs root.x`: drops that database on IOTDB_HOST:IOTDB_PORT if it exists, so that the
// quick-start (which creates root.demo) can run on a server it already ran on.
import { IoTDBServerError, Session } from '@iotdb/client';

const session = new Session({ host: process.env.IOTDB_HOST, port: Number(process.env.IOTDB_PORT ?? 6667) });
await session.open();
try {
  await session.executeNonQueryStatement(`DELETE DATABASE ${process.argv[2]}`);
} catch (e) {
  if (!(e instanceof IoTDBServerError)) throw e; // it did not exist
} finally {
  await session.close();
}
