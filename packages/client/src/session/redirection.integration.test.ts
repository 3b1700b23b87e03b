import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { columnCells, type PreparedTablet, type TSStatus } from '@iotdb/fast-serializer';
import {
  Session,
  TableSession,
  type RecordInput,
  type SessionOptions,
  type TableTablet,
  type Tablet,
} from '../index.js';
import type { RpcConnection } from '../connection/rpc-connection.js';
import { spyRpc } from '../testing/rpc-spy.js';
import { useTreeDatabase } from '../testing/tree-database.js';

/**
 * Redirection needs regions on two DataNodes: a session that knows only the first node learns from
 * the redirects in write statuses which node leads each device, and then writes there directly.
 */
const { host, port, nodeUrls } = inject('iotdb');
const twoNodes = nodeUrls.length >= 2;
const FIRST = nodeUrls[0];
const DB = `root.it_redirect_${randomBytes(4).toString('hex')}`;
const DEVICES = 20;

let admin: Session;
if (twoNodes) useTreeDatabase({ host, port }, DB, (s) => (admin = s));

const opened: (Session | TableSession)[] = [];
async function openSession(o: SessionOptions = {}): Promise<Session> {
  const s = new Session({ nodeUrls: [FIRST], ...o });
  opened.push(s);
  await s.open();
  return s;
}

afterEach(async () => {
  vi.restoreAllMocks();
  for (const s of opened.splice(0)) await s.close().catch(() => undefined);
});

const key = (e: { ip?: string; host?: string; port: number }) => `${e.ip ?? e.host}:${e.port}`;

/** A sent request: the node it went to and the status that came back. */
interface Sent {
  endpoint: string;
  status: TSStatus;
}

/** The statuses of every call a spy recorded, with the endpoint each call went to. */
async function sentBy(spy: { mock: { calls: unknown[][]; results: { value: unknown }[] } }): Promise<Sent[]> {
  const statuses = await Promise.all(spy.mock.results.map((r) => r.value as Promise<TSStatus>));
  return spy.mock.calls.map((c, i) => ({ endpoint: (c[0] as RpcConnection).key, status: statuses[i] }));
}

/** A redirect that names another node than the one the request went to (a "miss"). */
function redirectsElsewhere(s: Sent): string[] {
  const out: string[] = [];
  if (s.status.redirectNode && key(s.status.redirectNode) !== s.endpoint) out.push(key(s.status.redirectNode));
  for (const sub of s.status.subStatus ?? [])
    if (sub.redirectNode && key(sub.redirectNode) !== s.endpoint) out.push(key(sub.redirectNode));
  return out;
}

const device = (prefix: string, d: number) => `${prefix}.d${String(d).padStart(2, '0')}`;
const tablet = (dev: string, t: number): Tablet => ({
  deviceId: dev,
  measurements: ['v'],
  dataTypes: ['INT64'],
  timestamps: [t],
  values: [[BigInt(t)]],
});

/** One insertTablet per device, one after another; returns device -> where it went and what came back. */
async function round(s: Session, prefix: string, t: number): Promise<Map<string, Sent>> {
  const spy = spyRpc('insertTablet');
  for (let d = 0; d < DEVICES; d++) await s.insertTablet(tablet(device(prefix, d), t));
  const sent = await sentBy(spy);
  const devices = spy.mock.calls.map((c) => (c[2] as PreparedTablet).prefixPath);
  spy.mockRestore();
  expect(devices).toHaveLength(DEVICES); // one request per tablet
  return new Map(devices.map((dev, i) => [dev, sent[i]]));
}

async function countPoints(pattern: string): Promise<number> {
  const ds = await admin.executeQueryStatement(`SELECT count(*) FROM ${pattern}`);
  let n = 0;
  for await (const r of ds) for (const v of r.values) n += Number(v ?? 0);
  return n;
}

/** Warms a fresh session up with one round; returns the node each device's region is led by. */
async function warmUp(s: Session, prefix: string): Promise<Map<string, string>> {
  const first = await round(s, prefix, 1);
  return new Map(
    [...first].map(([dev, sent]) => [dev, sent.status.redirectNode ? key(sent.status.redirectNode) : FIRST]),
  );
}

