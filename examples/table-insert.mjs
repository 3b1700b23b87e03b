// Writes to the table model: a database, a table created by the first insert (TAG columns identify a device,
// ATTRIBUTE columns describe it, FIELD columns are the measured values), then a SQL query over it.
//
//   node examples/table-insert.mjs         (IOTDB_HOST, IOTDB_PORT, IOTDB_USER, IOTDB_PASSWORD; default 127.0.0.1:6667)
import { TableSession } from '@iotdb/client';

const database = 'example_table';
const session = new TableSession(); // host, port and credentials from the IOTDB_* environment variables
await session.open();

try {
  await session.executeNonQueryStatement(`CREATE DATABASE IF NOT EXISTS ${database}`);
  await session.executeNonQueryStatement(`USE ${database}`); // or new TableSession({ database }) once it exists

  const t0 = Date.now() - 60_000;
  await session.insert({
    tableName: 'sensors',
    columnNames: ['region', 'device_id', 'model', 'temperature', 'humidity'],
    dataTypes: ['STRING', 'STRING', 'STRING', 'FLOAT', 'DOUBLE'],
    columnCategories: ['TAG', 'TAG', 'ATTRIBUTE', 'FIELD', 'FIELD'],
    timestamps: [t0, t0, t0 + 1000, t0 + 1000],
    values: [
      ['north', 'dev1', 'm-01', 20.5, 41.0],
      ['north', 'dev2', 'm-02', 19.0, null],
      ['north', 'dev1', 'm-01', 20.75, 40.5],
      ['south', 'dev3', 'm-01', 24.0, 55.25],
    ],
  });

  const ds = await session.executeQueryStatement(
    'SELECT region, device_id, avg(temperature) AS avg_temp, count(*) AS n FROM sensors GROUP BY region, device_id ORDER BY device_id',
  );
  for await (const row of ds) console.log(row.toObject());
  console.log('table insert ok');
} finally {
  await session.executeNonQueryStatement(`DROP DATABASE IF EXISTS ${database}`); // leave the server as we found it
  await session.close();
}
