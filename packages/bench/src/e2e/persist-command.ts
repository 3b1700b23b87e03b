import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS } from '../config/argv.js';
import { plural } from '../config/format.js';
import { endpointOf } from '../config/parsers.js';
import { RESULTS_DATABASE, persistResults } from '../report/persist.js';
import type { BenchConfig, RunResult } from '../types.js';
import { readRuns } from './compare-command.js';
import { connectionFlags, defaultConnection, takeConnectionFlag, type ConnectionArgs } from './connection-args.js';

const USAGE = `usage: ${COMMANDS.persist.usage}`;

/** Where the runs go and how the server is reached: as a run's --tls, --tls-ca and --rpc-compression. */
interface PersistTarget extends ConnectionArgs {
  files: string[];
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

/** The files and the server of the command line; throws saying what is wrong. */
export function parsePersistArgs(args: readonly string[], env = process.env): PersistTarget {
  const t: PersistTarget = { files: [], ...defaultConnection(env) };
  for (let i = 0; i < args.length; i++) {
    const took = takeConnectionFlag(t, args, i);
    if (took > 0) i += took - 1;
    else if (args[i].startsWith('--')) throw new Error(`unknown option ${args[i]}`);
    else t.files.push(args[i]);
  }
  if (t.files.length === 0) throw new Error('needs one results.json at least');
  if (t.tlsCa !== undefined && !t.tls) throw new Error('--tls-ca is what to trust over TLS: it needs --tls');
  if (t.tlsCa !== undefined && !existsSync(t.tlsCa)) throw new Error(`--tls-ca ${t.tlsCa}: no such file`);
  return t;
}

/**
 * Where a run's results are when --persist-results could not write them (the server down, a privilege missing): in
 * --out's files, with the command that persists them later reaching that server as the run did; else in the console.
 */
export function persistLater(c: BenchConfig): string {
  if (c.out === undefined)
    return 'they are in the console above only: with --out DIR a run keeps them in files that iotdb-bench persist writes later';
  const server = {
    ...endpointOf(c.persistResults ?? ''),
    tls: c.tls,
    tlsCa: c.tlsCa,
    rpcCompression: c.rpcCompression,
  };
  const words = ['iotdb-bench', 'persist', join(c.out, 'results.json'), ...connectionFlags(server)];
  const command = words.map(shellWord).join(' ');
  return `they are kept in ${c.out} (${command} writes them once the server takes them)`;
}

/** `word` as a shell reads it back: quoted when it holds more than letters, digits and -_./:@ */
function shellWord(word: string): string {
  return /^[\w\-./:@]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
