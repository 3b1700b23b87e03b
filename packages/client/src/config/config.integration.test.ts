import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { IoTDBServerError, Session, SessionPool, TableSession, TableSessionPool } from '../index.js';

/** Connection strings and IOTDB_* variables against the real server (its default root/root account). */
const server = inject('iotdb');
const hostPart = server.host.includes(':') ? `[${server.host}]` : server.host;

async function databasesSeenBy(session: Session | TableSession): Promise<number> {
  await session.open();
  try {
    const ds = await session.executeQueryStatement('SHOW DATABASES');
    let rows = 0;
    for await (const _ of ds) rows++;
    return rows;
  } finally {
    await session.close();
  }
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('configuration against a real server', () => {
  it('opens a session, a table session and both pools from a connection string', async () => {
    const url = `iotdb://root:root@${hostPart}:${server.port}/?fetchSize=2&enableRedirection=false`;
    expect(await databasesSeenBy(new Session(url))).toBeGreaterThanOrEqual(0);
    const db = `cfg_url_${process.pid}`;
    const admin = new TableSession(url);
    await admin.open();
    await admin.executeNonQueryStatement(`CREATE DATABASE IF NOT EXISTS ${db}`);
    await admin.close();
    const table = new TableSession(`iotdb://root:root@${hostPart}:${server.port}/${db}`);
    expect(table.database).toBe(db);
    await table.open();
    await table.executeNonQueryStatement('CREATE TABLE IF NOT EXISTS t (tag1 STRING TAG, v DOUBLE FIELD)');
    await table.close();
    const pool = new TableSessionPool(`iotdb://${hostPart}:${server.port}/${db}?maxSize=2`);
    expect(pool.maxSize).toBe(2);
    await pool.executeNonQueryStatement(`INSERT INTO t(time, tag1, v) VALUES (1, 'a', 1.5)`);
    await pool.executeNonQueryStatement(`DROP DATABASE ${db}`);
    await pool.close();
    const treePool = new SessionPool({ url: `iotdb://${hostPart}:${server.port}`, maxSize: 1 });
    await treePool.executeNonQueryStatement('FLUSH');
    await treePool.close();
  });

  it('opens a session from IOTDB_HOST, IOTDB_PORT, IOTDB_USER and IOTDB_PASSWORD alone', async () => {
    vi.stubEnv('IOTDB_HOST', server.host);
    vi.stubEnv('IOTDB_PORT', String(server.port));
    vi.stubEnv('IOTDB_USER', 'root');
    vi.stubEnv('IOTDB_PASSWORD', 'root');
    vi.stubEnv('IOTDB_NODE_URLS', undefined);
    expect(await databasesSeenBy(new Session())).toBeGreaterThanOrEqual(0);
    vi.stubEnv('IOTDB_NODE_URLS', server.nodeUrls.join(','));
    vi.stubEnv('IOTDB_HOST', 'unused.invalid');
    expect(await databasesSeenBy(new TableSession())).toBeGreaterThanOrEqual(0);
  });

  it('uses the password of the environment: a wrong one is refused by the server', async () => {
    vi.stubEnv('IOTDB_PASSWORD', 'not-the-password');
    const s = new Session({ host: server.host, port: server.port, retry: { maxElapsedMs: 0 } });
    await expect(s.open()).rejects.toBeInstanceOf(IoTDBServerError);
    await s.close();
  });
});
