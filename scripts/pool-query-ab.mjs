// Sequential one-row point queries on a SessionPool of one build, each read to its end with `for await`: the queries
// per second and the connections the pool opened. Run it per build, alternately (a process each):
//   node scripts/pool-query-ab.mjs /path/to/old-checkout; node scripts/pool-query-ab.mjs .
// IOTDB_HOST / IOTDB_PORT: the server (default 127.0.0.1:6667); N queries (default 1500) after 200 warm-up ones.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const repo = resolve(process.argv[2] ?? '.');
const N = Number(process.env.N ?? 1500);
const { SessionPool } = await import(pathToFileURL(`${repo}/packages/client/dist/index.js`).href);
const host = process.env.IOTDB_HOST ?? '127.0.0.1';
const port = Number(process.env.IOTDB_PORT ?? 6667);
const pool = new SessionPool({ host, port, maxSize: 4 });
const SQL = 'SELECT v FROM root.pool_query_ab.d WHERE time = 1';
await pool.executeNonQueryStatement('INSERT INTO root.pool_query_ab.d(time, v) VALUES (1, 1.5)');
const query = async () => {
  for await (const row of await pool.executeQueryStatement(SQL)) void row;
};
for (let i = 0; i < 200; i++) await query();
const started = performance.now();
for (let i = 0; i < N; i++) await query();
const ms = performance.now() - started;
const { connects, size } = pool.stats();
console.log(JSON.stringify({ repo, queriesPerSecond: Math.round((N / ms) * 1000), connects, size }));
await pool.close();
