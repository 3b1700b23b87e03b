import { randomBytes } from 'node:crypto';
import type { TEndPoint } from '@iotdb/fast-serializer';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { Session } from '../index.js';
import type { RpcConnection } from '../connection/rpc-connection.js';
import { spyRpc } from '../testing/rpc-spy.js';
import { useTreeDatabase } from '../testing/tree-database.js';

/**
 * A device's queries sent to the DataNode leading its region, on a real cluster (the suite's has two): a session
 * that never wrote learns each device's node from a fast last query's reply (IoTDB answers it with a redirect
 * naming that node), and then its one-device queries (the structured ones and a tree SELECT) go there.
 */
const { host, port, nodeUrls } = inject('iotdb');
const twoNodes = nodeUrls.length >= 2;
const DB = `root.it_droute_${randomBytes(4).toString('hex')}`;
const DEVICES = Array.from({ length: 8 }, (_, d) => `${DB}.d${d}`);
const POINTS = 100;

let writer: Session | undefined;
if (twoNodes) useTreeDatabase({ host, port }, DB, (s) => (writer = s));

const opened: Session[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const s of opened.splice(0)) await s.close().catch(() => undefined);
});

const nodeOfCall = (c: unknown[]) => (c[0] as RpcConnection).key;
const key = (e: TEndPoint | undefined) => (e === undefined ? undefined : `${e.ip}:${e.port}`);

/** The rows of a result, each as { column: value }. */
async function rows(ds: Promise<AsyncIterable<{ toObject(): Record<string, unknown> }>>) {
  const out: Record<string, unknown>[] = [];
  for await (const row of await ds) out.push(row.toObject());
  return out;
}

describe.skipIf(!twoNodes)("a device's queries go to the node that leads its region, on a real cluster", () => {
  it('learns it from a fast last query and sends the one-device queries there, reading the same rows', async () => {
    for (const [d, device] of DEVICES.entries()) {
      await writer!.insertTablet({
        deviceId: device,
        measurements: ['v'],
        dataTypes: ['INT64'],
        timestamps: Array.from({ length: POINTS }, (_, i) => i + 1),
        values: Array.from({ length: POINTS }, (_, i) => [BigInt(d * 1000 + i)]),
      });
    }
    // spreadQueries off: a query not led to its device's node goes to the first node
    const s = new Session({ nodeUrls: [nodeUrls[0]], spreadQueries: false });
    opened.push(s);
    await s.open();
    for (const device of DEVICES) await s.executeLastDataQueryForOneDevice(DB, device, ['v']).then((ds) => ds.close());
    const leaders = new Map(DEVICES.map((d) => [d, s.nodeOf(d)]));
    for (const node of leaders.values()) expect(nodeUrls).toContain(node);
    await vi.waitFor(() => expect(s.stats().connects).toBe(new Set(leaders.values()).size), { timeout: 10_000 });

    const fastLast = spyRpc('executeFastLastDataQueryForOneDeviceV2');
    const others = [
      spyRpc('executeQueryStatementV2'),
      spyRpc('executeRawDataQueryV2'),
      spyRpc('executeLastDataQueryV2'),
      spyRpc('executeAggregationQueryV2'),
    ];
    for (const [d, device] of DEVICES.entries()) {
      const lastValue = String(d * 1000 + POINTS - 1);
      const last = await rows(s.executeLastDataQueryForOneDevice(DB, device, ['v']));
      expect(last.map((r) => String(r.Value))).toEqual([lastValue]);
      expect(await rows(s.executeRawDataQuery([`${device}.v`], 0, POINTS + 1))).toHaveLength(POINTS);
      const lastOf = await rows(s.executeLastDataQuery([`${device}.v`]));
      expect(lastOf.map((r) => String(r.Value))).toEqual([lastValue]);
      const count = await rows(s.executeAggregationQuery([`${device}.v`], ['COUNT']));
      expect(count.map((r) => Object.values(r).map(String))).toEqual([[String(POINTS)]]);
      expect(await rows(s.executeQueryStatement(`SELECT v FROM ${device} WHERE time > ${POINTS / 2}`))).toHaveLength(
        POINTS / 2,
      );
    }
    const calls = [fastLast, ...others].map((spy) => spy.mock.calls.map(nodeOfCall));
    for (const sent of calls) expect(sent).toEqual(DEVICES.map((d) => leaders.get(d)));
    // each fast last query reached the node the server itself names for the device
    const replies = await Promise.all(
      fastLast.mock.results.map((r) => r.value as Promise<{ status: { redirectNode?: TEndPoint } }>),
    );
    replies.forEach((r, i) => {
      const named = key(r.status.redirectNode);
      if (named !== undefined) expect(named).toBe(nodeOfCall(fastLast.mock.calls[i]));
    });
  });
});
