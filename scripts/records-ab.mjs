// insertRecords sent as records vs as their devices' tablets (the recordsAsTablets option), in the same run:
// calls of 10 devices x 500 rows x 50 measurements of the anchor's types, the two alternating, five rounds of ten
// calls; prints the median ms and client CPU ms per call of each. Writes root.records_ab (dropped before and after).
// Connects through IOTDB_HOST/IOTDB_PORT; needs `pnpm build`. With AB_BASE=<another checkout, built>, compares
// that build's insertRecords with this one's instead (both with the default options), e.g. before and after a change:
//   node scripts/records-ab.mjs
//   git worktree add /tmp/base <rev> && (cd /tmp/base && pnpm install && pnpm build) && AB_BASE=/tmp/base node scripts/records-ab.mjs
import { Session } from '../packages/client/dist/index.js'; // built by pnpm build

const DB = 'root.records_ab';
const [DEVICES, ROWS, SENSORS] = [10, 500, 50];
const types = ['FLOAT', 'DOUBLE', 'INT32', 'INT64', 'TEXT', 'BOOLEAN'];
const shares = [0.3, 0.5, 0.7, 0.8, 0.9, 1];
const dataTypes = Array.from({ length: SENSORS }, (_, s) => types[shares.findIndex((x) => s / SENSORS < x)]);
const measurements = dataTypes.map((_, s) => `s${s}`);
const value = (type, g, s, d) =>
  ({
    FLOAT: (g % 1000) * 0.5 + s,
    DOUBLE: (g % 3600) * 0.25 + d,
    INT32: (g % 10000) + s,
    INT64: BigInt(g * 10 + d),
    TEXT: `value-${String((g + s) % 100).padStart(2, '0')}`,
    BOOLEAN: (g + s) % 2 === 0,
  })[type];
/** One call's records: each device's rows g0 .. g0 + ROWS - 1, device after device. */
const records = (g0) =>
  Array.from({ length: DEVICES * ROWS }, (_, i) => {
    const [d, g] = [Math.floor(i / ROWS), g0 + (i % ROWS)];
    const values = dataTypes.map((t, s) => value(t, g, s, d));
    return { deviceId: `${DB}.d${d}`, timestamp: 1_700_000_000_000 + g * 1000, measurements, dataTypes, values };
  });

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
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
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
