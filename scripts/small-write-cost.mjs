// What one small write costs the client: N insertRecord calls of one DOUBLE in a row on one Session (default 20,000,
// after 2,000 untimed), against a transport that answers each request at once in this process (the client's own
// work: encode, route, decode, the promises between) and against the server at 127.0.0.1:6667 (that, the socket and
// the server); then the floor under it: the bytes of the same request, sent N times on the session's socket and each
// reply awaited, none of the client's code between (only the timestamp changed); with --java, the Java client on the
// same server (packages/bench/java/SmallWrites.java). Each run writes a device of its own (a fresh one: times
// written again cost the server more).
// DIST picks the client's build (a checkout with `pnpm build`; default this one).
//   node scripts/small-write-cost.mjs [N] [--java]
//   DIST=/tmp/base node scripts/small-write-cost.mjs
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('..', import.meta.url));
const dist = (process.env.DIST ?? here) + '/packages/client/dist';
const { Session, tcpTransport } = await import(dist + '/index.js');
const { encodeReply, defaultReply } = await import(dist + '/transport/fake-transport.js');
const N = Number(process.argv.slice(2).find((a) => a !== '--java') ?? 20000);

/** A reply per method, made once; each answer takes its request's seqid (after the frame, version and name). */
const replies = new Map();
function answer(request) {
  const nameLength = request.readUInt32BE(8);
  const method = request.subarray(12, 12 + nameLength).toString();
  if (!replies.has(method)) replies.set(method, encodeReply(method, 0, defaultReply({ method })));
  const reply = Buffer.from(replies.get(method));
  reply.writeInt32BE(request.readInt32BE(12 + nameLength), 12 + nameLength);
  return reply;
}

const instant = {
  async connect(_endpoint, events) {
    return {
      peer: undefined,
      write(data, onWritten) {
        const reply = answer(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
        onWritten();
        setImmediate(() => events.onData(reply)); // as a socket's data: a later turn of the event loop
      },
      close() {},
    };
  },
};

async function run(label, options) {
  const s = new Session({ host: '127.0.0.1', ...options });
  await s.open();
  const deviceId = `root.small_write_cost.d${process.pid}_${label}`;
  const record = (t) => ({ deviceId, timestamp: t, measurements: ['s'], dataTypes: ['DOUBLE'], values: [t * 0.5] });
  for (let t = 0; t < 2000; t++) await s.insertRecord(record(t));
  await timed(label, (t) => s.insertRecord(record(t)));
  return s;
}

async function timed(label, call) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let t = 2000; t < 2000 + N; t++) await call(t);
  const cpu = process.cpuUsage(cpu0);
  const us = (x) => (x / N).toFixed(1);
  console.log(`${label}: ${us((performance.now() - t0) * 1000)} us a call, client CPU ${us(cpu.user + cpu.system)} us`);
}

/** TCP, with a way round the client: `send(bytes)` writes on the socket and resolves with the next chunk read. */
function bypass() {
  const hook = { request: null, stream: null, waiting: null };
  const transport = {
    async connect(endpoint, events, options) {
      const onData = (chunk) => (hook.waiting !== null ? hook.waiting(chunk) : events.onData(chunk));
      const stream = await tcpTransport.connect(endpoint, { onData, onClose: events.onClose }, options);
      hook.stream = stream;
      return {
        peer: stream.peer,
        write: (data, onWritten) => ((hook.request = Buffer.from(data)), stream.write(data, onWritten)),
        close: () => stream.close(),
      };
    },
  };
  const send = (bytes) =>
    new Promise((resolve) => {
      hook.waiting = (chunk) => ((hook.waiting = null), resolve(chunk));
      hook.stream.write(bytes, () => undefined);
    });
  return { transport, hook, send };
}

/** The session's last request sent again N times on its socket, each with the next timestamp (a 47-byte reply). */
async function floor(session, hook, send) {
  const request = hook.request;
  const last = Buffer.alloc(8);
  last.writeBigInt64BE(BigInt(2000 + N - 1));
  const at = request.lastIndexOf(last); // the timestamp field's value
  await timed('socket alone', async (t) => {
    request.writeBigInt64BE(BigInt(2000 + N + t), at);
    const reply = await send(request);
    if (reply.length !== 47) throw new Error(`a reply of ${reply.length} bytes`);
  });
  await session.close();
}

await (await run('instant', { transport: instant })).close();
const { transport, hook, send } = bypass();
await floor(await run('server', { transport }), hook, send);
if (process.argv.includes('--java'))
  process.stdout.write(execFileSync('bash', [here + '/packages/bench/java/small-writes.sh', String(N)]));
