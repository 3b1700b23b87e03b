// Reads while a DataNode dies: four sessions each run one query in a loop for S seconds (default 72) against a
// cluster's nodes, and print what failed, each call over 1.5 s, and each request a node never answered (a transport
// that notes every request's method and sequence id until its reply). Kill a DataNode while it runs; with --java the
// Java client's Session runs the same loop afterwards (packages/bench/java/ReadsUnderKill.java), a thread still
// waiting at the end named. docs/PERFORMANCE.md, "Reads while a DataNode dies", has the commands.
//   node scripts/reads-under-kill.mjs [S] [--java]     NODES=h:p,h:p,...  SQL='SELECT ...'  OPTS='{"spreadQueries":false}'
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('..', import.meta.url));
const { Session, tcpTransport } = await import(here + '/packages/client/dist/index.js');
const seconds = Number(process.argv.slice(2).find((a) => a !== '--java') ?? 72);
const nodes = (process.env.NODES ?? '127.0.0.1:13667,127.0.0.1:13668,127.0.0.1:13669').split(',');
const sql = process.env.SQL ?? 'SELECT last s4 FROM root.qf65.**';
const t0 = Date.now();
const at = () => ((Date.now() - t0) / 1000).toFixed(2);
const lines = [];

/** Each request in flight, by connection and sequence id: its method and when it went. */
const pending = new Map();
let connections = 0;
/** A frame's method and sequence id (strict binary protocol), or null for a chunk that does not start one. */
function methodOf(chunk) {
  const frame = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (frame.length < 12 || (frame.readUInt32BE(4) & 0xffff0000) >>> 0 !== 0x80010000) return null;
  const end = 12 + frame.readUInt32BE(8);
  return end + 4 > frame.length ? null : { method: frame.subarray(12, end).toString(), seqid: frame.readInt32BE(end) };
}
const transport = {
  async connect(endpoint, events, options) {
    const id = `${endpoint.host}:${endpoint.port}#${++connections}`;
    const onData = (chunk) => {
      const reply = methodOf(chunk); // a reply's first chunk carries its header; the chunks after it, none
      if (reply !== null) pending.delete(`${id} seqid ${reply.seqid}`);
      events.onData(chunk);
    };
    const stream = await tcpTransport.connect(endpoint, { onData, onClose: events.onClose }, options);
    const write = (data, onWritten) => {
      const request = methodOf(data);
      if (request !== null) pending.set(`${id} seqid ${request.seqid}`, { method: request.method, sentAt: at() });
      stream.write(data, onWritten);
    };
    return { peer: stream.peer, write, close: () => stream.close() };
  },
};

const options = { nodeUrls: nodes, transport, ...JSON.parse(process.env.OPTS ?? '{}') };
const sessions = await Promise.all([0, 1, 2, 3].map(() => new Session(options)).map((s) => s.open().then(() => s)));
let ok = 0;
await Promise.all(sessions.map((s, i) => loop(s, i)));
async function loop(s, i) {
  while (Date.now() - t0 < seconds * 1000) {
    const start = Date.now();
    try {
      for await (const _row of await s.executeQueryStatement(sql));
      ok++;
    } catch (e) {
      lines.push(`${at()} s${i} FAILED after ${Date.now() - start} ms: ${e.message}`);
    }
    if (Date.now() - start > 1500) lines.push(`${at()} s${i} took ${Date.now() - start} ms`);
  }
}
for (const s of sessions) await s.close();
const unanswered = [...pending].map(([key, p]) => `never answered: ${key} ${p.method} sent at ${p.sentAt} s`);
console.log(
  [`ours: ${ok} ok, ${lines.filter((l) => l.includes('FAILED')).length} failed`, ...lines, ...unanswered].join('\n'),
);
if (process.argv.includes('--java'))
  process.stdout.write(execFileSync('bash', [here + '/packages/bench/java/reads-under-kill.sh', String(seconds)]));
