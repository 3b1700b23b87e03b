import { afterEach, describe, expect, it } from 'vitest';
import { IoTDBSessionClosedError, IoTDBWriteFailedError, IoTDBWriterClosedError } from '../errors.js';
import { Session } from '../session/session.js';
import { TableSession } from '../session/table-session.js';
import { SessionPool, TableSessionPool } from '../pool/session-pool.js';
import { sentTablets } from '../testing/sent-tablets.js';
import { FakeTransport, type FakeScript } from '../transport/fake-transport.js';
import type { Writer } from './writer.js';
import type { TreeRow } from './rows.js';

// Closing the session or pool a writer was made on, before the writer: the rows it holds are sent first, as the
// writer's own close() sends them (they failed as "the session is closed", reported only to an onError or a later
// writer.close() nobody made).

const A = '10.0.0.1:6667';
const FAST = { initialDelayMs: 1, maxDelayMs: 5, maxElapsedMs: 1_000 };
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c().catch(() => undefined);
});

const row = (t: number): TreeRow => ({ deviceId: 'root.sg.d1', timestamp: t, values: { v: t } });
const refused: FakeScript = (c) =>
  c.method === 'insertTablets' ? { reply: { code: 507, message: 'data type mismatch' } } : undefined;
const rowsSent = (fake: FakeTransport) =>
  fake.callsOf('insertTablets').reduce((n, c) => n + sentTablets(c).reduce((m, t) => m + t.rows.length, 0), 0);

async function writeThree(w: Writer<TreeRow>): Promise<void> {
  for (let t = 1; t <= 3; t++) await w.write(row(t));
}

describe('session.close() with a writer still open', () => {
  it('sends the rows the writer holds, then closes it and the session', async () => {
    const fake = new FakeTransport();
    const s = new Session({ nodeUrls: [A], transport: fake, retry: FAST });
    await s.open();
    const w = s.writer({ flushIntervalMs: 0 });
    await writeThree(w);
    await s.close();
    expect(rowsSent(fake)).toBe(3);
    expect(w.stats()).toMatchObject({ acknowledged: 3, failed: 0, buffered: 0 });
    expect(s.isOpen).toBe(false);
    await expect(w.write(row(4))).rejects.toBeInstanceOf(IoTDBWriterClosedError);
  });

  it('rejects with the rows the server refused when the writer has no onError, the session closed anyway', async () => {
    const fake = new FakeTransport(refused);
    const s = new Session({ nodeUrls: [A], transport: fake, retry: FAST });
    await s.open();
    await writeThree(s.writer({ flushIntervalMs: 0 }));
    const e = await s.close().then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(IoTDBWriteFailedError);
    expect((e as IoTDBWriteFailedError).failedRows).toBe(3);
    expect(s.isOpen).toBe(false);
  });

  it('gives an onError the failures, and closes without an error then', async () => {
    const s = new Session({ nodeUrls: [A], transport: new FakeTransport(refused), retry: FAST });
    await s.open();
    const reported: number[] = [];
    await writeThree(s.writer({ flushIntervalMs: 0, onError: (_e, rows) => reported.push(rows.length) }));
    await s.close();
    expect(reported).toEqual([3]);
  });

  it('does not report again the failure of a writer its user closed', async () => {
    const s = new Session({ nodeUrls: [A], transport: new FakeTransport(refused), retry: FAST });
    await s.open();
    const w = s.writer({ flushIntervalMs: 0 });
    await writeThree(w);
    await expect(w.close()).rejects.toBeInstanceOf(IoTDBWriteFailedError);
    await s.close();
  });

  it('makes a second close() made meanwhile wait for the rows too: a retry under way is not aborted', async () => {
    let attempts = 0;
    // the first attempt reset: the rows go again after a retry wait, which the second close() must not abort
    const fake = new FakeTransport((c) =>
      c.method === 'insertTablets' && attempts++ === 0 ? { delayMs: 20, then: { reset: true } } : undefined,
    );
    const s = new Session({ nodeUrls: [A], transport: fake, retry: FAST });
    await s.open();
    const w = s.writer({ flushIntervalMs: 0 });
    await writeThree(w);
    const first = s.close();
    await s.close();
    expect(w.stats()).toMatchObject({ acknowledged: 3, inFlight: 0 });
    await first;
    expect(fake.callsOf('insertTablets')).toHaveLength(2);
  });

  it('sends a table writer’s rows before a table session closes', async () => {
    const fake = new FakeTransport();
    const s = new TableSession({ nodeUrls: [A], transport: fake, retry: FAST, database: 'db' });
    await s.open();
    const w = s.writer({ flushIntervalMs: 0 });
    await w.write({ table: 't', timestamp: 1, tags: { id: 'a' }, fields: { v: 1 } });
    await s.close();
    expect(fake.callsOf('insertTablet')).toHaveLength(1);
    expect(w.stats()).toMatchObject({ acknowledged: 1, buffered: 0 });
  });
});

