import { randomBytes } from 'node:crypto';
import type { TSStatus } from '@iotdb/fast-serializer';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { TableSession } from '../index.js';
import { spyRpc } from '../testing/rpc-spy.js';

/**
 * A table session's SELECTs of one device sent to the DataNode leading it, on a real cluster (the suite's has two):
 * the session learns each device's node from the reply to its write (IoTDB names the leader of every row led
 * elsewhere), and its SELECTs of one device (all its TAGs set equal in the WHERE) then go there.
 */
const { host, port, nodeUrls } = inject('iotdb');
const twoNodes = nodeUrls.length >= 2;
const DB = `it_table_droute_${randomBytes(4).toString('hex')}`;
const DEVICES = 8;
const POINTS = 50;

let admin: TableSession | undefined;
beforeAll(async () => {
  if (!twoNodes) return;
  admin = new TableSession({ host, port });
  await admin.open();
  await admin.executeNonQueryStatement(`CREATE DATABASE ${DB}`);
});
afterAll(async () => {
  await admin?.executeNonQueryStatement(`DROP DATABASE ${DB}`).catch(() => undefined);
  await admin?.close();
});

const opened: TableSession[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const s of opened.splice(0)) await s.close().catch(() => undefined);
});

describe.skipIf(!twoNodes)("a table session's SELECT of one device goes to its node, on a real cluster", () => {
  it('learns where its devices are from its write and sends their SELECTs there, reading the same rows', async () => {
    // spreadQueries off: a SELECT not sent to its device's node goes to the first node
    const s = new TableSession({ nodeUrls: [nodeUrls[0]], spreadQueries: false, database: DB });
    opened.push(s);
    await s.open();
    const writes = spyRpc('insertTablet');
    // device d's rows at times d x POINTS + 1 ...: the rows in time order are the devices' in turn
    const times = Array.from({ length: DEVICES * POINTS }, (_, r) => r + 1);
    await s.insert({
      tableName: 'readings',
      columnNames: ['device_id', 'region', 'v'],
      dataTypes: ['STRING', 'STRING', 'INT64'],
      columnCategories: ['TAG', 'TAG', 'FIELD'],
      timestamps: times,
      values: times.map((t, r) => [`d${Math.floor(r / POINTS)}`, 'north', BigInt(t)]),
    });
    // the node leading each device, as the server answered the write: a row led elsewhere names its node
    const status = (await writes.mock.results[0].value) as TSStatus;
    const leaders = Array.from({ length: DEVICES }, (_, d) => {
      const named = status.subStatus?.[d * POINTS].redirectNode;
      return named === undefined ? nodeUrls[0] : `${named.ip}:${named.port}`;
    });
    for (const node of leaders) expect(nodeUrls).toContain(node);
    // the devices a reply named another node for are known by it; the others go to the default node (nodeUrls[0])
    const known = leaders.map((_, d) => s.nodeOfDevice('readings', { region: 'north', device_id: `d${d}` }));
    expect(known.map((node) => node ?? nodeUrls[0])).toEqual(leaders);
    const where = (d: number) => `WHERE region = 'north' AND device_id = 'd${d}'`;
    // a device's first SELECT opens its node's session in the background (no query waits on a connect)
    for (let d = 0; d < DEVICES; d++)
      await (await s.executeQueryStatement(`SELECT v FROM readings ${where(d)}`)).close();
    await vi.waitFor(() => expect(s.stats().connects).toBe(new Set(leaders).size), { timeout: 10_000 });

    const queries = spyRpc('executeQueryStatementV2');
    for (let d = 0; d < DEVICES; d++) {
      const ds = await s.executeQueryStatement(`SELECT v FROM readings ${where(d)} AND time > ${d * POINTS + 10}`);
      expect((await ds.toColumnar()).rowCount).toBe(POINTS - 10);
      const last = await s.executeQueryStatement(`SELECT last(v) AS v FROM readings ${where(d)}`);
      expect([...(await last.toColumnar()).values[0]]).toEqual([BigInt((d + 1) * POINTS)]);
    }
    const sentTo = queries.mock.calls.map((c) => c[0].key);
    expect(sentTo).toEqual(leaders.flatMap((l) => [l, l]));
  });
});
