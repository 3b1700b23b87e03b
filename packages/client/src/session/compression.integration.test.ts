import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { IoTDBError, Session, SessionPool, TableSession } from '../index.js';

/** RPC compression (Thrift compact protocol) against IoTDB started with RPC_COMPRESSION=1 (every node, ConfigNode too). */
const control = inject('iotdb').control;
const exec = promisify(execFile);
const dir = `${control?.dir}-compact`;
const port = 9867;

describe.skipIf(control === null)('RPC compression', () => {
  beforeAll(async () => {
    await exec('bash', [control!.script, 'start', dir], {
      timeout: 240_000,
      env: {
        ...process.env,
        PORT_OFFSET: '5000',
        RPC_PORT: String(port),
        DATANODES: '1',
        DN_HEAP: '1g',
        TLS: '0',
        RPC_COMPRESSION: '1',
      },
    });
  }, 240_000);
  afterAll(async () => {
    await exec('bash', [control!.script, 'kill', dir], { timeout: 120_000 }).catch(() => undefined);
  }, 120_000);

  it.each([true, false])('tablets, records and queries round-trip (fast path %s)', async (fast) => {
    const s = new Session({ port, rpcCompression: true, enableFastSerialization: fast, fetchSize: 100 });
    await s.open();
    try {
      const db = `root.it_compact_${fast ? 'fast' : 'plain'}`;
      await s.createDatabase(db);
      const n = 1_000;
      const ts = Array.from({ length: n }, (_, i) => i + 1);
      await s.insertTablet({
        deviceId: `${db}.d1`,
        measurements: ['i', 'd', 't', 'l'],
        dataTypes: ['INT32', 'DOUBLE', 'TEXT', 'INT64'],
        timestamps: ts,
        values: ts.map((t) => [t, t / 4, `v${t}`, 2n ** 60n + BigInt(t)]),
      });
      await s.insertTablets(
        [1, 2].map((k) => ({
          deviceId: `${db}.m${k}`,
          measurements: ['x'],
          dataTypes: ['FLOAT' as const],
          timestamps: [1, 2],
          values: [[k], [null]],
        })),
      );
      await s.insertRecords([
        {
          deviceId: `${db}.r`,
          timestamp: 5,
          measurements: ['b', 's'],
          dataTypes: ['BOOLEAN', 'STRING'],
          values: [true, 'é'],
        },
      ]);
      const c = await (await s.executeQueryStatement(`SELECT i, d, t, l FROM ${db}.d1`)).toColumnar();
      expect(c.rowCount).toBe(n);
      expect(c.values[3][n - 1]).toBe(2n ** 60n + BigInt(n));
      expect(c.values[2][0]).toBe('v1');
      const rows = [];
      for await (const r of await s.executeQueryStatement(`SELECT * FROM ${db}.r`)) rows.push(r.toObject());
      expect(rows).toEqual([{ Time: 5n, [`${db}.r.b`]: true, [`${db}.r.s`]: 'é' }]);
      expect(await s.checkTimeseriesExists(`${db}.m2.x`)).toBe(true);
      await s.deleteDatabase(db);
    } finally {
      await s.close();
    }
  });

  it('a table session and a pool speak it too', async () => {
    const pool = new SessionPool({ port, rpcCompression: true, maxSize: 2 });
    const t = new TableSession({ port, rpcCompression: true });
    try {
      await pool.executeNonQueryStatement('CREATE DATABASE root.it_compact_pool');
      await pool.insertTabletsParallel(
        [1, 2].map((k) => ({
          deviceId: `root.it_compact_pool.d${k}`,
          measurements: ['v'],
          dataTypes: ['INT32' as const],
          timestamps: [1],
          values: [[k]],
        })),
      );
      await t.open();
      await t.executeNonQueryStatement('CREATE DATABASE IF NOT EXISTS tcomp');
      await t.executeNonQueryStatement('USE tcomp');
      await t.insert({
        tableName: 't',
        columnNames: ['tag', 'v'],
        dataTypes: ['STRING', 'DOUBLE'],
        columnCategories: ['TAG', 'FIELD'],
        timestamps: [1, 2],
        values: [
          ['a', 1.5],
          ['b', 2.5],
        ],
      });
      const c = await (await t.executeQueryStatement('SELECT tag, v FROM t ORDER BY time')).toColumnar();
      expect(c.rowCount).toBe(2);
    } finally {
      await t.close();
      await pool.close();
    }
  });

  it('a client without compression at a compressing server fails with an IoTDBError within the connect timeout', async () => {
    const s = new Session({ port, connectTimeoutMs: 3_000, retry: { maxElapsedMs: 0 } });
    const t0 = performance.now();
    const e = await s.open().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBError);
    expect(performance.now() - t0).toBeLessThan(3_500);
  });
});
