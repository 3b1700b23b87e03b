import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import type { Session } from '../session/session.js';
import { useTreeDatabase } from '../testing/tree-database.js';

const { host, port } = inject('iotdb');
const exec = promisify(execFile);
const DB = 'root.codegen';
const DEVICE = `${DB}.d1`;
const SQL = `SELECT b, i, l, f, d, t, dt FROM ${DEVICE}`;

/**
 * In a child node given `flags`, through the built client: writes WRITTEN's rows through a writer (rows of one
 * shape: its compiled put when code generation is allowed) to a device of its own, then reads SQL's and that
 * device's rows; every row's values as JSON.
 */
async function rowsInChild(flags: string[], device: string): Promise<{ read: unknown[]; written: unknown[] }> {
  const client = new URL('../../dist/index.js', import.meta.url).href;
  const script = `
    import { Session } from ${JSON.stringify(client)};
    const s = new Session({ host: ${JSON.stringify(host)}, port: ${port} });
    await s.open();
    const values = async (sql) => {
      const rows = [];
      for await (const row of await s.executeQueryStatement(sql)) rows.push(row.values);
      return rows;
    };
    const w = s.writer({ types: { f: 'FLOAT', i: 'INT32' } });
    for (let t = 1; t <= 50; t++)
      await w.write({ deviceId: ${JSON.stringify(device)}, timestamp: t, values: { f: t / 4, i: -t, l: BigInt(t) * 2n ** 40n, s: 'v' + t } });
    await w.close();
    const out = { read: await values(${JSON.stringify(SQL)}), written: await values('SELECT f, i, l, s FROM ${device}') };
    await s.close();
    let refused = false;
    try { new Function('return 1'); } catch { refused = true; }
    console.log(JSON.stringify({ refused, ...out }, (_, v) => (typeof v === 'bigint' ? v.toString() + 'n' : v)));`;
  const { stdout } = await exec(process.execPath, [...flags, '--input-type=module', '-e', script], { timeout: 60_000 });
  const { refused, ...out } = JSON.parse(stdout) as { refused: boolean; read: unknown[]; written: unknown[] };
  expect(refused).toBe(flags.length > 0);
  return out;
}

describe('where code generation from strings is refused', () => {
  let session: Session;
  useTreeDatabase({ host, port }, DB, (s) => (session = s));

  it('node --disallow-code-generation-from-strings writes through a writer and reads rows the same, by the general paths', async () => {
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
    const compiled = await rowsInChild([], `${DB}.w1`);
    expect(compiled.read).toHaveLength(3);
    expect(compiled.read[1]).toEqual([null, 7, '-9223372036854775808n', null, -0.25, null, null]);
    expect(compiled.written).toHaveLength(50);
    expect(compiled.written[49]).toEqual([12.5, -50, `${50n * 2n ** 40n}n`, 'v50']);
    const refused = await rowsInChild(['--disallow-code-generation-from-strings'], `${DB}.w2`);
    expect(refused).toEqual(compiled);
  });
});
