// A reader's client CPU, before and after a change: SELECT * over the database the bench wrote (e.g. after
// `iotdb-bench --workload java-anchor --total-points 10000000`), read six times in one process (the first read
// dropped), the median read's M values/s, client CPU (process.cpuUsage) and GC time (perf_hooks 'gc' entries);
// a process per build and reader (each its own heap: what the collector does with a result held whole is the
// point), AB_BASE's build and this one alternating, four alternations. Readers: cols (toColumnar()), batches
// (batches()), rows (for await, every row's values). Connects through IOTDB_HOST/IOTDB_PORT; needs `pnpm build`.
//   git worktree add /tmp/base <rev> && (cd /tmp/base && pnpm install && pnpm build)
//   AB_BASE=/tmp/base node scripts/read-cpu-ab.mjs [cols,batches,rows] [database, default root.bench]
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PerformanceObserver, performance } from 'node:perf_hooks';

const here = resolve(fileURLToPath(import.meta.url), '../..');
const [readers, db] = [(process.argv[2] ?? 'cols').split(','), process.argv[3] ?? 'root.bench'];
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

if (process.env.READ_CPU_CHILD) {
  const { Session } = await import(pathToFileURL(`${process.env.READ_CPU_CHILD}/packages/client/dist/index.js`).href);
  let gcMs = 0;
  new PerformanceObserver((l) => l.getEntries().forEach((e) => (gcMs += e.duration))).observe({ entryTypes: ['gc'] });
  const s = new Session({ fetchSize: 5000 });
  await s.open();
  const reads = [];
  for (let i = 0; i < 6; i++) {
    const [gc0, cpu0, t0] = [gcMs, process.cpuUsage(), performance.now()];
    const values = await read(await s.executeQueryStatement(`SELECT * FROM ${db}.** ALIGN BY DEVICE`), readers[0]);
    const cpu = process.cpuUsage(cpu0);
    reads.push({ rate: values / (performance.now() - t0) / 1e3, cpu: (cpu.user + cpu.system) / 1e3, gc: gcMs - gc0 });
    await new Promise((r) => setTimeout(r, 50)); // the entries of a collection that ended the read come in
  }
  await s.close();
  const kept = reads.slice(1).sort((a, b) => a.cpu - b.cpu)[2];
  process.stdout.write(JSON.stringify(kept));
} else {
  const builds = { old: resolve(process.env.AB_BASE ?? here), new: here };
  for (const reader of readers) {
    const runs = { old: [], new: [] };
    for (let round = 0; round < 4; round++)
      for (const side of ['old', 'new']) {
        const env = { ...process.env, READ_CPU_CHILD: builds[side] };
        const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), reader, db], { env });
        runs[side].push(JSON.parse(out));
      }
    for (const side of ['old', 'new']) {
      const r = runs[side];
      console.log(
        `${reader.padEnd(8)} ${side} (${builds[side]}): client CPU ms a read ${r.map((x) => x.cpu.toFixed(0)).join(', ')}` +
          `; GC ms ${r.map((x) => x.gc.toFixed(0)).join(', ')}; M values/s ${median(r.map((x) => x.rate)).toFixed(2)}`,
      );
    }
  }
}

async function read(ds, reader) {
  if (reader === 'cols') {
    const c = await ds.toColumnar();
    return c.rowCount * c.values.length;
  }
  let n = 0;
  if (reader === 'batches') for await (const b of ds.batches()) n += b.rowCount * b.values.length;
  else for await (const row of ds) n += row.values.length;
  return n;
}
