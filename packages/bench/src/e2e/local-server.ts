import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RunError } from '../run/run-error.js';

/**
 * The server script this package ships (scripts/iotdb-local.sh, next to dist/), so that an installed
 * `iotdb-bench` finds it too. Run with `bash`: a script taken out of a tarball has lost its execute bit.
 */
const script = fileURLToPath(new URL('../../scripts/iotdb-local.sh', import.meta.url));

/** The password of the trust store the script makes beside its certificate (keytool's -storepass there). */
export const LOCAL_TRUST_STORE_PASSWORD = 'iotdb-local';

/** The RPC port of the script's default cluster; its internal ports move by `port - DEFAULT_RPC_PORT`. */
const DEFAULT_RPC_PORT = 6667;

export interface LocalServer {
  host: string;
  port: number;
  /** where its configuration, data and logs are: one directory per port */
  dir: string;
  /** with TLS: its certificate (PEM), to trust */
  ca: string | undefined;
  /** with TLS: the same certificate in a JKS trust store, for the Java client (password LOCAL_TRUST_STORE_PASSWORD) */
  javaTrustStore: string | undefined;
  /** its nodes' processes (ConfigNode, DataNode), whose CPU a run measures */
  pids: number[];
  /** kills it at once: its data was the run's alone (the next start wipes it), so IoTDB's ~10 s of shutdown buys nothing */
  stop(): void;
}

/** What the local server speaks: TLS on its client port, Thrift's compact protocol on every port. */
interface LocalServerWire {
  tls: boolean;
  rpcCompression: boolean;
}

/**
 * A fresh 1 ConfigNode + 1 DataNode IoTDB on 127.0.0.1:`port`, its ConfigNode and internal ports shifted by
 * `port - 6667` (the script's PORT_OFFSET) so that it can run beside a server on the default ports. Heaps follow
 * the script's CN_HEAP, DN_HEAP and DN_DIRECT. With `wire.tls` its client port speaks TLS only, with a certificate the
 * script makes (kept in `dir` across starts: `ca`); with `wire.rpcCompression` every port speaks the compact protocol.
 */
export function startLocalServer(
  port: number,
  wire: LocalServerWire = { tls: false, rpcCompression: false },
): LocalServer {
  const dir = join(tmpdir(), `iotdb-bench-${port}`);
  const env = {
    ...process.env,
    RPC_PORT: String(port),
    PORT_OFFSET: String(port - DEFAULT_RPC_PORT),
    DATANODES: '1',
    TLS: wire.tls ? '1' : '0',
    RPC_COMPRESSION: wire.rpcCompression ? '1' : '0',
  };
  const run = (command: 'start' | 'kill') =>
    execFileSync('bash', [script, command, dir], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  console.log(`no host given: starting a local IoTDB on 127.0.0.1:${port} in ${dir} ...`);
  try {
    run('start');
  } catch (e) {
    const status = (e as { status?: number | null }).status;
    throw new RunError(
      `could not start a local IoTDB on 127.0.0.1:${port} (iotdb-local.sh start exited with ${status ?? 'a signal'}, ` +
        'why is in its output above); to use a running server give --host (or --node-urls)',
    );
  }
  let stopped = false;
  const pids = execFileSync('bash', [script, 'pids', dir], { env, encoding: 'utf8' }).trim().split(',').map(Number);
  return {
    host: '127.0.0.1',
    port,
    dir,
    ca: wire.tls ? join(dir, 'tls', 'ca.pem') : undefined,
    javaTrustStore: wire.tls ? join(dir, 'tls', 'truststore.jks') : undefined,
    pids,
    stop() {
      if (stopped) return;
      stopped = true;
      console.log(`stopping the local IoTDB on 127.0.0.1:${port} at once (SIGKILL): its data was this run's alone`);
      run('kill');
    },
  };
}
