// insertRecords of 1,000 devices, one record of 10 INT64 values each (too few per device to be sent as tablets):
// the client's cost of a write that names many devices, AB_BASE's build against this one, a process per build and
// round, the two alternating, ROUNDS rounds (default 5) of 40 calls after 5 untimed (each run drops the database at its end); prints each run's median wall
// and client CPU ms per call. Writes root.recab (dropped at the end). Connects through IOTDB_HOST/IOTDB_PORT; needs
// `pnpm build` in both.
//   git worktree add /tmp/base <rev> && (cd /tmp/base && pnpm install && pnpm build)
//   AB_BASE=/tmp/base node scripts/device-records-ab.mjs
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { alternate, childBuild, timedCalls } from './alternate.mjs';

const here = resolve(fileURLToPath(import.meta.url), '../..');

if (childBuild !== undefined) {
  const { Session } = await import(pathToFileURL(`${childBuild}/packages/client/dist/index.js`).href);
  const s = new Session({});
  await s.open();
  const ms = Array.from({ length: 10 }, (_, i) => `s${i}`);
  const records = (t) =>
    Array.from({ length: 1000 }, (_, d) => ({
      deviceId: `root.recab.d${d}`,
      timestamp: t,
      measurements: ms,
      dataTypes: ms.map(() => 'INT64'),
      values: ms.map((_, i) => BigInt(t + i)),
    }));
  for (let t = 0; t < 5; t++) await s.insertRecords(records(t));
  const cost = await timedCalls(records, (batch) => s.insertRecords(batch), 5, 45);
  await s.executeNonQueryStatement('DELETE DATABASE root.recab'); // the next run makes it again, untimed
  await s.close();
  process.stdout.write(JSON.stringify(cost));
} else {
  const builds = { base: resolve(process.env.AB_BASE ?? here), this: here };
  const sides = ['this', 'base'].map((name) => ({ name, dir: builds[name] }));
  const out = alternate(import.meta.url, sides, Number(process.env.ROUNDS ?? 5));
  const runs = { base: out.base.map((o) => JSON.parse(o)), this: out.this.map((o) => JSON.parse(o)) };
  for (const side of ['base', 'this'])
    console.log(
      `${side} (${builds[side]}): client CPU ms a call ${runs[side].map((x) => x.cpu.toFixed(2)).join(', ')}; wall ms ${runs[side].map((x) => x.wall.toFixed(2)).join(', ')}`,
    );
}
