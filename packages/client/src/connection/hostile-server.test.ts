import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { IoTDBProtocolError, TSDataType, type ClientMethod } from '@iotdb/fast-serializer';
import { IoTDBConnectionError, IoTDBTimeoutError } from '../errors.js';
import { SessionPool } from '../pool/session-pool.js';
import { Session } from '../session/session.js';
import { defaultReply, encodeReply } from '../transport/fake-transport.js';
import { FrameDecoder } from './frame-decoder.js';

/**
 * Hostile servers on 127.0.0.1: a node that logs in normally and then answers one method with bytes
 * of its choosing. Every call must settle with an IoTDBError in time, and memory must stay bounded.
 */
const servers: Server[] = [];
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function hostile(method: ClientMethod, answer: (seqid: number) => Buffer | null): Promise<number> {
  const server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => {});
    const d = new FrameDecoder(1 << 20);
    s.on('data', (chunk: Buffer) =>
      d.push(chunk, (f) => {
        const len = f.readInt32BE(4);
        const name = f.toString('utf8', 8, 8 + len) as ClientMethod;
        const seqid = f.readInt32BE(8 + len);
        const bytes = name === method ? answer(seqid) : encodeReply(name, seqid, defaultReply({ method: name }));
        if (bytes) s.write(bytes);
      }),
    );
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as { port: number }).port;
}

/**
 * A server that reads each frame as IoTDB does, its length first: resets the connection on a length `refused`
 * says so, else answers each request `answered` says so (the default reply), and the others never.
 */
async function framesServer(
  refused: (length: number) => boolean,
  answered: (method: ClientMethod, length: number) => boolean = () => true,
): Promise<number> {
  const server = createServer((c) => {
    sockets.add(c);
    c.on('error', () => {});
    let pending = Buffer.alloc(0);
    c.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4) {
        const len = pending.readInt32BE(0);
        if (refused(len)) return void c.resetAndDestroy();
        if (pending.length < 4 + len) return;
        const f = pending.subarray(4, 4 + len);
        pending = pending.subarray(4 + len);
        const n = f.readInt32BE(4);
        const name = f.toString('utf8', 8, 8 + n) as ClientMethod;
        if (answered(name, len)) c.write(encodeReply(name, f.readInt32BE(8 + n), defaultReply({ method: name })));
      }
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as { port: number }).port;
}

/** A framed REPLY of `method` whose result struct is `body`, bytes as given. */
function reply(method: string, seqid: number, body: Buffer): Buffer {
  const name = Buffer.from(method);
  const message = Buffer.alloc(12 + name.length);
  message.writeInt32BE(0x80010002 | 0, 0); // VERSION_1 | REPLY
  message.writeInt32BE(name.length, 4);
  name.copy(message, 8);
  message.writeInt32BE(seqid, 8 + name.length);
  const frame = Buffer.alloc(4);
  frame.writeInt32BE(message.length + body.length, 0);
  return Buffer.concat([frame, message, body]);
}

const session = (port: number) => new Session({ port, requestTimeoutMs: 2_000, retry: { maxElapsedMs: 0 } });

