// Before/after for the diagnostics change: Session.insertTablet through an in-process loopback transport (no socket,
// no server), interleaved rounds, median µs per insert, with nobody subscribed and with a subscriber on the three
// iotdb:* channels. Run it against two built checkouts in turns:
//   node scripts/diagnostics-ab.mjs /path/to/old-checkout; node scripts/diagnostics-ab.mjs .
// (a checkout without the channels just has nobody publishing on them). Its loopback transport is the one of
// packages/bench/src/micro/diagnostics.ts written again on purpose: an older checkout has no such module to import.
import { tracingChannel } from 'node:diagnostics_channel';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
const repo = resolve(process.argv[2] ?? '.');
const client = await import(pathToFileURL(`${repo}/packages/client/dist/index.js`).href);
const fs = await import(pathToFileURL(`${repo}/packages/fast-serializer/dist/index.js`).href);
const { ByteWriter, FRAME_HEADER_BYTES, IClientRPCService, TMessageType, VERSION_1, resultSchema, writeStruct } = fs;
const REPLIES = {
  openSession: { status: { code: 200 }, serverProtocolVersion: 2, sessionId: 1n, configuration: new Map() },
  requestStatementId: 1n,
  insertTablet: { code: 200 },
  closeSession: { code: 200 },
};
const enc = new Map();
for (const [m, v] of Object.entries(REPLIES)) {
  const w = new ByteWriter(256);
  const at = w.reserve(FRAME_HEADER_BYTES);
  w.i32(VERSION_1 | TMessageType.REPLY).lengthPrefixedUtf8(m);
  const seqAt = w.pos;
  w.i32(0);
  writeStruct(w, resultSchema(m, IClientRPCService[m].result), { success: v });
  w.buf.writeInt32BE(w.pos - at - FRAME_HEADER_BYTES, at);
  enc.set(m, { frame: Buffer.from(w.view()), seqAt });
}
const transport = {
  connect: (_e, ev) =>
    Promise.resolve({
      write(d, done) {
        const b = Buffer.from(d.buffer, d.byteOffset, d.byteLength);
        const n = b.readInt32BE(8);
        const m = b.toString('latin1', 12, 12 + n);
        const seq = b.readInt32BE(12 + n);
        done();
        const r = enc.get(m);
        const f = Buffer.from(r.frame);
        f.writeInt32BE(seq, r.seqAt);
        queueMicrotask(() => ev.onData(f));
      },
      close: () => ev.onClose(),
    }),
};
const tab = (rows, series) => ({
  deviceId: 'root.b.d0',
  measurements: Array.from({ length: series }, (_, s) => `s${s}`),
  dataTypes: Array.from({ length: series }, () => 'DOUBLE'),
  timestamps: Float64Array.from({ length: rows }, (_, r) => 1.7e12 + r),
  columns: Array.from({ length: series }, (_, s) => Float64Array.from({ length: rows }, (_, r) => r * s)),
});
const s = new client.Session({ host: '127.0.0.1', port: 6667, transport });
await s.open();
const noop = () => undefined;
const sub = { start: noop, end: noop, asyncStart: noop, asyncEnd: noop, error: noop };
const names = ['iotdb:connect', 'iotdb:query', 'iotdb:insert'];
const variants = [
  ['10x5 none', tab(10, 5), false],
  ['10x5 subscribed', tab(10, 5), true],
  ['500x50 none', tab(500, 50), false],
  ['500x50 subscribed', tab(500, 50), true],
];
const per = variants.map(() => []);
for (let round = 0; round < 21; round++)
  for (const [i, [, t, subd]] of variants.entries()) {
    if (subd) names.forEach((n) => tracingChannel(n).subscribe(sub));
    const n = t.timestamps.length > 100 ? 1000 : 5000;
    for (let k = 0; k < n / 5; k++) await s.insertTablet(t);
    const t0 = performance.now();
    for (let k = 0; k < n; k++) await s.insertTablet(t);
    per[i].push(((performance.now() - t0) * 1000) / n);
    if (subd) names.forEach((n) => tracingChannel(n).unsubscribe(sub));
  }
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
for (const [i, [name]] of variants.entries()) console.log(`${repo}\t${name}\t${med(per[i]).toFixed(2)} us`);
await s.close();
