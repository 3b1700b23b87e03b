import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { Session, SessionPool, type SessionOptions } from '../index.js';
import type { RpcConnection } from '../connection/rpc-connection.js';
import { spyRpc } from '../testing/rpc-spy.js';
import { useTreeDatabase } from '../testing/tree-database.js';

/**
 * Queries taking turns on the DataNodes of a real cluster (the suite's has two): a session given only the first
 * node learns both from SHOW DATANODES and sends its queries to each in turn, each query's fetches and release to
 * the node that ran it, and reads the same rows from either.
 */
const { host, port, nodeUrls } = inject('iotdb');
const twoNodes = nodeUrls.length >= 2;
const FIRST = nodeUrls[0];
const DB = `root.it_qroute_${randomBytes(4).toString('hex')}`;
const DEVICES = 10;
const PER_DEVICE = 300;

if (twoNodes) {
  useTreeDatabase({ host, port }, DB, () => undefined);
}

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const s of opened.splice(0)) await s.close().catch(() => undefined);
});

async function openSession(o: SessionOptions = {}): Promise<Session> {
  const s = new Session({ nodeUrls: [FIRST], ...o });
  opened.push(s);
  await s.open();
  return s;
}

/** Sums v over every device's rows, read in fetches of 100 rows (many per query). */
async function readAll(s: Session | SessionPool): Promise<{ rows: number; sum: bigint }> {
  const ds = await s.executeQueryStatement(`SELECT v FROM ${DB}.** ALIGN BY DEVICE`, { fetchSize: 100 });
  let rows = 0;
  let sum = 0n;
  for await (const row of ds) {
    rows++;
    sum += row.values[1] as bigint;
  }
  return { rows, sum };
}

const nodeOf = (c: unknown[]) => (c[0] as RpcConnection).key;

describe.skipIf(!twoNodes)('queries across the DataNodes of a real cluster', () => {
  const rows = DEVICES * PER_DEVICE;
  const expected = { rows, sum: (BigInt(rows) * BigInt(rows + 1)) / 2n };

  it('learns every DataNode from the first and reads the same rows from each, fetches and release on the node that ran the query', async () => {
    const s = await openSession();
    await s.insertTablets(
      Array.from({ length: DEVICES }, (_, d) => ({
        deviceId: `${DB}.d${d}`,
        measurements: ['v'],
        dataTypes: ['INT64' as const],
        timestamps: Array.from({ length: PER_DEVICE }, (_, i) => i + 1),
        values: Array.from({ length: PER_DEVICE }, (_, i) => [BigInt(d * PER_DEVICE + i + 1)]),
      })),
    );
    expect(s.queryEndpoints).toEqual([FIRST]);
    await vi.waitFor(
      async () => {
        expect(await readAll(s)).toEqual(expected);
        expect([...s.queryEndpoints].sort()).toEqual([...nodeUrls].sort());
        expect(s.stats().connects).toBe(nodeUrls.length); // a server session open on each node
      },
      { timeout: 10_000, interval: 50 },
    );
    const queries = spyRpc('executeQueryStatementV2');
    const fetches = spyRpc('fetchResultsV2');
    const releases = spyRpc('closeOperation');
    for (let i = 0; i < 4 * nodeUrls.length; i++) expect(await readAll(s)).toEqual(expected);
    const perNode = (calls: unknown[][]) => nodeUrls.map((u) => calls.filter((c) => nodeOf(c) === u).length);
    expect(perNode(queries.mock.calls)).toEqual(nodeUrls.map(() => 4));
    expect(perNode(releases.mock.calls)).toEqual(nodeUrls.map(() => 0)); // read to their end: their statement's
    expect(Math.min(...perNode(fetches.mock.calls))).toBeGreaterThan(4 * 5); // many fetches on each node
    // each fetch went to the node that ran its query
    const replies = await Promise.all(queries.mock.results.map((r) => r.value as Promise<{ queryId: bigint }>));
    const ran = new Set(replies.map((r, i) => `${nodeOf(queries.mock.calls[i])} ${r.queryId}`));
    for (const c of fetches.mock.calls) expect(ran).toContain(`${nodeOf(c)} ${(c[1] as { queryId: bigint }).queryId}`);
  });

  it("a pool's sessions spread their queries too; with spreadQueries off every query goes to the first node", async () => {
    const pool = new SessionPool({ nodeUrls: [FIRST], maxSize: 2 });
    opened.push(pool);
    const off = await openSession({ spreadQueries: false });
    await vi.waitFor(
      async () => {
        await Promise.all([readAll(pool), readAll(pool)]);
        expect(pool.stats().connects).toBeGreaterThanOrEqual(3);
      },
      { timeout: 10_000, interval: 50 },
    );
    const queries = spyRpc('executeQueryStatementV2');
    for (let i = 0; i < 8; i++) expect(await readAll(pool)).toEqual(expected);
    expect(new Set(queries.mock.calls.map(nodeOf))).toEqual(new Set(nodeUrls));
    queries.mockClear();
    for (let i = 0; i < 4; i++) expect(await readAll(off)).toEqual(expected);
    expect(queries.mock.calls.map(nodeOf)).toEqual(Array(4).fill(FIRST));
    expect(off.queryEndpoints).toEqual([FIRST]);
  });
});
