import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The workspace root. */
export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Every package that is published, by folder under packages/. */
export const PUBLIC_PACKAGES = ['fast-serializer', 'client', 'bench'] as const;
export type PublicPackage = (typeof PUBLIC_PACKAGES)[number];

/** One tarball made by `pnpm pack`: its path, its package's name and the files it holds. */
export interface Tarball {
  name: string;
  path: string;
  files: string[];
}

export interface RunResult {
  stdout: string;
  stderr: string;
}

const execFileAsync = promisify(execFile);

/**
 * Runs a command, failing with its output when it fails. `env` replaces the environment (see cleanEnv);
 * 16 MiB of output at most.
 */
export async function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<RunResult> {
  try {
    return await execFileAsync(command, args, {
      cwd: options.cwd,
      env: options.env ?? cleanEnv(),
      timeout: options.timeoutMs ?? 120_000,
      maxBuffer: 16 << 20,
      encoding: 'utf8',
    });
  } catch (e) {
    const failed = e as Error & { stdout?: string; stderr?: string };
    throw new Error(
      `${command} ${args.join(' ')} failed in ${options.cwd}: ${failed.message}\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`,
      { cause: e },
    );
  }
}

/**
 * The environment of a user's shell: without the npm_* and pnpm_* variables that `pnpm test` sets (pnpm's own
 * global config among them, which npm would read), but with the registry and its certificates.
 */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const keep = /^npm_config_(registry|cafile|https?_proxy|proxy|noproxy|cache)$/i;
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(npm|pnpm)_/i.test(key) || keep.test(key)),
  );
  return { ...env, ...extra };
}

/** `pnpm pack` of every public package (workspace:* ranges become versions) into `dir`. */
export async function packAll(dir: string): Promise<Record<PublicPackage, Tarball>> {
  const packed = {} as Record<PublicPackage, Tarball>;
  for (const pkg of PUBLIC_PACKAGES) {
    const { stdout } = await run('pnpm', ['pack', '--json', '--pack-destination', dir], {
      cwd: join(repoRoot, 'packages', pkg),
      env: process.env,
    });
    const report = JSON.parse(stdout) as { name: string; filename: string; files: { path: string }[] };
    packed[pkg] = { name: report.name, path: report.filename, files: report.files.map((f) => f.path) };
  }
  return packed;
}

/** The version range the workspace uses for a dev dependency, so the scratch app type-checks with the same. */
function workspaceRange(name: string): string {
  const root = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  const range = root.devDependencies[name];
  if (range === undefined) throw new Error(`no ${name} in the root package.json`);
  return range;
}

export interface ScratchApp {
  /** the app: packaging/app copied into the OS temp dir, the tarballs installed with npm */
  dir: string;
  tarballs: Record<PublicPackage, Tarball>;
  /** where the installed package lives: node_modules/<name> */
  installed(pkg: PublicPackage): string;
  remove(): void;
}

/**
 * Packs the public packages and installs the tarballs, with typescript and @types/node from the registry,
 * into a copy of packaging/app outside the workspace: what a user gets from `npm install`.
 */
export async function createScratchApp(): Promise<ScratchApp> {
  const root = mkdtempSync(join(tmpdir(), 'iotdb-packaging-'));
  const tarballs = await packAll(root);
  const dir = join(root, 'app');
  cpSync(join(repoRoot, 'packaging', 'app'), dir, { recursive: true });
  const specs = PUBLIC_PACKAGES.map((pkg) => tarballs[pkg].path);
  specs.push(`typescript@${workspaceRange('typescript')}`, `@types/node@${workspaceRange('@types/node')}`);
  await run('npm', ['install', '--no-audit', '--no-fund', ...specs], { cwd: dir, timeoutMs: 300_000 });
  return {
    dir,
    tarballs,
    installed: (pkg) => join(dir, 'node_modules', tarballs[pkg].name),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