describe.skipIf(!twoNodes)('redirection, tree model (session knows only the first node)', () => {
  it('learns from the first round where each device lives and then writes each device straight to its node, with no redirect misses', async () => {
    const s = await openSession();
    const prefix = `${DB}.rounds`;
    const r1 = await round(s, prefix, 1);
    const r2 = await round(s, prefix, 2);
    const r3 = await round(s, prefix, 3);
    // round 1: everything goes to the only node the session knows; some devices are led by the other node
    expect(new Set([...r1.values()].map((x) => x.endpoint))).toEqual(new Set([FIRST]));
    const elsewhere = [...r1].filter(([, x]) => redirectsElsewhere(x).length > 0);
    expect(elsewhere.length).toBeGreaterThan(0);
    expect(elsewhere.length).toBeLessThan(DEVICES);
    for (const [, x] of elsewhere) expect(nodeUrls).toContain(key(x.status.redirectNode!));
    // round 2: each device goes where round 1 said
    for (const [dev, x] of r1) {
      const want = x.status.redirectNode ? key(x.status.redirectNode) : FIRST;
      expect(r2.get(dev)!.endpoint, dev).toBe(want);
    }
    // rounds 2 and 3: no misses, the same node for each device, both nodes used
    for (const [dev, x] of r2) {
      expect(redirectsElsewhere(x), `round 2 ${dev}`).toEqual([]);
      expect(redirectsElsewhere(r3.get(dev)!), `round 3 ${dev}`).toEqual([]);
      expect(r3.get(dev)!.endpoint, `round 3 ${dev}`).toBe(x.endpoint);
    }
    expect(new Set([...r3.values()].map((x) => x.endpoint)).size).toBe(2);
    expect(await countPoints(`${prefix}.**`)).toBe(DEVICES * 3);
  });

  it('sends every request to the first node with enableRedirection: false', async () => {
    const s = await openSession({ enableRedirection: false });
    const prefix = `${DB}.noredirect`;
    const rounds = [await round(s, prefix, 1), await round(s, prefix, 2), await round(s, prefix, 3)];
    for (const r of rounds) expect(new Set([...r.values()].map((x) => x.endpoint))).toEqual(new Set([FIRST]));
    // the server still recommends the other node for some devices: the session ignores it
    expect([...rounds[2].values()].some((x) => redirectsElsewhere(x).length > 0)).toBe(true);
    expect(await countPoints(`${prefix}.**`)).toBe(DEVICES * 3);
  });

  it('splits insertTablets into one request per node once the routes are known, each with exactly its devices', async () => {
    const s = await openSession();
    const prefix = `${DB}.tablets`;
    const spy = spyRpc('insertTablets');
    const all = (t: number) => Array.from({ length: DEVICES }, (_, d) => tablet(device(prefix, d), t));
    // cold: one request to the first node, whose sub-statuses teach the routes
    await s.insertTablets(all(1));
    const cold = await sentBy(spy);
    expect(cold.map((x) => x.endpoint)).toEqual([FIRST]);
    const routes = new Map<string, string>();
    const coldDevices = (spy.mock.calls[0][2] as PreparedTablet[]).map((p) => p.prefixPath);
    coldDevices.forEach((dev, i) => {
      const sub = cold[0].status.subStatus?.[i];
      routes.set(dev, sub?.redirectNode ? key(sub.redirectNode) : FIRST);
    });
    expect(new Set(routes.values()).size).toBe(2);
    spy.mockClear();

    await s.insertTablets(all(2));
    const warm = await sentBy(spy);
    expect(warm).toHaveLength(2);
    expect(new Set(warm.map((x) => x.endpoint)).size).toBe(2);
    spy.mock.calls.forEach((c, i) => {
      const devices = (c[2] as PreparedTablet[]).map((p) => p.prefixPath);
      for (const dev of devices) expect(routes.get(dev), dev).toBe(warm[i].endpoint);
      expect(redirectsElsewhere(warm[i])).toEqual([]);
    });
    expect(spy.mock.calls.flatMap((c) => (c[2] as PreparedTablet[]).map((p) => p.prefixPath)).sort()).toEqual(
      coldDevices.slice().sort(),
    );
    expect(await countPoints(`${prefix}.**`)).toBe(DEVICES * 2);
  });

  it('splits insertTablets after insertTablet warm-up the same way (routes are shared by all write methods)', async () => {
    const s = await openSession();
    const prefix = `${DB}.mixed`;
    const routes = await warmUp(s, prefix);
    const spy = spyRpc('insertTablets');
    await s.insertTablets(Array.from({ length: DEVICES }, (_, d) => tablet(device(prefix, d), 2)));
    const sent = await sentBy(spy);
    expect(sent.map((x) => x.endpoint).sort()).toEqual([...new Set(routes.values())].sort());
    spy.mock.calls.forEach((c, i) => {
      for (const p of c[2] as PreparedTablet[]) expect(routes.get(p.prefixPath), p.prefixPath).toBe(sent[i].endpoint);
    });
    expect(await countPoints(`${prefix}.**`)).toBe(DEVICES * 2);
  });

  it('refuses a bad value in insertTablets split over both nodes whole: no part sent, nothing stored', async () => {
    const s = await openSession();
    const prefix = `${DB}.refused`;
    const routes = await warmUp(s, prefix);
    expect(new Set(routes.values()).size).toBe(2);
    const spy = spyRpc('insertTablets');
    const tablets = Array.from({ length: DEVICES }, (_, d) => tablet(device(prefix, d), 2));
    tablets[DEVICES - 1] = { ...tablets[DEVICES - 1], values: [['2']] };
    await expect(s.insertTablets(tablets)).rejects.toMatchObject({
      name: 'IoTDBValidationError',
      field: `tablets[${DEVICES - 1}].values[0][0] ("v")`,
    });
    expect(spy.mock.calls).toHaveLength(0);
    expect(await countPoints(`${prefix}.**`)).toBe(DEVICES); // the warm-up round only
  });

  it('routes insertRecords like insertTablets: one request per node after the first call', async () => {
    const s = await openSession();
    const prefix = `${DB}.records`;
    const spy = spyRpc('insertRecords');
    const records = (t: number): RecordInput[] =>
      Array.from({ length: DEVICES }, (_, d) => ({
        deviceId: device(prefix, d),
        timestamp: t,
        measurements: ['v'],
        dataTypes: ['INT64'],
        values: [BigInt(t)],
      }));
    await s.insertRecords(records(1));
    const cold = await sentBy(spy);
    expect(cold.map((x) => x.endpoint)).toEqual([FIRST]);
    const routes = new Map<string, string>();
    (spy.mock.calls[0][1] as { prefixPaths: readonly string[] }).prefixPaths.forEach((dev, i) => {
      const sub = cold[0].status.subStatus?.[i];
      routes.set(dev, sub?.redirectNode ? key(sub.redirectNode) : FIRST);
    });
    expect(new Set(routes.values()).size).toBe(2);
    spy.mockClear();

    await s.insertRecords(records(2));
    await s.insertRecords(records(3));
    const warm = await sentBy(spy);
    expect(warm).toHaveLength(4);
    spy.mock.calls.forEach((c, i) => {
      for (const dev of (c[1] as { prefixPaths: readonly string[] }).prefixPaths)
        expect(routes.get(dev), dev).toBe(warm[i].endpoint);
      expect(redirectsElsewhere(warm[i])).toEqual([]);
    });
    expect(new Set(warm.slice(0, 2).map((x) => x.endpoint)).size).toBe(2);
    expect(await countPoints(`${prefix}.**`)).toBe(DEVICES * 3);
  });
});

