import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Session } from './index.js';

// Every script in examples/ runs as a user runs it (node, the built package through the workspace), against the
// suite's server, found through the IOTDB_HOST / IOTDB_PORT environment variables as the examples document.

const { host, port } = inject('iotdb');
const exec = promisify(execFile);
const examplesDir = fileURLToPath(new URL('../../../examples/', import.meta.url));
const examples = readdirSync(examplesDir)
  .filter((name) => name.endsWith('.mjs'))
  .sort();
const DB = `root.it_examples_${randomBytes(3).toString('hex')}`;

/** Runs one example; resolves with its stdout when it exits 0 within the time limit, else rejects. */
async function run(name: string, env: Record<string, string> = {}): Promise<string> {
  const { IOTDB_NODE_URLS: _ignored, ...inherited } = process.env; // the suite's server only
  const { stdout } = await exec(process.execPath, [examplesDir + name], {
    env: { ...inherited, IOTDB_HOST: host, IOTDB_PORT: String(port), ...env },
    timeout: 60_000,
  });
  return stdout;
}

describe('every example runs and exits 0', () => {
  it('finds the examples', () => {
    expect(examples).toContain('writer-csv.mjs');
    expect(examples.length).toBeGreaterThanOrEqual(8);
  });

  // writer-csv.mjs has its own test below, which checks what it stored
  it.each(examples.filter((name) => name !== 'writer-csv.mjs'))(
    '%s',
    async (name) => {
      const stdout = await run(name);
      expect(stdout.trim()).not.toBe('');
    },
    90_000,
  );
});

describe('writer-csv.mjs', () => {
  let session: Session;

  beforeAll(async () => {
    session = new Session({ host, port });
    await session.open();
  });

  afterAll(async () => {
    await session.executeNonQueryStatement(`DELETE DATABASE ${DB}`).catch(() => undefined);
    await session.close();
  });

  it('streams the sample CSV through the batching writer: every row stored, none failed', async () => {
    const stdout = await run('writer-csv.mjs', { IOTDB_DEMO_DB: DB });
    const stats: unknown = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(stats).toMatchObject({ written: 10, acknowledged: 10, failed: 0, rejected: 0, failedRows: [] });
    const ds = await session.executeQueryStatement(
      `SELECT count(temperature), count(humidity), count(status) FROM ${DB}.**`,
    );
    let cells = 0;
    for await (const r of ds) for (const v of r.values) cells += Number(v ?? 0);
    expect(cells).toBe(28); // 10 rows x 3 measurements, 2 empty cells
    const late = await session.executeQueryStatement(
      `SELECT status FROM ${DB}.north.s1 WHERE time = ${Date.parse('2026-11-23T08:00:02.000Z')}`,
    );
    const rows = [];
    for await (const r of late) rows.push(r.values[0]);
    expect(rows).toEqual(['late']);
  }, 90_000);
});