describe('a hostile server', () => {
  it('a query reply whose TsBlock announces 2^31-1 run-length rows: IoTDBProtocolError within 3 s, no huge allocation', async () => {
    const block = Buffer.concat([
      Buffer.from([0, 0, 0, 1, 1, 0x7f, 0xff, 0xff, 0xff, 4, 4]),
      Buffer.from([2, 0, 0, 0, 0, 0, 0, 0, 0, 7]),
      Buffer.from([1, 0, 0, 0, 0, 9]),
    ]);
    const port = await hostile('executeQueryStatementV2', (seqid) =>
      encodeReply('executeQueryStatementV2', seqid, {
        status: { code: 200 },
        queryId: 1n,
        columns: ['c'],
        dataTypeList: ['INT32'],
        queryResult: [block],
        moreData: false,
        columnIndex2TsBlockColumnIndexList: [0],
      }),
    );
    const s = session(port);
    await s.open();
    const before = process.memoryUsage().arrayBuffers;
    const t0 = performance.now();
    const e = await (await s.executeQueryStatement('SELECT c FROM t')).toColumnar().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBProtocolError);
    expect(performance.now() - t0).toBeLessThan(3_000);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 << 20);
    await s.close();
  });

  it('a status nested 6000 deep: IoTDBProtocolError, not a stack overflow; the session reconnects after', async () => {
    const level = Buffer.from([8, 0, 1, 0, 0, 0, 200, 15, 0, 3, 12, 0, 0, 0, 1]);
    const status = Buffer.concat([
      ...Array.from({ length: 6000 }, () => level),
      Buffer.from([8, 0, 1, 0, 0, 0, 200, 0]),
      Buffer.alloc(6000, 0),
    ]);
    let first = true;
    const port = await hostile('executeUpdateStatementV2', (seqid) => {
      if (!first) return null;
      first = false;
      // result struct: field 0 (struct TSExecuteStatementResp) -> field 1 (status) = the deep status
      return reply(
        'executeUpdateStatementV2',
        seqid,
        Buffer.concat([Buffer.from([12, 0, 0, 12, 0, 1]), status, Buffer.from([0, 0])]),
      );
    });
    const s = session(port);
    await s.open();
    const e = await s.executeNonQueryStatement('FLUSH').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBProtocolError);
    expect(s.isConnected).toBe(false); // the connection that carried it is gone
    await s.close();
  });

  it('garbage instead of a reply: IoTDBProtocolError', async () => {
    const port = await hostile('executeUpdateStatementV2', () => Buffer.from([0, 0, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8]));
    const s = session(port);
    await s.open();
    expect(await s.executeNonQueryStatement('FLUSH').catch((x: unknown) => x)).toBeInstanceOf(IoTDBProtocolError);
    await s.close();
  });

  it('8 pooled connections whose replies announce 512 MiB frames hold only what arrived; each call times out', async () => {
    const header = Buffer.alloc(4 + 1024);
    header.writeInt32BE(512 * 1024 * 1024 - 1, 0);
    const port = await hostile('executeUpdateStatementV2', () => header); // 1 KiB of the 512 MiB, then silence
    const pool = new SessionPool({ port, maxSize: 8, requestTimeoutMs: 1_500, retry: { maxElapsedMs: 0 } });
    const before = process.memoryUsage();
    const t0 = performance.now();
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => pool.executeNonQueryStatement('FLUSH')));
    const after = process.memoryUsage();
    expect(performance.now() - t0).toBeLessThan(3_500);
    for (const r of results) {
      expect(r.status).toBe('rejected');
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(IoTDBTimeoutError);
    }
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(100 << 20);
    expect(after.rss - before.rss).toBeLessThan(100 << 20);
    await pool.close();
  });

  it('a node of nodeUrls that answers something else than IoTDB (an HTTP server) is passed over: the next one opens', async () => {
    const http = createServer((c) => {
      sockets.add(c);
      c.on('error', () => {});
      c.once('data', () => c.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n'));
    });
    servers.push(http);
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    const httpPort = (http.address() as { port: number }).port;
    const good = await hostile('executeUpdateStatementV2', () => null);
    const s = new Session({ nodeUrls: [`127.0.0.1:${httpPort}`, `127.0.0.1:${good}`], retry: { maxElapsedMs: 0 } });
    await s.open();
    expect(s.currentEndpoint).toBe(`127.0.0.1:${good}`);
    expect(s.stats()).toMatchObject({ connects: 1, connectFailures: 1 });
    await s.close();
    // alone, it fails the open with what it is: not IoTDB
    const alone = new Session({ port: httpPort, retry: { maxElapsedMs: 0 } });
    expect(await alone.open().catch((x: unknown) => x)).toBeInstanceOf(IoTDBProtocolError);
    await alone.close();
  });
});

