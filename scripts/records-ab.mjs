// insertRecords sent as records vs as their devices' tablets (the recordsAsTablets option), in the same run:
// calls of 10 devices x 500 rows x 50 measurements of the anchor's types, the two alternating, five rounds of ten
// calls; prints the median ms and client CPU ms per call of each. Writes root.records_ab (dropped before and after).
// Connects through IOTDB_HOST/IOTDB_PORT; needs `pnpm build`. With AB_BASE=<another checkout, built>, compares
// that build's insertRecords with this one's instead (both with the default options), e.g. before and after a change:
//   node scripts/records-ab.mjs
//   git worktree add /tmp/base <rev> && (cd /tmp/base && pnpm install && pnpm build) && AB_BASE=/tmp/base node scripts/records-ab.mjs
import { Session } from '../packages/client/dist/index.js'; // built by pnpm build

import { DEVICES, ROWS, SENSORS, median as med, records as recordsOf } from './ab-data.mjs';

const DB = 'root.records_ab';
const records = (g0) => recordsOf(DB, g0);

const base = process.env.AB_BASE;
const BaseSession = base && (await import(`${base}/packages/client/dist/index.js`)).Session;
const sessions = base
  ? { base: new BaseSession(), this: new Session() }
  : { records: new Session({ recordsAsTablets: false }), tablets: new Session() };
const kinds = Object.keys(sessions);
for (const s of Object.values(sessions)) await s.open();
const drop = () => sessions[kinds[1]].executeNonQueryStatement(`DROP DATABASE ${DB}`).catch(() => undefined);
await drop();
const ms = Object.fromEntries(kinds.map((k) => [k, []]));
const cpuMs = Object.fromEntries(kinds.map((k) => [k, []]));
let g0 = 0;
for (let round = 0; round < 5; round++) {
  for (const kind of kinds) {
    for (let call = 0; call < 10; call++, g0 += ROWS) {
      const batch = records(g0);
      const [t0, c0] = [performance.now(), process.cpuUsage()];
      await sessions[kind].insertRecords(batch);
      const c = process.cpuUsage(c0);
      if (round === 0) continue; // the first round warms up
      ms[kind].push(performance.now() - t0);
      cpuMs[kind].push((c.user + c.system) / 1000);
    }
  }
}
const [a, b] = kinds;
console.log(
  `insertRecords of ${DEVICES} devices x ${ROWS} rows x ${SENSORS} measurements, median per call: ` +
    kinds
      .map(
        (k) =>
          `${base ? `${k} build` : `as ${k}`} ${med(ms[k]).toFixed(1)} ms (client CPU ${med(cpuMs[k]).toFixed(1)} ms)`,
      )
      .join(', ') +
    ` (${a}/${b} ${(med(ms[a]) / med(ms[b])).toFixed(2)}x)`,
);
await drop();
await Promise.all(Object.values(sessions).map((s) => s.close()));
