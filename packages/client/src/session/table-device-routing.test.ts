import { IoTDBValidationError, type TSStatus, type TableTablet } from '@iotdb/fast-serializer';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeTransport } from '../transport/fake-transport.js';
import { TableSessionPool } from '../pool/session-pool.js';
import type { TableSessionOptions } from './options.js';
import { TableSession } from './table-session.js';

// A table session's SELECTs of one device go to the DataNode leading it, learnt from its writes, through a scripted
// fake cluster of A and B.

const A = '10.0.0.1:6667';
const B = '10.0.0.2:6667';
/** The node leading each device, by the time of its rows in these tests: d1 (time 1) and d3 (3) on B, d2 (2) on A. */
const LEADER: Record<string, string> = { '1': B, '2': A, '3': B };

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c().catch(() => undefined);
});

const redirectTo = (to: string): TSStatus => {
  const [ip, port] = to.split(':');
  return { code: 200, redirectNode: { ip, port: Number(port) } };
};

/**
 * Answers an insertTablet as IoTDB 2.0.1 answers a table's (probed): 200 when the node that answered leads every
 * row's device, else 400 with a sub-status per row, naming the leader of the rows led elsewhere. A USE moves the
 * session to its database.
 */
function cluster(): FakeTransport {
  return new FakeTransport((c) => {
    const use = /^use (\w+)/i.exec(String((c.args as { statement?: string }).statement));
    if (c.method === 'executeUpdateStatementV2' && use !== null)
      return { reply: { status: { code: 200 }, database: use[1] } };
    if (c.method !== 'insertTablet') return undefined;
    const times = (c.args as { timestamps: Buffer }).timestamps;
    const leaders = Array.from({ length: times.length / 8 }, (_, r) => LEADER[String(times.readBigInt64BE(r * 8))]);
    if (leaders.every((l) => l === c.node)) return { reply: { code: 200 } };
    return { reply: { code: 400, subStatus: leaders.map((l) => (l === c.node ? { code: 200 } : redirectTo(l))) } };
  });
}

function session(fake: FakeTransport, o: TableSessionOptions = {}): TableSession {
  const s = new TableSession({
    nodeUrls: [A, B],
    transport: fake,
    database: 'db',
    discoverNodes: false,
    retry: { maxElapsedMs: 0 },
    ...o,
  });
  closers.push(() => s.close());
  return s;
}

/** Rows of devices d1, d2, d3 (TAGs region and device_id, in this order or `reversed`), at times 1, 2, 3. */
const rows = (devices: number[], reversed = false): TableTablet => ({
  tableName: 'Sensors',
  columnNames: reversed ? ['device_id', 'region', 's0'] : ['Region', 'device_id', 's0'],
  dataTypes: ['STRING', 'STRING', 'DOUBLE'],
  columnCategories: ['TAG', 'TAG', 'FIELD'],
  timestamps: devices.map(BigInt),
  values: devices.map((d) => (reversed ? [`d${d}`, 'north', 1.5] : ['north', `d${d}`, 1.5])),
});

const select = (s: TableSession, sql: string) => s.executeQueryStatement(sql).then((ds) => ds.close());
const sqlNodes = (fake: FakeTransport) => fake.callsOf('executeQueryStatementV2').map((c) => c.node);

