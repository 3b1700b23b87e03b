// Small queries before and after a change: N one-row point queries in turn on one session over the data
// `iotdb-bench --workload java-anchor` writes (root.bench.d000.., a row a second from 1700000000000), each read to
// its end with `for await`, GAP_MS between them (0: back to back; 1: as an application between requests); the p50
// and p90 of a query, from its execute to the loop's end, and the queries per second. With POOL=P, LOOPS loops
// (default 8) each run N queries at once through a SessionPool of P sessions instead. A process per build, AB_BASE's
// build and this one alternating, three rounds. Connects through IOTDB_HOST/IOTDB_PORT, every query to that node
// (spreadQueries off); needs `pnpm build`.
//   git worktree add /tmp/base <rev> && (cd /tmp/base && pnpm install && pnpm build)
//   AB_BASE=/tmp/base GAP_MS=1 node scripts/small-query-ab.mjs [N, default 1000]
//   AB_BASE=/tmp/base POOL=2 LOOPS=8 node scripts/small-query-ab.mjs 500
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { alternate, childBuild } from './alternate.mjs';

const here = resolve(fileURLToPath(import.meta.url), '../..');
const n = Number(process.argv[2] ?? 1000);
const gapMs = Number(process.env.GAP_MS ?? 0);
const at = (xs, q) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * q)];

if (childBuild !== undefined) {
  const { Session, SessionPool, SESSION_DEFAULTS } = await import(
    pathToFileURL(`${childBuild}/packages/client/dist/index.js`).href
  );
  const poolSize = Number(process.env.POOL ?? 0);
  const loops = poolSize > 0 ? Number(process.env.LOOPS ?? 8) : 1;
  // the node given, even behind a proxy: queries do not take turns on the DataNodes the cluster reports (builds
  // since stop 46 would: the addresses behind the proxy)
  const options = SESSION_DEFAULTS?.spreadQueries === undefined ? {} : { spreadQueries: false };
  const s = poolSize > 0 ? new SessionPool({ maxSize: poolSize, ...options }) : new Session(options);
  if (poolSize === 0) await s.open();
  const sql = (i) =>
    `SELECT s0 FROM root.bench.d${String(i % 100).padStart(3, '0')} WHERE time = ${1700000000000 + (i % 500) * 1000}`;
  const query = async (i) => {
    let rows = 0;
    for await (const _row of await s.executeQueryStatement(sql(i))) rows++;
    return rows;
  };
  const ms = [];
  let rows = 0;
  const loop = async (l, count, timed) => {
    for (let i = l * count; i < (l + 1) * count; i++) {
      const t0 = performance.now();
      const read = await query(i);
      if (!timed) continue;
      rows += read;
      ms.push(performance.now() - t0);
      if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
    }
  };
  const inLoops = (count, timed) => Promise.all(Array.from({ length: loops }, (_, l) => loop(l, count, timed)));
  await inLoops(Math.ceil(300 / loops), false); // warm-up
  const t0 = performance.now();
  await inLoops(n, true);
  const qps = (loops * n) / ((performance.now() - t0) / 1000);
  await s.close();
  process.stdout.write(JSON.stringify({ p50: at(ms, 0.5), p90: at(ms, 0.9), qps, rows }));
} else {
  const builds = { old: resolve(process.env.AB_BASE ?? here), new: here };
  const sides = ['old', 'new'].map((name) => ({ name, dir: builds[name] }));
  const out = alternate(import.meta.url, sides, 3, [String(n)]);
  const runs = { old: out.old.map((o) => JSON.parse(o)), new: out.new.map((o) => JSON.parse(o)) };
  for (const side of ['old', 'new'])
    console.log(
      `${side} (${builds[side]}), ${n} queries${process.env.POOL ? ` x ${process.env.LOOPS ?? 8} loops, pool ${process.env.POOL}` : ''}, ${gapMs} ms apart: p50 ms ${runs[side].map((r) => r.p50.toFixed(3)).join(', ')}; ` +
        `p90 ms ${runs[side].map((r) => r.p90.toFixed(3)).join(', ')}; queries/s ${runs[side].map((r) => Math.round(r.qps)).join(', ')}; rows ${runs[side].map((r) => r.rows).join(', ')}`,
    );
}
