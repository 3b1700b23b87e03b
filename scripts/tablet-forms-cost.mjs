// What a tablet's column forms and a record's checks cost the encoder (no I/O): prepare + encode of a 10,000-row,
// 10-column tablet given as typed arrays (no nulls; nulls in `nulls` masks, a tenth null), as plain arrays and as
// row-major values with null cells, DATE as an Int32Array of yyyymmdd against 'YYYY-MM-DD' strings, BOOLEAN as a
// Uint8Array of 0/1 against booleans; and encodeRecord of a 10-DOUBLE record (its key, path and cell checks). ns per
// value (per record), the median of 9 rounds. (A build before 2026-11-29 reads no `nulls`: its figure there is of no
// nulls.) DIST picks the build (a checkout with `pnpm build`; default this one), so that two builds can be run one
// after the other:
//   node scripts/tablet-forms-cost.mjs
//   DIST=/tmp/base node scripts/tablet-forms-cost.mjs
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('..', import.meta.url));
const dist = (process.env.DIST ?? here) + '/packages/fast-serializer/dist';
const { prepareTablet, ByteWriter, writeInsertTabletReq, encodeRecord } = await import(dist + '/index.js');

const ROWS = 10_000;
const COLS = 10;
const range = (n, f) => Array.from({ length: n }, (_, i) => f(i));
const mask = Uint8Array.from(range(ROWS, (i) => (i % 10 === 0 ? 1 : 0)));
const doubles = range(COLS, () => Float64Array.from(range(ROWS, (i) => (i % 10 === 0 ? 0 : i * 1.5))));
const dates = range(COLS, () => Int32Array.from(range(ROWS, (i) => 20240101 + (i % 28))));
const bools = range(COLS, () => Uint8Array.from(range(ROWS, (i) => i & 1)));
const tablet = (type, columns, extra = {}) => ({
  deviceId: 'root.cost.d',
  measurements: range(COLS, (i) => `m${i}`),
  dataTypes: range(COLS, () => type),
  timestamps: BigInt64Array.from(range(ROWS, BigInt)),
  columns,
  ...extra,
});
const iso = (v) => `${String(v).slice(0, 4)}-${String(v).slice(4, 6)}-${String(v).slice(6)}`;

const tablets = {
  'DOUBLE, Float64Array': () => tablet('DOUBLE', doubles),
  'DOUBLE, Float64Array + nulls': () => tablet('DOUBLE', doubles, { nulls: doubles.map(() => mask) }),
  'DOUBLE, plain arrays with null': () =>
    tablet(
      'DOUBLE',
      doubles.map((c) => Array.from(c, (v, i) => (mask[i] ? null : v))),
    ),
  'DOUBLE, row-major values with null': () => ({
    ...tablet('DOUBLE', undefined),
    values: range(ROWS, (r) => doubles.map((c) => (mask[r] ? null : c[r]))),
  }),
  'DATE, Int32Array yyyymmdd': () => tablet('DATE', dates),
  "DATE, 'YYYY-MM-DD' strings": () =>
    tablet(
      'DATE',
      dates.map((c) => Array.from(c, iso)),
    ),
  'BOOLEAN, Uint8Array 0/1': () => tablet('BOOLEAN', bools),
  'BOOLEAN, booleans': () =>
    tablet(
      'BOOLEAN',
      bools.map((c) => Array.from(c, (v) => v === 1)),
    ),
};

function median(f, perRound) {
  const times = [];
  for (let round = 0; round < 9; round++) {
    const t0 = process.hrtime.bigint();
    f();
    times.push(Number(process.hrtime.bigint() - t0) / perRound);
  }
  return times.sort((a, b) => a - b)[4];
}

const w = new ByteWriter(1 << 21);
for (const [name, make] of Object.entries(tablets)) {
  let t;
  try {
    t = make();
    w.pos = 0;
    writeInsertTabletReq(w, 1n, prepareTablet(t));
  } catch (e) {
    console.log(`${name.padEnd(34)} not taken by this build (${e.message.slice(0, 60)})`);
    continue;
  }
  const n = 20;
  const ns = median(
    () => {
      for (let i = 0; i < n; i++) {
        w.pos = 0;
        writeInsertTabletReq(w, 1n, prepareTablet(t));
      }
    },
    n * ROWS * COLS,
  );
  console.log(`${name.padEnd(34)} ${ns.toFixed(2)} ns a value`);
}

const measurements = range(10, (i) => `s${i}`);
const dataTypes = range(10, () => 'DOUBLE');
const records = range(10_000, (i) => ({
  deviceId: `root.cost.d${i % 10}`,
  timestamp: i,
  measurements,
  dataTypes,
  values: range(10, (k) => i + k / 10),
}));
const cache = {};
const perRecord = median(() => {
  for (let j = 0; j < 5; j++) for (const r of records) encodeRecord(r, 'record', 'ms', cache);
}, 5 * records.length);
console.log(`${'encodeRecord, 10 DOUBLEs'.padEnd(34)} ${perRecord.toFixed(0)} ns a record`);
