import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { BufferPool, IoTDBProtocolError, IoTDBValidationError } from '@iotdb/fast-serializer';
import { IoTDBConnectionError, IoTDBTimeoutError } from '../errors.js';
import { tcpTransport } from '../transport/tcp-transport.js';
import { FrameDecoder } from './frame-decoder.js';
import { RpcConnection, type ConnectionOptions } from './rpc-connection.js';

// ---------- fake servers on 127.0.0.1 (nothing leaves the machine) ----------

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A TCP server on 127.0.0.1, port 0; every accepted socket goes to `onSocket`. Closed after the test. */
async function fakeServer(onSocket: (s: Socket) => void): Promise<number> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
    onSocket(s);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
  return (server.address() as { port: number }).port;
}

/** A port on 127.0.0.1 with nothing listening: bound by a server that is closed again. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Call {
  method: string;
  seqid: number;
}

/** Parses the message header of a CALL frame (frame header included). */
function parseCall(frame: Buffer): Call {
  // [frame length][VERSION_1 | CALL][method length][method][seqid]
  const len = frame.readInt32BE(8);
  const method = frame.toString('utf8', 12, 12 + len);
  return { method, seqid: frame.readInt32BE(12 + len) };
}

/** A framed REPLY whose result struct holds field 0 (`success`) as an i64. */
function i64Reply(method: string, seqid: number, value: bigint): Buffer {
  const m = Buffer.from(method, 'utf8');
  const body = Buffer.alloc(4 + 4 + m.length + 4 + 1 + 2 + 8 + 1);
  let p = 0;
  p = body.writeInt32BE(0x80010002 | 0, p); // VERSION_1 | REPLY
  p = body.writeInt32BE(m.length, p);
  p += m.copy(body, p);
  p = body.writeInt32BE(seqid, p);
  p = body.writeInt8(10, p); // TType.I64
  p = body.writeInt16BE(0, p); // field 0: success
  p = body.writeBigInt64BE(value, p);
  body.writeInt8(0, p); // STOP
  const header = Buffer.alloc(4);
  header.writeInt32BE(body.length, 0);
  return Buffer.concat([header, body]);
}

/** A server that answers every requestStatementId call with `answer(call)` (default: seqid * 10). */
function answeringServer(answer: (c: Call) => Buffer = (c) => i64Reply(c.method, c.seqid, BigInt(c.seqid) * 10n)) {
  const calls: Call[] = [];
  const port = fakeServer((s) => {
    const d = new FrameDecoder(1 << 20);
    s.on('data', (chunk: Buffer) =>
      d.push(chunk, (f) => {
        const frame = Buffer.concat([Buffer.alloc(4), f]); // parseCall expects the frame header
        const call = parseCall(frame);
        calls.push(call);
        s.write(answer(call));
      }),
    );
  });
  return { port, calls };
}

function options(port: number, over: Partial<ConnectionOptions> = {}): ConnectionOptions {
  return {
    transport: tcpTransport,
    connectTimeoutMs: 2000,
    requestTimeoutMs: 2000,
    maxFrameBytes: 1 << 20,
    bufferPool: new BufferPool(),
    compact: false,
    ...over,
  };
}

async function open(port: number, over: Partial<ConnectionOptions> = {}): Promise<RpcConnection> {
  const c = await RpcConnection.open({ host: '127.0.0.1', port }, options(port, over));
  cleanups.push(() => c.close());
  return c;
}

/** Waits until the pool has no buffer out (the socket's write callback runs asynchronously). */
async function drained(pool: BufferPool): Promise<number> {
  for (let i = 0; i < 50 && pool.getStats().outstanding !== 0; i++) await new Promise((r) => setTimeout(r, 10));
  return pool.getStats().outstanding;
}

/** Synchronous work that holds the event loop for `ms`. */
function blockEventLoop(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

function int32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n, 0);
  return b;
}

// ---------- tests ----------

