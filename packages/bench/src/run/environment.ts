import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { cpus, arch, release, totalmem, type } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Session, type SessionOptions } from '@iotdb/client';
import type { Environment, ServerEnvironment } from '../types.js';

const require = createRequire(import.meta.url);

/** This package's root (dist/run/ or src/run/ two levels down): its package.json, the checkout it is in. */
const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Where a run ran, for its result files: this machine, the runtimes, the server (reached with `server`, the run's
 * connectOptions; undefined: no server), the client's version.
 */
export async function collectEnvironment(server: SessionOptions | undefined): Promise<Environment> {
  const cores = cpus();
  return {
    cpu: cores[0]?.model.trim() ?? 'unknown',
    cores: cores.length,
    memoryGiB: Number((totalmem() / 2 ** 30).toFixed(1)),
    os: `${type()} ${release()} ${arch()}`,
    node: process.version,
    jvm: javaVersion(),
    server: server === undefined ? null : await serverEnvironment(server),
    client: { ...versions(), gitCommit: gitCommit() },
  };
}

/** The client's version and the benchmark's, from their package.json. */
function versions(): { version: string; bench: string } {
  return {
    version: (require('@iotdb/client/package.json') as { version: string }).version,
    bench: (require(join(PACKAGE_DIR, 'package.json')) as { version: string }).version,
  };
}

/** `--version`: `iotdb-bench 0.1.0 (@iotdb/client 0.1.0, Node v20.20.2)` */
export function versionLine(): string {
  const { version, bench } = versions();
  return `iotdb-bench ${bench} (@iotdb/client ${version}, Node ${process.version})`;
}

/** `java -version`'s first line (it prints to stderr), or null without a JVM on the PATH. */
function javaVersion(): string | null {
  const r = spawnSync('java', ['-version'], { encoding: 'utf8', timeout: 10_000 });
  if (r.status !== 0) return null;
  return r.stderr.split('\n')[0]?.trim() || null;
}

/**
 * The commit of this project's checkout the bench runs from, `-dirty` when a tracked file differs from it (a build of
 * uncommitted changes, which two runs to compare may both be); null when installed from a tarball: no git there, or the
 * git of the application that installed it, whose commit is not the client's (its package.json is not tracked there).
 */
export function gitCommit(packageDir = PACKAGE_DIR): string | null {
  const git = (...args: string[]) =>
    spawnSync('git', ['-C', packageDir, ...args], { encoding: 'utf8', timeout: 10_000 });
  if (git('ls-files', '--error-unmatch', 'package.json').status !== 0) return null;
  const head = git('rev-parse', 'HEAD');
  if (head.status !== 0) return null;
  const changed = git('diff', '--quiet', 'HEAD').status === 1;
  return `${head.stdout.trim()}${changed ? '-dirty' : ''}`;
}

/** The server's version, cluster settings and DataNodes (SHOW VERSION, SHOW VARIABLES, SHOW DATANODES); null where it cannot say. */
async function serverEnvironment(options: SessionOptions): Promise<ServerEnvironment | null> {
  const s = new Session(options);
  try {
    await s.open();
    const version = await s.executeQueryStatement('SHOW VERSION');
    const first = await version.next();
    const settings: Record<string, string> = {};
    for await (const row of await s.executeQueryStatement('SHOW VARIABLES')) {
      const [name, value] = row.values;
      settings[String(name)] = String(value);
    }
    const dataNodes = await showDataNodes(s);
    return { version: String(first.values[0]), timestampPrecision: s.timestampPrecision, settings, dataNodes };
  } catch {
    return null; // an older server or a user without the privilege: the run still counts
  } finally {
    await s.close();
  }
}

/** Each DataNode as 'host:port Status', or null when the user may not ask (SHOW DATANODES is the admin's). */
async function showDataNodes(s: Session): Promise<string[] | null> {
  try {
    const nodes: string[] = [];
    for await (const row of await s.executeQueryStatement('SHOW DATANODES')) {
      nodes.push(`${row.getString('RpcAddress')}:${row.getString('RpcPort')} ${row.getString('Status')}`);
    }
    return nodes;
  } catch {
    return null;
  }
}
