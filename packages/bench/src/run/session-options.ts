import { readFileSync } from 'node:fs';
import { SESSION_DEFAULTS } from '@iotdb/client';
import type { BenchConfig } from '../types.js';

/** The knobs a connection is made from; without nodeUrls, the target node alone (with them, they alone). */
export type ConnectKnobs = Pick<BenchConfig, 'tls' | 'tlsCa' | 'rpcCompression'> &
  Partial<Pick<BenchConfig, 'nodeUrls' | 'spreadQueries' | 'discoverNodes' | 'redirection'>>;

/**
 * How a run's sessions reach the server: the target node, the DataNodes, TLS, the protocol (--rpc-compression) and
 * which nodes queries take turns on (--spread-queries, --discover-nodes) and whether a device's writes and queries go
 * to its node (--redirection; the client's defaults when not given).
 */
export function connectOptions(c: ConnectKnobs, target: { host: string; port: number }) {
  return {
    ...(c.nodeUrls === undefined ? { host: target.host, port: target.port } : { nodeUrls: c.nodeUrls }),
    tls: c.tls ? (c.tlsCa === undefined ? true : { ca: caOf(c.tlsCa) }) : false,
    rpcCompression: c.rpcCompression,
    spreadQueries: c.spreadQueries,
    discoverNodes: c.discoverNodes,
    enableRedirection: c.redirection,
  };
}

/** What a run's sessions and pools are opened with: connectOptions and the retry budget. */
export function sessionOptions(
  c: ConnectKnobs & Pick<BenchConfig, 'retryMaxMs'>,
  target: { host: string; port: number },
) {
  return { ...connectOptions(c, target), retry: { maxElapsedMs: c.retryMaxMs } };
}

/**
 * A query's options under --query-timeout-ms: the server keeps the query that long (0: no limit), and the client
 * waits for each of its replies at least as long as for any other (a longer query waits that long). The Java client
 * has no reply wait: with a short timeout both sides are held to the server's alone.
 */
export function queryOptions(c: Pick<BenchConfig, 'queryTimeoutMs'>): { timeoutMs?: number; queryTimeoutMs?: number } {
  const ms = c.queryTimeoutMs;
  if (ms === undefined) return {};
  return { queryTimeoutMs: ms, timeoutMs: ms === 0 ? 0 : Math.max(ms, SESSION_DEFAULTS.requestTimeoutMs) };
}

const cas = new Map<string, Buffer>();

/** The CA file's certificates, read once per process (every worker's pool and the harness's sessions use them). */
function caOf(file: string): Buffer {
  let ca = cas.get(file);
  if (ca === undefined) cas.set(file, (ca = readFileSync(file)));
  return ca;
}
