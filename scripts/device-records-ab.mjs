// insertRecords of 1,000 devices, one record of 10 INT64 values each (too few per device to be sent as tablets):
// the client's cost of a write that names many devices, AB_BASE's build against this one, a process per build and
// round, the two alternating, ROUNDS rounds (default 5) of 40 calls after 5 untimed; prints each run's median wall
// and client CPU ms per call. Writes root.recab (dropped at the end). Connects through IOTDB_HOST/IOTDB_PORT; needs
// `pnpm build` in both.
//   git worktree add /tmp/base <rev> && (cd /tmp/base && pnpm install && pnpm build)
//   AB_BASE=/tmp/base node scripts/device-records-ab.mjs
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = resolve(fileURLToPath(import.meta.url), '../..');
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

if (process.env.DEVICE_RECORDS_CHILD) {
  const { Session } = await import(
    pathToFileURL(`${process.env.DEVICE_RECORDS_CHILD}/packages/client/dist/index.js`).href
  );
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
  const cpu = [];
  const wall = [];
  for (let t = 5; t < 45; t++) {
    const batch = records(t);
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    await s.insertRecords(batch);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    wall.push(performance.now() - w0);
  }
  if (process.env.DEVICE_RECORDS_DROP) await s.executeNonQueryStatement('DELETE DATABASE root.recab');
  await s.close();
  process.stdout.write(JSON.stringify({ wall: med(wall), cpu: med(cpu) }));
} else {
  const builds = { base: resolve(process.env.AB_BASE ?? here), this: here };
  const runs = { base: [], this: [] };
  const rounds = Number(process.env.ROUNDS ?? 5);
  for (let r = 0; r < rounds; r++)
    for (const side of r % 2 === 0 ? ['this', 'base'] : ['base', 'this']) {
      const last = r === rounds - 1 && side === (rounds % 2 === 1 ? 'base' : 'this');
      const env = { ...process.env, DEVICE_RECORDS_CHILD: builds[side], ...(last ? { DEVICE_RECORDS_DROP: '1' } : {}) };
      runs[side].push(JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url)], { env })));
    }
  for (const side of ['base', 'this'])
    console.log(
      `${side} (${builds[side]}): client CPU ms a call ${runs[side].map((x) => x.cpu.toFixed(2)).join(', ')}; wall ms ${runs[side].map((x) => x.wall.toFixed(2)).join(', ')}`,
    );
}
