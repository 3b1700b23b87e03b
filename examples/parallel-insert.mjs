// Writes many devices concurrently through a SessionPool: one tablet per device, `insertTabletsParallel` sending
// them over up to `concurrency` sessions at once. If some fail, it throws an IoTDBBatchError that lists each
// failed tablet by its index (and the ones that succeeded); nothing is silently dropped.
//
//   node examples/parallel-insert.mjs      (IOTDB_HOST, IOTDB_PORT, IOTDB_USER, IOTDB_PASSWORD; default 127.0.0.1:6667)
import { IoTDBBatchError, SessionPool } from '@iotdb/client';

const database = 'root.example_parallel';
const devices = 40;
const rowsPerDevice = 500;
const pool = new SessionPool({ maxSize: 4 }); // host, port and credentials from the IOTDB_* environment variables
await pool.open();

try {
  const t0 = Date.now() - rowsPerDevice * 1000;
  const timestamps = Float64Array.from({ length: rowsPerDevice }, (_, i) => t0 + i * 1000);
  const tablets = Array.from({ length: devices }, (_, d) => ({
    deviceId: `${database}.turbine${d}`,
    measurements: ['rpm', 'power'],
    dataTypes: ['INT32', 'DOUBLE'],
    timestamps,
    columns: [
      Int32Array.from({ length: rowsPerDevice }, (_, i) => 1500 + ((d * 7 + i) % 100)),
      Float64Array.from({ length: rowsPerDevice }, (_, i) => 2.5 + Math.sin(i / 50)),
    ],
  }));

  const started = performance.now();
  try {
    await pool.insertTabletsParallel(tablets, { concurrency: 4 });
  } catch (e) {
    if (!(e instanceof IoTDBBatchError)) throw e;
    for (const f of e.failures) console.error(`tablet ${f.index} (${f.device}) failed: ${f.error.message}`);
    throw e;
  }
  const seconds = (performance.now() - started) / 1000;
  const points = devices * rowsPerDevice * 2;
  console.log(`${points} points of ${devices} devices in ${seconds.toFixed(2)} s`);

  const ds = await pool.executeQueryStatement(`SELECT count(rpm) FROM ${database}.** ALIGN BY DEVICE`);
  let stored = 0;
  for await (const row of ds) stored += Number(row.values[1]);
  console.log(`rows stored: ${stored} of ${devices * rowsPerDevice}`);
  console.log('parallel insert ok');
} finally {
  await pool.deleteDatabase(database); // leave the server as we found it
  await pool.close();
}
