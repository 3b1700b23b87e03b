import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { Session } from './index.js';

// The scripts in examples/ run as a user runs them (node, the built package), against the suite's server.

const { host, port } = inject('iotdb');
const exec = promisify(execFile);
const example = (name: string) => fileURLToPath(new URL(`../../../examples/${name}`, import.meta.url));
const DB = `root.it_examples_${randomBytes(3).toString('hex')}`;
let session: Session;

beforeAll(async () => {
  session = new Session({ host, port });
  await session.open();
});

afterAll(async () => {
  await session.executeNonQueryStatement(`DELETE DATABASE ${DB}`).catch(() => undefined);
  await session.close();
});

it('writer-csv.mjs streams the sample CSV through the batching writer: every row stored, none failed', async () => {
  const { stdout } = await exec(process.execPath, [example('writer-csv.mjs')], {
    env: { ...process.env, IOTDB_HOST: host, IOTDB_PORT: String(port), IOTDB_DEMO_DB: DB },
    timeout: 60_000,
  });
  const stats = JSON.parse(stdout.trim().split('\n').pop()!);
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
