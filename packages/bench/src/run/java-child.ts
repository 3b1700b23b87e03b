import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunError } from './run-error.js';

/**
 * A file the Java client reads its work from (a plan, statements): `key=<path>` among its options. Its lines are
 * written as they come: a long run's plan has millions, more than to hold at once.
 */
interface JavaInput {
  key: string;
  lines: Iterable<string>;
}

/**
 * Runs one of the java/*.sh scripts with its key=value options and returns what it printed; its input, when given,
 * is written into a directory of its own first and removed after. A child that ended badly throws javaFailed's error.
 */
export function runJavaScript(script: string, args: readonly string[], input?: JavaInput): string {
  const dir = input === undefined ? null : mkdtempSync(join(tmpdir(), `iotdb-bench-${input.key}-`));
  const options = [...args];
  if (input !== undefined && dir !== null) {
    const path = join(dir, `${input.key}.txt`);
    writeLines(path, input.lines);
    options.push(`${input.key}=${path}`);
  }
  try {
    return execFileSync('bash', [script, ...options], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  } catch (e) {
    throw javaFailed(e);
  } finally {
    if (dir !== null) rmSync(dir, { recursive: true, force: true });
  }
}

/** `lines` into the file at `path`, a line each, a chunk of about 1 MB at a time. */
function writeLines(path: string, lines: Iterable<string>): void {
  const fd = openSync(path, 'w');
  try {
    let chunk: string[] = [];
    let size = 0;
    for (const line of lines) {
      chunk.push(line);
      size += line.length + 1;
      if (size < 1 << 20) continue;
      writeSync(fd, `${chunk.join('\n')}\n`);
      chunk = [];
      size = 0;
    }
    if (chunk.length > 0) writeSync(fd, `${chunk.join('\n')}\n`);
  } finally {
    closeSync(fd);
  }
}

/** A Java child ended by Ctrl-C: the command ends as an interrupted run does (exit status 130). */
export class JavaInterrupted extends RunError {}

/**
 * What a java/*.sh child that ended badly says, in one line: interrupted (Ctrl-C reaches the JVM too, as the
 * foreground process group's), or failed with its exit status and the first exception line it printed.
 */
export function javaFailed(e: unknown): RunError {
  const { status, signal, stdout } = e as { status?: number | null; signal?: string | null; stdout?: string };
  if (signal === 'SIGINT' || status === 130) return new JavaInterrupted('the Java client was interrupted (Ctrl-C)');
  const why = String(stdout ?? '')
    .split('\n')
    .find((l) => /Exception|Error/.test(l));
  return new RunError(
    `the Java client failed (exit ${status ?? `by ${signal ?? 'a signal'}`}): ${why?.trim() ?? 'it said no more'}`,
  );
}
