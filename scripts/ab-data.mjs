// The data of the A/B scripts (records-ab, split-ab): calls of DEVICES devices x ROWS rows x SENSORS measurements of
// the Java anchor's types, as records or as tablets.
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
export const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
