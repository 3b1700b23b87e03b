import { afterEach, describe, expect, it } from 'vitest';
import type { RecordInput, TSStatus } from '@iotdb/fast-serializer';
import { IoTDBBatchError } from '../errors.js';
import { IoTDBValidationError } from '@iotdb/fast-serializer';
import { FakeTransport, type FakeAction, type FakeScript } from '../transport/fake-transport.js';
import type { SessionOptions } from './options.js';
import { Session } from './session.js';

// insertRecords sent as insertTablets where the Java Session sends them so, through a scripted fake transport.

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c().catch(() => undefined);
});

async function session(fake: FakeTransport, o: SessionOptions = {}): Promise<Session> {
  const s = new Session({
    nodeUrls: ['10.0.0.1:6667'],
    transport: fake,
    retry: { initialDelayMs: 1, maxDelayMs: 5, maxElapsedMs: 2_000 },
    ...o,
  });
  closers.push(() => s.close());
  await s.open();
  return s;
}

const NAMES = ['t', 'n'];
/** `n` records a device, devices interleaved: a time each, an INT64 beyond 2^53 and a text. */
function records(devices: string[], n: number): RecordInput[] {
  return Array.from({ length: n * devices.length }, (_, i) => ({
    deviceId: devices[i % devices.length],
    timestamp: 1000 + Math.floor(i / devices.length),
    measurements: NAMES,
    dataTypes: ['INT64', 'TEXT'],
    values: [2n ** 60n + BigInt(i), `v${i}`],
  }));
}

/** the time of the record before this one of its device (records() gives a device one time per round) */
const timeBefore = (r: RecordInput) => (r.timestamp as number) - 1;

const status = (code: number, extra: Partial<TSStatus> = {}): FakeAction => ({
  reply: { code, message: `m${code}`, ...extra },
});

/** A script that answers `method` with `actions` in turn (then the default). */
function sequence(method: string, actions: FakeAction[]): FakeScript {
  let n = 0;
  return (c) => (c.method === method && n < actions.length ? actions[n++] : undefined);
}