describe('RpcConnection against a server that answers', () => {
  it('resolves each call with the i64 result of its own reply, one after another', async () => {
    const srv = answeringServer();
    const c = await open(await srv.port);
    const results = await Promise.all([
      c.call('requestStatementId', 1n),
      c.call('requestStatementId', 2n),
      c.call('requestStatementId', 3n),
    ]);
    expect(results).toEqual([10n, 20n, 30n]);
    expect(srv.calls.map((x) => x.method)).toEqual(['requestStatementId', 'requestStatementId', 'requestStatementId']);
    expect(srv.calls.map((x) => x.seqid)).toEqual([1, 2, 3]);
    expect(c.isOpen).toBe(true);
    expect(c.key).toBe(`127.0.0.1:${await srv.port}`);
  });

  it('gives every request buffer back to the pool once written', async () => {
    const srv = answeringServer();
    const pool = new BufferPool();
    const c = await open(await srv.port, { bufferPool: pool });
    for (let i = 0; i < 5; i++) await c.call('requestStatementId', 1n);
    expect(await drained(pool)).toBe(0);
    expect(pool.getStats().acquires).toBe(5);
    expect(pool.getStats().hits).toBeGreaterThanOrEqual(1);
  });

  it('rejects a call whose arguments fail to encode, sends nothing, and keeps the connection usable', async () => {
    const srv = answeringServer();
    const pool = new BufferPool();
    const c = await open(await srv.port, { bufferPool: pool });
    const bad = c.call('requestStatementId', () => {
      throw new IoTDBValidationError('x', 'bad input');
    });
    await expect(bad).rejects.toBeInstanceOf(IoTDBValidationError);
    expect(c.isOpen).toBe(true);
    expect(pool.getStats().outstanding).toBe(0);
    await expect(c.call('requestStatementId', 7n)).resolves.toBeTypeOf('bigint');
    expect(srv.calls).toHaveLength(1);
  });

  it('refuses a request over maxFrameBytes before writing it (the server closes the connection on one), and stays usable', async () => {
    const srv = answeringServer();
    const pool = new BufferPool();
    const c = await open(await srv.port, { bufferPool: pool, maxFrameBytes: 1024 });
    const big = c.call('executeUpdateStatementV2', { sessionId: 1n, statement: 'x'.repeat(2000), statementId: 1n });
    await expect(big).rejects.toBeInstanceOf(IoTDBValidationError);
    await expect(big).rejects.toThrow(/^request: executeUpdateStatementV2 is \d+ bytes, over maxFrameBytes=1024/);
    expect(c.isOpen).toBe(true);
    expect(pool.getStats().outstanding).toBe(0);
    await expect(c.call('requestStatementId', 7n)).resolves.toBeTypeOf('bigint');
    expect(srv.calls.map((x) => x.method)).toEqual(['requestStatementId']);
  });

  it('fails with IoTDBProtocolError on a reply to another seqid, and the connection is broken afterwards', async () => {
    const srv = answeringServer((call) => i64Reply(call.method, call.seqid + 100, 1n));
    const c = await open(await srv.port);
    await expect(c.call('requestStatementId', 1n)).rejects.toBeInstanceOf(IoTDBProtocolError);
    expect(c.isOpen).toBe(false);
    const later = await c.call('requestStatementId', 1n).catch((e: unknown) => e);
    expect(later).toBeInstanceOf(IoTDBConnectionError);
    expect((later as IoTDBConnectionError).reason).toBe('reset');
  });

  it('fails the call with IoTDBProtocolError when the reply frame is over maxFrameBytes, and breaks the connection', async () => {
    const srv = answeringServer(() => Buffer.from([0x00, 0x10, 0x00, 0x00, 1, 2, 3])); // announces 1 MiB
    const c = await open(await srv.port, { maxFrameBytes: 1024 });
    const e = await c.call('requestStatementId', 1n).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBProtocolError);
    expect((e as Error).message).toMatch(/maxFrameBytes=1024/);
    expect(c.isOpen).toBe(false);
  });

  it('fails the call with IoTDBProtocolError on a truncated result struct, and breaks the connection', async () => {
    // a REPLY header for the call, then a result struct cut short (field 0, i64, only 3 of its 8 bytes)
    const srv = answeringServer((call) => {
      const name = Buffer.from(call.method);
      const body = Buffer.concat([
        Buffer.from([0x80, 0x01, 0x00, 0x02]),
        int32(name.length),
        name,
        int32(call.seqid),
        Buffer.from([10, 0, 0, 1, 2, 3]),
      ]);
      return Buffer.concat([int32(body.length), body]);
    });
    const c = await open(await srv.port);
    const e = await c.call('requestStatementId', 1n).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBProtocolError);
    expect((e as Error).message).toMatch(/offset/);
    expect(c.isOpen).toBe(false);
  });

  it('fails later calls with reason closed after close(), without writing to the server', async () => {
    const srv = answeringServer();
    const c = await open(await srv.port);
    await c.call('requestStatementId', 1n);
    c.close();
    expect(c.isOpen).toBe(false);
    const e = await c.call('requestStatementId', 1n).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBConnectionError);
    expect(e).not.toBeInstanceOf(IoTDBTimeoutError);
    expect((e as IoTDBConnectionError).reason).toBe('closed');
    expect(srv.calls).toHaveLength(1);
  });
});

