// The client-side cost of checking a tablet's names (stop 66: every measurement and device level checked as IoTDB
// takes them): prepareTablet + writeInsertTabletReq of one tablet of 50 INT32/DOUBLE columns (ROWS rows, default
// 10), the two builds alternating, eight rounds (a warm-up before each); prints each side's median us per tablet and
// every round. No server. AB_BASE=<another checkout, built> is the other side (before the change).
//   git worktree add /tmp/base db6b398 && (cd /tmp/base && pnpm install && pnpm build)
//   AB_BASE=/tmp/base node scripts/names-check-ab.mjs && AB_BASE=/tmp/base ROWS=100 node scripts/names-check-ab.mjs
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('../packages/fast-serializer/dist/index.js', import.meta.url));
if (process.env.AB_BASE === undefined) throw new Error('give AB_BASE=<another checkout, built>');
const sides = {
  base: await import(`${process.env.AB_BASE}/packages/fast-serializer/dist/index.js`),
  this: await import(here),
};
const COLUMNS = 50;
const ROWS = Number(process.env.ROWS ?? 10);
const tablet = {
  deviceId: 'root.sg.d1',
  measurements: Array.from({ length: COLUMNS }, (_, i) => `s_${i}`),
  dataTypes: Array.from({ length: COLUMNS }, (_, i) => (i % 2 ? 'DOUBLE' : 'INT32')),
  timestamps: Array.from({ length: ROWS }, (_, r) => r),
  values: Array.from({ length: ROWS }, (_, r) => Array.from({ length: COLUMNS }, (_, i) => (i % 2 ? r * 1.5 : r))),
};

/** us per tablet over n tablets prepared and encoded by `fs`. */
function usPerTablet(fs, n) {
  const w = new fs.ByteWriter(1 << 20);
  const started = process.hrtime.bigint();
  for (let k = 0; k < n; k++) {
    w.pos = 0;
    fs.writeInsertTabletReq(w, 7n, fs.prepareTablet(tablet));
  }
  return Number(process.hrtime.bigint() - started) / n / 1000;
}

const rounds = { base: [], this: [] };
for (let r = 0; r < 8; r++) {
  for (const side of r % 2 === 0 ? ['this', 'base'] : ['base', 'this']) {
    usPerTablet(sides[side], 2_000);
    rounds[side].push(usPerTablet(sides[side], 20_000));
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const show = (xs) => xs.map((x) => x.toFixed(1)).join(' ');
console.log(`prepare + encode, ${ROWS} rows x ${COLUMNS} columns, us per tablet (median of 8 rounds)`);
for (const side of ['base', 'this'])
  console.log(`  ${side}: ${median(rounds[side]).toFixed(2)}   rounds: ${show(rounds[side])}`);
