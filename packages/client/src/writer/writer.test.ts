import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IoTDBValidationError, IoTDBWriteFailedError, IoTDBWriterClosedError } from '../errors.js';
import { Session } from '../session/session.js';
import { TableSession } from '../session/table-session.js';
import { SessionPool, TableSessionPool } from '../pool/session-pool.js';
import { sentTablets } from '../testing/sent-tablets.js';
import { textTableReply } from '../testing/text-table-reply.js';
import { FakeTransport, type FakeAction, type FakeScript } from '../transport/fake-transport.js';
import type { TableRow, TreeRow } from './rows.js';
import { Writer } from './writer.js';

// The batching writer driven through the scripted fake transport: what it sends, when, and what it reports.

const A = '10.0.0.1:6667';
const FAST = { initialDelayMs: 1, maxDelayMs: 5, maxElapsedMs: 1_000 };
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c().catch(() => undefined);
});

async function openSession(script?: FakeScript): Promise<{ fake: FakeTransport; s: Session }> {
  const fake = new FakeTransport(script);
  const s = new Session({ nodeUrls: [A], transport: fake, retry: FAST });
  closers.push(() => s.close());
  await s.open();
  return { fake, s };
}

async function openTableSession(script?: FakeScript): Promise<{ fake: FakeTransport; s: TableSession }> {
  const fake = new FakeTransport(script);
  const s = new TableSession({ nodeUrls: [A], transport: fake, retry: FAST, database: 'db' });
  closers.push(() => s.close());
  await s.open();
  return { fake, s };
}

const row = (d: number, t: number | bigint, values: Record<string, unknown> = { v: Number(t) * 1.5 }): TreeRow => ({
  deviceId: `root.sg.d${d}`,
  timestamp: t,
  values: values as TreeRow['values'],
});
const sent = (fake: FakeTransport) => fake.callsOf('insertTablets').flatMap((c) => sentTablets(c));
const until = async (cond: () => boolean) => {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(cond()).toBe(true);
};

describe('making a writer', () => {
  it('refuses new Writer(session) with a typed error naming the calls that make one, not a TypeError at the first write', () => {
    const fake = new FakeTransport();
    const session = new Session({ nodeUrls: [A], transport: fake });
    const made = () => new Writer(session as never, { model: 'tree' } as never, {} as never);
    expect(made).toThrow(IoTDBValidationError);
    expect(made).toThrow(/^Writer: made by session\.writer\(\) or pool\.writer\(\), not new Writer\(\)$/);
  });
});

describe('flush triggers', () => {
  it('sends when a device reaches maxRows, with every buffered device in the same insertTablets', async () => {
    const { fake, s } = await openSession();
    const w = s.writer({ maxRows: 3, flushIntervalMs: 0 });
    await w.write(row(1, 1));
    await w.write(row(2, 1));
    await w.write(row(1, 2));
    expect(fake.callsOf('insertTablets')).toHaveLength(0);
    await w.write(row(1, 3));
    await until(() => fake.callsOf('insertTablets').length === 1);
    expect(sent(fake).map((t) => [t.device, t.rows.length])).toEqual([
      ['root.sg.d1', 3],
      ['root.sg.d2', 1],
    ]);
    await w.close();
  });

  it('sends when maxBytes are buffered', async () => {
    const { fake, s } = await openSession();
    const w = s.writer({ maxBytes: 100, flushIntervalMs: 0 });
    for (let t = 1; t <= 6; t++) await w.write(row(1, t, { v: 1.5 })); // 16 bytes a row: the 7th reaches 112
    expect(fake.callsOf('insertTablets')).toHaveLength(0);
    await w.write(row(1, 7, { v: 1.5 }));
    await until(() => fake.callsOf('insertTablets').length === 1);
    expect(sent(fake)[0].rows).toHaveLength(7);
    await w.close();
  });

  it('sends flushIntervalMs after the first buffered row', async () => {
    const { fake, s } = await openSession();
    const w = s.writer({ flushIntervalMs: 30 });
    await w.write(row(1, 1));
    expect(fake.callsOf('insertTablets')).toHaveLength(0);
    await until(() => fake.callsOf('insertTablets').length === 1);
    expect(w.stats()).toMatchObject({ written: 1, acknowledged: 1, buffered: 0, inFlight: 0 });
    await w.close();
  });

  it('packs tablets into requests of at most maxRowsPerRequest rows', async () => {
    const { fake, s } = await openSession();
    const w = s.writer({ maxRows: 2, maxRowsPerRequest: 3, flushIntervalMs: 0 });
    for (const d of [1, 2, 3]) await w.write(row(d, 1));
    await w.flush();
    expect(fake.callsOf('insertTablets').map((c) => sentTablets(c).map((t) => t.device))).toEqual([
      ['root.sg.d1', 'root.sg.d2', 'root.sg.d3'],
    ]);
    for (const d of [1, 2, 3]) {
      await w.write(row(d, 2));
      await w.write(row(d, 3));
    }
    await w.flush();
    const sizes = fake
      .callsOf('insertTablets')
      .slice(1)
      .map((c) => sentTablets(c).reduce((n, t) => n + t.rows.length, 0));
    expect(sizes.every((n) => n <= 3)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(6);
  });
});

describe('what a flush sends', () => {
  it('sorts a device’s rows by time, each value with its row', async () => {
    const { fake, s } = await openSession();
    const w = s.writer();
    for (const t of [5, 1, 4, 2, 3]) await w.write(row(1, t, { v: t * 10 }));
    await w.flush();
    expect(sent(fake)[0].rows).toEqual([1, 2, 3, 4, 5].map((t) => ({ time: t, values: { v: t * 10 } })));
  });

  it('widens a device’s tablet for a new measurement: earlier rows are null there, missing cells too', async () => {
    const { fake, s } = await openSession();
    const w = s.writer();
    await w.write(row(1, 1, { a: 1 }));
    await w.write(row(1, 2, { a: 2, b: 'x' }));
    await w.write(row(1, 3, { b: 'y', c: true }));
    await w.write(row(1, 4, { a: null, c: false }));
    await w.flush();
    expect(sent(fake)[0].rows).toEqual([
      { time: 1, values: { a: 1 } },
      { time: 2, values: { a: 2, b: 'x' } },
      { time: 3, values: { b: 'y', c: true } },
      { time: 4, values: { c: false } },
    ]);
    expect(fake.callsOf('insertTablets')[0].args.typesList).toEqual([[4, 5, 0]]); // DOUBLE, TEXT, BOOLEAN inferred
  });

  it('uses declared types and keeps int64 beyond 2^53 exact', async () => {
    const { fake, s } = await openSession();
    const w = s.writer({ types: { f: 'FLOAT', i: 'INT32', l: 'INT64' } });
    await w.write(row(1, 1, { f: 1.5, i: 7, l: 5 }));
    await w.write(row(1, 2, { f: 2.5, i: 8, l: 2n ** 62n + 1n }));
    await w.write(row(1, 3n ** 30n, { l: -(2n ** 63n) }));
    await w.flush();
    const [t] = sent(fake);
    expect(fake.callsOf('insertTablets')[0].args.typesList).toEqual([[3, 1, 2]]);
    expect(t.rows.map((r) => r.values.l)).toEqual([5n, 2n ** 62n + 1n, -(2n ** 63n)]);
    expect(t.rows[2].time).toBe(Number(3n ** 30n));
  });

  it('converts Date timestamps with the server precision', async () => {
    const { fake, s } = await openSession();
    const w = s.writer();
    await w.write({ deviceId: 'root.sg.d1', timestamp: new Date(1_700_000_000_123), values: { v: 1 } });
    await w.flush();
    expect(sent(fake)[0].rows[0].time).toBe(1_700_000_000_123);
  });
});

describe('devices that went quiet', () => {
  it('keeps no buffer once closed: every row sent, its buffers go to the collector', async () => {
    const { s } = await openSession();
    const w = s.writer({ flushIntervalMs: 0 });
    await w.write(row(1, 1));
    await w.write(row(2, 1));
    expect(w.stats().bufferedDevices).toBe(2);
    await w.close();
    expect(w.stats()).toMatchObject({ bufferedDevices: 0, buffered: 0, written: 2, acknowledged: 2 });
  });

  it("forgets a device's buffer at the first flush after a minute without rows; one that comes back starts anew", async () => {
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => now);
    closers.push(async () => clock.mockRestore());
    const { fake, s } = await openSession();
    const w = s.writer({ flushIntervalMs: 0 });
    await w.write(row(1, 1));
    await w.write(row(2, 1));
    await w.flush();
    expect(w.stats().bufferedDevices).toBe(2);
    now = 30_000;
    await w.write(row(2, 2)); // d2 writes on, d1 is quiet
    await w.flush();
    expect(w.stats().bufferedDevices).toBe(2); // d1 quiet for 30 s: kept
    now = 60_001;
    await w.write(row(2, 3));
    await w.flush();
    expect(w.stats().bufferedDevices).toBe(1); // d1 quiet for over a minute: forgotten
    await w.write(row(1, 4, { v: 6, extra: 'x' }));
    await w.flush();
    expect(w.stats()).toMatchObject({ bufferedDevices: 2, written: 5, acknowledged: 5 });
    expect(sent(fake).filter((t) => t.device === 'root.sg.d1')).toEqual([
      { device: 'root.sg.d1', rows: [{ time: 1, values: { v: 1.5 } }] },
      { device: 'root.sg.d1', rows: [{ time: 4, values: { v: 6, extra: 'x' } }] },
    ]);
    await w.close();
  });
});

