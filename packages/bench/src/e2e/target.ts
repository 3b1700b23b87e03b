import type { BenchConfig } from '../types.js';

/**
 * The server a run talks to: `--host` and `--port`, else the first of `--node-urls` (a cluster was named, the
 * sessions get all of them); undefined when neither is given, and the harness starts a local server.
 */
export function givenServer(
  c: Pick<BenchConfig, 'host' | 'port' | 'nodeUrls'>,
): { host: string; port: number } | undefined {
  if (c.host !== undefined) return { host: c.host, port: c.port };
  const first = c.nodeUrls?.[0];
  if (first === undefined) return undefined;
  const colon = first.lastIndexOf(':'); // host:port, [v6]:port (checked when the knob was read)
  return { host: first.slice(0, colon).replace(/^\[(.*)\]$/, '$1'), port: Number(first.slice(colon + 1)) };
}
