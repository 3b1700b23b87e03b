// Read-ahead, off vs on, in the same run: SELECT * over the database the bench wrote (e.g. after
// `iotdb-bench --workload java-anchor`), read as rows (`for await`) and as columns (`toColumnar()`), readAhead 0
// and 1 alternating, five rounds; prints the median values/s of each. Connects through IOTDB_HOST/IOTDB_PORT; needs `pnpm build`.
//   node scripts/read-ahead-ab.mjs [database, default root.bench]
import { Session } from '../packages/client/dist/index.js'; // built by pnpm build

const db = process.argv[2] ?? 'root.bench';
const sql = `SELECT * FROM ${db}.** ALIGN BY DEVICE`;
const s = new Session({ fetchSize: 5000 });
await s.open();
const res = { rows: { 0: [], 1: [] }, cols: { 0: [], 1: [] } };
for (let round = 0; round < 5; round++) {
  for (const ra of [0, 1]) {
    let t0 = performance.now();
    let n = 0;
    const ds = await s.executeQueryStatement(sql, { readAhead: ra });
    for await (const row of ds) {
      n += row.values.length;
    }
    res.rows[ra].push(n / ((performance.now() - t0) / 1000));
    t0 = performance.now();
    const c = await (await s.executeQueryStatement(sql, { readAhead: ra })).toColumnar();
    res.cols[ra].push((c.rowCount * c.values.length) / ((performance.now() - t0) / 1000));
  }
}
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
for (const k of ['rows', 'cols'])
  console.log(
    k,
    'readAhead 0:',
    (med(res[k][0]) / 1e6).toFixed(2),
    'M values/s',
    ' readAhead 1:',
    (med(res[k][1]) / 1e6).toFixed(2),
    `(${(med(res[k][1]) / med(res[k][0])).toFixed(2)}x)`,
  );
await s.close();
