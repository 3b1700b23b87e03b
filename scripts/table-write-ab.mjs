// A table session's writes on a cluster of several DataNodes: the client's cost of keying each row by its device
// (the write router splits a tablet by the nodes leading its devices, and learns them from the replies), AB_BASE's
// build against this one, a process per build and round, the two alternating, ROUNDS rounds (default 5). Each run
// writes table `t` (TAGs region and device_id, 10 DOUBLE fields) of database `table_write_ab` (dropped at its end):
// tablets of one device of 500 rows, and tablets of 10 devices of 50 rows each (split over the nodes), 5 of each
// untimed over the 100 devices, then 40 timed; and through a TableSessionPool of 4 sessions, insertParallel of 10
// tablets of one device of 50 rows each. Prints each kind's median client CPU and wall ms per call.
// Connects through IOTDB_HOST/IOTDB_PORT; needs `pnpm build` in both.
//   git worktree add /tmp/base <rev> && (cd /tmp/base && pnpm install && pnpm build)
//   AB_BASE=/tmp/base node scripts/table-write-ab.mjs
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { alternate, childBuild, timedCalls } from './alternate.mjs';

const here = resolve(fileURLToPath(import.meta.url), '../..');
const KINDS = { 'one device x 500 rows': [1, 500], '10 devices x 50 rows': [10, 50], 'pool: 10 x one device': [1, 50] };

if (childBuild !== undefined) {
  const { TableSession, TableSessionPool } = await import(
    pathToFileURL(`${childBuild}/packages/client/dist/index.js`).href
  );
  const s = new TableSession({});
  await s.open();
  const pool = new TableSessionPool({ database: 'table_write_ab', maxSize: 4 });
  await s.executeNonQueryStatement('CREATE DATABASE IF NOT EXISTS table_write_ab');
  await s.executeNonQueryStatement('USE table_write_ab');
  const fields = Array.from({ length: 10 }, (_, k) => `s${k}`);
  // call `c` of a kind: `devices` devices from (c x devices) % 100 on, `rows` rows each, after the rows of call c - 1
  const tablet = ([devices, rows], c) => {
    const timestamps = [];
    const values = [];
    for (let d = 0; d < devices; d++)
      for (let r = 0; r < rows; r++) {
        const device = (c * devices + d) % 100;
        timestamps.push(1700000000000 + (c * rows + r) * 1000);
        values.push([`r${device % 4}`, `d${device}`, ...fields.map((_, k) => r + k)]);
      }
    return {
      tableName: 't',
      columnNames: ['region', 'device_id', ...fields],
      dataTypes: ['STRING', 'STRING', ...fields.map(() => 'DOUBLE')],
      columnCategories: ['TAG', 'TAG', ...fields.map(() => 'FIELD')],
      timestamps,
      values,
    };
  };
  const result = {};
  for (const [kind, shape] of Object.entries(KINDS)) {
    // the pool: one call writes 10 tablets of one device each
    const inPool = kind.startsWith('pool');
    const make = inPool
      ? (c) => Array.from({ length: 10 }, (_, k) => tablet(shape, c * 10 + k))
      : (c) => tablet(shape, c);
    const send = inPool ? (tablets) => pool.insertParallel(tablets) : (t) => s.insert(t);
    for (let c = 0; c < 5; c++) await send(make(c));
    result[kind] = await timedCalls(make, send, 5, 45);
  }
  await pool.close();
  await s.executeNonQueryStatement('DROP DATABASE table_write_ab'); // the next run makes it again, untimed
  await s.close();
  process.stdout.write(JSON.stringify(result));
} else {
  const builds = { base: resolve(process.env.AB_BASE ?? here), this: here };
  const sides = ['this', 'base'].map((name) => ({ name, dir: builds[name] }));
  const out = alternate(import.meta.url, sides, Number(process.env.ROUNDS ?? 5));
  for (const kind of Object.keys(KINDS))
    for (const side of ['base', 'this']) {
      const runs = out[side].map((o) => JSON.parse(o)[kind]);
      console.log(
        `${kind.padEnd(22)} ${side}: client CPU ms a call ${runs.map((x) => x.cpu.toFixed(2)).join(', ')}; wall ms ${runs.map((x) => x.wall.toFixed(2)).join(', ')}`,
      );
    }
}
