import type { TableTablet } from '@iotdb/fast-serializer';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeTransport } from '../transport/fake-transport.js';
import { TableSessionPool } from './session-pool.js';

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
