import { Socket, createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tcpTransport } from './tcp-transport.js';
import { tlsTransport } from './tls-transport.js';
import { KEEP_ALIVE_DELAY_MS } from './socket-stream.js';

let server: Server | undefined;
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
});

describe('SocketStream', () => {
  it('says which address it reached (a node given by name is known under the IP a cluster reports)', async () => {
    server = createServer((s) => sockets.add(s));
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const events = { onData: () => undefined, onClose: () => undefined };
    const stream = await tcpTransport.connect({ host: '127.0.0.1', port }, events, { timeoutMs: 2_000 });
    try {
      expect(stream.peer).toEqual({ host: '127.0.0.1', port });
    } finally {
      stream.close();
    }
  });
});

describe('keep-alive', () => {
  it('probes an idle connection after 30 s (TCP), so that a load balancer or NAT does not drop an idle pooled session unsaid', async () => {
    server = createServer((s) => sockets.add(s));
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const spy = vi.spyOn(Socket.prototype, 'setKeepAlive');
    const events = { onData: () => undefined, onClose: () => undefined };
    const stream = await tcpTransport.connect({ host: '127.0.0.1', port }, events, { timeoutMs: 2_000 });
    try {
      expect(spy.mock.calls.at(-1)).toEqual([true, KEEP_ALIVE_DELAY_MS]);
      expect(KEEP_ALIVE_DELAY_MS).toBe(30_000);
    } finally {
      stream.close();
      spy.mockRestore();
    }
  });

  it('probes after 30 s over TLS too, unless its options give their own keep-alive', async () => {
    server = createServer((s) => sockets.add(s)); // no TLS: the handshake never ends, the keep-alive is set before
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const events = { onData: () => undefined, onClose: () => undefined };
    const cases: [options: object, expected: unknown[][]][] = [
      [{}, [[true, KEEP_ALIVE_DELAY_MS]]],
      [{ keepAliveInitialDelay: 5_000 }, [[true, 5_000]]],
      [{ keepAlive: false }, []],
    ];
    for (const [options, expected] of cases) {
      const spy = vi.spyOn(Socket.prototype, 'setKeepAlive');
      try {
        const connecting = tlsTransport(options).connect({ host: '127.0.0.1', port }, events, { timeoutMs: 50 });
        expect(spy.mock.calls).toEqual(expected);
        await connecting.catch(() => undefined);
      } finally {
        spy.mockRestore();
      }
    }
  });
});
