import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

/**
 * Integration suite setup: uses the IoTDB given by IOTDB_HOST/IOTDB_PORT, or starts a fresh local
 * one (1 ConfigNode + 1 DataNode from Maven Central jars, scripts/iotdb-local.sh) and stops it at
 * the end. It never stops a server it did not start.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    iotdb: { host: string; port: number };
  }
}

const script = fileURLToPath(new URL('./iotdb-local.sh', import.meta.url));
const dir = process.env.IOTDB_TEST_DIR ?? fileURLToPath(new URL('../.iotdb-test/server', import.meta.url));

export default function setup(project: TestProject): () => void {
  const given = process.env.IOTDB_HOST;
  if (given) {
    project.provide('iotdb', { host: given, port: Number(process.env.IOTDB_PORT ?? 6667) });
    return () => {};
  }
  console.log(`starting a local IoTDB in ${dir} (set IOTDB_HOST to use your own server)`);
  execFileSync('bash', [script, 'start', dir], { stdio: 'inherit' });
  project.provide('iotdb', { host: '127.0.0.1', port: Number(process.env.RPC_PORT ?? 6667) });
  return () => {
    execFileSync('bash', [script, 'stop', dir], { stdio: 'inherit' });
  };
}
