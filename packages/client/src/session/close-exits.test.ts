import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * close() leaves nothing behind: a child process whose session or pool is closed in the middle of an
 * open() or a retry wait exits on its own (no socket, timer or pending promise keeps it alive).
 * The child runs the built package (pnpm test builds first); a fake server on 127.0.0.1 plays the node.
 */
const dist = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

const servers: Server[] = [];
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A node that accepts connections and never answers (a login waits for ever). */
async function silentNode(): Promise<number> {
  const server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => {});
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as { port: number }).port;
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

/** Runs `body` (an ES module body with the client imported as `c`) and resolves with its exit and output. */
function runChild(body: string): Promise<{ code: number | null; out: string; ms: number }> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', `import * as c from ${JSON.stringify(dist)};\n${body}`],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, out: out.trim(), ms: performance.now() - started });
    }),
  );
}

describe.skipIf(!existsSync(dist))('a process whose client was closed exits on its own', () => {
  it('Session.close() during an open() that waits for its login reply', async () => {
    const port = await silentNode();
    const r = await runChild(`
      const s = new c.Session({ port: ${port}, connectTimeoutMs: 60000, requestTimeoutMs: 60000 });
      const opening = s.open().catch((e) => console.log(e.name));
      setTimeout(() => s.close(), 100);
      await opening;`);
    expect(r.out).toBe('IoTDBSessionClosedError');
    expect(r.code).toBe(0);
    expect(r.ms).toBeLessThan(5_000);
  });

  it('pool.close() while a write waits to retry opening a session on a node that is down', async () => {
    const port = await closedPort();
    const r = await runChild(`
      const pool = new c.SessionPool({ port: ${port}, retry: { initialDelayMs: 30000, maxDelayMs: 30000 } });
      const writing = pool.insertRecord({ deviceId: 'root.x.d', timestamp: 1, measurements: ['s'], dataTypes: ['INT32'], values: [1] })
        .catch((e) => console.log(e.name));
      setTimeout(() => pool.close(), 200);
      await writing;`);
    expect(r.out).toBe('IoTDBSessionClosedError');
    expect(r.code).toBe(0);
    expect(r.ms).toBeLessThan(5_000);
  });
});
