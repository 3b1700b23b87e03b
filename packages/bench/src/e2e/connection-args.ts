import { integer } from '../config/parsers.js';

/** How a command reaches its server: read-compare's and persist's --host, --port, --tls, --tls-ca, --rpc-compression. */
export interface ConnectionArgs {
  host: string;
  port: number;
  tls: boolean;
  tlsCa: string | undefined;
  rpcCompression: boolean;
}

/** IOTDB_HOST / IOTDB_PORT, else 127.0.0.1:6667, in plain binary Thrift over TCP. */
export function defaultConnection(env: NodeJS.ProcessEnv = process.env): ConnectionArgs {
  return {
    host: env.IOTDB_HOST ?? '127.0.0.1',
    port: Number(env.IOTDB_PORT ?? 6667),
    tls: false,
    tlsCa: undefined,
    rpcCompression: false,
  };
}

const port = integer(1, 65535);

/**
 * Takes args[i] into `o` when it is a connection flag (with its value when it has one); returns how many words it
 * took, 0 when args[i] is not one. Throws naming the flag when its value is missing or wrong.
 */
export function takeConnectionFlag(o: ConnectionArgs, args: readonly string[], i: number): number {
  const flag = args[i];
  if (flag === '--tls' || flag === '--rpc-compression') {
    o[flag === '--tls' ? 'tls' : 'rpcCompression'] = true;
    return 1;
  }
  if (flag !== '--host' && flag !== '--port' && flag !== '--tls-ca') return 0;
  const value = args[i + 1];
  if (value === undefined) throw new Error(`${flag} needs a value`);
  if (flag === '--host') o.host = value;
  else if (flag === '--tls-ca') o.tlsCa = value;
  else o.port = portOf(value);
  return 2;
}

function portOf(value: string): number {
  try {
    return port(value);
  } catch (e) {
    throw new Error(`--port ${(e as Error).message}, got ${value}`, { cause: e });
  }
}

/** The flags takeConnectionFlag takes back into `o`: how to name its server on a command line. */
export function connectionFlags(o: ConnectionArgs): string[] {
  return [
    ...['--host', o.host, '--port', String(o.port)],
    ...(o.tls ? ['--tls'] : []),
    ...(o.tlsCa !== undefined ? ['--tls-ca', o.tlsCa] : []),
    ...(o.rpcCompression ? ['--rpc-compression'] : []),
  ];
}
