#!/usr/bin/env node
import { commandHelp, isCommandName, type CommandName } from '../config/argv.js';
import { knobWarnings } from '../config/knob-warnings.js';
import { ConfigError, describePlan, helpText, resolveConfig } from '../config/resolve.js';
import { endpointOf } from '../config/parsers.js';
import { readQueryFile, type QueryFileEntry } from '../config/query-file.js';
import { compareTable } from '../report/format.js';
import { sweepText } from '../report/sweep-table.js';
import { RESULTS_DATABASE, persistResults } from '../report/persist.js';
import { outDirReady, writeResults } from '../report/write-results.js';
import { collectEnvironment, versionLine } from '../run/environment.js';
import { describeError } from '../run/run-error.js';
import { connectOptions } from '../run/session-options.js';
import type { BenchConfig, RunResult } from '../types.js';
import { compareCommand } from './compare-command.js';
import { LOCAL_TRUST_STORE_PASSWORD, startLocalServer, type LocalServer } from './local-server.js';
import { interruptOnSignal } from './interrupt.js';
import { mergeCommand } from './merge-command.js';
import { persistCommand, persistLater } from './persist-command.js';
import { runSweep } from './sweep.js';
import { readCompareCommand } from './read-compare-command.js';
import { JavaInterrupted } from '../run/java-child.js';
import { givenServer } from './target.js';
import { notIoTDBNodes } from '../run/server-cpu.js';

const RUN_COMMAND: Record<CommandName, (args: readonly string[]) => number | Promise<number>> = {
  compare: compareCommand,
  merge: mergeCommand,
  persist: persistCommand,
  'read-compare': readCompareCommand,
};

/** A command (`iotdb-bench merge A.json B.json`): its usage with --help or -h, wherever it comes, else its run. */
function runCommand(name: CommandName, args: readonly string[]): number | Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(commandHelp(name));
    return 0;
  }
  return RUN_COMMAND[name](args);
}

/**
 * `pnpm bench:e2e` / `iotdb-bench`: the end-to-end benchmark. `--help` lists the commands and every knob;
 * `--dry-run` prints the resolved plan. Without --host or --node-urls it starts a local IoTDB on --port
 * (default 6667) and stops it.
 */
async function main(): Promise<number> {
  if (process.argv.includes('--version')) {
    console.log(versionLine());
    return 0;
  }
  const command = process.argv[2];
  if (isCommandName(command)) return runCommand(command, process.argv.slice(3));
  const run = loadRun(process.argv.slice(2));
  return typeof run === 'number' ? run : runBench(run);
}

/** A run as the arguments give it: its knobs, and the statements of its query file when it has one. */
interface LoadedRun {
  config: BenchConfig;
  queryFile: QueryFileEntry[] | undefined;
}

/** The run the arguments ask for, or the exit status when there is none to run: 0 for --help and --dry-run, 2 for a bad knob. */
function loadRun(args: string[]): LoadedRun | number {
  try {
    const r = resolveConfig(args, process.env);
    if (r.help) {
      console.log(helpText());
      return 0;
    }
    const config = r.config;
    for (const warning of knobWarnings(config)) console.error(`iotdb-bench: warning: ${warning}`);
    const model = config.model === 'table' ? 'table' : 'tree';
    const queryFile =
      config.queryFile === undefined
        ? undefined
        : readQueryFile(config.queryFile, { model, database: config.database }, { vsJava: config.vsJava });
    if (config.dryRun) {
      console.log(describePlan(config, queryFile));
      return 0;
    }
    if (config.out !== undefined && !outDirReady(config.out, 'iotdb-bench')) return 2;
    return { config, queryFile };
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    console.error(`iotdb-bench: ${e.message}`);
    return 2;
  }
}

/**
 * Runs it (every repeat, each side) on the server given, or on a local one of its own, fresh for each side, then
 * prints the summaries and keeps the results. Its exit status: 130 when Ctrl-C ended it.
 */
async function runBench(run: LoadedRun): Promise<number> {
  const { queryFile } = run;
  let { config } = run;
  for (const note of notIoTDBNodes(config.serverPid ?? [])) console.error(`iotdb-bench: warning: ${note}`);
  const needsServer = !config.dryRunSend;
  let server: LocalServer | undefined;
  const interrupt = interruptOnSignal(() => server?.stop());
  const given = givenServer(config);
  const wire = { tls: config.tls, rpcCompression: config.rpcCompression };
  if (needsServer && given === undefined) server = startLocalServer(config.port, wire);
  if (server !== undefined) config = trustLocalServer(config, server);
  const target = given ?? { host: server?.host ?? '127.0.0.1', port: config.port };
  try {
    const environment = await collectEnvironment(needsServer ? connectOptions(config, target) : undefined);
    let serverUsed = false;
    const freshServer = () => {
      if (serverUsed && server !== undefined) {
        server.stop();
        server = startLocalServer(config.port, wire);
      }
      serverUsed = true;
      return server !== undefined || !needsServer;
    };
    const localServerPids = () => server?.pids;
    const context = { target, environment, interrupt, queryFile, freshServer, localServerPids };
    const done = await runSweep(config, context);
    if (config.sweepRates.length > 0) console.log(sweepText(done.runs).join('\n'));
    else if (done.runs.length > 1) console.log(compareTable(done.runs));
    const kept = await keepResults(config, done.runs);
    return interrupt.aborted ? 130 : kept ? done.exitCode : 1;
  } finally {
    server?.stop();
  }
}

/**
 * A local server with TLS: both clients trust its own certificate, unless --tls-ca / --java-trust-store say otherwise
 * (the Java client's trust store password goes to its child through the environment, as a user's would).
 */
function trustLocalServer(config: BenchConfig, server: LocalServer): BenchConfig {
  if (server.ca === undefined || server.javaTrustStore === undefined) return config;
  if (config.javaTrustStore === undefined) process.env.JAVA_TRUST_STORE_PASSWORD = LOCAL_TRUST_STORE_PASSWORD;
  return {
    ...config,
    tlsCa: config.tlsCa ?? server.ca,
    javaTrustStore: config.javaTrustStore ?? server.javaTrustStore,
  };
}

/** The results into --out's files and --persist-results' server; false when they could not be persisted. */
async function keepResults(config: BenchConfig, runs: RunResult[]): Promise<boolean> {
  if (config.out !== undefined) {
    const files = writeResults(config.out, runs);
    console.log(`wrote ${Object.values(files).join(', ')}`);
  }
  if (config.persistResults === undefined) return true;
  try {
    const records = await persistResults(endpointOf(config.persistResults), runs, config);
    console.log(`persisted ${records} records into ${RESULTS_DATABASE} at ${config.persistResults}`);
    return true;
  } catch (e) {
    const why = (e as Error).message;
    console.error(
      `iotdb-bench: could not persist the results at ${config.persistResults}: ${why}; ${persistLater(config)}`,
    );
    return false;
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`iotdb-bench${subcommand()}: ${describeError(e)}`);
    process.exit(e instanceof JavaInterrupted ? 130 : 1); // read-compare's Java reader, Ctrl-C'd
  },
);

/** ' read-compare' etc. when the command line named one, for the error line */
function subcommand(): string {
  const name = process.argv[2];
  return isCommandName(name) ? ` ${name}` : '';
}
