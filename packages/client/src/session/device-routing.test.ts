import { TSDataType, type TSStatus, type Tablet } from '@iotdb/fast-serializer';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IoTDBConnectionError } from '../errors.js';
import { FakeTransport, type FakeScript } from '../transport/fake-transport.js';
import type { SessionOptions } from './options.js';
import { SessionPool } from '../pool/session-pool.js';
import { Session } from './session.js';

// Queries of one device go to the DataNode that leads its region (enableRedirection), through a scripted fake cluster.

const A = '10.0.0.1:6667';
const B = '10.0.0.2:6667';
const DEVICE = 'root.sg.d1';
const QUERIES = ['executeFastLastDataQueryForOneDeviceV2', 'executeRawDataQueryV2', 'executeLastDataQueryV2'];

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c().catch(() => undefined);
});

const redirectTo = (to: string): TSStatus => {
  const [ip, port] = to.split(':');
  return { code: 400, message: '', redirectNode: { ip, port: Number(port) } };
};

/** A result of one column and no rows; `status` as the server gives it (a fast last query names the data's node). */
const emptyResult = (status: TSStatus) => ({
  reply: { status, queryId: 1n, columns: ['s'], dataTypeList: ['INT64'], queryResult: [], moreData: false },
});

/**
 * A cluster of A and B where `leader` leads every device: the structured queries answer with no rows, a fast last
 * query and a write with a redirect to it when they reached the other node (as IoTDB 2.0.1 answers, probed).
 */
function cluster(leader = B, script: FakeScript = () => undefined): FakeTransport {
  return new FakeTransport((c) => {
    const scripted = script(c);
    if (scripted !== undefined) return scripted;
    const elsewhere = c.node !== leader;
    if (QUERIES.includes(c.method) || c.method === 'executeAggregationQueryV2')
      return emptyResult(c.method.startsWith('executeFastLast') && elsewhere ? redirectTo(leader) : { code: 200 });
    if (c.method === 'insertTablet') return { reply: elsewhere ? redirectTo(leader) : { code: 200 } };
    return undefined;
  });
}

function session(fake: FakeTransport, o: SessionOptions = {}): Session {
  // spreadQueries off: a query not led to its device's node goes to A, so that the tests see which is which
  const s = new Session({ nodeUrls: [A], transport: fake, spreadQueries: false, retry: { maxElapsedMs: 0 }, ...o });
  closers.push(() => s.close());
  return s;
}

/** One point of DEVICE: a write the fake cluster redirects to the leader when it reaches the other node. */
const TABLET: Tablet = {
  deviceId: DEVICE,
  measurements: ['s'],
  dataTypes: [TSDataType.INT64],
  timestamps: [1],
  values: [[1n]],
};

const lastOfDevice = (s: Session, device = DEVICE) =>
  s.executeLastDataQueryForOneDevice('root.sg', device, ['s']).then((ds) => ds.close());

/** The node each call of the structured queries went to, in order. */
const queryNodes = (fake: FakeTransport) =>
  fake.calls.filter((c) => QUERIES.includes(c.method) || c.method === 'executeAggregationQueryV2').map((c) => c.node);

/** Queries until the session sends `device`'s queries to `node` over an open server session there. */
async function settle(s: Session, fake: FakeTransport, node: string, device = DEVICE): Promise<void> {
  await vi.waitFor(async () => {
    fake.calls.length = 0;
    await lastOfDevice(s, device);
    expect(queryNodes(fake)).toEqual([node]);
  });
  fake.calls.length = 0;
}

