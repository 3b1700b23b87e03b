import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repo's own server script (scripts/iotdb-local.sh): a fresh 1C1D IoTDB on 127.0.0.1:6667. */
const script = fileURLToPath(new URL('../../../../scripts/iotdb-local.sh', import.meta.url));

export interface LocalServer {
  host: string;
  port: number;
  stop(): void;
}

export function startLocalServer(dir: string): LocalServer {
  console.log(`no IOTDB_HOST given: starting a local IoTDB in ${dir} ...`);
  execFileSync('bash', [script, 'start', dir], { stdio: ['ignore', 'inherit', 'inherit'] });
  let stopped = false;
  return {
    host: '127.0.0.1',
    port: 6667,
    stop() {
      if (stopped) return;
      stopped = true;
      execFileSync('bash', [script, 'stop', dir], { stdio: ['ignore', 'inherit', 'inherit'] });
    },
  };
}