describe('insertRecords of a few devices: one insertTablets request, as the Java Session sends them', () => {
  it('sends each device its tablet, rows in time order, when the records qualify (40 or more, devices at most half)', async () => {
    const fake = new FakeTransport();
    const s = await session(fake);
    await s.insertRecords(records(['root.sg.a', 'root.sg.b'], 25).reverse());
    expect(fake.callsOf('insertRecords')).toHaveLength(0);
    const [call] = fake.callsOf('insertTablets');
    expect(call.args.prefixPaths).toEqual(['root.sg.b', 'root.sg.a']);
    expect(call.args.measurementsList).toEqual([NAMES, NAMES]);
    expect(call.args.typesList).toEqual([
      [2, 5],
      [2, 5],
    ]);
    expect(call.args.sizeList).toEqual([25, 25]);
    const times = (call.args.timestampsList as Buffer[])[0].toString('hex');
    expect(times.slice(0, 32)).toBe(`${1000n.toString(16).padStart(16, '0')}${1001n.toString(16).padStart(16, '0')}`);
  });

  it('keeps records as records: fewer than 40, or recordsAsTablets: false', async () => {
    const fake = new FakeTransport();
    await (await session(fake)).insertRecords(records(['root.sg.a'], 39));
    await (await session(fake, { recordsAsTablets: false })).insertRecords(records(['root.sg.a'], 50));
    expect(fake.callsOf('insertTablets')).toHaveLength(0);
    expect(fake.callsOf('insertRecords').map((c) => (c.args as { prefixPaths: string[] }).prefixPaths.length)).toEqual([
      39, 50,
    ]);
  });

  it('sends the rows of insertRecordsOfOneDevice (40 or more) as the tablet of the device, aligned or not', async () => {
    const fake = new FakeTransport();
    const s = await session(fake);
    const rows = records(['root.sg.a'], 45).map(({ deviceId: _, ...row }) => row);
    await s.insertRecordsOfOneDevice('root.sg.a', rows);
    await s.insertAlignedRecordsOfOneDevice('root.sg.b', rows);
    await s.insertRecordsOfOneDevice('root.sg.c', rows.slice(0, 39));
    expect(fake.callsOf('insertTablets').map((c) => [c.args.prefixPaths, c.args.sizeList, c.args.isAligned])).toEqual([
      [['root.sg.a'], [45], false],
      [['root.sg.b'], [45], true],
    ]);
    expect(fake.callsOf('insertRecordsOfOneDevice')).toHaveLength(1);
  });

  it('refuses a key a record or a row does not have, as records or as tablets, and sends nothing', async () => {
    const fake = new FakeTransport();
    const s = await session(fake);
    const odd = (i: number, extra: object) => (r: RecordInput, k: number) => (k === i ? { ...r, ...extra } : r);
    for (const n of [10, 50]) {
      const e = await s
        .insertRecords(records(['root.sg.a'], n).map(odd(7, { aligned: true })))
        .catch((x: unknown) => x);
      expect((e as IoTDBValidationError).field).toBe('records[7].aligned');
      expect((e as IoTDBValidationError).message).toMatch(/did you mean isAligned\?/);
    }
    // a row's own device would be overridden by the call's
    const rows = records(['root.sg.a'], 45).map(({ deviceId: _, ...row }, k) =>
      k === 3 ? { ...row, deviceId: 'root.sg.b' } : row,
    );
    const e = await s.insertRecordsOfOneDevice('root.sg.a', rows).catch((x: unknown) => x);
    expect((e as IoTDBValidationError).field).toBe('rows[3].deviceId');
    expect([
      ...fake.callsOf('insertTablets'),
      ...fake.callsOf('insertRecords'),
      ...fake.callsOf('insertRecordsOfOneDevice'),
    ]).toHaveLength(0);
  });

  it('names an array given for one tablet or record, and one given where a list goes, and sends nothing', async () => {
    const fake = new FakeTransport();
    const s = await session(fake);
    const [r] = records(['root.sg.a'], 1);
    const t = {
      deviceId: 'root.sg.a',
      measurements: ['t'],
      dataTypes: ['INT64' as const],
      timestamps: [1],
      values: [[1n]],
    };
    await expect(s.insertTablet([t, t] as never)).rejects.toThrow(/^tablet: needs an object, got an array of 2$/);
    await expect(s.insertRecord([r] as never)).rejects.toThrow(/^record: needs an object, got an array of 1$/);
    await expect(s.insertRecords(r as never)).rejects.toThrow(/^records: needs an array of records, got /);
    await expect(s.insertTablets(t as never)).rejects.toThrow(/^tablets: needs an array of tablets, got /);
    await expect(s.insertRecords([])).rejects.toThrow(/^records: needs at least one record$/);
    expect(fake.calls.filter((c) => c.method.startsWith('insert'))).toHaveLength(0);
  });

  it('keeps records as records when a device has a time twice', async () => {
    const fake = new FakeTransport();
    const rs = records(['root.sg.a'], 50).map((r, i) => (i === 9 ? { ...r, timestamp: BigInt(timeBefore(r)) } : r));
    await (await session(fake)).insertRecords(rs);
    expect(fake.callsOf('insertTablets')).toHaveLength(0);
    expect(fake.callsOf('insertRecords')).toHaveLength(1);
  });

  it('names a refused cell by its record, as records do, and sends nothing', async () => {
    const fake = new FakeTransport();
    const s = await session(fake);
    const rs = records(['root.sg.a', 'root.sg.b'], 30).map((r, i) =>
      i === 17 ? { ...r, values: [2n ** 64n, 'x'] } : r,
    );
    const e = await s.insertRecords(rs).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBValidationError);
    expect((e as IoTDBValidationError).field).toBe('records[17].values[0] ("t")');
    expect([...fake.callsOf('insertTablets'), ...fake.callsOf('insertRecords')]).toHaveLength(0);
  });

  it('names a refused cell by its record and sends nothing when the devices live on two nodes', async () => {
    // the first node redirects device b to the second
    const fake = new FakeTransport((c) =>
      c.method === 'insertTablets' && c.node === '10.0.0.1:6667'
        ? status(400, { subStatus: [{ code: 200 }, { code: 200, redirectNode: { ip: '10.0.0.2', port: 6667 } }] })
        : undefined,
    );
    const s = await session(fake);
    await s.insertRecords(records(['root.sg.a', 'root.sg.b'], 30)); // learns b -> the second node
    const sent = fake.callsOf('insertTablets').length;
    const rs = records(['root.sg.a', 'root.sg.b'], 30).map((r, i) =>
      i === 17 ? { ...r, values: [2n ** 64n, 'x'] } : r,
    );
    const e = await s.insertRecords(rs).catch((x: unknown) => x);
    expect((e as IoTDBValidationError).field).toBe('records[17].values[0] ("t")');
    expect(fake.callsOf('insertTablets')).toHaveLength(sent);
    expect(fake.callsOf('insertRecords')).toHaveLength(0);
  });

  it("names a failed device's records by their index in the call, the others' as written", async () => {
    const fake = new FakeTransport(
      sequence('insertTablets', [status(302, { subStatus: [{ code: 200 }, { code: 507, message: 'type clash' }] })]),
    );
    const s = await session(fake);
    const rs = records(['root.sg.a', 'root.sg.b'], 20);
    const e = await s.insertRecords(rs).then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(IoTDBBatchError);
    const batch = e as IoTDBBatchError;
    const ofB = rs.flatMap((r, i) => (r.deviceId === 'root.sg.b' ? [i] : []));
    expect(batch.failures.map((f) => [f.index, f.statusCode, f.device])).toEqual(ofB.map((i) => [i, 507, 'root.sg.b']));
    expect(batch.succeeded).toEqual(rs.flatMap((r, i) => (r.deviceId === 'root.sg.a' ? [i] : [])));
  });

  it("counts a whole-call failure's items as the records, not their tablets", async () => {
    const fake = new FakeTransport(sequence('insertTablets', [status(507)]));
    const e = await (
      await session(fake)
    )
      .insertRecords(records(['root.sg.a', 'root.sg.b'], 30))
      .catch((x: unknown) => x);
    expect((e as Error).message).toBe('insertRecords (60 items): [507] m507');
  });

  it("sends again only the records of a device that failed for a transient reason, as that device's tablet", async () => {
    const fake = new FakeTransport(
      sequence('insertTablets', [status(302, { subStatus: [{ code: 200 }, { code: 600 }] })]),
    );
    await (await session(fake)).insertRecords(records(['root.sg.a', 'root.sg.b'], 40));
    expect(fake.callsOf('insertTablets').map((c) => [c.args.prefixPaths, c.args.sizeList])).toEqual([
      [
        ['root.sg.a', 'root.sg.b'],
        [40, 40],
      ],
      [['root.sg.b'], [40]],
    ]);
  });
});
