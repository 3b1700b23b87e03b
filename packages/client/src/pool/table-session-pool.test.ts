import type { TableTablet } from '@iotdb/fast-serializer';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeTransport } from '../transport/fake-transport.js';
import { IoTDBBatchError } from '../errors.js';
import { SessionPool, TableSessionPool } from './session-pool.js';

// Which pooled session a table tablet is written through (deviceBinding), through a scripted fake server.

const A = '10.0.0.1:6667';
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c().catch(() => undefined);
});

/** A server whose inserts take 30 ms each. */
const slowInserts = () =>
  new FakeTransport((c) => (c.method === 'insertTablet' ? { delayMs: 30, then: { reply: { code: 200 } } } : undefined));

function pool(fake: FakeTransport): TableSessionPool {
  const p = new TableSessionPool({ nodeUrls: [A], transport: fake, database: 'db', maxSize: 4 });
  closers.push(() => p.close());
  return p;
}

/** A tablet of table `sensors`, one row of device `device` (TAGs region and device_id) at `time`. */
const tablet = (device: string, time = 1, columns = ['region', 'device_id', 's0']): TableTablet => ({
  tableName: 'sensors',
  columnNames: columns,
  dataTypes: columns.map((c) => (c === 's0' ? 'DOUBLE' : 'STRING')),
  columnCategories: columns.map((c) => (c === 's0' ? 'FIELD' : 'TAG')),
  timestamps: [time],
  values: [columns.map((c) => (c === 's0' ? time : c === 'region' ? 'north' : device))],
});

const insertConnections = (fake: FakeTransport) => fake.callsOf('insertTablet').map((c) => c.connection);

describe('TableSessionPool device binding', () => {
  it("writes one table's devices through several sessions at once", async () => {
    const fake = slowInserts();
    const p = pool(fake);
    const devices = Array.from({ length: 8 }, (_, d) => `d${d}`);
    await p.insertParallel(devices.map((d) => tablet(d)));
    // bound by device, not by table: the eight devices spread over the pool's sessions
    expect(new Set(insertConnections(fake)).size).toBeGreaterThan(1);
    expect(p.stats().size).toBeGreaterThan(1);
  });

  it("writes a device's tablets through one session, in the order they were given", async () => {
    const fake = slowInserts();
    const p = pool(fake);
    // the TAG columns in another order name the same device
    const reordered = tablet('d1', 2, ['device_id', 's0', 'region']);
    await Promise.all([p.insert(tablet('d1', 1)), p.insert(reordered), p.insert(tablet('d1', 3))]);
    expect(new Set(insertConnections(fake)).size).toBe(1);
    const times = fake
      .callsOf('insertTablet')
      .map((c) => (c.args as { timestamps: Buffer }).timestamps.readBigInt64BE(0));
    expect(times).toEqual([1n, 2n, 3n]);
  });
});

describe('parallel inserts that partly fail', () => {
  it("name each failed item's table (device) and, when the server refused it, its status code", async () => {
    let n = 0;
    const fake = new FakeTransport((c) =>
      c.method === 'insertTablet' && n++ === 1 ? { reply: { code: 507, message: 'type mismatch' } } : undefined,
    );
    const p = pool(fake);
    const bad = { ...tablet('d9'), tableName: 'other table' }; // refused before sending
    const e = await p.insertParallel([tablet('d0'), tablet('d1'), bad], { concurrency: 1 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBBatchError);
    const failures = (e as IoTDBBatchError).failures.map(({ index, device, statusCode }) => ({
      index,
      device,
      statusCode,
    }));
    expect(failures).toEqual([
      { index: 1, device: 'sensors', statusCode: 507 },
      { index: 2, device: 'other table', statusCode: undefined },
    ]);
  });

  it('a tree pool names the device', async () => {
    let n = 0;
    const fake = new FakeTransport((c) =>
      c.method === 'insertTablet' && n++ === 0 ? { reply: { code: 507, message: 'type mismatch' } } : undefined,
    );
    const p = new SessionPool({ nodeUrls: [A], transport: fake, maxSize: 2 });
    closers.push(() => p.close());
    const t = (d: string) => ({
      deviceId: d,
      measurements: ['v'],
      dataTypes: ['DOUBLE' as const],
      timestamps: [1],
      values: [[1]],
    });
    const e = await p
      .insertTabletsParallel([t('root.sg.d0'), t('root.sg.d1')], { concurrency: 1 })
      .catch((x: unknown) => x);
    expect((e as IoTDBBatchError).failures.map(({ device, statusCode }) => ({ device, statusCode }))).toEqual([
      { device: 'root.sg.d0', statusCode: 507 },
    ]);
  });
});