describe.skipIf(!twoNodes)('redirection, table model', () => {
  const TDB = `it_redirect_t_${randomBytes(4).toString('hex')}`;
  let tadmin: TableSession;

  beforeAll(async () => {
    tadmin = new TableSession({ host, port });
    await tadmin.open();
    await tadmin.executeNonQueryStatement(`CREATE DATABASE ${TDB}`);
    await tadmin.executeNonQueryStatement(`CREATE TABLE ${TDB}.readings (device_id STRING TAG, v INT64 FIELD)`);
  });

  afterAll(async () => {
    try {
      await tadmin?.executeNonQueryStatement(`DROP DATABASE ${TDB}`);
    } finally {
      await tadmin?.close();
    }
  });

  const dev = (d: number) => `dev${String(d).padStart(2, '0')}`;
  /** `perDevice` rows per device, timestamps shuffled (not in time order); v = timestamp * 100 + device */
  function rows(t0: number, perDevice: number): { device: string; t: number; v: bigint }[] {
    const out = [];
    for (let k = 0; k < perDevice; k++)
      for (let d = 0; d < DEVICES; d++)
        out.push({ device: dev(d), t: t0 + ((k * 7 + d * 3) % (perDevice * 10)) * 10 + k, v: 0n });
    for (const r of out) r.v = BigInt(r.t) * 100n + BigInt(Number(r.device.slice(3)));
    return out;
  }
  const tableTablet = (rs: { device: string; t: number; v: bigint }[]): TableTablet => ({
    tableName: 'readings',
    columnNames: ['device_id', 'v'],
    columnCategories: ['TAG', 'FIELD'],
    dataTypes: ['STRING', 'INT64'],
    timestamps: rs.map((r) => r.t),
    values: rs.map((r) => [r.device, r.v]),
  });

  it('splits a multi-device table tablet by node after a warm-up insert, and every row reads back', async () => {
    const s = new TableSession({ nodeUrls: [FIRST], database: TDB });
    opened.push(s);
    await s.open();
    const spy = spyRpc('insertTablet');
    const warm = rows(1_000, 1);
    await s.insert(tableTablet(warm));
    const cold = await sentBy(spy);
    expect(cold.map((x) => x.endpoint)).toEqual([FIRST]);
    // the node of each device, from the per-row sub-statuses of the warm-up (rows are sent in time order)
    const p0 = spy.mock.calls[0][2] as PreparedTablet;
    const nodeOf = new Map<string, string>();
    const tags = columnCells(p0.columns[0]);
    for (let i = 0; i < p0.rows; i++) {
      const src = p0.order === null ? i : p0.order[i];
      const sub = cold[0].status.subStatus?.[i];
      nodeOf.set(String(tags[src]), sub?.redirectNode ? key(sub.redirectNode) : FIRST);
    }
    expect(nodeOf.size).toBe(DEVICES);
    expect(new Set(nodeOf.values()).size).toBe(2);
    spy.mockClear();

    const main = rows(100_000, 3);
    await s.insert(tableTablet(main));
    const sent = await sentBy(spy);
    expect(sent).toHaveLength(2);
    expect(new Set(sent.map((x) => x.endpoint)).size).toBe(2);
    let total = 0;
    spy.mock.calls.forEach((c, i) => {
      const p = c[2] as PreparedTablet;
      const srcRows = p.order === null ? Array.from({ length: p.rows }, (_, r) => r) : [...p.order];
      const times = srcRows.map((r) => main[r].t);
      expect(times, 'each part still in time order').toEqual([...times].sort((a, b) => a - b));
      for (const r of srcRows) expect(nodeOf.get(main[r].device), main[r].device).toBe(sent[i].endpoint);
      expect(redirectsElsewhere(sent[i])).toEqual([]);
      total += p.rows;
    });
    expect(total).toBe(main.length);

    const ds = await s.executeQueryStatement('SELECT time, device_id, v FROM readings ORDER BY device_id, time');
    const got = [];
    for await (const r of ds) got.push(r.toObject());
    const want = [...warm, ...main]
      .map((r) => ({ time: BigInt(r.t), device_id: r.device, v: r.v }))
      .sort((a, b) => (a.device_id === b.device_id ? Number(a.time - b.time) : a.device_id < b.device_id ? -1 : 1));
    expect(got).toEqual(want);
  });
});