/** tcpTransport, each write recorded as the methods of the frames it carried, and `tell()` at the time. */
function countingTransport(writes: string[][], tell = (): void => undefined): ConnectionOptions['transport'] {
  return {
    connect: async (endpoint, events, opts) => {
      const stream = await tcpTransport.connect(endpoint, events, opts);
      return {
        write: (data, onWritten) => {
          const methods: string[] = [];
          new FrameDecoder(1 << 20).push(Buffer.from(data), (f) =>
            methods.push(parseCall(Buffer.concat([Buffer.alloc(4), f])).method),
          );
          writes.push(methods);
          tell();
          stream.write(data, onWritten);
        },
        close: () => stream.close(),
      };
    },
  };
}

describe('RpcConnection: one request in flight', () => {
  it("writes a call's request once the call before it is answered, whoever made the calls", async () => {
    // two replies back to back stalled on a hop that holds small writes (Nagle): 40 ms a call through such a proxy
    const srv = answeringServer();
    const writes: string[][] = [];
    let answered = 0;
    const answeredAtWrite: number[] = [];
    const c = await open(await srv.port, {
      transport: countingTransport(writes, () => answeredAtWrite.push(answered)),
    });
    const R = 'requestStatementId';
    const replies = [1n, 2n, 3n].map((v) => c.call(R, v).then((r) => (answered++, r)));
    expect(await Promise.all(replies)).toEqual([10n, 20n, 30n]);
    expect(writes).toEqual([[R], [R], [R]]);
    expect(answeredAtWrite).toEqual([0, 1, 2]);
  });
});

/**
 * A server on a thread of its own, answering while this thread's event loop is blocked: every call with the i64
 * seqid * 10, as answeringServer (the reply's bytes written out here, the thread shares no code).
 */