describe("a table session's SELECT of one device goes to the node that leads it", () => {
  it('learns the nodes from its writes, named or acknowledged, and keys a device alike whatever the order of its TAGs', async () => {
    const fake = cluster();
    const s = session(fake);
    await s.open();
    await s.insert(rows([1, 2, 3]));
    expect(fake.callsOf('insertTablet').map((c) => c.node)).toEqual([A]); // nothing known yet: the default node
    await vi.waitFor(async () => {
      fake.calls.length = 0;
      await select(s, "SELECT * FROM sensors WHERE device_id = 'd1' AND region = 'north'");
      expect(sqlNodes(fake)).toEqual([B]); // B's session open
    });
    fake.calls.length = 0;
    for (let i = 0; i < 3; i++) {
      await select(s, "SELECT s0 FROM sensors WHERE region = 'north' AND device_id = 'd1' AND time > 0");
      await select(s, "select last(s0) from db.SENSORS where DEVICE_ID='d2' and REGION='north';");
      await select(
        s,
        "SELECT count(s0) FROM sensors WHERE device_id = 'd3' AND region = 'north' AND (s0 > 1 OR s0 < 0)",
      );
    }
    // d2, acknowledged by A without a redirect, stays on A: it does not take turns
    expect(sqlNodes(fake)).toEqual([B, A, B, B, A, B, B, A, B]);
    const node = (device: string) => s.nodeOfDevice('SENSORS', { device_id: device, Region: 'north' });
    expect([node('d1'), node('d2'), node('d3'), node('d4')]).toEqual([B, A, B, undefined]);
    expect(s.nodeOfDevice('sensors', { device_id: 'd1' })).toBeUndefined(); // not every TAG: no device of it
    expect(() => s.nodeOfDevice('sensors', { device_id: 1 } as never)).toThrow(IoTDBValidationError);
    expect(() => s.nodeOfDevice(undefined as never, {})).toThrow(IoTDBValidationError);
    // a tablet naming the TAGs in another order keys its devices alike: d1's rows go straight to B
    fake.calls.length = 0;
    await s.insert(rows([1], true));
    expect(fake.callsOf('insertTablet').map((c) => c.node)).toEqual([B]);
  });

  it('learns the devices its first write acknowledged, when the reply names another node for other rows', async () => {
    const fake = cluster();
    const s = session(fake, { spreadQueries: false }); // nothing known, queries not spread: no node differs yet
    await s.open();
    await s.insert(rows([1, 2, 3]));
    const node = (device: string) => s.nodeOfDevice('sensors', { device_id: device, region: 'north' });
    expect([node('d1'), node('d2'), node('d3')]).toEqual([B, A, B]);
  });

  it('sends a SELECT that may read more than one device, or a table it did not write, as any other', async () => {
    const fake = cluster();
    const s = session(fake, { spreadQueries: false }); // a query not routed goes to A
    await s.open();
    await s.insert(rows([1, 2, 3]));
    const d1 = "SELECT * FROM sensors WHERE device_id = 'd1' AND region = 'north'";
    await vi.waitFor(async () => {
      fake.calls.length = 0;
      await select(s, d1);
      expect(sqlNodes(fake)).toEqual([B]);
    });
    fake.calls.length = 0;
    for (const sql of [
      "SELECT * FROM sensors WHERE device_id = 'd1'", // every device d1 of any region
      "SELECT * FROM sensors WHERE device_id = 'd1' AND region = 'north' OR s0 > 1",
      "SELECT * FROM sensors WHERE device_id IN ('d1') AND region = 'north'",
      "SELECT * FROM other WHERE device_id = 'd1' AND region = 'north'",
      "SELECT * FROM db2.sensors WHERE device_id = 'd1' AND region = 'north'",
      "SELECT * FROM sensors s JOIN sensors u ON s.time = u.time WHERE device_id = 'd1' AND region = 'north'",
    ])
      await select(s, sql);
    expect(sqlNodes(fake)).toEqual(Array(6).fill(A));
  });

  it("a device is known in its database: after USE, a table of the same name elsewhere is another's", async () => {
    const fake = cluster();
    const s = session(fake, { spreadQueries: false });
    await s.open();
    await s.insert(rows([1]));
    const d1 = "SELECT * FROM sensors WHERE device_id = 'd1' AND region = 'north'";
    await vi.waitFor(async () => {
      fake.calls.length = 0;
      await select(s, d1);
      expect(sqlNodes(fake)).toEqual([B]);
    });
    await s.executeNonQueryStatement('USE db2');
    fake.calls.length = 0;
    await select(s, d1); // db2.sensors: never written, its devices not known
    await select(s, "SELECT * FROM db.sensors WHERE device_id = 'd1' AND region = 'north'"); // another database
    expect(sqlNodes(fake)).toEqual([A, A]);
    await s.executeNonQueryStatement('USE db');
    fake.calls.length = 0;
    await vi.waitFor(async () => {
      await select(s, d1); // known still (B's session reopens: USE closed it)
      expect(sqlNodes(fake).at(-1)).toBe(B);
    });
  });

  it("a pool's sessions share what its writes taught: a device's SELECT goes to its node whichever session runs it", async () => {
    const fake = cluster();
    const pool = new TableSessionPool({
      nodeUrls: [A],
      transport: fake,
      database: 'db',
      spreadQueries: false,
      maxSize: 3,
    });
    closers.push(() => pool.close());
    await pool.insert(rows([1, 2, 3])); // one session writes
    const read = () =>
      pool
        .executeQueryStatement("SELECT * FROM sensors WHERE device_id = 'd3' AND region = 'north'")
        .then((ds) => ds.toColumnar());
    await vi.waitFor(async () => {
      fake.calls.length = 0;
      await Promise.all([read(), read(), read()]); // three sessions at once
      expect(sqlNodes(fake)).toEqual([B, B, B]);
    });
    expect(pool.stats().size).toBe(3);
  });

  it('with enableRedirection off, every SELECT goes as any other', async () => {
    const fake = cluster();
    const s = session(fake, { spreadQueries: false, enableRedirection: false });
    await s.open();
    await s.insert(rows([1]));
    for (let i = 0; i < 3; i++) await select(s, "SELECT * FROM sensors WHERE device_id = 'd1' AND region = 'north'");
    expect(sqlNodes(fake)).toEqual([A, A, A]);
    expect(s.stats().connects).toBe(1);
  });
});
