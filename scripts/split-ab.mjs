// insertTablets split over two DataNodes (the routes known from a warm-up call, so each call is one request per
// node): calls of 10 devices x 500 rows x 50 measurements of the anchor's types, the two sides alternating, five
// rounds of ten calls (the first a warm-up); prints the median ms and client CPU ms per call of each, and requests
// per call. With AB_BASE=<another checkout, built>, that build against this one (before and after a change);
// without, this build split by node against the same calls sent whole to the first node (enableRedirection: false).
// Writes root.split_ab (dropped before and after). Connects through IOTDB_HOST/IOTDB_PORT to a cluster of two
// DataNodes (DATANODES=2 bash scripts/iotdb-local.sh start <dir>); needs `pnpm build`.
//   node scripts/split-ab.mjs
//   git worktree add /tmp/base <rev> && (cd /tmp/base && pnpm install && pnpm build) && AB_BASE=/tmp/base node scripts/split-ab.mjs
import { Session } from '../packages/client/dist/index.js'; // built by pnpm build
import { DEVICES, ROWS, SENSORS, median, tablets } from './ab-data.mjs';

const DB = 'root.split_ab';
const base = process.env.AB_BASE;
const BaseSession = base && (await import(`${base}/packages/client/dist/index.js`)).Session;
const sessions = base
  ? { base: new BaseSession(), this: new Session() }
  : { 'one node': new Session({ enableRedirection: false }), split: new Session() };
const kinds = Object.keys(sessions);
for (const s of Object.values(sessions)) await s.open();
const drop = () => sessions[kinds[1]].executeNonQueryStatement(`DROP DATABASE ${DB}`).catch(() => undefined);
await drop();
const ms = Object.fromEntries(kinds.map((k) => [k, []]));
const cpuMs = Object.fromEntries(kinds.map((k) => [k, []]));
const requests = Object.fromEntries(kinds.map((k) => [k, 0]));
let g0 = 0;
for (let round = 0; round < 5; round++) {
  for (const kind of kinds) {
    for (let call = 0; call < 10; call++, g0 += ROWS) {
      const batch = tablets(DB, g0);
      const [t0, c0, r0] = [performance.now(), process.cpuUsage(), sessions[kind].stats().requests];
      await sessions[kind].insertTablets(batch);
      const c = process.cpuUsage(c0);
      if (round === 0) continue; // the first round warms up (and learns the routes)
      ms[kind].push(performance.now() - t0);
      cpuMs[kind].push((c.user + c.system) / 1000);
      requests[kind] += sessions[kind].stats().requests - r0;
    }
  }
}
const [a, b] = kinds;
console.log(
  `insertTablets of ${DEVICES} devices x ${ROWS} rows x ${SENSORS} measurements, median per call: ` +
    kinds
      .map(
        (k) =>
          `${base ? `${k} build` : k} ${median(ms[k]).toFixed(1)} ms (client CPU ${median(cpuMs[k]).toFixed(1)} ms, ` +
          `${(requests[k] / ms[k].length).toFixed(1)} requests)`,
      )
      .join(', ') +
    ` (${b}/${a} ${(median(ms[b]) / median(ms[a])).toFixed(2)}x)`,
);
await drop();
await Promise.all(Object.values(sessions).map((s) => s.close()));
