import { createConnection } from 'node:net';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { attw, publintMessages } from './linters.js';
import { PUBLIC_PACKAGES, cleanEnv, createScratchApp, repoRoot, run, type ScratchApp } from './scratch-app.js';
import { fileListProblems, sourceMapProblems, staleBuildOutput, undeclaredImports } from './tarball-checks.js';

/**
 * The packages as a user gets them (pnpm test builds first): every public package packed, the tarballs
 * installed with npm into a scratch app outside the workspace (a copy of packaging/app in the OS temp dir), and
 * there: ESM, CJS, TypeScript under node16 and bundler resolution, the README's quick-start against the suite's
 * server, publint and attw, and the installed `iotdb-bench` starting its own IoTDB.
 */
const { host, port } = inject('iotdb');
const serverEnv = () => cleanEnv({ IOTDB_HOST: host, IOTDB_PORT: String(port) });

/**
 * The installed bench's own IoTDB. Its internal ports move by 6771 - 6667 = 104, not a multiple of 10, so they
 * miss every port of the suite's cluster on the default ports (10710 to 10860, all multiples of 10).
 */
const BENCH_PORT = 6771;

let app: ScratchApp;

beforeAll(async () => {
  app = await createScratchApp();
}, 600_000);

afterAll(() => app?.remove());

/** The README's first ```ts block: "First insert, first query". */
function readmeQuickStart(): string {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(readme);
  if (block === null) throw new Error('README.md has no ```ts block');
  return block[1];
}