async function threadServer(): Promise<number> {
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     const server = require('node:net').createServer((s) => {
       let buf = Buffer.alloc(0);
       s.on('data', (chunk) => {
         buf = Buffer.concat([buf, chunk]);
         while (buf.length >= 4 && buf.length >= 4 + buf.readInt32BE(0)) {
           const len = buf.readInt32BE(8), method = buf.subarray(12, 12 + len), seqid = buf.readInt32BE(12 + len);
           buf = buf.subarray(4 + buf.readInt32BE(0));
           const body = Buffer.alloc(24 + method.length); // ends in STOP (0)
           let p = body.writeInt32BE(0x80010002 | 0, 0);
           p = body.writeInt32BE(method.length, p);
           p += method.copy(body, p);
           p = body.writeInt32BE(seqid, p);
           p = body.writeInt8(10, p);
           p = body.writeInt16BE(0, p);
           body.writeBigInt64BE(BigInt(seqid) * 10n, p);
           const header = Buffer.alloc(4);
           header.writeInt32BE(body.length, 0);
           s.write(Buffer.concat([header, body]));
         }
       });
     });
     server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));`,
    { eval: true },
  );
  cleanups.push(() => worker.terminate().then(() => undefined));
  return new Promise<number>((resolve) => worker.once('message', resolve));
}

describe('RpcConnection when the application blocks the event loop', () => {
  it('takes a reply that came while the loop was blocked, though the timeout had passed', async () => {
    const c = await open(await threadServer(), { requestTimeoutMs: 50 });
    const reply = c.call('requestStatementId', 1n);
    // blocked in the check phase: the timers phase (the timeout) comes before the poll phase (the reply's bytes)
    await new Promise<void>((r) => setImmediate(() => (blockEventLoop(150), r())));
    expect(await reply).toBe(10n);
    expect(c.isOpen).toBe(true);
  });
});

describe('RpcConnection against a server that never answers', () => {
  it('rejects the call with IoTDBTimeoutError after requestTimeoutMs', async () => {
    const port = await fakeServer(() => {}); // accepts, reads nothing, answers nothing
    const c = await open(port, { requestTimeoutMs: 200 });
    const t0 = performance.now();
    const e = await c.call('requestStatementId', 1n).catch((x: unknown) => x);
    const elapsed = performance.now() - t0;
    expect(e).toBeInstanceOf(IoTDBTimeoutError);
    expect(e).toBeInstanceOf(IoTDBConnectionError);
    expect((e as IoTDBTimeoutError).reason).toBe('timeout');
    expect((e as Error).message).toMatch(/requestStatementId.*requestTimeoutMs=200/);
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(1500);
  });

  it('rejects every later call at once with the timeout error (the connection stays broken)', async () => {
    const port = await fakeServer(() => {});
    const c = await open(port, { requestTimeoutMs: 200 });
    await expect(c.call('requestStatementId', 1n)).rejects.toBeInstanceOf(IoTDBTimeoutError);
    expect(c.isOpen).toBe(false);
    const t0 = performance.now();
    // later calls never leave the client: a connection error that says so, caused by the timeout
    const later = await c.call('requestStatementId', 2n).catch((x: unknown) => x);
    expect(later).toMatchObject({ reason: 'timeout', requestSent: false });
    expect((later as Error).cause).toBeInstanceOf(IoTDBTimeoutError);
    await expect(c.call('closeSession', { sessionId: 2n })).rejects.toMatchObject({ requestSent: false });
    expect(performance.now() - t0).toBeLessThan(150);
  });

  it('rejects calls queued behind the one that timed out', async () => {
    const port = await fakeServer(() => {});
    const c = await open(port, { requestTimeoutMs: 200 });
    const results = await Promise.allSettled([
      c.call('requestStatementId', 1n),
      c.call('requestStatementId', 2n),
      c.call('requestStatementId', 3n),
    ]);
    // the first times out; the ones queued behind it never leave the client
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    const reasons = results.map((r) => (r as PromiseRejectedResult).reason as IoTDBConnectionError);
    expect(reasons[0]).toBeInstanceOf(IoTDBTimeoutError);
    expect(reasons.map((e) => [e.reason, e.requestSent])).toEqual([
      ['timeout', true],
      ['timeout', false],
      ['timeout', false],
    ]);
  });

  it('returns the request buffer to the pool after a timeout', async () => {
    const port = await fakeServer(() => {});
    const pool = new BufferPool();
    const c = await open(port, { requestTimeoutMs: 100, bufferPool: pool });
    await expect(c.call('requestStatementId', 1n)).rejects.toBeInstanceOf(IoTDBTimeoutError);
    expect(await drained(pool)).toBe(0);
  });

  it('waits without limit when requestTimeoutMs is 0', async () => {
    let answer: (() => void) | undefined;
    const port = await fakeServer((s) => {
      const d = new FrameDecoder(1 << 20);
      s.on('data', (chunk: Buffer) =>
        d.push(chunk, (f) => {
          const call = parseCall(Buffer.concat([Buffer.alloc(4), f]));
          answer = () => s.write(i64Reply(call.method, call.seqid, 42n));
        }),
      );
    });
    const c = await open(port, { requestTimeoutMs: 0 });
    const p = c.call('requestStatementId', 1n);
    await new Promise((r) => setTimeout(r, 300));
    expect(answer).toBeTypeOf('function');
    answer!();
    await expect(p).resolves.toBe(42n);
  });
});

describe('RpcConnection when the server closes the socket', () => {
  it('rejects the call in flight with IoTDBConnectionError (not a timeout) when the server closes mid-call', async () => {
    const port = await fakeServer((s) => s.once('data', () => s.end()));
    const c = await open(port, { requestTimeoutMs: 5000 });
    const t0 = performance.now();
    const e = await c.call('requestStatementId', 1n).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBConnectionError);
    expect(e).not.toBeInstanceOf(IoTDBTimeoutError);
    expect(['closed', 'reset']).toContain((e as IoTDBConnectionError).reason);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(c.isOpen).toBe(false);
    await expect(c.call('requestStatementId', 2n)).rejects.toBeInstanceOf(IoTDBConnectionError);
  });

  it('names the call in flight in its error, as a timeout does (a statement the server could not take)', async () => {
    const port = await fakeServer((s) => s.once('data', () => s.end()));
    const c = await open(port, { requestTimeoutMs: 5000 });
    const operation = 'executeQueryStatement "SELECT s0 FROM root.sg.d1 WHERE s0 > 0 AND ..."';
    const e = (await c.call('requestStatementId', 1n, { operation }).catch((x: unknown) => x)) as IoTDBConnectionError;
    expect(e).toMatchObject({ operation, requestSent: true });
    // before the connection's first reply (what a server expecting TLS or compression does), with a hint after
    expect(e.message.startsWith(`127.0.0.1:${port}: ${operation}: connection closed by the server before`)).toBe(true);
    // a later call never left: its error says so, and names its own call
    const later = (await c.call('closeSession', { sessionId: 1n }).catch((x: unknown) => x)) as IoTDBConnectionError;
    expect(later).toMatchObject({ operation: 'closeSession', requestSent: false });
    expect(later.message).toContain(`closeSession: connection unusable (127.0.0.1:${port}: ${operation}: connection`);
  });

  it('names the call whose abort broke the connection, in the errors of the calls after it', async () => {
    const port = await fakeServer(() => {}); // answers nothing
    const c = await open(port, { requestTimeoutMs: 5000 });
    const aborted = new AbortController();
    const a = c.call('requestStatementId', 1n, { operation: 'A', signal: aborted.signal }).catch((x: unknown) => x);
    const b = c.call('requestStatementId', 2n, { operation: 'B' }).catch((x: unknown) => x); // waits its turn
    await new Promise((r) => setTimeout(r, 50)); // A in flight
    aborted.abort(new Error('given up'));
    expect(((await a) as Error).message).toBe('given up');
    const key = `127.0.0.1:${port}`;
    const later = (await b) as IoTDBConnectionError;
    expect(later).toMatchObject({ operation: 'B', requestSent: false });
    expect(later.message).toBe(`${key}: B: connection unusable (${key}: A: a call was aborted)`);
  });

  it('rejects the call when the server resets the socket after half a reply', async () => {
    const port = await fakeServer((s) =>
      s.once('data', (chunk: Buffer) => {
        const call = parseCall(chunk);
        const reply = i64Reply(call.method, call.seqid, 1n);
        s.write(reply.subarray(0, 10), () => s.resetAndDestroy());
      }),
    );
    const c = await open(port, { requestTimeoutMs: 5000 });
    const e = await c.call('requestStatementId', 1n).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBConnectionError);
    expect(e).not.toBeInstanceOf(IoTDBTimeoutError);
    expect(['closed', 'reset']).toContain((e as IoTDBConnectionError).reason);
  });

  it('marks an idle connection as not open once the server closes it', async () => {
    let serverSide: Socket | undefined;
    const port = await fakeServer((s) => (serverSide = s));
    const c = await open(port);
    for (let i = 0; i < 50 && serverSide === undefined; i++) await new Promise((r) => setTimeout(r, 10));
    serverSide!.end();
    for (let i = 0; i < 100 && c.isOpen; i++) await new Promise((r) => setTimeout(r, 10));
    expect(c.isOpen).toBe(false);
    const e = await c.call('requestStatementId', 1n).catch((x: unknown) => x);
    expect((e as IoTDBConnectionError).reason).toBe('closed');
  });
});

describe('RpcConnection.connect', () => {
  it("fails with IoTDBConnectionError reason 'refused' when nothing listens on the port", async () => {
    const port = await freePort();
    const e = await RpcConnection.open({ host: '127.0.0.1', port }, options(port)).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBConnectionError);
    expect(e).not.toBeInstanceOf(IoTDBTimeoutError);
    expect((e as IoTDBConnectionError).reason).toBe('refused');
    expect((e as IoTDBConnectionError).endpoint).toBe(`127.0.0.1:${port}`);
    expect((e as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('connects to a listening server and reports it open', async () => {
    const port = await fakeServer(() => {});
    const c = await open(port);
    expect(c.isOpen).toBe(true);
  });

  it('connects when the application held the event loop past connectTimeoutMs while the connection was made', async () => {
    const port = await fakeServer(() => {});
    const opening = open(port, { connectTimeoutMs: 50 });
    // held in the check phase: the timers (the timeout) come before the poll phase (the connection's completion)
    await new Promise<void>((r) => setImmediate(() => (blockEventLoop(150), r())));
    expect((await opening).isOpen).toBe(true);
  });

  describe('connectTimeoutMs', () => {
    let child: ChildProcess | undefined;
    const fillers: Socket[] = [];
    afterEach(() => {
      for (const s of fillers.splice(0)) s.destroy();
      child?.kill('SIGKILL');
      child = undefined;
    });

    /**
     * A local listener whose accept queue is full, so that the kernel drops new SYNs and a connect
     * hangs: a child node process listens with backlog 1 and then blocks its event loop, so it never
     * accepts; we fill its queue with connections. Loopback only.
     */
    async function unacceptingPort(): Promise<number | null> {
      child = spawn(
        process.execPath,
        [
          '-e',
          `const s = require('net').createServer();
           s.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
             process.stdout.write(s.address().port + '\\n');
             Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
           });`,
        ],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      const port = await new Promise<number>((resolve) =>
        child!.stdout!.once('data', (d) => resolve(Number(String(d).trim()))),
      );
      for (let i = 0; i < 16; i++) {
        const s = connect({ host: '127.0.0.1', port });
        s.on('error', () => {});
        fillers.push(s);
        const ok = await new Promise<boolean>((resolve) => {
          s.once('connect', () => resolve(true));
          setTimeout(() => resolve(false), 300);
        });
        if (!ok) return port; // the queue is full: further connects hang
      }
      return null;
    }

    it('rejects with IoTDBTimeoutError after connectTimeoutMs when the handshake never completes', async (ctx) => {
      const port = await unacceptingPort();
      if (port === null) ctx.skip(); // this kernel accepted every handshake: no way to make connect hang locally
      const t0 = performance.now();
      const e = await RpcConnection.open(
        { host: '127.0.0.1', port: port! },
        options(port!, { connectTimeoutMs: 250 }),
      ).catch((x: unknown) => x);
      const elapsed = performance.now() - t0;
      expect(e).toBeInstanceOf(IoTDBTimeoutError);
      expect((e as IoTDBTimeoutError).reason).toBe('timeout');
      expect((e as Error).message).toMatch(/connectTimeoutMs=250/);
      expect(elapsed).toBeGreaterThanOrEqual(240);
      expect(elapsed).toBeLessThan(900);
    });
  });
});
