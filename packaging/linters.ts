import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { repoRoot } from './scratch-app.js';

const execFileAsync = promisify(execFile);

/** publint, strict (warnings count as errors) and down to suggestions, on an installed package: every message. */
export async function publintMessages(packageDir: string): Promise<string[]> {
  // pack: false: the installed folder holds exactly what was published
  const { messages, pkg } = await publint({ pkgDir: packageDir, pack: false, level: 'suggestion', strict: true });
  return messages.map((m) => `${m.type} ${m.code}: ${formatMessage(m, pkg, { color: false }) ?? ''}`);
}

export interface AttwReport {
  /** false when the package has no types at all (a command-line tool) */
  hasTypes: boolean;
  /** every problem, as "kind at entrypoint (resolution)" */
  problems: string[];
}

interface AttwJson {
  analysis: {
    types: false | { kind: string };
    problems?: { kind: string; entrypoint?: string; resolutionKind?: string }[];
  };
}

/** `attw <tarball>` (Are the Types Wrong?, its default "strict" profile: node10, node16 CJS and ESM, bundler). */
export async function attw(tarball: string): Promise<AttwReport> {
  const bin = join(repoRoot, 'node_modules', '.bin', 'attw');
  let stdout: string;
  try {
    ({ stdout } = await execFileAsync(bin, [tarball, '--format', 'json'], { encoding: 'utf8', maxBuffer: 64 << 20 }));
  } catch (e) {
    // exit code 1 when it found problems; the JSON report is on stdout all the same
    stdout = (e as { stdout?: string }).stdout ?? '';
    if (stdout === '') throw e;
  }
  const { analysis } = JSON.parse(stdout) as AttwJson;
  return {
    hasTypes: analysis.types !== false,
    problems: (analysis.problems ?? []).map(
      (p) => `${p.kind} at ${p.entrypoint ?? '?'}${p.resolutionKind ? ` (${p.resolutionKind})` : ''}`,
    ),
  };
}
