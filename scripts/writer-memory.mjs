// The batching writer's memory a device: N devices (default 20,000) of three measurements (DOUBLE, INT64, BOOLEAN)
// each write one row into one writer, nothing flushed yet; the heap, the arrays (external + arrayBuffers) and the RSS
// each device added. DIST picks the build (a checkout with `pnpm build`; default this one). Needs a server at
// 127.0.0.1:6667 for the session (the rows are written at close, into root.wm, dropped after).
//   node --expose-gc scripts/writer-memory.mjs 50000
//   DIST=/tmp/base node --expose-gc scripts/writer-memory.mjs 50000
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('..', import.meta.url));
const { Session } = await import((process.env.DIST ?? here) + '/packages/client/dist/index.js');
const s = new Session({ host: '127.0.0.1' });
await s.open();
const D = Number(process.argv[2] ?? 20000);
const w = s.writer({
  types: { a: 'DOUBLE', b: 'INT64', c: 'BOOLEAN' },
  flushIntervalMs: 0,
  maxBufferedRows: 1e6,
  maxRowsPerRequest: 100000,
});
globalThis.gc?.();
const base = process.memoryUsage();
for (let d = 0; d < D; d++)
  await w.write({ deviceId: `root.wm.d${d}`, timestamp: 1, values: { a: d * 0.5, b: BigInt(d), c: d % 2 === 0 } });
globalThis.gc?.();
const m = process.memoryUsage();
console.log(
  `${D} devices buffered: heap +${((m.heapUsed - base.heapUsed) / D).toFixed(0)} B/device, external+arrayBuffers +${((m.external + m.arrayBuffers - base.external - base.arrayBuffers) / D).toFixed(0)} B/device, rss +${((m.rss - base.rss) / D).toFixed(0)} B/device`,
);
await w.close();
await s.deleteDatabases(['root.wm']).catch(() => {});
await s.close();
