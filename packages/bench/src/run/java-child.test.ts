import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { JavaInterrupted, interruptJavaChildren, runJavaScript } from './java-child.js';

describe('runJavaScript', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  /** A stand-in for a java/*.sh script: `body` in a bash file. */
  function script(body: string): string {
    const dir = mkdtempSync(join(tmpdir(), 'java-child-test-'));
    dirs.push(dir);
    const path = join(dir, 'fake.sh');
    writeFileSync(path, body);
    chmodSync(path, 0o755);
    return path;
  }

  it('ended by Ctrl-C reaching it (killed by SIGINT, or the JVM exiting 130 after its shutdown hooks): interrupted', async () => {
    for (const body of ['kill -INT $$', 'exit 130']) {
      const failure = runJavaScript(script(body), []);
      await expect(failure).rejects.toBeInstanceOf(JavaInterrupted);
      await expect(failure).rejects.toThrow(/^the Java client was interrupted \(Ctrl-C\)$/);
    }
  });

  it('failed otherwise: its exit status or signal, and the first exception line it printed', async () => {
    const threw = 'echo setup: 100 devices; echo "Exception in thread main java.net.ConnectException: refused"; exit 3';
    const failure = runJavaScript(script(threw), []);
    await expect(failure).rejects.not.toBeInstanceOf(JavaInterrupted);
    await expect(failure).rejects.toThrow(
      /^the Java client failed \(exit 3\): Exception in thread main java.net.ConnectException: refused$/,
    );
    await expect(runJavaScript(script('kill -KILL $$'), [])).rejects.toThrow(
      /^the Java client failed \(exit by SIGKILL\): it said no more$/,
    );
  });

  it('passes the options and returns what the script printed', async () => {
    expect(await runJavaScript(script('echo "$@"'), ['host=h', 'port=1'])).toBe('host=h port=1\n');
  });

  it("returns what it printed however much (a long run's INTERVAL lines: more than a megabyte)", async () => {
    const out = await runJavaScript(script("head -c 3000000 /dev/zero | tr '\\0' x; echo"), []);
    expect(out).toHaveLength(3_000_001);
  });

  it('stops the script and every process of it when the run is interrupted (Ctrl-C or SIGTERM reached ours alone)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'java-child-stop-'));
    dirs.push(dir);
    // a JVM piped into grep, as java/bench.sh runs it: the "JVM" notes its pid, then runs on
    const running = runJavaScript(script(`sh -c 'echo $$ > ${dir}/jvm.pid; exec sleep 30' | cat`), []);
    const pidFile = join(dir, 'jvm.pid');
    while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === '') await sleep(20);
    const jvm = Number(readFileSync(pidFile, 'utf8'));
    // Ctrl-C and SIGTERM are passed on while it runs (a terminal's Ctrl-C reaches ours only: the child's group is
    // its own), and left as they were after
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      expect(process.listeners(signal)).toContain(interruptJavaChildren);
    const started = performance.now();
    interruptJavaChildren();
    await expect(running).rejects.toBeInstanceOf(JavaInterrupted);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(() => process.kill(jvm, 0)).toThrow(/ESRCH/); // nothing left running against the server
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      expect(process.listeners(signal)).not.toContain(interruptJavaChildren);
  });

  it('says which signal interrupted it: Ctrl-C, or a SIGTERM sent to ours and passed on', async () => {
    for (const [signal, said] of [
      ['SIGINT', 'Ctrl-C'],
      ['SIGTERM', 'SIGTERM, passed on to it'],
    ] as const) {
      const running = runJavaScript(script('echo started; exec sleep 30'), []);
      await sleep(200);
      interruptJavaChildren(signal);
      await expect(running).rejects.toThrow(`the Java client was interrupted (${said})`);
    }
  });

  it('writes the input into a file of its own, passes it as key=<path>, and removes it after', async () => {
    const out = await runJavaScript(
      script('for a; do case $a in plan=*) echo "${a#plan=}"; cat "${a#plan=}";; esac; done'),
      ['x=1'],
      {
        key: 'plan',
        lines: ['0 write 0 1,2', '1 query 0 TIME_RANGE'],
      },
    );
    const [path, ...content] = out.trimEnd().split('\n');
    expect(content).toEqual(['0 write 0 1,2', '1 query 0 TIME_RANGE']);
    expect(existsSync(path)).toBe(false);
  });

  it('writes input lines made as they are taken (a long plan), every one of them, across its chunks', async () => {
    function* lines() {
      for (let i = 0; i < 150_000; i++) yield `${i % 4} write ${i} 1,2,3`; // about 3 MB: three chunks
    }
    const out = await runJavaScript(
      script('for a; do case $a in plan=*) wc -l < "${a#plan=}"; sed -n "1p;\\$p" "${a#plan=}";; esac; done'),
      [],
      { key: 'plan', lines: lines() },
    );
    expect(out.trimEnd().split('\n')).toEqual(['150000', '0 write 0 1,2,3', '3 write 149999 1,2,3']);
  });

  it('removes the input when the script fails too, and throws what it said', async () => {
    const seen = join(mkdtempSync(join(tmpdir(), 'java-child-seen-')), 'path');
    dirs.push(join(seen, '..'));
    const failing = script(
      `for a; do case $a in file=*) echo "\${a#file=}" > ${seen};; esac; done; echo "Exception: no server"; exit 2`,
    );
    await expect(runJavaScript(failing, [], { key: 'file', lines: ['SELECT 1'] })).rejects.toThrow(
      'the Java client failed (exit 2): Exception: no server',
    );
    expect(existsSync(readFileSync(seen, 'utf8').trim())).toBe(false);
  });
});
