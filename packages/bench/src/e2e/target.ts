import { endpointOf } from '../config/parsers.js';
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
  return first === undefined ? undefined : endpointOf(first);
}