describe('bad rows', () => {
  it('rejects a value of another type for its row only, naming the cell', async () => {
    const { fake, s } = await openSession();
    const w = s.writer();
    await w.write(row(1, 1, { v: 1, n: 2 }));
    const bad = w.write(row(1, 2, { v: 3, n: 'two', extra: true }));
    await expect(bad).rejects.toThrow(IoTDBValidationError);
    await expect(bad).rejects.toThrow(/values\.n: DOUBLE needs a number, got string "two"/);
    await w.write(row(1, 3, { v: 4 }));
    await w.flush();
    // the bad row left nothing behind: no row 2, no `extra` column
    expect(sent(fake)[0].rows).toEqual([
      { time: 1, values: { v: 1, n: 2 } },
      { time: 3, values: { v: 4 } },
    ]);
    expect(w.stats()).toMatchObject({ written: 2, rejected: 1, acknowledged: 2, failed: 0 });
  });

  it('rejects a string UTF-8 cannot carry (a lone surrogate) for its row only, in a new column and a known one', async () => {
    const { fake, s } = await openSession();
    const w = s.writer();
    const lone = 'a\ud83d'; // half of an emoji: it would be stored as U+FFFD
    await expect(w.write(row(1, 1, { t: lone }))).rejects.toThrow(
      /values\.t: TEXT value is not well-formed Unicode: a lone surrogate \(U\+D83D\) at index 1/,
    );
    await w.write(row(1, 2, { t: 'ok', u: 'fine' }));
    await w.write(row(1, 3, { t: 'ok', u: 'fine' })); // the row shape compiled
    await expect(w.write(row(1, 4, { t: 'ok', u: lone }))).rejects.toThrow(/values\.u: TEXT value is not well-formed/);
    await w.write(row(1, 5, { t: '😀', u: 'x' })); // a whole pair is a character
    await w.flush();
    expect(sent(fake)[0].rows.map((r) => r.time)).toEqual([2, 3, 5]);
    expect(w.stats()).toMatchObject({ written: 3, rejected: 2, acknowledged: 3 });
  });

  it('rejects rows without a device, with a bad time, or without values', async () => {
    const { s } = await openSession();
    const w = s.writer();
    await expect(w.write({ deviceId: '', timestamp: 1, values: {} })).rejects.toThrow(/deviceId/);
    await expect(w.write({ deviceId: 'root.sg.d1', timestamp: 1.5, values: { v: 1 } })).rejects.toThrow(/timestamp/);
    await expect(w.write({ deviceId: 'root.sg.d1', timestamp: 2n ** 64n, values: { v: 1 } })).rejects.toThrow(
      /timestamp/,
    );
    await expect(w.write({ deviceId: 'root.sg.d1', timestamp: 1 } as TreeRow)).rejects.toThrow(/values/);
    await expect(w.write(row(1, 1, { v: {} }))).rejects.toThrow(/values\.v.*inferred/);
    expect(w.stats().rejected).toBe(5);
  });

  it('rejects a row with a key rows do not have, naming the nearest: attributes or a flag would be dropped unsaid', async () => {
    const { s } = await openSession();
    const w = s.writer();
    await expect(w.write({ ...row(1, 1), isAligned: true } as TreeRow)).rejects.toThrow(/^isAligned: unknown key/);
    const { s: t } = await openTableSession();
    const tw = t.writer();
    const typo = { table: 't', timestamp: 1, tags: { region: 'a' }, attribute: { model: 'x' }, fields: { v: 1 } };
    await expect(tw.write(typo as unknown as TableRow)).rejects.toThrow(
      /^attribute: unknown key \(did you mean attributes\?\)/,
    );
    expect(w.stats().rejected + tw.stats().rejected).toBe(2);
  });

  it('rejects a device outside root. at its row, as insertTablet does: the server answers 301, which writes retry', async () => {
    const { fake, s } = await openSession();
    const w = s.writer();
    await expect(w.write({ deviceId: 'sg.d1', timestamp: 1, values: { v: 1 } })).rejects.toThrow(
      /deviceId: needs a tree-model path under root\./,
    );
    await w.close();
    expect(fake.callsOf('insertTablets')).toHaveLength(0);
    expect(w.stats()).toMatchObject({ written: 0, rejected: 1 });
  });

  it('rejects a table name with whitespace, or timestamp, at its row: IoTDB would store its rows in another table', async () => {
    const { fake, s } = await openTableSession();
    const w = s.writer();
    const bad = w.write({ table: 'My Table', timestamp: 1, tags: { region: 'a' }, fields: { v: 1 } });
    await expect(bad).rejects.toThrow(IoTDBValidationError);
    await expect(bad).rejects.toThrow(/^table: .*whitespace.*"My Table"/);
    const elsewhere = w.write({ table: 'Timestamp', timestamp: 1, tags: { region: 'a' }, fields: { v: 1 } });
    await expect(elsewhere).rejects.toThrow(/^table: "Timestamp" is not a table name IoTDB keeps as given: /);
    await w.close();
    expect(fake.callsOf('insertTablet')).toHaveLength(0);
  });

  it('rejects a measurement or column IoTDB would refuse at its row (time, a-b): IoTDB refuses the request, the other rows with it', async () => {
    const { fake, s } = await openSession();
    const w = s.writer();
    await w.write(row(1, 1, { v: 1 }));
    const bad = w.write(row(1, 2, { v: 2, Time: 9 }));
    await expect(bad).rejects.toThrow(IoTDBValidationError);
    await expect(bad).rejects.toThrow(/^values\.Time: "Time" is not a legal name in IoTDB: time and timestamp/);
    await expect(w.write(row(1, 3, { v: 3, timestamp: 1 }))).rejects.toThrow(/^values\.timestamp: /);
    await expect(w.write(row(1, 3, { v: 3, 'a-b': 1 }))).rejects.toThrow(/^values\.a-b: "a-b" is not a legal name/);
    await w.write(row(1, 4, { v: 4 }));
    await w.flush();
    expect(sent(fake)[0].rows).toEqual([
      { time: 1, values: { v: 1 } },
      { time: 4, values: { v: 4 } },
    ]);
    expect(w.stats()).toMatchObject({ written: 2, rejected: 3, acknowledged: 2, failed: 0 });
    const { fake: tableFake, s: t } = await openTableSession();
    const tw = t.writer();
    const tableRow = tw.write({ table: 't1', timestamp: 1, tags: { region: 'a' }, fields: { TIME: 1 } });
    await expect(tableRow).rejects.toThrow(/^fields\.TIME: "TIME" is the table's time column/);
    await tw.close();
    expect(tableFake.callsOf('insertTablet')).toHaveLength(0);
  });

  it('rejects bad options when the writer is made', async () => {
    const { s } = await openSession();
    expect(() => s.writer({ maxRows: 0 })).toThrow(/maxRows/);
    expect(() => s.writer({ maxRows: 100, maxRowsPerRequest: 10 })).toThrow(/maxRowsPerRequest/);
    expect(() => s.writer({ types: { v: 'DOUBLES' as never } })).toThrow(/types\.v/);
    // an unknown option would be a setting silently not applied: devices written unaligned, flushes every second
    expect(() => s.writer({ isAligned: true } as never)).toThrow(
      /^isAligned: unknown option \(did you mean 'aligned'\?\)/,
    );
    expect(() => s.writer({ flushIntervalMS: 10 } as never)).toThrow(/did you mean 'flushIntervalMs'\?/);
    const { s: t } = await openTableSession();
    expect(() => t.writer({ aligned: true } as never)).toThrow(/^aligned: unknown option/);
    const w = s.writer();
    expect(() => w.stream({ highWatermark: 3 } as never)).toThrow(/did you mean 'highWaterMark'\?/);
    expect(() => w.stream({ highWaterMark: -1 })).toThrow(/^highWaterMark: /);
    expect(() => w.stream({ closeWriter: 'yes' as never })).toThrow(/^closeWriter: needs true or false/);
  });
});

describe('backpressure', () => {
  it('holds write() while maxBufferedRows rows are unacknowledged, then lets it go', async () => {
    const { s } = await openSession((c) =>
      c.method === 'insertTablets' ? { delayMs: 60, then: { reply: { code: 200 } } } : undefined,
    );
    const w = s.writer({ maxRows: 2, maxBufferedRows: 4, maxInFlight: 1, flushIntervalMs: 0 });
    for (let t = 1; t <= 3; t++) await w.write(row(1, t));
    let released = false;
    const fourth = w.write(row(1, 4)).then(() => (released = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(released).toBe(false);
    expect(w.stats()).toMatchObject({ written: 4, acknowledged: 0 });
    await fourth;
    expect(w.stats().acknowledged).toBeGreaterThanOrEqual(2);
    await w.close();
    expect(w.stats()).toMatchObject({ written: 4, acknowledged: 4, buffered: 0, inFlight: 0 });
  });

  it('never holds more than maxBufferedRows when the producer awaits write()', async () => {
    const { s } = await openSession((c) =>
      c.method === 'insertTablets' ? { delayMs: 5, then: { reply: { code: 200 } } } : undefined,
    );
    const w = s.writer({ maxRows: 10, maxBufferedRows: 25, maxInFlight: 1, flushIntervalMs: 0 });
    let peak = 0;
    for (let t = 1; t <= 200; t++) {
      await w.write(row(t % 3, t));
      const st = w.stats();
      peak = Math.max(peak, st.buffered + st.inFlight);
    }
    await w.close();
    expect(peak).toBeLessThanOrEqual(25);
    expect(w.stats()).toMatchObject({ written: 200, acknowledged: 200 });
  });
});

describe('failures', () => {
  const multi = (codes: number[]): FakeAction => ({
    reply: { code: 302, message: 'multiple', subStatus: codes.map((code) => ({ code, message: `m${code}` })) },
  });

  it('hands onError exactly the rows of the devices the server rejected, and counts them', async () => {
    let n = 0;
    const { s } = await openSession((c) =>
      c.method === 'insertTablets' && n++ === 0 ? multi([200, 507, 200]) : undefined,
    );
    const reported: { error: Error; rows: TreeRow[] }[] = [];
    const w = s.writer({ onError: (error, rows) => reported.push({ error, rows }) });
    for (const d of [1, 2, 3]) for (const t of [2, 1]) await w.write(row(d, t, { v: d }));
    await w.flush();
    expect(reported).toHaveLength(1);
    expect(reported[0].error.message).toMatch(/507/);
    expect(reported[0].rows).toEqual([
      { deviceId: 'root.sg.d2', timestamp: 2, values: { v: 2 } },
      { deviceId: 'root.sg.d2', timestamp: 1, values: { v: 2 } },
    ]);
    expect(w.stats()).toMatchObject({ written: 6, acknowledged: 4, failed: 2 });
  });

  it('sends each device again alone when the server refuses a multi-device request as a whole, and reports only the refused one', async () => {
    // IoTDB stores the good tablets of an insertTablets and answers with one status for the first bad one
    const { fake, s } = await openSession((c) => {
      const devices = (c.args as { prefixPaths?: string[] }).prefixPaths ?? [];
      return c.method === 'insertTablets' && devices.includes('root.sg.d2')
        ? { reply: { code: 507, message: 'type mismatch on d2' } }
        : undefined;
    });
    const reported: TreeRow[] = [];
    const w = s.writer({ onError: (_e, rows) => reported.push(...rows) });
    for (const d of [1, 2, 3]) await w.write(row(d, 1, { v: d }));
    await w.flush();
    expect(fake.callsOf('insertTablets').map((c) => c.args.prefixPaths)).toEqual([
      ['root.sg.d1', 'root.sg.d2', 'root.sg.d3'],
      ['root.sg.d1'],
      ['root.sg.d2'],
      ['root.sg.d3'],
    ]);
    expect(reported).toEqual([{ deviceId: 'root.sg.d2', timestamp: 1, values: { v: 2 } }]);
    expect(w.stats()).toMatchObject({ written: 3, acknowledged: 2, failed: 1 });
  });

  it('retries transient failures (a reset, a not-ready status) without reporting anything', async () => {
    const actions: FakeAction[] = [{ reset: true }, { reply: { code: 301, message: 'not ready' } }];
    const { fake, s } = await openSession((c) => (c.method === 'insertTablets' ? actions.shift() : undefined));
    const w = s.writer();
    await w.write(row(1, 1));
    await w.close();
    expect(fake.callsOf('insertTablets')).toHaveLength(3);
    expect(w.stats()).toMatchObject({ acknowledged: 1, failed: 0 });
  });

  it('without onError, flush() rejects with the failed row count, once', async () => {
    const { s } = await openSession((c) =>
      c.method === 'insertTablets' ? { reply: { code: 507, message: 'type mismatch' } } : undefined,
    );
    const w = s.writer();
    await w.write(row(1, 1));
    await w.write(row(2, 1));
    const e = await w.flush().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBWriteFailedError);
    expect(e).toMatchObject({ failedRows: 2, code: 'IOTDB_WRITE_FAILED' });
    await expect(w.flush()).resolves.toBeUndefined();
  });
});

describe('flush and close', () => {
  it('flush() resolves only once the rows written before it are acknowledged', async () => {
    const { s } = await openSession((c) =>
      c.method === 'insertTablets' ? { delayMs: 30, then: { reply: { code: 200 } } } : undefined,
    );
    const w = s.writer();
    await w.write(row(1, 1));
    await w.flush();
    expect(w.stats()).toMatchObject({ acknowledged: 1, inFlight: 0, buffered: 0 });
  });

  it('close() flushes, then refuses writes; a second close() is the same', async () => {
    const { fake, s } = await openSession();
    const w = s.writer();
    await w.write(row(1, 1));
    const closing = w.close();
    await expect(w.write(row(1, 2))).rejects.toThrow(IoTDBWriterClosedError);
    await closing;
    await w.close();
    expect(sent(fake)[0].rows).toHaveLength(1);
  });

  it('close() sends the rows written before it, the first write not awaited (the writer still starting)', async () => {
    const { fake, s } = await openSession();
    const w = s.writer();
    const writes = [w.write(row(1, 1)), w.write(row(2, 1)), w.write(row(1, 2))];
    await w.close();
    await expect(Promise.all(writes)).resolves.toBeDefined();
    expect(sent(fake).map((t) => [t.device, t.rows.length])).toEqual([
      ['root.sg.d1', 2],
      ['root.sg.d2', 1],
    ]);
    expect(w.stats()).toMatchObject({ written: 3, acknowledged: 3 });
  });

  it('a table writer too: rows written in the tick that made it are sent by close()', async () => {
    const { fake, s } = await openTableSession();
    const w = s.writer();
    const written = w.write({ table: 't', timestamp: 1, tags: { region: 'a' }, fields: { v: 1.5 } });
    await w.close();
    await written;
    expect(fake.callsOf('insertTablet')).toHaveLength(1);
  });

  it('await using closes it', async () => {
    const { fake, s } = await openSession();
    {
      await using w = s.writer();
      await w.write(row(1, 1));
    }
    expect(fake.callsOf('insertTablets')).toHaveLength(1);
  });

  it('a stream pipeline writes every row and ends after the flush', async () => {
    const { fake, s } = await openSession((c) =>
      c.method === 'insertTablets' ? { delayMs: 2, then: { reply: { code: 200 } } } : undefined,
    );
    const w = s.writer({ maxRows: 7, maxBufferedRows: 20, maxInFlight: 1 });
    const rows = Array.from({ length: 300 }, (_, i) => row(i % 4, i));
    await pipeline(Readable.from(rows), w.stream({ highWaterMark: 8 }));
    expect(w.stats()).toMatchObject({ written: 300, acknowledged: 300, buffered: 0 });
    expect(sent(fake).reduce((n, t) => n + t.rows.length, 0)).toBe(300);
  });
});

describe('a stream that fails', () => {
  const rows = (bad: number) => Array.from({ length: 10 }, (_, i) => row(1, i + 1, { v: i === bad ? 'oops' : i }));

  it('with closeWriter, sends the rows before the bad one and closes the writer before the pipeline rejects', async () => {
    const { fake, s } = await openSession();
    const w = s.writer({ flushIntervalMs: 0 });
    const piped = pipeline(Readable.from(rows(4)), w.stream({ closeWriter: true }));
    await expect(piped).rejects.toThrow(/values\.v: DOUBLE needs a number/);
    expect(sent(fake).reduce((n, t) => n + t.rows.length, 0)).toBe(4);
    expect(w.stats()).toMatchObject({ written: 4, acknowledged: 4, rejected: 1, buffered: 0 });
    await expect(w.write(row(1, 99))).rejects.toThrow(IoTDBWriterClosedError);
  });

  it('with closeWriter, fails with both errors when the server also refused the rows before the bad one', async () => {
    const { s } = await openSession((c) =>
      c.method === 'insertTablets' ? { reply: { code: 507, message: 'type mismatch' } } : undefined,
    );
    const w = s.writer({ flushIntervalMs: 0 });
    const e = await pipeline(Readable.from(rows(4)), w.stream({ closeWriter: true })).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AggregateError);
    const [own, closing] = (e as AggregateError).errors as unknown[];
    expect(own).toBeInstanceOf(IoTDBValidationError);
    expect(closing).toBeInstanceOf(IoTDBWriteFailedError);
    expect(closing).toMatchObject({ failedRows: 4 });
  });

  it('without closeWriter, leaves the rows before the bad one to the writer, still open', async () => {
    const { fake, s } = await openSession();
    const w = s.writer({ flushIntervalMs: 0 });
    await expect(pipeline(Readable.from(rows(4)), w.stream())).rejects.toThrow(/values\.v/);
    expect(w.stats()).toMatchObject({ written: 4, buffered: 4 });
    await w.close();
    expect(sent(fake).reduce((n, t) => n + t.rows.length, 0)).toBe(4);
  });
});

describe('pools and the table model', () => {
  it('a pool writer waits for the first connection and sends in parallel up to maxInFlight', async () => {
    let inFlight = 0;
    let peak = 0;
    const fake = new FakeTransport((c) => {
      if (c.method !== 'insertTablets') return undefined;
      peak = Math.max(peak, ++inFlight);
      setTimeout(() => inFlight--, 20);
      return { delayMs: 20, then: { reply: { code: 200 } } };
    });
    const pool = new SessionPool({ nodeUrls: [A], transport: fake, retry: FAST, maxSize: 3 });
    closers.push(() => pool.close());
    const w = pool.writer({ maxRows: 1, flushIntervalMs: 0 });
    for (let d = 0; d < 6; d++) await w.write(row(d, 1));
    await w.close();
    expect(peak).toBe(3);
    expect(w.stats()).toMatchObject({ written: 6, acknowledged: 6 });
  });

  it("a pool writer sends a device's next request once its last one is answered: its rows applied in the order written", async () => {
    // the first request is answered slowly: the second of the same device, on another session, would overtake it
    const answered: string[] = [];
    let n = 0;
    const fake = new FakeTransport((c) => {
      if (c.method !== 'insertTablets') return undefined;
      const devices = (c.args as { prefixPaths: string[] }).prefixPaths.join(',');
      const delayMs = n++ === 0 ? 60 : 1;
      setTimeout(() => answered.push(devices), delayMs);
      return { delayMs, then: { reply: { code: 200 } } };
    });
    const pool = new SessionPool({ nodeUrls: [A], transport: fake, retry: FAST, maxSize: 3 });
    closers.push(() => pool.close());
    const w = pool.writer({ maxRows: 1, flushIntervalMs: 0 });
    await w.write(row(1, 1, { v: 1 }));
    await w.write(row(1, 1, { v: 2 })); // the same point again: the later value must win
    await w.write(row(2, 1, { v: 3 })); // another device goes meanwhile
    await w.close();
    expect(answered).toEqual(['root.sg.d2', 'root.sg.d1', 'root.sg.d1']);
    expect(sent(fake).map((t) => [t.device, t.rows[0].values.v])).toEqual([
      ['root.sg.d1', 1],
      ['root.sg.d2', 3],
      ['root.sg.d1', 2],
    ]);
  });

  it('orders the requests of one device spelt with and without backquotes (one device to the server)', async () => {
    let n = 0;
    const events: string[] = [];
    const fake = new FakeTransport((c) => {
      if (c.method !== 'insertTablets') return undefined;
      const k = n++;
      events.push(`sent ${k}`);
      setTimeout(() => events.push(`answered ${k}`), k === 0 ? 60 : 1);
      return { delayMs: k === 0 ? 60 : 1, then: { reply: { code: 200 } } };
    });
    const pool = new SessionPool({ nodeUrls: [A], transport: fake, retry: FAST, maxSize: 3 });
    closers.push(() => pool.close());
    const w = pool.writer({ maxRows: 1, flushIntervalMs: 0 });
    await w.write({ deviceId: 'root.sg.d1', timestamp: 1, values: { v: 1 } });
    await w.write({ deviceId: 'root.sg.`d1`', timestamp: 1, values: { v: 2 } });
    await w.close();
    expect(events.indexOf('sent 1')).toBeGreaterThan(events.indexOf('answered 0'));
  });

  it('a request waiting for one of its devices holds back the later requests of its other devices too', async () => {
    let n = 0;
    const events: string[] = [];
    const fake = new FakeTransport((c) => {
      if (c.method !== 'insertTablets') return undefined;
      const devices = (c.args as { prefixPaths: string[] }).prefixPaths.map((d) => d.slice(-2)).join(',');
      const delayMs = n++ === 0 ? 60 : 1;
      events.push(`sent ${devices}`);
      setTimeout(() => events.push(`answered ${devices}`), delayMs);
      return { delayMs, then: { reply: { code: 200 } } };
    });
    const pool = new SessionPool({ nodeUrls: [A], transport: fake, retry: FAST, maxSize: 3 });
    closers.push(() => pool.close());
    const w = pool.writer({ maxRows: 2, flushIntervalMs: 0 });
    await w.write(row(1, 1));
    await w.write(row(1, 0)); // d1 in flight, answered slowly
    await w.write(row(2, 1));
    await w.write(row(1, 2));
    await w.write(row(1, 3)); // d1 and d2 in one request: waits for d1's
    await w.write(row(2, 4));
    await w.write(row(2, 5)); // d2 alone: must not go before the request above
    await w.close();
    expect(events.filter((e) => e.startsWith('sent'))).toEqual(['sent d1', 'sent d1,d2', 'sent d2']);
    expect(events.indexOf('sent d1,d2')).toBeGreaterThan(events.indexOf('answered d1'));
    expect(w.stats()).toMatchObject({ written: 7, acknowledged: 7 });
  });

  it("a table pool writer holds a device's next rows while its last are under way, not another device's", async () => {
    const inserts: string[][] = [];
    let n = 0;
    const fake = new FakeTransport((c) => {
      if (c.method !== 'insertTablet') return undefined;
      inserts.push(sentTablets(c)[0].rows.map((r) => String(r.values.site)));
      return { delayMs: n++ === 0 ? 60 : 1, then: { reply: { code: 200 } } };
    });
    const pool = new TableSessionPool({ nodeUrls: [A], transport: fake, retry: FAST, maxSize: 3, database: 'db' });
    closers.push(() => pool.close());
    const w = pool.writer({ maxRows: 1, flushIntervalMs: 0 });
    const at = (site: string, timestamp: number) => ({ table: 't', timestamp, tags: { site }, fields: { v: 1 } });
    await w.write(at('a', 1));
    await w.write(at('a', 2));
    await w.write(at('b', 3));
    await w.close();
    expect(inserts).toEqual([['a'], ['b'], ['a']]);
  });

  it("orders a table device's requests whatever the case of its table's name or the order of its tags", async () => {
    const inserts: string[] = [];
    let n = 0;
    const fake = new FakeTransport((c) => {
      if (c.method !== 'insertTablet') return undefined;
      const k = n++;
      inserts.push(`sent ${k}`);
      setTimeout(() => inserts.push(`answered ${k}`), k === 0 ? 60 : 1);
      return { delayMs: k === 0 ? 60 : 1, then: { reply: { code: 200 } } };
    });
    const pool = new TableSessionPool({ nodeUrls: [A], transport: fake, retry: FAST, maxSize: 3, database: 'db' });
    closers.push(() => pool.close());
    const w = pool.writer({ maxRows: 1, flushIntervalMs: 0 });
    await w.write({ table: 'Sensors', timestamp: 1, tags: { site: 'a', line: 'x' }, fields: { v: 1 } });
    // the same device: its tags in another order (another buffer's columns), and a third tag left null
    await w.write({ table: 'sensors', timestamp: 1, tags: { line: 'x', site: 'a', bay: null }, fields: { v: 2 } });
    await w.close();
    expect(inserts.indexOf('sent 1')).toBeGreaterThan(inserts.indexOf('answered 0'));
  });

  it('gives each device of a table tablet the attributes last written for it (IoTDB reads them from its last row)', async () => {
    const { fake, s } = await openTableSession();
    const w = s.writer();
    await w.write({ table: 't', timestamp: 1, tags: { site: 'a' }, attributes: { model: 'x' }, fields: { v: 1 } });
    await w.write({ table: 't', timestamp: 3, tags: { site: 'b' }, attributes: { model: 'y' }, fields: { v: 2 } });
    await w.write({ table: 't', timestamp: 2, tags: { site: 'a' }, fields: { v: 3 } });
    await w.write({ table: 't', timestamp: 0, tags: { site: 'a' }, attributes: { model: 'z' }, fields: { v: 4 } });
    await w.flush();
    const [t] = sentTablets(fake.callsOf('insertTablet')[0]);
    expect(t.rows.map((r) => [r.values.site, r.values.model])).toEqual([
      ['a', 'z'],
      ['a', 'z'],
      ['a', 'z'],
      ['b', 'y'],
    ]);
  });

  it('keeps apart the devices of an empty tag and a null one (two devices to IoTDB), each with its own attributes', async () => {
    const { fake, s } = await openTableSession();
    const w = s.writer();
    await w.write({
      table: 't',
      timestamp: 1,
      tags: { site: 'a', bay: '' },
      attributes: { model: 'e' },
      fields: { v: 1 },
    });
    await w.write({
      table: 't',
      timestamp: 2,
      tags: { site: 'a', bay: null },
      attributes: { model: 'n' },
      fields: { v: 2 },
    });
    await w.flush();
    const rows = fake.callsOf('insertTablet').flatMap((c) => sentTablets(c)[0].rows);
    expect(rows.map((r) => [r.values.bay ?? null, r.values.model]).sort()).toEqual([
      ['', 'e'],
      [null, 'n'],
    ]);
  });

  it("sends each device's rows with only the attributes written for it in the flush: IoTDB clears one a row sends as null", async () => {
    const { fake, s } = await openTableSession();
    const failed: unknown[] = [];
    const w = s.writer({ onError: (_e, rows) => failed.push(...rows) });
    await w.write({
      table: 't',
      timestamp: 1,
      tags: { site: 'a' },
      attributes: { model: 'x', fw: '1' },
      fields: { v: 1 },
    });
    await w.write({ table: 't', timestamp: 2, tags: { site: 'b' }, fields: { v: 2 } });
    await w.write({ table: 't', timestamp: 3, tags: { site: 'c' }, attributes: { fw: '2' }, fields: { v: 3 } });
    await w.write({ table: 't', timestamp: 4, tags: { site: 'a' }, fields: { v: 4 } });
    await w.write({ table: 't', timestamp: 0, tags: { site: 'b' }, fields: { v: 5 } });
    await w.flush();
    const inserts = fake.callsOf('insertTablet');
    const parts = inserts.map((c) => [(c.args as { measurements: string[] }).measurements, sentTablets(c)[0].rows]);
    // one insert per set of attributes written, in the order of their first row by time
    expect(parts).toEqual([
      [
        ['site', 'v'],
        [
          { time: 0, values: { site: 'b', v: 5 } },
          { time: 2, values: { site: 'b', v: 2 } },
        ],
      ],
      [
        ['site', 'model', 'fw', 'v'],
        [
          { time: 1, values: { site: 'a', model: 'x', fw: '1', v: 1 } },
          { time: 4, values: { site: 'a', model: 'x', fw: '1', v: 4 } },
        ],
      ],
      [['site', 'fw', 'v'], [{ time: 3, values: { site: 'c', fw: '2', v: 3 } }]],
    ]);
    expect(w.stats()).toMatchObject({ written: 5, acknowledged: 5, failed: 0 });
    expect(failed).toEqual([]);
  });

  it("reports exactly a part's rows when the server refuses it whole", async () => {
    const { s } = await openTableSession((c) =>
      c.method === 'insertTablet' && (c.args as { measurements: string[] }).measurements.length === 2
        ? { reply: { code: 507, message: 'bad' } }
        : undefined,
    );
    const failed: unknown[] = [];
    const w = s.writer({ onError: (_e, rows) => failed.push(...rows) });
    await w.write({ table: 't', timestamp: 2, tags: { site: 'a' }, attributes: { model: 'x' }, fields: { v: 1 } });
    await w.write({ table: 't', timestamp: 1, tags: { site: 'b' }, fields: { v: 2 } });
    await w.write({ table: 't', timestamp: 3, tags: { site: 'b' }, fields: { v: 3 } });
    await w.flush();
    expect(failed).toEqual([
      { table: 't', timestamp: 1, tags: { site: 'b' }, attributes: {}, fields: { v: 2 } },
      { table: 't', timestamp: 3, tags: { site: 'b' }, attributes: {}, fields: { v: 3 } },
    ]);
    expect(w.stats()).toMatchObject({ written: 3, acknowledged: 1, failed: 2 });
  });

  it('a table writer sends one insert per table with tags, attributes and fields, and reports rejected rows', async () => {
    let n = 0;
    const fake = new FakeTransport((c) =>
      c.method === 'insertTablet' && n++ === 0
        ? { reply: { code: 302, subStatus: [{ code: 200 }, { code: 507, message: 'bad' }] } }
        : undefined,
    );
    const s = new TableSession({ nodeUrls: [A], transport: fake, retry: FAST, database: 'db' });
    closers.push(() => s.close());
    await s.open();
    const failed: unknown[] = [];
    const w = s.writer({ onError: (_e, rows) => failed.push(...rows) });
    await w.write({
      table: 't1',
      timestamp: 2,
      tags: { site: 'a' },
      attributes: { model: 'x' },
      fields: { temp: 20.5 },
    });
    await w.write({
      table: 't1',
      timestamp: 1,
      tags: { site: 'b' },
      attributes: { model: 'y' },
      fields: { temp: 21.5, ok: true },
    });
    await expect(w.write({ table: 't1', timestamp: 3, tags: { temp: 'x' }, fields: {} })).rejects.toThrow(
      /tags\.temp: is a FIELD column/,
    );
    await w.flush();
    const [t] = sentTablets(fake.callsOf('insertTablet')[0]);
    expect(t.device).toBe('t1');
    expect(t.categories).toEqual([0, 2, 1, 1]); // TAG, ATTRIBUTE, FIELD, FIELD
    expect(t.rows).toEqual([
      { time: 1, values: { site: 'b', model: 'y', temp: 21.5, ok: true } },
      { time: 2, values: { site: 'a', model: 'x', temp: 20.5 } },
    ]);
    // the server rejected the second row it was sent: the row at time 2
    expect(failed).toEqual([
      { table: 't1', timestamp: 2, tags: { site: 'a' }, attributes: { model: 'x' }, fields: { temp: 20.5 } },
    ]);
  });

  it('a table writer refuses a tag or attribute declared of another type than STRING, at the row that makes it', async () => {
    const { fake, s } = await openTableSession();
    const w = s.writer({ types: { site: 'INT32' } });
    const row = w.write({ table: 't1', timestamp: 1, tags: { site: 'a' }, fields: { v: 1 } });
    await expect(row).rejects.toThrow(IoTDBValidationError);
    await expect(row).rejects.toThrow(/^tags\.site: a TAG column needs STRING \(IoTDB's rule\), got INT32$/);
    await w.close();
    expect(fake.callsOf('insertTablet')).toHaveLength(0);
  });

  it('a table writer refuses a row whose tag is bytes that are not UTF-8 (IoTDB would store U+FFFD), and sends the others', async () => {
    const { fake, s } = await openTableSession();
    const w = s.writer({});
    await w.write({ table: 't1', timestamp: 1, tags: { site: 'a' }, fields: { v: 1 } });
    const bad = w.write({
      table: 't1',
      timestamp: 2,
      tags: { site: Buffer.from([0xfe]) as unknown as string },
      fields: { v: 2 },
    });
    await expect(bad).rejects.toThrow(/^tags\.site: a TAG value needs UTF-8/);
    await w.write({
      table: 't1',
      timestamp: 3,
      tags: { site: Buffer.from('b') as unknown as string },
      fields: { v: 3 },
    });
    await w.close();
    expect(w.stats()).toMatchObject({ written: 2, acknowledged: 2, rejected: 1, failed: 0 });
    expect(fake.callsOf('insertTablet')).toHaveLength(1);
  });

  it("a table writer takes a name in any case as the table's one column (IoTDB folds them), and refuses a row that gives one twice", async () => {
    const { fake, s } = await openTableSession();
    const w = s.writer({ types: { temp: 'FLOAT' } });
    await w.write({ table: 't1', timestamp: 1, tags: { Region: 'east' }, fields: { Temp: 20.5 } });
    await w.write({ table: 't1', timestamp: 2, tags: { region: 'west' }, fields: { TEMP: 21.5 } });
    const twice = w.write({ table: 't1', timestamp: 3, tags: { region: 'x' }, fields: { temp: 1, Temp: 2 } });
    await expect(twice).rejects.toThrow(IoTDBValidationError);
    await expect(twice).rejects.toThrow(
      /^fields\.Temp: the same column as "temp" \(table names are case-insensitive\)/,
    );
    await w.flush();
    expect(w.stats()).toMatchObject({ written: 2, rejected: 1, acknowledged: 2 });
    const [t] = sentTablets(fake.callsOf('insertTablet')[0]);
    expect(t.categories).toEqual([0, 1]); // one TAG, one FIELD
    // the field's declared type, found by its name in any case (STRING 11, FLOAT 3)
    expect((fake.callsOf('insertTablet')[0].args as { types: number[] }).types).toEqual([11, 3]);
    expect(t.rows).toEqual([
      { time: 1, values: { Region: 'east', Temp: 20.5 } },
      { time: 2, values: { Region: 'west', Temp: 21.5 } },
    ]);
  });
});

describe('one series spelt two ways', () => {
  it('a tree writer takes a measurement in backquotes as the plain one (one series to IoTDB), and refuses a row that gives it twice', async () => {
    const { fake, s } = await openSession();
    const w = s.writer({ types: { '`s1`': 'INT32' } }); // declared in backquotes, written without
    await w.write({ deviceId: 'root.sg.d1', timestamp: 1, values: { s1: 1 } });
    await w.write({ deviceId: 'root.sg.d1', timestamp: 2, values: { '`s1`': 2 } });
    const twice = w.write({ deviceId: 'root.sg.d1', timestamp: 3, values: { '`s1`': 3, s1: 4 } });
    await expect(twice).rejects.toThrow(IoTDBValidationError);
    await expect(twice).rejects.toThrow(
      /^values\.s1: the same measurement as "`s1`" \(a name in backquotes is the name inside them\)$/,
    );
    await w.close();
    expect(w.stats()).toMatchObject({ written: 2, rejected: 1, acknowledged: 2, failed: 0 });
    const [t] = sent(fake);
    expect(fake.callsOf('insertTablets')[0].args.typesList).toEqual([[1]]); // INT32, as declared
    expect(t.rows).toEqual([
      { time: 1, values: { s1: 1 } },
      { time: 2, values: { s1: 2 } },
    ]);
  });
});

describe('one device spelt two ways', () => {
  it("keeps a device's rows in one tablet, in the order written, however its path is spelt (backquotes)", async () => {
    const { fake, s } = await openSession();
    const w = s.writer();
    await w.write({ deviceId: 'root.sg.d1', timestamp: 1, values: { v: 1 } });
    await w.write({ deviceId: 'root.sg.`d1`', timestamp: 1, values: { v: 2 } });
    await w.write({ deviceId: 'root.sg.d1', timestamp: 1, values: { v: 3 } });
    // a node holding a dot is another device than the nodes it joins
    await w.write({ deviceId: 'root.sg.`a.b`', timestamp: 1, values: { v: 4 } });
    await w.write({ deviceId: 'root.sg.a.b', timestamp: 1, values: { v: 5 } });
    await w.close();
    expect(sent(fake).map((t) => [t.device, t.rows.map((r) => r.values.v)])).toEqual([
      ['root.sg.d1', [1, 2, 3]],
      ['root.sg.`a.b`', [4]],
      ['root.sg.a.b', [5]],
    ]);
  });

  it("keeps a table's rows in one insert, in the order written, whatever the case of its name", async () => {
    const { fake, s } = await openTableSession();
    const w = s.writer();
    await w.write({ table: 'Sensors', timestamp: 1, tags: { site: 'a' }, fields: { v: 1 } });
    await w.write({ table: 'sensors', timestamp: 1, tags: { site: 'a' }, fields: { v: 2 } });
    await w.write({ table: 'Sensors', timestamp: 1, tags: { site: 'a' }, fields: { v: 3 } });
    await w.close();
    const inserts = fake.callsOf('insertTablet').map((c) => sentTablets(c)[0]);
    expect(inserts.map((t) => [t.device, t.rows.map((r) => r.values.v)])).toEqual([['Sensors', [1, 2, 3]]]);
  });
});

describe('types the server has for columns the writer inferred', () => {
  const [INT32, INT64, FLOAT, DOUBLE, TEXT, TIMESTAMP, DATE] = [1, 2, 3, 4, 5, 8, 9];
  const TYPE = { INT32, INT64, FLOAT, DOUBLE, TEXT, TIMESTAMP, DATE } as const;
  const statement = (c: { args: unknown }) => String((c.args as { statement?: string }).statement ?? '');
  /** A query's reply with these columns (after Time) and no row. */
  const headerReply = (columns: string[], types: string[]) => ({
    status: { code: 200 },
    queryId: 79n,
    columns,
    dataTypeList: types,
    ignoreTimeStamp: false,
    queryResult: [],
    moreData: false,
  });
  const lookups = (fake: FakeTransport) =>
    fake
      .callsOf('executeQueryStatementV2')
      .map(statement)
      .filter((q) => /^(SELECT \* FROM|DESC)/.test(q));

  /**
   * A server whose devices have series of the given types: it refuses a tablet that sends one of them as another
   * type (507, storing the rest), and answers `SELECT *` from devices before any time with their series (no row).
   */
  function treeServer(series: Record<string, Record<string, keyof typeof TYPE>>): FakeScript {
    return (c) => {
      if (c.method === 'executeQueryStatementV2') {
        const devices = /^SELECT \* FROM (.+) WHERE time < -9223372036854775807$/.exec(statement(c))?.[1].split(', ');
        if (devices === undefined) return undefined;
        const columns = devices.flatMap((d) => Object.entries(series[d] ?? {}).map(([m, t]) => [`${d}.${m}`, t]));
        return {
          reply: headerReply(
            columns.map(([name]) => name),
            columns.map(([, type]) => type),
          ),
        };
      }
      if (c.method !== 'insertTablets') return undefined;
      const a = c.args as { prefixPaths: string[]; measurementsList: string[][]; typesList: number[][] };
      const refused = a.prefixPaths.some((d, i) =>
        a.measurementsList[i].some((m, k) => series[d]?.[m] !== undefined && TYPE[series[d][m]] !== a.typesList[i][k]),
      );
      return refused ? { reply: { code: 507, message: 'data type of ... is not consistent' } } : undefined;
    };
  }

  it("sends the tablet again with each as the FLOAT, INT32, INT64 or TIMESTAMP series the server has; the device's later tablets go so at once", async () => {
    const series = { f: 'FLOAT', i: 'INT32', l: 'INT64', t: 'TIMESTAMP' } as const;
    const { fake, s } = await openSession(treeServer({ 'root.sg.d1': series }));
    const reported: Error[] = [];
    const w = s.writer({ onError: (e) => reported.push(e) });
    await w.write(row(1, 1, { f: 1.5, i: 3, l: -4, x: 2.5, t: 1_700_000_000_000 }));
    await w.flush();
    await w.write(row(1, 2, { f: 2.25, i: 5, l: 2 ** 40, x: 1, t: 0 }));
    await w.flush();
    expect(reported).toEqual([]);
    expect(fake.callsOf('insertTablets').map((c) => c.args.typesList)).toEqual([
      [[DOUBLE, DOUBLE, DOUBLE, DOUBLE, DOUBLE]],
      [[FLOAT, INT32, INT64, DOUBLE, TIMESTAMP]],
      [[FLOAT, INT32, INT64, DOUBLE, TIMESTAMP]],
    ]);
    expect(lookups(fake)).toEqual(['SELECT * FROM root.sg.d1 WHERE time < -9223372036854775807']);
    expect(
      sent(fake)
        .slice(1)
        .map((t) => t.rows[0].values),
    ).toEqual([
      { f: 1.5, i: 3, l: -4n, x: 2.5, t: 1_700_000_000_000n },
      { f: 2.25, i: 5, l: 2n ** 40n, x: 1, t: 0n },
    ]);
    expect(w.stats()).toMatchObject({ written: 2, acknowledged: 2, failed: 0 });
  });

  it('sends a bigint as the INT32 series the server has, a date string as its DATE series', async () => {
    const { fake, s } = await openSession(treeServer({ 'root.sg.d1': { i: 'INT32', d: 'DATE', n: 'TEXT' } }));
    const reported: Error[] = [];
    const w = s.writer({ onError: (e) => reported.push(e) });
    await w.write(row(1, 1, { i: 7n, d: '2024-01-02', n: 'note' }));
    await w.flush();
    await w.write(row(1, 2, { i: -(2n ** 31n), d: null, n: '2024-01-03' }));
    await w.flush();
    expect(reported).toEqual([]);
    expect(fake.callsOf('insertTablets').map((c) => c.args.typesList)).toEqual([
      [[INT64, TEXT, TEXT]],
      [[INT32, DATE, TEXT]],
      [[INT32, TEXT]],
    ]);
    expect(
      sent(fake)
        .slice(1)
        .map((t) => t.rows[0].values),
    ).toEqual([
      { i: 7, d: 20240102, n: 'note' }, // a DATE as sent: yyyymmdd
      { i: -(2 ** 31), n: '2024-01-03' },
    ]);
    expect(lookups(fake)).toHaveLength(1);
  });

  it('sends a Date as the DATE series the server has: its UTC day, as a session writes a Date to DATE', async () => {
    const { fake, s } = await openSession(treeServer({ 'root.sg.d1': { day: 'DATE' }, 'root.sg.d2': { day: 'DATE' } }));
    const reported: Error[] = [];
    const w = s.writer({ onError: (e) => reported.push(e) });
    await w.write(row(1, 1, { day: new Date(Date.UTC(2024, 1, 29)) }));
    await w.write(row(1, 2, { day: null }));
    await w.write(row(1, 3, { day: new Date('2025-12-31T23:59:59.999Z') }));
    await w.flush();
    await w.write(row(1, 4, { day: new Date(Date.UTC(1970, 0, 1)) }));
    await w.flush();
    await w.write(row(2, 1, { day: new Date(Date.UTC(999, 11, 31)) })); // a year DATE cannot hold: as the server said
    await w.flush();
    expect(reported).toEqual([expect.objectContaining({ statusCode: 507 })]);
    expect(fake.callsOf('insertTablets').map((c) => c.args.typesList)).toEqual([
      [[TIMESTAMP]],
      [[DATE]],
      [[DATE]],
      [[TIMESTAMP]],
    ]);
    expect(
      sent(fake)
        .slice(1, 3)
        .flatMap((t) => t.rows.map((r) => r.values)),
    ).toEqual([{ day: 20240229 }, {}, { day: 20251231 }, { day: 19700101 }]);
    expect(w.stats()).toMatchObject({ written: 5, acknowledged: 4, failed: 1 });
  });

  it("takes a Date's day from a time in the server's unit (ns: past 2^53)", async () => {
    const script = treeServer({ 'root.sg.d1': { day: 'DATE' } });
    const fake = new FakeTransport((c) =>
      c.method === 'openSession'
        ? {
            reply: {
              status: { code: 200 },
              serverProtocolVersion: 2,
              sessionId: 1n,
              configuration: new Map([['timestamp_precision', 'ns']]),
            },
          }
        : script(c),
    );
    const s = new Session({ nodeUrls: [A], transport: fake, retry: FAST });
    closers.push(() => s.close());
    await s.open();
    const w = s.writer({});
    await w.write(row(1, 1, { day: new Date('2024-02-29T12:00:00Z') }));
    await w.write(row(1, 2, { day: new Date('1969-12-31T23:59:59.999Z') })); // before 1970: the day before
    await w.flush();
    expect(sent(fake)[1].rows.map((r) => r.values)).toEqual([{ day: 20240229 }, { day: 19691231 }]);
    expect(w.stats()).toMatchObject({ acknowledged: 2, failed: 0 });
  });

  it('matches a measurement written in backquotes to its series, which the server names so', async () => {
    const { fake, s } = await openSession(treeServer({ 'root.sg.d1': { '`x-y`': 'FLOAT', '`a``b`': 'INT32' } }));
    const w = s.writer({});
    await w.write(row(1, 1, { '`x-y`': 1.5, '`a``b`': 2 }));
    await w.flush();
    expect(fake.callsOf('insertTablets').map((c) => c.args.typesList)).toEqual([[[DOUBLE, DOUBLE]], [[FLOAT, INT32]]]);
    expect(w.stats()).toMatchObject({ acknowledged: 1, failed: 0 });
  });

  it("looks a device up once while every inferred column's type is known: a value that fits none fails at once", async () => {
    const { fake, s } = await openSession(treeServer({ 'root.sg.d1': { i: 'INT32', f: 'FLOAT' } }));
    const reported: TreeRow[] = [];
    const w = s.writer({ onError: (_e, rows) => reported.push(...rows) });
    for (const t of [1, 2, 3]) {
      await w.write(row(1, t, { i: 'text', f: 0.5 }));
      await w.flush();
    }
    expect(lookups(fake)).toHaveLength(1);
    expect(reported.map((r) => r.timestamp)).toEqual([1, 2, 3]);
  });

  it('sends a request refused after its device was looked up (another request in flight meanwhile) with the types learnt', async () => {
    // a pool of two: request A's refusal is answered at once and its lookup follows; B's refusal comes 50 ms later
    const refuse = treeServer({ 'root.sg.d1': { f: 'FLOAT' } });
    let refusals = 0;
    const fake = new FakeTransport((c) => {
      const action = refuse(c);
      if (c.method !== 'insertTablets' || action === undefined) return action;
      return ++refusals === 2 ? { delayMs: 50, then: action } : action;
    });
    const pool = new SessionPool({ nodeUrls: [A], transport: fake, retry: FAST, maxSize: 2 });
    closers.push(() => pool.close());
    const reported: Error[] = [];
    const w = pool.writer({ maxRows: 1, flushIntervalMs: 0, onError: (e) => reported.push(e) });
    await w.write(row(1, 1, { f: 0.5 }));
    await w.write(row(1, 2, { f: 1.5 }));
    await w.close();
    expect(reported).toEqual([]);
    expect(w.stats()).toMatchObject({ written: 2, acknowledged: 2, failed: 0 });
    expect(lookups(fake)).toHaveLength(1);
  });

  it('looks a device up again for a column it did not have then (a series made since)', async () => {
    const series: Record<string, Record<string, 'FLOAT' | 'INT32'>> = { 'root.sg.d1': { f: 'FLOAT' } };
    const { fake, s } = await openSession(treeServer(series));
    const w = s.writer({});
    await w.write(row(1, 1, { f: 0.5 }));
    await w.flush();
    series['root.sg.d1'].g = 'INT32';
    await w.write(row(1, 2, { f: 0.5, g: 3 }));
    await w.flush();
    expect(lookups(fake)).toHaveLength(2);
    expect(w.stats()).toMatchObject({ acknowledged: 2, failed: 0 });
  });

  it('leaves a bigint beyond INT32 and a string that is no date: their rows fail as the server said', async () => {
    const { fake, s } = await openSession(treeServer({ 'root.sg.d1': { i: 'INT32' }, 'root.sg.d2': { d: 'DATE' } }));
    const reported: TreeRow[] = [];
    const w = s.writer({ onError: (_e, rows) => reported.push(...rows) });
    await w.write(row(1, 1, { i: 2n ** 31n }));
    await w.write(row(2, 1, { d: '2024-02-30' }));
    await w.flush();
    expect(lookups(fake)).toHaveLength(1);
    expect(reported.map((r) => r.deviceId).sort()).toEqual(['root.sg.d1', 'root.sg.d2']);
    expect(w.stats()).toMatchObject({ acknowledged: 0, failed: 2 });
  });

  it('leaves a column whose values do not fit the type (a fraction for INT32) or whose type is declared: its rows fail as the server said', async () => {
    const { fake, s } = await openSession(treeServer({ 'root.sg.d1': { i: 'INT32' }, 'root.sg.d2': { i: 'INT32' } }));
    const reported: TreeRow[] = [];
    const fraction = s.writer({ onError: (_e, rows) => reported.push(...rows) });
    await fraction.write(row(1, 1, { i: 1.5 }));
    await fraction.flush();
    expect(lookups(fake)).toEqual(['SELECT * FROM root.sg.d1 WHERE time < -9223372036854775807']);
    const declared = s.writer({ types: { i: 'DOUBLE' }, onError: (_e, rows) => reported.push(...rows) });
    await declared.write(row(2, 1, { i: 3 }));
    await declared.flush();
    expect(lookups(fake)).toHaveLength(1); // nothing the writer inferred: nothing to look up
    expect(reported.map((r) => r.deviceId)).toEqual(['root.sg.d1', 'root.sg.d2']);
    expect(fake.callsOf('insertTablets')).toHaveLength(2);
  });

  it("in a request of several devices refused for a type, looks up every device's types in one statement and sends it again whole", async () => {
    const { fake, s } = await openSession(treeServer({ 'root.sg.d1': { v: 'FLOAT' }, 'root.sg.d3': { v: 'INT32' } }));
    const w = s.writer({});
    for (const d of [1, 2, 3]) await w.write(row(d, 1, { v: d === 3 ? 7 : 0.5 }));
    await w.flush();
    expect(fake.callsOf('insertTablets').map((c) => [c.args.prefixPaths, c.args.typesList])).toEqual([
      [
        ['root.sg.d1', 'root.sg.d2', 'root.sg.d3'],
        [[DOUBLE], [DOUBLE], [DOUBLE]],
      ],
      [
        ['root.sg.d1', 'root.sg.d2', 'root.sg.d3'],
        [[FLOAT], [DOUBLE], [INT32]],
      ],
    ]);
    expect(lookups(fake)).toEqual([
      'SELECT * FROM root.sg.d1, root.sg.d2, root.sg.d3 WHERE time < -9223372036854775807',
    ]);
    expect(w.stats()).toMatchObject({ acknowledged: 3, failed: 0 });
  });

  it('a request still refused once sent again with the types looked up goes a device at a time, none looked up again', async () => {
    // d2's value fits none of its series' type: the request is refused again, then d2 alone
    const { fake, s } = await openSession(treeServer({ 'root.sg.d1': { v: 'FLOAT' }, 'root.sg.d2': { v: 'INT32' } }));
    const reported: TreeRow[] = [];
    const w = s.writer({ onError: (_e, rows) => reported.push(...rows) });
    for (const d of [1, 2]) await w.write(row(d, 1, { v: 0.5 }));
    await w.flush();
    const requests = fake.callsOf('insertTablets').map((c) => [c.args.prefixPaths, c.args.typesList]);
    expect(requests.slice(0, 2)).toEqual([
      [
        ['root.sg.d1', 'root.sg.d2'],
        [[DOUBLE], [DOUBLE]],
      ],
      [
        ['root.sg.d1', 'root.sg.d2'],
        [[FLOAT], [DOUBLE]],
      ],
    ]);
    expect(requests.slice(2)).toEqual(
      expect.arrayContaining([
        [['root.sg.d1'], [[FLOAT]]],
        [['root.sg.d2'], [[DOUBLE]]],
      ]),
    );
    expect(requests).toHaveLength(4);
    expect(lookups(fake)).toHaveLength(1);
    expect(reported).toEqual([{ deviceId: 'root.sg.d2', timestamp: 1, values: { v: 0.5 } }]);
    expect(w.stats()).toMatchObject({ acknowledged: 1, failed: 1 });
  });

  it("a table writer reads the table's columns with DESC, their names in any case", async () => {
    const { fake, s } = await openTableSession((c) => {
      if (c.method === 'executeQueryStatementV2' && statement(c) === 'DESC "t1"')
        return {
          reply: textTableReply(
            ['ColumnName', 'DataType', 'Category'],
            [
              ['site', 'STRING', 'TAG'],
              ['temp', 'FLOAT', 'FIELD'],
            ],
          ),
        };
      const types = (c.args as { types?: number[] }).types;
      return c.method === 'insertTablet' && types?.[1] === DOUBLE
        ? { reply: { code: 507, message: 'Incompatible data type of column temp: DOUBLE/FLOAT' } }
        : undefined;
    });
    const w = s.writer({});
    await w.write({ table: 't1', timestamp: 1, tags: { site: 'a' }, fields: { Temp: 20.5 } });
    await w.flush();
    const STRING = 11;
    expect(fake.callsOf('insertTablet').map((c) => c.args.types)).toEqual([
      [STRING, DOUBLE],
      [STRING, FLOAT],
    ]);
    expect(lookups(fake)).toEqual(['DESC "t1"']);
    expect(w.stats()).toMatchObject({ acknowledged: 1, failed: 0 });
  });
});
