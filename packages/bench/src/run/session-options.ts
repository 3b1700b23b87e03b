import type { BenchConfig } from '../types.js';

/** What a run's sessions and pools are opened with: the target node, the DataNodes, the retry budget. */
export function sessionOptions(
  c: Pick<BenchConfig, 'nodeUrls' | 'retryMaxMs'>,
  target: { host: string; port: number },
) {
  return { host: target.host, port: target.port, nodeUrls: c.nodeUrls, retry: { maxElapsedMs: c.retryMaxMs } };
}
