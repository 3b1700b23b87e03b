// A SessionPool: several sessions (connections) shared by concurrent callers, for a web server or any service
// that handles many requests at once. Session-like calls on the pool borrow a session and give it back;
// `pool.execute(fn)` keeps one session for several calls; `await using` (or close()) drains and closes it.
//
//   node examples/pool.mjs                 (IOTDB_HOST, IOTDB_PORT, IOTDB_USER, IOTDB_PASSWORD; default 127.0.0.1:6667)
import { SessionPool } from '@iotdb/client';

const database = 'root.example_pool';
// host, port and credentials from the IOTDB_* environment variables; the pool options say how many sessions
const pool = new SessionPool({ maxSize: 4, minSize: 1, waitTimeoutMs: 10_000 });
await pool.open();

try {
  // Twenty "requests" at once: each call borrows one of at most four sessions and returns it.
  const t0 = Date.now() - 60_000;
  await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      pool.insertRecord({
        deviceId: `${database}.room${i % 5}`,
        timestamp: t0 + i * 1000,
        measurements: ['temperature'],
        dataTypes: ['FLOAT'],
        values: [20 + i / 4],
      }),
    ),
  );
  const { size, inUse, calls } = pool.stats();
  console.log(`20 concurrent writes: ${calls} calls on ${size} sessions, ${inUse} borrowed now`);

  // Several calls on one session (e.g. a statement and a query that depend on each other).
  const latest = await pool.execute(async (session) => {
    const ds = await session.executeQueryStatement(`SELECT last temperature FROM ${database}.**`);
    const rows = [];
    for await (const row of ds) rows.push(row.values);
    return rows;
  });
  console.log('last value per room:', latest.length);

  // A query through the pool holds its session until the data set is read to the end (or closed).
  const ds = await pool.executeQueryStatement(`SELECT count(temperature) FROM ${database}.room0`);
  for await (const row of ds) console.log('room0 rows:', row.values[0]);
  console.log('pool ok');
} finally {
  await pool.deleteDatabase(database); // leave the server as we found it
  await pool.close();
}
