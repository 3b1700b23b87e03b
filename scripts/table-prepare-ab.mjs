// prepareTableTablet of one table tablet (a STRING tag and 50 DOUBLE fields, 500 rows), 7 rounds of 20,000 after a
// warm-up; the median microseconds a call. DIST picks the build (a checkout with its fast-serializer built).
//   DIST=/tmp/base node scripts/table-prepare-ab.mjs; DIST=$PWD node scripts/table-prepare-ab.mjs
const { prepareTableTablet } = await import(process.env.DIST + '/packages/fast-serializer/dist/index.js');
const names = Array.from({ length: 50 }, (_, i) => `s${i}`);
const t50 = {
  tableName: 't',
  columnNames: ['dev', ...names],
  dataTypes: ['STRING', ...names.map(() => 'DOUBLE')],
  columnCategories: ['TAG', ...names.map(() => 'FIELD')],
  timestamps: Array.from({ length: 500 }, (_, i) => i),
  columns: [Array(500).fill('a'), ...names.map(() => new Float64Array(500))],
};
for (let i = 0; i < 20000; i++) prepareTableTablet(t50);
const xs = [];
for (let r = 0; r < 7; r++) {
  const t = process.hrtime.bigint();
  for (let i = 0; i < 20000; i++) prepareTableTablet(t50);
  xs.push(Number(process.hrtime.bigint() - t) / 20000 / 1000);
}
xs.sort((a, b) => a - b);
console.log(process.env.DIST, 'median', xs[3].toFixed(2), 'us');
