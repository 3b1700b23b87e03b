#!/usr/bin/env node
import { ConfigError, describePlan, helpText, resolveConfig } from '../config/resolve.js';
import { compareTable, formatReport, resultLine } from '../report/format.js';
import { writeResults } from '../report/write-results.js';
import { countPoints, prepareDatabase } from '../run/database.js';
import { collectEnvironment } from '../run/environment.js';
import { runJava } from '../run/java.js';
import { runQueries } from '../run/queries.js';
import { runWrites } from '../run/run-writes.js';
import type { BenchConfig, RunResult } from '../types.js';
import { weightedQueries } from '../workload/operations.js';
import { compareCommand } from './compare-command.js';
import { startLocalServer, type LocalServer } from './local-server.js';
import { mergeCommand } from './merge-command.js';

/**
 * `pnpm bench:e2e` / `iotdb-bench`: the end-to-end write benchmark. `--help` lists every knob;
 * `--dry-run` prints the resolved plan. Without IOTDB_HOST/--host it starts a local IoTDB on --port
 * (default 6667) and stops it.
 */
async function main(): Promise<number> {
  if (process.argv[2] === 'compare') return compareCommand(process.argv.slice(3));
  if (process.argv[2] === 'merge') return mergeCommand(process.argv.slice(3));
  let config: BenchConfig;
  try {
    const r = resolveConfig(process.argv.slice(2), process.env);
    if (r.help) {
      console.log(helpText());
      return 0;
    }
    config = r.config;
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`iotdb-bench: ${e.message}`);
      return 2;
    }
    throw e;
  }
  if (config.dryRun) {
    console.log(describePlan(config));
    return 0;
  }
  const needsServer = !config.dryRunSend;
  let server: LocalServer | undefined;
  if (needsServer && config.host === undefined) {
    server = startLocalServer(config.port);
    process.once('SIGINT', () => {
      server?.stop();
      process.exit(130);
    });
  }
  const host = config.host ?? server?.host ?? '127.0.0.1';
  const port = config.port;
  let exitCode = 0;
  try {
    const environment = await collectEnvironment(needsServer ? { host, port } : undefined);
    const runs: RunResult[] = [];
    const methods = config.compare.length > 0 ? config.compare : [config.method];
    for (const method of methods) {
      const c = { ...config, method };
      const mixed = weightedQueries(c.operationProportion).length > 0 ? '-mixed' : '';
      const label =
        methods.length > 1
          ? method
          : `${c.model}-${method}${mixed}${c.serverNoop ? '-noop' : ''}${c.dryRunSend ? '-dry' : ''}`;
      if (needsServer) await prepareDatabase(c, host, port);
      console.log(
        `run ${label}: ${c.workers} worker(s) x ${c.clients} client(s), ${c.deviceCount} devices x ${c.sensors} sensors x ${c.batchSize} rows x ${c.loop} rounds`,
      );
      const { result, writtenPoints } = await runWrites(c, label, host, port);
      result.environment = environment;
      if (c.verify && needsServer && !c.serverNoop) {
        const actual = await countPoints(c, host, port);
        result.verify = { expected: writtenPoints, actual, ok: actual === writtenPoints };
        if (!result.verify.ok) exitCode = 1;
      }
      if (c.queries.length > 0 && needsServer && !c.serverNoop) {
        // after a mixed run's own queries, these are told apart by name
        const after = Object.entries(await runQueries(c, host, port));
        const name = (k: string) => (result.queries === undefined ? k : `${k} after the writes`);
        result.queries = { ...result.queries, ...Object.fromEntries(after.map(([k, q]) => [name(k), q])) };
      }
      console.log(formatReport(result));
      console.log(resultLine(result));
      if (result.okOps === 0 && result.failedOps > 0) exitCode = 1;
      runs.push(result);
    }
    let java: RunResult | undefined;
    if (config.vsJava) {
      if (server !== undefined) {
        server.stop(); // the Java client gets a fresh server too
        server = startLocalServer(config.port);
      }
      console.log(`running the Java client on the same workload (${config.workers * config.clients} thread(s)) ...`);
      java = { ...runJava(config, host, port), environment };
      console.log(resultLine(java));
      runs.push(java);
      const ours = runs[0];
      console.log(
        `ours/Java points/s: ${(ours.pointsPerS / java.pointsPerS).toFixed(2)}x, client CPU per point: ${(ours.clientCpuSPerMpts / java.clientCpuSPerMpts).toFixed(2)}x`,
      );
    }
    if (runs.length > 1) console.log(compareTable(runs));
    if (config.out !== undefined) {
      const files = writeResults(
        config.out,
        runs.filter((r) => r !== java),
        java ? { java } : undefined,
      );
      console.log(`wrote ${Object.values(files).join(', ')}`);
    }
  } finally {
    server?.stop();
  }
  return exitCode;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
