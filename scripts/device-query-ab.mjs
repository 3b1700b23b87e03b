// One-device queries sent to the DataNode leading the device's region (enableRedirection, the default since stop
// 47) against the same queries sent as any other (enableRedirection: false: in turn on the DataNodes, as before
// stop 47), on a cluster of several DataNodes with the data `iotdb-bench --workload java-anchor` writes
// (root.bench.d000..d099, s0..s49, a row a second from 1700000000000). One session per side in one process, the
// sides alternating, ROUNDS rounds (default 4) of N queries of each kind (default 1000), devices in turn: the
// last points of one device (executeLastDataQueryForOneDevice, 10 measurements), the last point of one series
// (executeLastDataQuery), 100 raw points of one series (executeRawDataQuery), a count over one series
// (executeAggregationQuery), a point of one series by SQL (`SELECT s0 FROM d WHERE time = t`), its last point by
// SQL (`SELECT last s0 FROM d`). Prints each kind's p50 (ms, execute to the data set's end) and queries per second.
// MODEL=table: the table model's (stop 48), TableSessions in database `device_query_ab`: each side writes table
// `t` (TAGs region and device_id, 100 devices, FIELDs s0..s9, 2,000 rows each; the same rows on both sides, so
// that each learns where the devices are), then SELECTs of one device: a point, 100 rows, its last value, a count.
// Connects through IOTDB_HOST/IOTDB_PORT; needs `pnpm build`.
//   node scripts/device-query-ab.mjs [N]
//   MODEL=table node scripts/device-query-ab.mjs [N]
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = resolve(fileURLToPath(import.meta.url), '../..');
const { Session, TableSession } = await import(pathToFileURL(`${here}/packages/client/dist/index.js`).href);
const n = Number(process.argv[2] ?? 1000);
const rounds = Number(process.env.ROUNDS ?? 4);
const T0 = 1700000000000;
const SENSORS = Array.from({ length: 10 }, (_, k) => `s${k}`);

const table = process.env.MODEL === 'table';
// the devices in a shuffled order (since stop 48): on the test cluster a table's d000, d001, ... were led by the two
// nodes alternately (probed), so queries of them in that order, taking turns on the nodes, would all or none reach
// the leader
const order = Array.from({ length: 100 }, (_, d) => d);
for (let k = 99, x = 42; k > 0; k--) {
  x = (x * 1103515245 + 12345) % 2 ** 31;
  const j = x % (k + 1);
  [order[k], order[j]] = [order[j], order[k]];
}
const name = (i) => `d${String(order[i % 100]).padStart(3, '0')}`;
const device = (i) => `root.bench.${name(i)}`;
const tags = (i) => `region = 'r${order[i % 100] % 4}' AND device_id = '${name(i)}'`;

const treeKinds = {
  'last of device': (s, i) => s.executeLastDataQueryForOneDevice('root.bench', device(i), SENSORS),
  'last of series': (s, i) => s.executeLastDataQuery([`${device(i)}.s0`]),
  'raw 100 points': (s, i) =>
    s.executeRawDataQuery([`${device(i)}.s0`], T0 + (i % 400) * 1000, T0 + (i % 400) * 1000 + 100_000),
  'count of series': (s, i) => s.executeAggregationQuery([`${device(i)}.s0`], ['COUNT']),
  'SQL point': (s, i) => s.executeQueryStatement(`SELECT s0 FROM ${device(i)} WHERE time = ${T0 + (i % 500) * 1000}`),
  'SQL last': (s, i) => s.executeQueryStatement(`SELECT last s0 FROM ${device(i)}`),
};

const tableKinds = {
  'SQL point': (s, i) =>
    s.executeQueryStatement(`SELECT s0 FROM t WHERE ${tags(i)} AND time = ${T0 + (i % 2000) * 1000}`),
  'SQL 100 rows': (s, i) =>
    s.executeQueryStatement(`SELECT * FROM t WHERE ${tags(i)} AND time >= ${T0 + (i % 1900) * 1000} LIMIT 100`),
  'SQL last': (s, i) => s.executeQueryStatement(`SELECT last(s0) FROM t WHERE ${tags(i)}`),
  'SQL count': (s, i) => s.executeQueryStatement(`SELECT count(s0) FROM t WHERE ${tags(i)}`),
};
const kinds = table ? tableKinds : treeKinds;

/** Writes the table's rows through `s` (a table session learns where its devices are from its writes). */
async function writeTable(s) {
  await s.executeNonQueryStatement('CREATE DATABASE IF NOT EXISTS device_query_ab');
  await s.executeNonQueryStatement('USE device_query_ab');
  const fields = Array.from({ length: 10 }, (_, k) => `s${k}`);
  const timestamps = Array.from({ length: 2000 }, (_, r) => T0 + r * 1000);
  for (let d = 0; d < 100; d++)
    await s.insert({
      tableName: 't',
      columnNames: ['region', 'device_id', ...fields],
      dataTypes: ['STRING', 'STRING', ...fields.map(() => 'DOUBLE')],
      columnCategories: ['TAG', 'TAG', ...fields.map(() => 'FIELD')],
      timestamps,
      values: timestamps.map((_, r) => [`r${d % 4}`, `d${String(d).padStart(3, '0')}`, ...fields.map((_, k) => r + k)]),
    });
}

async function run(s, query) {
  const ms = [];
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const q0 = performance.now();
    for await (const _row of await query(s, i));
    ms.push(performance.now() - q0);
  }
  const qps = n / ((performance.now() - t0) / 1000);
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(n / 2)], qps };
}

const Side = table ? TableSession : Session;
const sides = { routed: new Side({}), 'in turn': new Side({ enableRedirection: false }) };
for (const s of Object.values(sides)) {
  await s.open();
  if (table) await writeTable(s);
  const warm = table ? kinds['SQL last'] : kinds['last of device'];
  for (let i = 0; i < 300; i++) for await (const _row of await warm(s, i)); // learn, open
}
const results = {};
for (let r = 0; r < rounds; r++)
  for (const [kind, query] of Object.entries(kinds))
    for (const [side, s] of r % 2 === 0 ? Object.entries(sides) : Object.entries(sides).reverse())
      ((results[kind] ??= {})[side] ??= []).push(await run(s, query));
const routes = new Map();
const nodeOf = (i) =>
  table
    ? sides.routed.nodeOfDevice('t', { region: `r${order[i] % 4}`, device_id: name(i) })
    : sides.routed.nodeOf(device(i));
for (let i = 0; i < 100; i++) routes.set(nodeOf(i), (routes.get(nodeOf(i)) ?? 0) + 1);
console.log(
  `devices per node (routed): ${[...routes].map(([k, v]) => `${k} ${v}`).join(', ')}; turns: ${sides['in turn'].queryEndpoints.join(', ')}`,
);
for (const [kind, bySide] of Object.entries(results))
  for (const [side, rs] of Object.entries(bySide))
    console.log(
      `${kind.padEnd(16)} ${side.padEnd(8)} p50 ms ${rs.map((x) => x.p50.toFixed(3)).join(', ')}; queries/s ${rs.map((x) => Math.round(x.qps)).join(', ')}`,
    );
for (const s of Object.values(sides)) await s.close();
