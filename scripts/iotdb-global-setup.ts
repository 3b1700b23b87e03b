import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

/**
 * Integration suite setup: uses the IoTDB given by IOTDB_HOST/IOTDB_PORT, or starts a fresh local
 * cluster (1 ConfigNode + 2 DataNodes on 127.0.0.1:6667 and :6668, data_replication_factor=1, from
 * Maven Central jars via scripts/iotdb-local.sh) and kills it at the end. Two DataNodes make regions,
 * and therefore redirects, land on two nodes. It never stops a server it did not start.
 */
export interface IoTDBTestServer {
  host: string;
  port: number;
  /** 'host:port' of every DataNode */
  nodeUrls: string[];
  /** set when the suite manages the server: fault tests may stop and start its nodes */
  control: { script: string; dir: string } | null;
}

declare module 'vitest' {
  export interface ProvidedContext {
    iotdb: IoTDBTestServer;
  }
}

const script = fileURLToPath(new URL('./iotdb-local.sh', import.meta.url));
const dir = process.env.IOTDB_TEST_DIR ?? fileURLToPath(new URL('../.iotdb-test/server', import.meta.url));
const DATANODES = 2;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.IOTDB_HOST;
  if (given) {
    const port = Number(process.env.IOTDB_PORT ?? 6667);
    const nodeUrls = (process.env.NODE_URLS ?? `${given}:${port}`).split(',');
    project.provide('iotdb', { host: given, port, nodeUrls, control: null });
    return () => Promise.resolve();
  }
  console.log(
    `starting a local IoTDB (1 ConfigNode + ${DATANODES} DataNodes) in ${dir} (set IOTDB_HOST to use your own server)`,
  );
  await bash([script, 'start', dir], { DATANODES: String(DATANODES) });
  const nodeUrls = Array.from({ length: DATANODES }, (_, k) => `127.0.0.1:${6667 + k}`);
  project.provide('iotdb', { host: '127.0.0.1', port: 6667, nodeUrls, control: { script, dir } });
  return () => bash([script, 'kill', dir]); // its data is the suite's alone (the next start wipes it): no flush
}

/**
 * Runs the script with its output shown, without blocking: Vitest ends its last test worker while the global
 * teardown runs, and a synchronous stop (~10-20 s of DataNodes flushing) froze Vitest's event loop past its
 * 10 s teardown timer, which then reported "Timeout terminating forks worker" for a worker that had exited.
 */
function bash(args: string[], env: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`bash ${args.join(' ')}: exit ${code ?? signal}`)),
    );
  });
}