describe("a device's queries go to the node that leads its region", () => {
  it('learns the node from a fast last query (as the Java Session does) and sends the next ones there', async () => {
    const fake = cluster();
    const s = session(fake);
    await s.open();
    await lastOfDevice(s);
    expect(queryNodes(fake)).toEqual([A]); // nothing known yet: the default node, which names B
    expect(s.nodeOf(DEVICE)).toBe(B);
    await vi.waitFor(() => expect(s.stats().connects).toBe(2)); // B's session opened at once, in the background
    fake.calls.length = 0;
    for (let i = 0; i < 5; i++) await lastOfDevice(s);
    expect(queryNodes(fake)).toEqual([B, B, B, B, B]);
    // read to their end: nothing to release one by one (their ids go with B's statement, see StatementIds)
    expect(fake.callsOf('closeOperation')).toEqual([]);
  });

  it('takes the node that answers a fast last query without a redirect for the one leading the device', async () => {
    // IoTDB 2.0.1 names another node only when the data is elsewhere (probed): a spreading session keeps such a
    // device's fast last queries on the node that answered so, not taking turns
    const fake = cluster(A);
    const s = session(fake, { nodeUrls: [A, B], spreadQueries: true, discoverNodes: false });
    await s.open();
    await vi.waitFor(async () => {
      fake.calls.length = 0;
      await s.executeLastDataQuery(['root.sg.d2.s']).then((ds) => ds.close());
      expect(queryNodes(fake)).toEqual([B]); // B open, and A's turn next
    });
    fake.calls.length = 0;
    await lastOfDevice(s);
    expect(queryNodes(fake)).toEqual([A]); // answered without a redirect
    expect(s.nodeOf(DEVICE)).toBe(A);
    fake.calls.length = 0;
    for (let i = 0; i < 6; i++) await lastOfDevice(s);
    expect(queryNodes(fake)).toEqual(Array(6).fill(A));
    // a structured query's reply other than a fast last query's says nothing of where the data is
    await s.executeLastDataQuery(['root.sg.d3.s']).then((ds) => ds.close());
    expect(s.nodeOf('root.sg.d3')).toBeUndefined();
  });

  it("sends a structured query whose paths all name one device to that device's node, learnt from its writes", async () => {
    const fake = cluster();
    const s = session(fake);
    await s.open();
    await s.insertTablet(TABLET);
    await s.insertTablet(TABLET); // the second write goes to B: B's session is open
    fake.calls.length = 0;
    await s.executeRawDataQuery([`${DEVICE}.s`, `${DEVICE}.t`], 0, 10).then((ds) => ds.close());
    await s.executeLastDataQuery([`${DEVICE}.s`]).then((ds) => ds.close());
    await s.executeAggregationQuery([`${DEVICE}.s`], ['COUNT']).then((ds) => ds.close());
    expect(queryNodes(fake)).toEqual([B, B, B]);
    // paths of two devices, or a wildcard: the device is not one, the query goes as any other
    fake.calls.length = 0;
    await s.executeRawDataQuery([`${DEVICE}.s`, 'root.sg.d2.s'], 0, 10).then((ds) => ds.close());
    await s.executeLastDataQuery([`${DEVICE}.*`]).then((ds) => ds.close());
    expect(queryNodes(fake)).toEqual([A, A]);
  });

  it("sends a tree SELECT of one device to that device's node; a SELECT that may read more goes as any other", async () => {
    const fake = cluster();
    const s = session(fake);
    await s.open();
    await lastOfDevice(s);
    await settle(s, fake, B);
    const sqlNodes = () => fake.callsOf('executeQueryStatementV2').map((c) => c.node);
    for (const sql of [
      `SELECT s FROM ${DEVICE} WHERE time >= 0 LIMIT 10`,
      `select last s from ${DEVICE}`,
      `SELECT count(s) FROM ${DEVICE} GROUP BY ([0, 100), 10ms)`,
    ])
      await s.executeQueryStatement(sql).then((ds) => ds.close());
    expect(sqlNodes()).toEqual([B, B, B]);
    fake.calls.length = 0;
    for (const sql of [`SELECT s FROM root.sg.*`, `SELECT d1.s FROM root.sg`, `SELECT s FROM ${DEVICE}, root.sg.d2`])
      await s.executeQueryStatement(sql).then((ds) => ds.close());
    expect(sqlNodes()).toEqual([A, A, A]);
    // the table dialect's FROM names a table, never a device
    fake.calls.length = 0;
    await s.executeNonQueryStatement('SET SQL_DIALECT=TABLE');
    await s.executeQueryStatement(`SELECT s FROM ${DEVICE}`).then((ds) => ds.close());
    expect(sqlNodes()).toEqual([A]);
  });

  it('takes the node that acknowledged a write without a redirect for the one leading its devices', async () => {
    // IoTDB 2.0.1 names another node in a write's status only when the device is led elsewhere (probed: insertTablet
    // 200 or 200 with redirectNode, insertTablets 200 alone or 400 with one sub-status per tablet)
    const fake = cluster(A, (c) =>
      c.method === 'insertTablets'
        ? { reply: c.node === A ? { code: 400, subStatus: [{ code: 200 }, redirectTo(B)] } : { code: 200 } }
        : undefined,
    );
    const s = session(fake, { nodeUrls: [A, B], spreadQueries: true, discoverNodes: false });
    await s.open();
    await s.insertTablet(TABLET);
    await s.insertTablets([
      { ...TABLET, deviceId: 'root.sg.d2' },
      { ...TABLET, deviceId: 'root.sg.d3' },
    ]);
    expect([s.nodeOf(DEVICE), s.nodeOf('root.sg.d2'), s.nodeOf('root.sg.d3')]).toEqual([A, A, B]);
    expect(s.stats().redirects).toBe(1); // only the redirect counts as one
    await vi.waitFor(async () => {
      await s.executeQueryStatement('SELECT s FROM root.sg.d3').then((ds) => ds.close());
      expect(s.stats().connects).toBe(2); // B open
    });
    fake.calls.length = 0;
    for (let i = 0; i < 3; i++)
      for (const d of [DEVICE, 'root.sg.d2', 'root.sg.d3'])
        await s.executeQueryStatement(`SELECT s FROM ${d}`).then((ds) => ds.close());
    expect(fake.callsOf('executeQueryStatementV2').map((c) => c.node)).toEqual([A, A, B, A, A, B, A, A, B]);
  });

  it('learns the devices a first write acknowledged when its reply names another node for the others', async () => {
    // queries not spread: until a reply names another node, a write's acknowledged devices teach nothing
    const fake = cluster(A, (c) =>
      c.method === 'insertTablets' ? { reply: { code: 400, subStatus: [{ code: 200 }, redirectTo(B)] } } : undefined,
    );
    const s = session(fake);
    await s.open();
    await s.insertTablets([
      { ...TABLET, deviceId: 'root.sg.d2' },
      { ...TABLET, deviceId: 'root.sg.d3' },
    ]);
    expect([s.nodeOf('root.sg.d2'), s.nodeOf('root.sg.d3')]).toEqual([A, B]);
  });

  it('learns nothing from the writes a lone node acknowledges: no query could go elsewhere', async () => {
    const fake = cluster(A);
    const s = session(fake); // one node, queries not spread
    await s.open();
    await s.insertTablets([TABLET, { ...TABLET, deviceId: 'root.sg.d2' }]);
    await s.insertTablet(TABLET);
    expect(s.nodeOf(DEVICE)).toBeUndefined();
    expect(s.stats().redirects).toBe(0);
    expect(fake.callsOf('insertTablet').map((c) => c.node)).toEqual([A]);
  });

  it("a pool's sessions share what the redirects taught: a device's queries go to its node whichever session runs them", async () => {
    const fake = cluster();
    const pool = new SessionPool({ nodeUrls: [A], transport: fake, spreadQueries: false, maxSize: 3 });
    closers.push(() => pool.close());
    await pool.insertTablet(TABLET); // one session (the device's, deviceBinding) learns B
    const read = () => pool.executeQueryStatement(`SELECT s FROM ${DEVICE}`).then((ds) => ds.toColumnar());
    await vi.waitFor(async () => {
      fake.calls.length = 0;
      await Promise.all([read(), read(), read()]); // three sessions at once
      expect(fake.callsOf('executeQueryStatementV2').map((c) => c.node)).toEqual([B, B, B]);
    });
    expect(pool.stats().size).toBe(3);
  });

  it('takes a backquoted node holding a dot as one node of the device', async () => {
    const device = 'root.sg.`d.1`';
    const fake = cluster();
    const s = session(fake);
    await s.open();
    await lastOfDevice(s, device);
    await settle(s, fake, B, device);
    await s.executeLastDataQuery([`${device}.s`]).then((ds) => ds.close());
    await s.executeLastDataQuery(['root.sg.`d.1.s`']).then((ds) => ds.close()); // device root.sg, not this one
    expect(queryNodes(fake)).toEqual([B, A]);
  });

  it("never holds a query up for its device's node: until that node's session is open, the query goes as any other", async () => {
    const fake = cluster();
    fake.setNode(B, 'blackhole');
    const s = session(fake, { connectTimeoutMs: 60_000 });
    await s.open();
    const started = performance.now();
    for (let i = 0; i < 5; i++) await lastOfDevice(s);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(queryNodes(fake)).toEqual([A, A, A, A, A]);
  });

  it("a query whose device's node drops the connection fails once (never sent twice); the device's queries go as any other", async () => {
    let drop = false;
    const fake = cluster(B, (c) =>
      drop && c.node === B && QUERIES.includes(c.method) ? { reset: true, resetAfter: 0 } : undefined,
    );
    const s = session(fake);
    await s.open();
    await lastOfDevice(s);
    await settle(s, fake, B);
    drop = true;
    await expect(lastOfDevice(s)).rejects.toBeInstanceOf(IoTDBConnectionError);
    expect(queryNodes(fake)).toEqual([B]); // not sent again
    expect(s.nodeOf(DEVICE)).toBeUndefined(); // B quarantined: its redirects forgotten, a redirect to it ignored
    fake.calls.length = 0;
    await lastOfDevice(s);
    await lastOfDevice(s);
    expect(queryNodes(fake)).toEqual([A, A]);
  });

  it('with enableRedirection off, every query goes as any other and nothing is learnt', async () => {
    const fake = cluster();
    const s = session(fake, { enableRedirection: false });
    await s.open();
    for (let i = 0; i < 3; i++) await lastOfDevice(s);
    expect(queryNodes(fake)).toEqual([A, A, A]);
    expect(s.nodeOf(DEVICE)).toBeUndefined();
    expect(s.stats().connects).toBe(1);
  });

  it('spreading sessions also send the queries of a known device to its node, and the others in turn', async () => {
    const fake = cluster();
    const s = session(fake, { nodeUrls: [A, B], spreadQueries: true, discoverNodes: false });
    await s.open();
    await lastOfDevice(s);
    await settle(s, fake, B);
    for (let i = 0; i < 4; i++) await lastOfDevice(s);
    for (let i = 0; i < 4; i++) await s.executeLastDataQuery(['root.sg.d2.s']).then((ds) => ds.close());
    expect(queryNodes(fake).slice(0, 4)).toEqual([B, B, B, B]);
    expect(new Set(queryNodes(fake).slice(4))).toEqual(new Set([A, B])); // turns
  });
});
