import { afterEach, describe, expect, it } from 'vitest';
import { FakeTransport } from '../transport/fake-transport.js';
import { tsBlock } from '../testing/tsblock.js';
import { IoTDBAbortError, IoTDBSessionClosedError } from '../errors.js';
import type { SessionDataSet } from '../session/session-data-set.js';
import { SessionPool, TableSessionPool } from './session-pool.js';

// A pooled query's session goes back to its pool as its data set is done with: by the time the caller's loop ends
// or its close() resolves, not some turns of the event loop later (stats() said in use, and the next query opened a
// connection of its own beside the idle one).

const A = '10.0.0.1:6667';

/** Every query answered with rows 1, 2, 3 (INT32), the last of them unless `moreData`. */
const server = (moreData = false) =>
  new FakeTransport((c) => {
    if (c.method !== 'executeQueryStatementV2') return undefined;
    const block = tsBlock([0, 1, 2], [{ type: 'INT32', values: [1, 2, 3] }]);
    return {
      reply: {
        status: { code: 200 },
        queryId: 3n,
        columns: ['root.sg.d.s'],
        dataTypeList: ['INT32'],
        queryResult: [block],
        moreData,
      },
    };
  });

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c().catch(() => undefined);
});

function pool(fake: FakeTransport, maxSize = 2): SessionPool {
  const p = new SessionPool({ nodeUrls: [A], discoverNodes: false, transport: fake, maxSize });
  closers.push(() => p.close());
  return p;
}

const reads: Record<string, (ds: SessionDataSet) => Promise<unknown>> = {
  'for await': async (ds) => {
    for await (const row of ds) void row;
  },
  'rowBatches()': async (ds) => {
    for await (const rows of ds.rowBatches()) void rows;
  },
  'batches()': async (ds) => {
    for await (const batch of ds.batches()) void batch;
  },
  'toColumnar()': (ds) => ds.toColumnar(),
  'close() of a result received whole': (ds) => ds.close(),
};

describe('SessionPool.executeQueryStatement: the session back as the data set is done with', () => {
  for (const [how, read] of Object.entries(reads)) {
    it(`is idle again once ${how} resolves`, async () => {
      const p = pool(server());
      const ds = await p.executeQueryStatement('SELECT s FROM root.sg.d');
      expect(p.stats()).toMatchObject({ inUse: 1, openDataSets: 1 });
      await read(ds);
      expect(p.stats()).toMatchObject({ inUse: 0, idle: 1, openDataSets: 0 });
    });
  }

  it('is idle again once close() of a query with rows left on the server resolves', async () => {
    const fake = server(true);
    const p = pool(fake);
    const ds = await p.executeQueryStatement('SELECT s FROM root.sg.d', { readAhead: 0 });
    await ds.next();
    await ds.close();
    expect(fake.callsOf('closeOperation')).toHaveLength(1);
    expect(p.stats()).toMatchObject({ inUse: 0, idle: 1, openDataSets: 0 });
  });

  it('runs queries one after another on one connection', async () => {
    const fake = server();
    const p = pool(fake, 4);
    for (let i = 0; i < 5; i++) await (await p.executeQueryStatement('SELECT s FROM root.sg.d')).toColumnar();
    for (let i = 0; i < 5; i++) {
      const ds = await p.executeQueryStatement('SELECT s FROM root.sg.d');
      for await (const row of ds) void row;
    }
    expect(fake.connects).toBe(1);
    expect(p.stats()).toMatchObject({ size: 1, inUse: 0 });
  });

  it('gives a table pool its session back alike', async () => {
    const fake = server();
    const p = new TableSessionPool({ nodeUrls: [A], transport: fake, database: 'db', maxSize: 2 });
    closers.push(() => p.close());
    for (let i = 0; i < 3; i++) await (await p.executeQueryStatement('SELECT * FROM t')).toColumnar();
    expect(p.stats()).toMatchObject({ size: 1, inUse: 0, openDataSets: 0 });
  });
});

describe("a call's signal while its pooled session opens", () => {
  it('rejects naming where the call was (opening a session), the signal its cause, as the pool names a wait', async () => {
    const fake = server();
    fake.setNode(A, 'blackhole'); // the connect never completes
    const p = pool(fake);
    const ac = new AbortController();
    const call = p.executeQueryStatement('SELECT s FROM root.sg.d', { signal: ac.signal }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 10));
    const reason = new Error('too slow');
    ac.abort(reason);
    const e = await call;
    expect(e).toBeInstanceOf(IoTDBAbortError);
    expect((e as Error).message).toBe('pool: open a session: aborted');
    expect((e as Error).cause).toBe(reason);
  });
});

describe('a call opening a pooled session when the pool closes', () => {
  it('rejects with IoTDBSessionClosedError, as a Session closed while it opens does (not an abort it never asked for)', async () => {
    const fake = server();
    fake.setNode(A, 'blackhole'); // the connect never completes
    const p = pool(fake);
    const calls = [
      p.execute(async () => 'x'),
      p.executeNonQueryStatement('FLUSH'),
      p.executeQueryStatement('SELECT s FROM root.sg.d'),
    ];
    const settled = calls.map((c) =>
      c.then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    await new Promise((r) => setTimeout(r, 10));
    await p.close();
    for (const e of await Promise.all(settled)) {
      expect(e).toBeInstanceOf(IoTDBSessionClosedError);
      // opening: closed while it opened; queued behind those (maxSize 2): the closed pool's refusal
      expect((e as Error).message).toMatch(
        /^the pool is closed; (it was closed while a session was being opened|a closed pool)/,
      );
    }
  });
});
