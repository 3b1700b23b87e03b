import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collectEnvironment, gitCommit } from './environment.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A git repository of `files` (path: text), committed; `ignored` in its .gitignore. */
function repository(files: Record<string, string>, ignored: string[] = []): { dir: string; head: string } {
  const dir = mkdtempSync(join(tmpdir(), 'bench-git-'));
  dirs.push(dir);
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' });
  git('init', '-q');
  for (const [path, text] of Object.entries({ ...files, '.gitignore': ignored.join('\n') })) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  git('add', '-A');
  git('commit', '-qm', 'first');
  return { dir, head: git('rev-parse', 'HEAD').trim() };
}

describe('collectEnvironment', () => {
  it('describes this machine, the runtimes and the client, and no server when none was reached', async () => {
    const e = await collectEnvironment(undefined);
    expect(e.cores).toBeGreaterThan(0);
    expect(e.memoryGiB).toBeGreaterThan(0);
    expect(e.node).toBe(process.version);
    expect(e.client.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(e.client.gitCommit).toMatch(/^[0-9a-f]{40}(-dirty)?$/); // run from the repository's checkout
    expect(e.server).toBeNull();
  });

  it("names the commit of this project's checkout, -dirty when a tracked file changed since", () => {
    const { dir, head } = repository({ 'packages/bench/package.json': '{}', 'README.md': 'x' });
    expect(gitCommit(join(dir, 'packages/bench'))).toBe(head);
    writeFileSync(join(dir, 'README.md'), 'changed');
    expect(gitCommit(join(dir, 'packages/bench'))).toBe(`${head}-dirty`);
  });

  it("names no commit for a package installed in an application's repository (that commit is not the client's)", () => {
    const { dir } = repository({ 'app.js': '', 'package.json': '{}' }, ['node_modules']);
    const installed = join(dir, 'node_modules/@iotdb/bench');
    mkdirSync(installed, { recursive: true });
    writeFileSync(join(installed, 'package.json'), '{}');
    expect(gitCommit(installed)).toBeNull();
  });
});
