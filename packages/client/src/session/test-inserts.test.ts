import { afterEach, describe, expect, it } from 'vitest';
import type { RecordInput, StringRecordInput, Tablet } from '@iotdb/fast-serializer';
import { IoTDBValidationError } from '@iotdb/fast-serializer';
import { FakeTransport } from '../transport/fake-transport.js';
import { Session } from './session.js';

// The Java Session's testInsert* calls: the requests of the inserts, through IoTDB's test RPCs (decoded and
// acknowledged, nothing stored), refused alike before anything is sent.

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c().catch(() => undefined);
});

async function session(fake: FakeTransport): Promise<Session> {
  const s = new Session({ nodeUrls: ['10.0.0.1:6667'], transport: fake });
  closers.push(() => s.close());
  await s.open();
  return s;
}

const record = (deviceId: string, timestamp: number, isAligned = false): RecordInput => ({
  deviceId,
  timestamp,
  measurements: ['n', 't'],
  dataTypes: ['INT64', 'TEXT'],
  values: [2n ** 60n + 1n, 'v'],
  isAligned,
});
const stringRecord = (deviceId: string, timestamp: number): StringRecordInput => ({
  deviceId,
  timestamp,
  measurements: ['a', 'b'],
  values: ['1.5', 'x'],
});
const tablet = (deviceId: string, isAligned = false): Tablet => ({
  deviceId,
  measurements: ['s'],
  dataTypes: ['INT32'],
  timestamps: [1, 2],
  columns: [[1, 2]],
  isAligned,
});

/** What the session sent, by method: the arguments but the session id. */
const sent = (fake: FakeTransport, method: Parameters<FakeTransport['callsOf']>[0]) =>
  fake.callsOf(method).map((c) => c.args);

describe('testInsert*: the inserts through the test RPCs', () => {
  it('testInsertRecord and testInsertStringRecord(s) send what insertRecord and insertStringRecord(s) send', async () => {
    const fake = new FakeTransport();
    const s = await session(fake);
    await s.insertRecord(record('root.sg.d', 1));
    await s.testInsertRecord(record('root.sg.d', 1));
    expect(sent(fake, 'testInsertRecord')).toEqual(sent(fake, 'insertRecord'));
    await s.insertStringRecord(stringRecord('root.sg.d', 2));
    await s.testInsertStringRecord(stringRecord('root.sg.d', 2));
    expect(sent(fake, 'testInsertStringRecord')).toEqual(sent(fake, 'insertStringRecord'));
    const rows = [stringRecord('root.sg.d', 3), stringRecord('root.sg.e', 4)];
    await s.insertStringRecords(rows);
    await s.testInsertStringRecords(rows);
    expect(sent(fake, 'testInsertStringRecords')).toEqual(sent(fake, 'insertStringRecords'));
    expect(sent(fake, 'testInsertRecord')).toHaveLength(1);
  });

  it('refuses what the inserts refuse, naming the item, and sends nothing', async () => {
    const fake = new FakeTransport();
    const s = await session(fake);
    const refused = async (call: Promise<void>, message: RegExp) => {
      const e = await call.catch((x: unknown) => x);
      expect(e).toBeInstanceOf(IoTDBValidationError);
      expect((e as Error).message).toMatch(message);
    };
    await refused(s.testInsertTablets([]), /tablets: needs at least one tablet/);
    await refused(s.testInsertRecords([]), /records: needs at least one record/);
    await refused(s.testInsertStringRecords([]), /records: needs at least one record/);
    await refused(s.testInsertTablets([tablet('root.sg.a'), { ...tablet('root.sg.b'), columns: [] }]), /tablets\[1\]/);
    await refused(s.testInsertTablets([tablet('root.sg.a'), tablet('root.sg.b', true)]), /isAligned/);
    await refused(s.testInsertRecords([record('root.sg.a', 1), record('root.sg.b', 1, true)]), /isAligned/);
    await refused(s.testInsertRecord({ ...record('root.sg.a', 1), values: [1.5, 'v'] }), /record\.values\[0\]/);
    expect(fake.calls.filter((c) => c.method.startsWith('testInsert'))).toEqual([]);
  });
});