function portOpen(p: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port: p });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('the packed packages, installed with npm into an app outside the workspace', () => {
  it.each(PUBLIC_PACKAGES)('%s ships what runs, with LICENSE and README, and declares what it imports', (pkg) => {
    const installed = app.installed(pkg);
    expect(fileListProblems(app.tarballs[pkg].files)).toEqual([]);
    expect(staleBuildOutput(join(repoRoot, 'packages', pkg), app.tarballs[pkg].files)).toEqual([]);
    expect(sourceMapProblems(installed)).toEqual([]);
    expect(undeclaredImports(installed)).toEqual([]);
  });

  it('imports as ES modules (client and codec) and talks to the server', async () => {
    const { stdout } = await run('node', ['esm.mjs'], { cwd: app.dir, env: serverEnv() });
    expect(stdout).toContain('codec: root.packaging.d1 2 rows');
    expect(stdout).toContain("client: 'it''s'");
    expect(stdout).toMatch(/^server: \d+\.\d+/m);
  });

  it('requires as CommonJS (require(esm): the same classes as import, one copy) and talks to the server', async () => {
    const { stdout, stderr } = await run('node', ['cjs.cjs'], { cwd: app.dir, env: serverEnv() });
    expect(stdout).toContain('codec: root.packaging.d1 2 rows');
    expect(stdout).toContain('one copy: true');
    expect(stdout).toMatch(/^server: \d+\.\d+/m);
    expect(stderr).toBe(''); // no ERR_REQUIRE_ASYNC_MODULE (top-level await), no warning
  });

  it.each(['node16', 'bundler'])('type-checks under moduleResolution %s, without skipLibCheck', async (resolution) => {
    const tsc = join(app.dir, 'node_modules', '.bin', 'tsc');
    await run(tsc, ['-p', `tsconfig.${resolution}.json`], { cwd: app.dir });
  });

  it("runs the README's quick-start, compiled with tsc, against the server", async () => {
    const tsc = join(app.dir, 'node_modules', '.bin', 'tsc');
    writeFileSync(join(app.dir, 'quickstart.ts'), readmeQuickStart());
    await run(tsc, ['-p', 'tsconfig.quickstart.json'], { cwd: app.dir });
    await run('node', ['drop-database.mjs', 'root.demo'], { cwd: app.dir, env: serverEnv() });
    try {
      const { stdout } = await run('node', ['out/quickstart.js'], { cwd: app.dir, env: serverEnv() });
      expect(stdout).toContain('25.5');
      expect(stdout).toContain('BigInt64Array');
    } finally {
      await run('node', ['drop-database.mjs', 'root.demo'], { cwd: app.dir, env: serverEnv() });
    }
  });

  it.each(PUBLIC_PACKAGES)('%s: publint (strict, suggestions too) reports nothing', async (pkg) => {
    expect(await publintMessages(app.installed(pkg))).toEqual([]);
  });

  it.each(PUBLIC_PACKAGES)('%s: attw (default profile) finds no problem', async (pkg) => {
    const report = await attw(app.tarballs[pkg].path);
    expect(report.problems).toEqual([]);
    // the libraries have types for every resolution; the bench is a command-line tool without any
    expect(report.hasTypes).toBe(pkg !== 'bench');
  });

  it('the installed iotdb-bench, given --port and no host, starts its own IoTDB from its package (with --tls and --rpc-compression: both clients speaking both, --vs-java), writes, reports, persists and kills it', async () => {
    expect(await portOpen(BENCH_PORT)).toBe(false);
    const env = cleanEnv({
      CN_HEAP: process.env.CN_HEAP ?? '512m',
      DN_HEAP: process.env.DN_HEAP ?? '1g',
      DN_DIRECT: process.env.DN_DIRECT ?? '512M',
    });
    for (const key of ['IOTDB_HOST', 'IOTDB_PORT', 'NODE_URLS']) delete env[key];
    const bench = join(app.dir, 'node_modules', '.bin', 'iotdb-bench');
    // what the server's JVMs leave in the machine's temp directory (lz4-java's native library each start): nothing
    const jvmTemp = () => new Set(readdirSync(tmpdir()).filter((name) => name.startsWith('liblz4-java-')));
    const tempBefore = jvmTemp();
    const args = ['--port', String(BENCH_PORT), '--loop', '1', '--workers', '1', '--clients', '1'];
    args.push('--database', 'packaging', '--verify', '--queries', 'TIME_RANGE', '--query-loops', '2');
    args.push('--tls', '--rpc-compression', '--vs-java', '--out', join(app.dir, 'bench-out'));
    args.push('--persist-results', `127.0.0.1:${BENCH_PORT}`);
    const { stdout } = await run(bench, args, { cwd: app.dir, env, timeoutMs: 300_000 });
    expect(stdout).toContain(`ready on 127.0.0.1:${BENCH_PORT}`);
    expect(stdout).toContain('TLS on the client RPC port');
    const [result] = JSON.parse(readFileSync(join(app.dir, 'bench-out', 'results.json'), 'utf8')) as {
      config: { tls: boolean; tlsCa: string; rpcCompression: boolean };
    }[];
    expect([result.config.tls, result.config.rpcCompression]).toEqual([true, true]);
    expect(result.config.tlsCa).toMatch(/tls\/ca\.pem$/); // the local server's own certificate, trusted
    expect(stdout).toMatch(/^RESULT label=tree-insertTablet .*\bpoints=2500000\b/m);
    expect(stdout).toMatch(/^verify +OK/m);
    // the Java client's run, on a fresh server of the same kind: every write acknowledged and stored
    expect(stdout).toMatch(/^RESULT label=java .*\bfailed_ops=0\b.*\bverify=ok\b/m);
    expect(stdout).toMatch(/^ours\/Java TIME_RANGE: rows\/s [\d.]+x/m);
    // the results server reached as the run's: over TLS, in the compact protocol
    expect(stdout).toMatch(/^persisted \d+ records into root\.iotdb_bench_results at 127\.0\.0\.1:6771$/m);
    expect(stdout).toContain('killed datanode'); // a throwaway server: no ~10 s of IoTDB's own shutdown
    expect(await portOpen(BENCH_PORT)).toBe(false);
    expect([...jvmTemp()].filter((name) => !tempBefore.has(name))).toEqual([]);
  }, 360_000);
});
