import { spawn, type ChildProcess } from 'node:child_process';
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
 * The java/*.sh children running, each the leader of its own process group (the script, its JVM, its grep), with
 * the signal passed on to it once one was (interruptJavaChildren).
 */
const running = new Map<ChildProcess, NodeJS.Signals | undefined>();

/**
 * Runs one of the java/*.sh scripts with its key=value options and resolves to what it printed (however much: a long
 * run's INTERVAL lines); its input, when given, is written into a directory of its own first and removed after. A
 * child that ended badly rejects with javaFailed's error. The child runs in a process group of its own, to which
 * Ctrl-C and SIGTERM are passed on (a signal sent to ours alone, by `kill` or a supervisor, ended ours and left the
 * JVM writing to the server; the event loop, blocked in a synchronous child, did not see Ctrl-C until it ended).
 */
export async function runJavaScript(script: string, args: readonly string[], input?: JavaInput): Promise<string> {
  const dir = input === undefined ? null : mkdtempSync(join(tmpdir(), `iotdb-bench-${input.key}-`));
  const options = [...args];
  if (input !== undefined && dir !== null) {
    const path = join(dir, `${input.key}.txt`);
    writeLines(path, input.lines);
    options.push(`${input.key}=${path}`);
  }
  try {
    return await scriptOutput(script, options);
  } finally {
    if (dir !== null) rmSync(dir, { recursive: true, force: true });
  }
}

/** What `bash script options` printed on stdout (stderr passed through), once it ended well. */
function scriptOutput(script: string, options: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [script, ...options], { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
    track(child);
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', (e) => {
      untrack(child);
      reject(new RunError(`the Java client could not start: ${e.message}`));
    });
    child.on('close', (status, signal) => {
      const passedOn = running.get(child);
      untrack(child);
      const stdout = Buffer.concat(chunks).toString('utf8');
      if (status === 0) resolve(stdout);
      else reject(javaFailed({ status, signal, stdout }, passedOn));
    });
  });
}

/**
 * While a Java child runs, Ctrl-C and SIGTERM are passed on to it (interruptJavaChildren), beside whatever else
 * listens (the run's own stop), and this process ending (a second Ctrl-C, an error) takes the child's group with it;
 * with none running, the signals do what they did before.
 */
function track(child: ChildProcess): void {
  running.set(child, undefined);
  if (running.size > 1) return;
  process.on('SIGINT', interruptJavaChildren);
  process.on('SIGTERM', interruptJavaChildren);
  process.on('exit', killJavaChildren);
}

function untrack(child: ChildProcess): void {
  if (!running.delete(child) || running.size > 0) return;
  process.off('SIGINT', interruptJavaChildren);
  process.off('SIGTERM', interruptJavaChildren);
  process.off('exit', killJavaChildren);
}

/**
 * Each running Java child's whole process group gets SIGINT, as a terminal's Ctrl-C would reach it (the JVM runs its
 * shutdown hooks and exits 130: JavaInterrupted), whichever signal reached ours (`received`: its error says which).
 */
export function interruptJavaChildren(received: NodeJS.Signals = 'SIGINT'): void {
  for (const child of running.keys()) {
    running.set(child, received);
    signalGroup(child, 'SIGINT');
  }
}

/** The group led by `child`, sent `signal`; nothing when it ended already. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    // ended between its close and this
  }
}

function killJavaChildren(): void {
  for (const child of running.keys()) signalGroup(child, 'SIGKILL');
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

/** A Java child ended by Ctrl-C or SIGTERM: the command ends as an interrupted run does (exit status 130). */
export class JavaInterrupted extends RunError {}

/** How a java/*.sh child ended: its exit status (null when a signal ended it), that signal, what it printed. */
interface JavaExit {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
}

/**
 * What a java/*.sh child that ended badly says, in one line: interrupted (a SIGINT: Ctrl-C or SIGTERM passed on by
 * interruptJavaChildren, `passedOn` which; the JVM exits 130 after its shutdown hooks), or failed with its exit status
 * and the first exception line it printed.
 */
function javaFailed({ status, signal, stdout }: JavaExit, passedOn: NodeJS.Signals | undefined): RunError {
  if (signal === 'SIGINT' || status === 130) {
    const by = passedOn === undefined || passedOn === 'SIGINT' ? 'Ctrl-C' : `${passedOn}, passed on to it`;
    return new JavaInterrupted(`the Java client was interrupted (${by})`);
  }
  const why = stdout.split('\n').find((l) => /Exception|Error/.test(l));
  return new RunError(
    `the Java client failed (exit ${status ?? `by ${signal ?? 'a signal'}`}): ${why?.trim() ?? 'it said no more'}`,
  );
}
