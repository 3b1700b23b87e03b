// Writes to the tree model: a tablet (many rows of one device, given as columns), a tablet given as rows, and
// single records, then reads them back. Devices are paths (root.example_tree.plant1.d1), measurements their series;
// the database and the series are created on the first write.
//
//   node examples/tree-insert.mjs          (IOTDB_HOST, IOTDB_PORT, IOTDB_USER, IOTDB_PASSWORD; default 127.0.0.1:6667)
import { Session, TSDataType } from '@iotdb/client';

const database = 'root.example_tree';
const session = new Session(); // host, port and credentials from the IOTDB_* environment variables
await session.open();

try {
  const t0 = Date.now() - 60_000;

  // Column-major with typed arrays: the fast path (copied in bulk, no per-value work).
  await session.insertTablet({
    deviceId: `${database}.plant1.d1`,
    measurements: ['temperature', 'pressure', 'running'],
    dataTypes: [TSDataType.FLOAT, TSDataType.DOUBLE, TSDataType.BOOLEAN],
    timestamps: Float64Array.from({ length: 10 }, (_, i) => t0 + i * 1000),
    columns: [
      Float32Array.from({ length: 10 }, (_, i) => 20 + i / 10),
      Float64Array.from({ length: 10 }, (_, i) => 1013 + i),
      Array.from({ length: 10 }, (_, i) => i % 2 === 0),
    ],
  });

  // Row-major, with names for the types; null is a missing value.
  await session.insertTablet({
    deviceId: `${database}.plant1.d2`,
    measurements: ['temperature', 'label'],
    dataTypes: ['FLOAT', 'TEXT'],
    timestamps: [t0, t0 + 1000, t0 + 2000],
    values: [
      [21.5, 'start'],
      [null, 'warming'],
      [22.25, null],
    ],
  });

  // One row at a time (insertRecords sends many in one request).
  await session.insertRecord({
    deviceId: `${database}.plant2.d1`,
    timestamp: new Date(), // a Date is converted to the server's time unit
    measurements: ['temperature', 'count'],
    dataTypes: ['FLOAT', 'INT64'],
    values: [19.75, 42n],
  });

  const ds = await session.executeQueryStatement(`SELECT count(temperature) FROM ${database}.** ALIGN BY DEVICE`);
  for await (const row of ds) console.log(row.getString('Device'), 'temperature rows:', row.values[1]);
  console.log('tree insert ok');
} finally {
  await session.deleteDatabase(database); // leave the server as we found it
  await session.close();
}
