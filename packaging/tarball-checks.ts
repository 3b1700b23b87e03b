import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

/** Files every tarball carries besides its code. */
const REQUIRED_FILES = ['package.json', 'LICENSE', 'README.md'];

/** What must not ship: sources, tests, build info, declaration maps (they point at the unshipped sources). */
const FORBIDDEN: readonly [RegExp, string][] = [
  [/^src\//, 'a source file'],
  [/\.test\./, 'a test'],
  [/\.tsbuildinfo$/, 'TypeScript build info'],
  [/\.d\.c?ts\.map$/, 'a declaration map (it points at sources that are not shipped)'],
];

/** Problems with a tarball's file list: missing LICENSE/README/package.json, shipped sources, tests, build info. */
export function fileListProblems(files: readonly string[]): string[] {
  const missing = REQUIRED_FILES.filter((f) => !files.includes(f)).map((f) => `${f} is missing`);
  const forbidden = files.flatMap((f) => FORBIDDEN.filter(([re]) => re.test(f)).map(([, what]) => `${f}: ${what}`));
  return [...missing, ...forbidden];
}

/** Every file under `dir`, relative to it, node_modules left out. */
function walk(dir: string, root = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : walk(path, root);
    return [relative(root, path)];
  });
}

/** Source maps that do not carry their sources (the sources are not shipped, so the map must hold them). */
export function sourceMapProblems(packageDir: string): string[] {
  return walk(packageDir)
    .filter((f) => f.endsWith('.map'))
    .flatMap((f) => {
      const map = JSON.parse(readFileSync(join(packageDir, f), 'utf8')) as {
        sources: string[];
        sourcesContent?: (string | null)[];
      };
      const held = map.sourcesContent?.filter((s) => typeof s === 'string').length ?? 0;
      return held === map.sources.length ? [] : [`${f}: ${map.sources.length - held} source(s) without sourcesContent`];
    });
}

/**
 * Shipped files built from a source that is gone (renamed or deleted since): `tsc -b` never removes its old
 * output, so they would be published. `packageDir` is the workspace package the tarball was packed from.
 */
export function staleBuildOutput(packageDir: string, files: readonly string[]): string[] {
  return files
    .filter((f) => f.endsWith('.map') && !/\.d\.c?ts\.map$/.test(f))
    .flatMap((f) => {
      const mapPath = join(packageDir, f);
      const { sources } = JSON.parse(readFileSync(mapPath, 'utf8')) as { sources: string[] };
      const gone = sources.filter((s) => !existsSync(resolve(dirname(mapPath), s)));
      return gone.map((s) => `${f.slice(0, -'.map'.length)}: built from ${s}, which is gone (delete dist and build)`);
    });
}

// `from '…'`, `import('…')`, `require('…')` and bare `import '…'`
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

/** The package a bare specifier names ('@scope/name' or 'name'), or undefined for relative, `#` and builtins. */
function packageOf(specifier: string): string | undefined {
  if (/^[./#]/.test(specifier) || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return builtinModules.includes(name) ? undefined : name;
}

/** Packages the shipped JavaScript imports without declaring them in `dependencies` (or peer/optional). */
export function undeclaredImports(packageDir: string): string[] {
  const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    name: string;
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
    optionalDependencies?: Record<string, string>;
  };
  const declared = new Set([
    pkg.name,
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.peerDependencies ?? {}),
    ...Object.keys(pkg.optionalDependencies ?? {}),
  ]);
  return walk(packageDir)
    .filter((f) => /\.[cm]?js$/.test(f))
    .flatMap((f) => {
      const code = readFileSync(join(packageDir, f), 'utf8');
      return [...code.matchAll(SPECIFIER)]
        .map((m) => packageOf(m[1]))
        .filter((name): name is string => name !== undefined && !declared.has(name))
        .map((name) => `${f} imports ${name}`);
    });
}
