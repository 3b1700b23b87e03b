import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { tcpTransport } from './tcp-transport.js';

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
