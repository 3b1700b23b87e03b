import { existsSync } from 'node:fs';
import { COMMANDS } from '../config/argv.js';
import { plural } from '../config/format.js';
import { integer } from '../config/parsers.js';
import { RESULTS_DATABASE, persistResults } from '../report/persist.js';
import type { RunResult } from '../types.js';
import { readRuns } from './compare-command.js';

const USAGE = `usage: ${COMMANDS.persist.usage}`;

/** Where the runs go and how the server is reached: as a run's --tls, --tls-ca and --rpc-compression. */
interface PersistTarget {
  files: string[];
  host: string;
  port: number;
  tls: boolean;
  tlsCa: string | undefined;
  rpcCompression: boolean;
}

/**
 * `iotdb-bench persist A.json ... [--host H] [--port P] [--tls] [--tls-ca CA] [--rpc-compression]`: the runs of
 * result files written into an IoTDB as --persist-results writes a run's; 2 on bad usage, 1 when the server refused.
 */
export async function persistCommand(args: readonly string[]): Promise<number> {
  let target: PersistTarget;
  try {
    target = parsePersistArgs(args);
  } catch (e) {
    console.error(`iotdb-bench persist: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  let runs: RunResult[];
  try {
    runs = target.files.flatMap(readRuns);
  } catch (e) {
    console.error(`iotdb-bench persist: ${(e as Error).message}`);
    return 2;
  }
  const where = `${target.host}:${target.port}`;
  try {
    const records = await persistResults(target, runs, target);
    console.log(`persisted ${records} records of ${plural(runs.length, 'run')} into ${RESULTS_DATABASE} at ${where}`);
    return 0;
  } catch (e) {
    console.error(`iotdb-bench persist: could not persist the results at ${where}: ${(e as Error).message}`);
    return 1;
  }
}

const port = integer(1, 65535);

/** The files and the server of the command line; throws saying what is wrong. */
export function parsePersistArgs(args: readonly string[], env = process.env): PersistTarget {
  const t: PersistTarget = {
    files: [],
    host: env.IOTDB_HOST ?? '127.0.0.1',
    port: Number(env.IOTDB_PORT ?? 6667),
    tls: false,
    tlsCa: undefined,
    rpcCompression: false,
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--tls') t.tls = true;
    else if (arg === '--rpc-compression') t.rpcCompression = true;
    else if (!arg.startsWith('--')) t.files.push(arg);
    else {
      const value = args[++i];
      if (value === undefined) throw new Error(`${arg} needs a value`);
      if (arg === '--host') t.host = value;
      else if (arg === '--port') t.port = portOf(value);
      else if (arg === '--tls-ca') t.tlsCa = value;
      else throw new Error(`unknown option ${arg}`);
    }
  }
  if (t.files.length === 0) throw new Error('needs one results.json at least');
  if (t.tlsCa !== undefined && !t.tls) throw new Error('--tls-ca is what to trust over TLS: it needs --tls');
  if (t.tlsCa !== undefined && !existsSync(t.tlsCa)) throw new Error(`--tls-ca ${t.tlsCa}: no such file`);
  return t;
}

function portOf(value: string): number {
  try {
    return port(value);
  } catch (e) {
    throw new Error(`--port ${(e as Error).message}, got ${value}`, { cause: e });
  }
}
