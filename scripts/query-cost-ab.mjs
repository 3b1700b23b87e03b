// The client's own cost of a small query before and after a change, without a server: N queries in turn on one
// Session over the scripted fake transport (each answered at once with an empty result, read with `for await`),
// after N/10 untimed; wall and CPU microseconds per query. A process per build, AB_BASE's build and this one (also
// with SPREAD=0: spreadQueries off) alternating, three rounds. Needs `pnpm build` in both.
//   git worktree add /tmp/base <rev> && (cd /tmp/base && pnpm install && pnpm build)
//   AB_BASE=/tmp/base node scripts/query-cost-ab.mjs [N, default 20000]
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { alternate, childBuild } from './alternate.mjs';

const here = resolve(fileURLToPath(import.meta.url), '../..');
const n = Number(process.argv[2] ?? 20_000);

if (childBuild !== undefined) {
  const dist = `${childBuild}/packages/client/dist`;
  const { Session } = await import(pathToFileURL(`${dist}/index.js`).href);
  const { FakeTransport } = await import(pathToFileURL(`${dist}/transport/fake-transport.js`).href);
  const spread = process.env.SPREAD === '0' ? { spreadQueries: false } : {};
  const s = new Session({ nodeUrls: ['10.0.0.1:6667'], transport: new FakeTransport(), ...spread });
  await s.open();
  const run = async (count) => {
    for (let i = 0; i < count; i++)
      for await (const row of await s.executeQueryStatement('SELECT s0 FROM root.sg.d1')) void row;
  };
  await run(Math.ceil(n / 10));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await run(n);
  const cpu = process.cpuUsage(cpu0);
  const wallUs = ((performance.now() - t0) * 1000) / n;
  console.log(`wall ${wallUs.toFixed(1)} us, cpu ${((cpu.user + cpu.system) / n).toFixed(1)} us per query`);
  await s.close();
} else {
  const base = process.env.AB_BASE;
  if (base === undefined) throw new Error('AB_BASE: the checkout of the build to compare with (built)');
  const sides = [
    { name: 'base', dir: base },
    { name: 'this', dir: here },
    { name: 'this, spreadQueries off', dir: here, env: { SPREAD: '0' } },
  ];
  const out = alternate(import.meta.url, sides, 3, [String(n)]);
  for (const [name, rounds] of Object.entries(out))
    rounds.forEach((o, r) => console.log(`round ${r + 1} ${name}: ${o.trim()}`));
}
