import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import type { Session } from './session.js';
import { useTreeDatabase } from '../testing/tree-database.js';

const { host, port } = inject('iotdb');
const exec = promisify(execFile);
const DB = 'root.rowmaker';
const DEVICE = `${DB}.d1`;
const SQL = `SELECT b, i, l, f, d, t, dt FROM ${DEVICE}`;

/** Reads SQL's rows through the built client in a child node given `flags`; every row's values as JSON. */
async function rowsInChild(flags: string[]): Promise<unknown[]> {
  const client = new URL('../../dist/index.js', import.meta.url).href;
  const script = `
    import { Session } from ${JSON.stringify(client)};
    const s = new Session({ host: ${JSON.stringify(host)}, port: ${port} });
    await s.open();
    const rows = [];
    for await (const row of await s.executeQueryStatement(${JSON.stringify(SQL)})) rows.push(row.values);
    await s.close();
    let refused = false;
    try { new Function('return 1'); } catch { refused = true; }
    console.log(JSON.stringify({ refused, rows }, (_, v) => (typeof v === 'bigint' ? v.toString() + 'n' : v)));`;
  const { stdout } = await exec(process.execPath, [...flags, '--input-type=module', '-e', script], { timeout: 60_000 });
  const { refused, rows } = JSON.parse(stdout) as { refused: boolean; rows: unknown[] };
  expect(refused).toBe(flags.length > 0);
  return rows;
}

describe('rows where code generation from strings is refused', () => {
  let session: Session;
  useTreeDatabase({ host, port }, DB, (s) => (session = s));

  it('node --disallow-code-generation-from-strings reads the same rows, cell by cell', async () => {
    await session.insertTablet({
      deviceId: DEVICE,
      measurements: ['b', 'i', 'l', 'f', 'd', 't', 'dt'],
      dataTypes: ['BOOLEAN', 'INT32', 'INT64', 'FLOAT', 'DOUBLE', 'TEXT', 'DATE'],
      timestamps: [1, 2, 3],
      values: [
        [true, -7, 2n ** 62n + 1n, 1.5, Math.PI, 'a', new Date(Date.UTC(2024, 1, 29))],
        [null, 7, -(2n ** 63n), null, -0.25, null, null],
        [false, null, null, -3.25, null, 'ü€', new Date(Date.UTC(1970, 0, 1))],
      ],
    });
    const compiled = await rowsInChild([]);
    expect(compiled).toHaveLength(3);
    expect(compiled[1]).toEqual([null, 7, '-9223372036854775808n', null, -0.25, null, null]);
    expect(await rowsInChild(['--disallow-code-generation-from-strings'])).toEqual(compiled);
  });
});
