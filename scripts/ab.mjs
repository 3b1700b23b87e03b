// What the A/B scripts (records-ab, split-ab) share: their data (calls of DEVICES devices x ROWS rows x SENSORS
// measurements of the Java anchor's types, as records or as tablets) and the run that alternates two sessions.
import { Session } from '../packages/client/dist/index.js'; // built by pnpm build
export const [DEVICES, ROWS, SENSORS] = [10, 500, 50];
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
const time = (g) => 1_700_000_000_000 + g * 1000;
const row = (g, d) => dataTypes.map((t, s) => value(t, g, s, d));

/** One call's records under `db`: each device's rows g0 .. g0 + ROWS - 1, device after device. */
export const records = (db, g0) =>
  Array.from({ length: DEVICES * ROWS }, (_, i) => {
    const [d, g] = [Math.floor(i / ROWS), g0 + (i % ROWS)];
    return { deviceId: `${db}.d${d}`, timestamp: time(g), measurements, dataTypes, values: row(g, d) };
  });

/** One call's tablets under `db` (row-major): device d's rows g0 .. g0 + ROWS - 1. */
export const tablets = (db, g0) =>
  Array.from({ length: DEVICES }, (_, d) => {
    const gs = Array.from({ length: ROWS }, (_, r) => g0 + r);
    return {
      deviceId: `${db}.d${d}`,
      measurements,
      dataTypes,
      timestamps: gs.map(time),
      values: gs.map((g) => row(g, d)),
    };
  });

/** The median of `a` (the upper middle of an even count). */
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];

/**
 * Two sessions taking turns on `method` (a Session write method), five rounds of ten calls each (the first round a
 * warm-up), each call `session[method](data(db, g0))` on the data of rows g0 .. (made before the clock starts);
 * prints the median ms, client CPU ms and requests per call of each, and the second's time over the first's. The
 * sessions: `pair(Session)` (name -> Session, not yet open), or with AB_BASE=<another checkout, built> that build's
 * Session against this one's, both with the default options. Drops `db` before and after.
 */
export async function ab(method, db, data, pair) {
  const sessions = await sessionsOf(pair);
  const kinds = Object.keys(sessions);
  for (const s of Object.values(sessions)) await s.open();
  const drop = () => sessions[kinds[1]].executeNonQueryStatement(`DROP DATABASE ${db}`).catch(() => undefined);
  await drop();
  const ms = Object.fromEntries(kinds.map((k) => [k, []]));
  const cpuMs = Object.fromEntries(kinds.map((k) => [k, []]));
  const requests = Object.fromEntries(kinds.map((k) => [k, 0]));
  let g0 = 0;
  for (let round = 0; round < 5; round++) {
    for (const kind of kinds) {
      for (let n = 0; n < 10; n++, g0 += ROWS) {
        const [s, batch] = [sessions[kind], data(db, g0)];
        const [t0, c0, r0] = [performance.now(), process.cpuUsage(), s.stats().requests];
        await s[method](batch);
        const c = process.cpuUsage(c0);
        if (round === 0) continue; // the first round warms up (and learns the routes)
        ms[kind].push(performance.now() - t0);
        cpuMs[kind].push((c.user + c.system) / 1000);
        requests[kind] += s.stats().requests - r0;
      }
    }
  }
  const each = kinds.map(
    (k) =>
      `${k} ${median(ms[k]).toFixed(1)} ms (client CPU ${median(cpuMs[k]).toFixed(1)} ms, ` +
      `${(requests[k] / ms[k].length).toFixed(1)} requests)`,
  );
  const [a, b] = kinds;
  console.log(
    `${method} of ${DEVICES} devices x ${ROWS} rows x ${SENSORS} measurements, median per call: ${each.join(', ')} ` +
      `(${b}/${a} ${(median(ms[b]) / median(ms[a])).toFixed(2)}x)`,
  );
  await drop();
  await Promise.all(Object.values(sessions).map((s) => s.close()));
}

/** `pair(Session)`, or with AB_BASE the base build's Session and this one's. */
async function sessionsOf(pair) {
  const base = process.env.AB_BASE;
  if (!base) return pair(Session);
  const BaseSession = (await import(`${base}/packages/client/dist/index.js`)).Session;
  return { 'base build': new BaseSession(), 'this build': new Session() };
}
