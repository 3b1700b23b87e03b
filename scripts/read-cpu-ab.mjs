// A reader's client CPU, before and after a change: SELECT * over the database the bench wrote (e.g. after
// `iotdb-bench --workload java-anchor --total-points 10000000`), read six times in one process (the first read
// dropped) by read-compare's readers (this checkout's bench: every value looked at), the median read's M values/s,
// client CPU and GC time (perf_hooks 'gc' entries); a process per build and reader (each its own heap: what the
// collector does with a result held whole is the point), AB_BASE's build and this one alternating, four
// alternations. Readers: cols (toColumnar()), batches (batches()), rows (for await). Connects through
// IOTDB_HOST/IOTDB_PORT; needs `pnpm build`.
//   git worktree add /tmp/base <rev> && (cd /tmp/base && pnpm install && pnpm build)
//   AB_BASE=/tmp/base node scripts/read-cpu-ab.mjs [cols,batches,rows] [database, default root.bench]
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PerformanceObserver } from 'node:perf_hooks';
import { readAsBatches, readAsColumns, readAsRows } from '../packages/bench/dist/run/read-pass.js';

const here = resolve(fileURLToPath(import.meta.url), '../..');
const [readerNames, db] = [(process.argv[2] ?? 'cols').split(','), process.argv[3] ?? 'root.bench'];
/** read-compare's readers, each looking at every value it reads */
const READERS = { cols: readAsColumns, batches: readAsBatches, rows: readAsRows };
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

if (process.env.READ_CPU_CHILD) {
  const read = READERS[readerNames[0]];
  const { Session } = await import(pathToFileURL(`${process.env.READ_CPU_CHILD}/packages/client/dist/index.js`).href);
  let gcMs = 0;
  new PerformanceObserver((l) => l.getEntries().forEach((e) => (gcMs += e.duration))).observe({ entryTypes: ['gc'] });
  const s = new Session({ fetchSize: 5000 });
  await s.open();
  const reads = [];
  for (let i = 0; i < 6; i++) {
    const gc0 = gcMs;
    const pass = await read(s, `SELECT * FROM ${db}.** ALIGN BY DEVICE`, { fetchSize: 5000 });
    const cpuMs = pass.cpuSPerMpts * pass.points * 1e-3;
    reads.push({ rate: pass.pointsPerS / 1e6, cpu: cpuMs, gc: gcMs - gc0 });
    await new Promise((r) => setTimeout(r, 50)); // the entries of a collection that ended the read come in
  }
  await s.close();
  const kept = reads.slice(1).sort((a, b) => a.cpu - b.cpu)[2];
  process.stdout.write(JSON.stringify(kept));
} else {
  const builds = { old: resolve(process.env.AB_BASE ?? here), new: here };
  for (const reader of readerNames) {
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