describe('a server that closes the connection on the login', () => {
  async function closesOnLogin(how: 'end' | 'reset' = 'end'): Promise<number> {
    const server = createServer((c) => {
      sockets.add(c);
      c.on('error', () => {});
      // as IoTDB does to a client without the TLS or RPC compression it expects (a reset when it leaves bytes unread)
      c.once('data', () => (how === 'end' ? c.end() : c.resetAndDestroy()));
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return (server.address() as { port: number }).port;
  }

  it('says what makes IoTDB do so: TLS or RPC compression the session does not speak', async () => {
    const port = await closesOnLogin();
    for (const rpcCompression of [false, true]) {
      const s = new Session({ port, rpcCompression, retry: { maxElapsedMs: 0 } });
      const e = (await s.open().catch((x: unknown) => x)) as IoTDBConnectionError;
      expect(e).toBeInstanceOf(IoTDBConnectionError);
      expect(e).toMatchObject({ reason: 'closed', operation: 'openSession' });
      expect(e.message).toContain('openSession: connection closed by the server before its first reply');
      expect(e.message).toContain(
        'as IoTDB closes a client without the TLS or RPC compression it expects: check the tls and rpcCompression options',
      );
      expect(e.message).toContain(`(this connection: rpcCompression ${rpcCompression})`);
      // and as it closes one past its limit of clients (measured: 2.0.1-beta set to 4, a pool's fifth session)
      expect(e.message).toContain('or as it closes a client past its dn_rpc_max_concurrent_client_num');
      await s.close();
    }
  });

  it('says so too when the server resets the connection before its first reply', async () => {
    const port = await closesOnLogin('reset');
    const s = new Session({ port, retry: { maxElapsedMs: 0 } });
    const e = (await s.open().catch((x: unknown) => x)) as IoTDBConnectionError;
    expect(e).toBeInstanceOf(IoTDBConnectionError);
    expect(e.reason).toBe('reset');
    expect(e.message).toContain('before its first reply, as IoTDB closes a client without the TLS or RPC compression');
    await s.close();
  });
});

describe('a server whose dn_thrift_max_frame_size is below the request', () => {
  const SERVER_MAX_FRAME = 8 * 1024 * 1024; // IoTDB's least dn_thrift_max_frame_size

  /** As IoTDB does: closes the connection on a frame over its limit. */
  const framesUpTo = (max: number) => framesServer((length) => length > max);

  const rowsOfInt64 = (rows: number) => {
    const timestamps = Array.from({ length: rows }, (_, i) => BigInt(i));
    return {
      deviceId: 'root.sg.d1',
      measurements: ['a', 'b', 'c'],
      dataTypes: [TSDataType.INT64, TSDataType.INT64, TSDataType.INT64],
      timestamps,
      values: timestamps.map((t) => [t, t, t]),
    };
  };

  it('a write over it: the error says the server closes a connection on a frame over its limit, and what to set', async () => {
    const s = new Session({ port: await framesUpTo(SERVER_MAX_FRAME), retry: { maxElapsedMs: 0 } });
    await s.open();
    await s.insertTablet(rowsOfInt64(1_000)); // under it: written
    const e = (await s.insertTablet(rowsOfInt64(400_000)).catch((x: unknown) => x)) as IoTDBConnectionError;
    expect(e).toBeInstanceOf(IoTDBConnectionError);
    expect(e.message).toMatch(
      /while a request of 128\d{5} bytes awaited its reply: IoTDB closes a connection on a frame over its dn_thrift_max_frame_size, which may be set as low as 8 MiB; if the server's is below that request, give maxFrameBytes its value \(this session's: 536870912\)/,
    );
    await s.close();
  });

  it('a connection closed under a small request says nothing of frame sizes', async () => {
    const s = new Session({ port: await framesUpTo(400), retry: { maxElapsedMs: 0 } }); // the login passes, a tablet not
    await s.open();
    const e = (await s.insertTablet(rowsOfInt64(10)).catch((x: unknown) => x)) as IoTDBConnectionError;
    expect(e).toBeInstanceOf(IoTDBConnectionError);
    expect(e.message).not.toContain('dn_thrift_max_frame_size');
    await s.close();
  });
});

describe("a server that never answers a write over its write-ahead log queue's memory", () => {
  /** As IoTDB 2.0.1-beta does: answers every request but a write over `max` bytes, which it never answers. */
  const neverAnswersOver = (max: number) =>
    framesServer(
      () => false,
      (method, length) => !method.startsWith('insert') || length <= max,
    );

  const tablet = (rows: number) => ({
    deviceId: 'root.sg.d1',
    measurements: ['a', 'b', 'c'],
    dataTypes: [TSDataType.DOUBLE, TSDataType.DOUBLE, TSDataType.DOUBLE],
    timestamps: Float64Array.from({ length: rows }, (_, i) => i),
    columns: [0, 1, 2].map(() => new Float64Array(rows)),
  });

  it('a large write with no reply: the error says IoTDB never answers one over its WAL queue, and what to do', async () => {
    const port = await neverAnswersOver(1024 * 1024);
    const s = new Session({ port, requestTimeoutMs: 300, retry: { maxElapsedMs: 0 } });
    await s.open();
    await s.insertTablet(tablet(1_000)); // a small one: answered
    const e = (await s.insertTablet(tablet(400_000)).catch((x: unknown) => x)) as IoTDBTimeoutError;
    expect(e).toBeInstanceOf(IoTDBTimeoutError);
    expect(e.message).toMatch(
      /no reply within requestTimeoutMs=300 to a write of 128\d{5} bytes: IoTDB 2\.0\.1-beta never answers a write whose log entry is over its write-ahead log queue's memory/,
    );
    await s.close();
  });

  it('a small write or a query with no reply says nothing of it', async () => {
    const port = await neverAnswersOver(0); // no write answered at all
    const s = new Session({ port, requestTimeoutMs: 300, retry: { maxElapsedMs: 0 } });
    await s.open();
    const e = (await s.insertTablet(tablet(10)).catch((x: unknown) => x)) as IoTDBTimeoutError;
    expect(e).toBeInstanceOf(IoTDBTimeoutError);
    expect(e.message).not.toContain('log queue');
    await s.close();
  });
});
