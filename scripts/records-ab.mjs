// insertRecords sent as records vs as their devices' tablets (the recordsAsTablets option), in the same run:
// calls of 10 devices x 500 rows x 50 measurements of the anchor's types, the two alternating, five rounds of ten
// calls; prints the median ms per call of each. Writes root.records_ab (dropped before and after). Connects
// through IOTDB_HOST/IOTDB_PORT; needs `pnpm build`.
//   node scripts/records-ab.mjs
import { Session } from '../packages/client/dist/index.js'; // built by pnpm build

const DB = 'root.records_ab';
const [DEVICES, ROWS, SENSORS] = [10, 500, 50];
const kinds = ['FLOAT', 'DOUBLE', 'INT32', 'INT64', 'TEXT', 'BOOLEAN'];
const shares = [0.3, 0.5, 0.7, 0.8, 0.9, 1];
const dataTypes = Array.from({ length: SENSORS }, (_, s) => kinds[shares.findIndex((x) => s / SENSORS < x)]);
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

const sessions = { records: new Session({ recordsAsTablets: false }), tablets: new Session() };
await sessions.tablets.open();
await sessions.records.open();
const drop = () => sessions.tablets.executeNonQueryStatement(`DROP DATABASE ${DB}`).catch(() => undefined);
await drop();
const ms = { records: [], tablets: [] };
let g0 = 0;
for (let round = 0; round < 5; round++) {
  for (const kind of ['records', 'tablets']) {
    for (let call = 0; call < 10; call++, g0 += ROWS) {
      const batch = records(g0);
      const t0 = performance.now();
      await sessions[kind].insertRecords(batch);
      if (round > 0) ms[kind].push(performance.now() - t0); // the first round warms up
    }
  }
}
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
console.log(
  `insertRecords of ${DEVICES} devices x ${ROWS} rows x ${SENSORS} measurements, median ms per call: ` +
    `as records ${med(ms.records).toFixed(1)}, as tablets ${med(ms.tablets).toFixed(1)} ` +
    `(${(med(ms.records) / med(ms.tablets)).toFixed(2)}x)`,
);
await drop();
await Promise.all(Object.values(sessions).map((s) => s.close()));