describe('pool.close() with a writer still open', () => {
  it('sends the rows the writer holds before the pool refuses work', async () => {
    const fake = new FakeTransport();
    const p = new SessionPool({ nodeUrls: [A], transport: fake, retry: FAST, maxSize: 2 });
    closers.push(() => p.close());
    const w = p.writer({ flushIntervalMs: 0 });
    await writeThree(w);
    await p.close();
    expect(rowsSent(fake)).toBe(3);
    expect(w.stats()).toMatchObject({ acknowledged: 3, failed: 0, buffered: 0 });
    expect(p.stats().size).toBe(0);
  });

  it("refuses new calls as close() begins, while the writer's rows still go through its sessions", async () => {
    const fake = new FakeTransport((c) =>
      c.method === 'insertTablets' ? { delayMs: 30, then: { reply: { code: 200 } } } : undefined,
    );
    const p = new SessionPool({ nodeUrls: [A], transport: fake, retry: FAST, maxSize: 2 });
    const w = p.writer({ flushIntervalMs: 0 });
    await writeThree(w);
    const closing = p.close();
    const late = [p.executeNonQueryStatement('FLUSH'), p.execute(async () => 'x'), p.open()];
    for (const call of late) await expect(call).rejects.toBeInstanceOf(IoTDBSessionClosedError);
    await closing;
    expect(rowsSent(fake)).toBe(3);
    expect(fake.callsOf('executeUpdateStatementV2')).toHaveLength(0);
  });

  it('refuses the rows of a writer made after close() began, as any new call', async () => {
    const fake = new FakeTransport((c) =>
      c.method === 'insertTablets' ? { delayMs: 30, then: { reply: { code: 200 } } } : undefined,
    );
    const p = new SessionPool({ nodeUrls: [A], transport: fake, retry: FAST, maxSize: 2 });
    await writeThree(p.writer({ flushIntervalMs: 0 }));
    const closing = p.close();
    const late = p.writer({ flushIntervalMs: 0 });
    await expect(late.write(row(9))).rejects.toBeInstanceOf(IoTDBSessionClosedError);
    await closing;
    expect(rowsSent(fake)).toBe(3);
  });

  it('rejects with the refused rows when the writer has no onError; the pool is closed anyway', async () => {
    const p = new SessionPool({ nodeUrls: [A], transport: new FakeTransport(refused), retry: FAST, maxSize: 2 });
    const w = p.writer({ flushIntervalMs: 0 });
    await writeThree(w);
    await expect(p.close()).rejects.toBeInstanceOf(IoTDBWriteFailedError);
    expect(p.stats().size).toBe(0);
  });

  it('sends a table pool writer’s rows before it closes', async () => {
    const fake = new FakeTransport();
    const p = new TableSessionPool({ nodeUrls: [A], transport: fake, retry: FAST, database: 'db', maxSize: 2 });
    closers.push(() => p.close());
    const w = p.writer({ flushIntervalMs: 0 });
    await w.write({ table: 't', timestamp: 1, tags: { id: 'a' }, fields: { v: 1 } });
    await p.close();
    expect(fake.callsOf('insertTablet')).toHaveLength(1);
    expect(w.stats()).toMatchObject({ acknowledged: 1, buffered: 0 });
  });
});
