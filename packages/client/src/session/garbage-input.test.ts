import { afterAll, describe, expect, it } from 'vitest';
import { IoTDBError } from '../errors.js';
import { SessionPool, TableSessionPool } from '../pool/session-pool.js';
import { FakeTransport } from '../transport/fake-transport.js';
import { Session } from './session.js';
import { TableSession } from './table-session.js';

/**
 * Whatever a JavaScript caller passes, the library answers with an IoTDBError (IoTDBValidationError for
 * arguments), never a TypeError or RangeError from deep inside, and sends nothing it could not check.
 */
const GARBAGE: unknown[] = [
  undefined,
  null,
  0,
  -1,
  NaN,
  Infinity,
  'x',
  '',
  true,
  {},
  [],
  [null],
  { deviceId: 1 },
  () => 1,
  Symbol('s'),
  10n,
  new Date('x'),
];

const fake = new FakeTransport();
const session = new Session({ transport: fake, retry: { maxElapsedMs: 0 } });
const table = new TableSession({ transport: fake, retry: { maxElapsedMs: 0 }, database: 'db' });
const pool = new SessionPool({ transport: fake, retry: { maxElapsedMs: 0 } });
const tablePool = new TableSessionPool({ transport: fake, retry: { maxElapsedMs: 0 } });
afterAll(async () => {
  await Promise.all([session.close(), table.close(), pool.close(), tablePool.close()]);
});

async function thrown(f: () => unknown): Promise<unknown> {
  try {
    await f();
    return undefined;
  } catch (e) {
    return e;
  }
}

describe('garbage in, IoTDBError out', () => {
  it('constructors and options', async () => {
    for (const g of GARBAGE) {
      for (const make of [
        () => new Session(g as never),
        () => new Session({ port: g } as never),
        () => new Session({ nodeUrls: g } as never),
        () => new Session({ retry: g } as never),
        () => new Session({ retry: { maxElapsedMs: g } } as never),
        () => new SessionPool({ maxSize: g } as never),
      ]) {
        const e = await thrown(make);
        if (e !== undefined) expect(e, String(g)).toBeInstanceOf(IoTDBError);
      }
    }
  });

  it('every call of an open session, table session and pool', async () => {
    await session.open();
    await table.open();
    const sent = fake.calls.length;
    for (const g of GARBAGE) {
      const calls: (() => unknown)[] = [
        () => session.insertTablet(g as never),
        () => session.insertAlignedTablet(g as never),
        () => session.insertTablets(g as never),
        () => session.insertTablets([g] as never),
        () => session.insertRecord(g as never),
        () => session.insertRecords(g as never),
        () => session.insertRecords([g] as never),
        () => session.executeNonQueryStatement(g as never),
        () => session.executeQueryStatement(g as never),
        () => session.executeQueryStatement('SELECT 1', { fetchSize: g } as never),
        () => table.insert(g as never),
        () => pool.insertTablet(g as never),
        () => pool.insertRecords(g as never),
        () => pool.insertTabletsParallel(g as never),
        () => tablePool.insert(g as never),
        () => tablePool.executeNonQueryStatement(g as never),
      ];
      for (const [i, call] of calls.entries()) {
        const e = await thrown(call);
        if (i === 9 && g === undefined) continue; // no fetchSize: the default
        if ([7, 8, 15].includes(i) && g === 'x') continue; // a string is SQL (the fake server takes anything)
        if (i === 13 && Array.isArray(g) && g.length === 0) continue; // no tablets: nothing to do
        expect(e, `call ${i} with ${String(g)}`).toBeInstanceOf(IoTDBError);
      }
    }
    // nothing reached the server but the logins of the pools' sessions, the valid calls among them and the
    // sessions' node discovery (SHOW DATANODES in a server session of its own: login, query, release, logout)
    const login = ['openSession', 'requestStatementId', 'closeOperation', 'closeSession'];
    const other = fake.calls
      .slice(sent)
      .filter(
        (c) =>
          !login.includes(c.method) &&
          !['x', 'SELECT 1', 'SHOW DATANODES'].includes(String((c.args as { statement?: unknown }).statement)),
      );
    expect(other).toEqual([]);
  });

  it('a good tablet, record or spec with one field of garbage, typed columns and null masks included', async () => {
    await session.open();
    const sent = fake.calls.length;
    const tablet = {
      deviceId: 'root.sg.d',
      measurements: ['b', 'd', 'x'],
      dataTypes: ['BOOLEAN', 'DATE', 'DOUBLE'] as const,
      timestamps: [1, 2],
      columns: [Uint8Array.of(1, 0), Int32Array.of(20240101, 20240102), Float64Array.of(1, 2)],
      nulls: [null, null, Uint8Array.of(0, 1)],
    };
    const record = { deviceId: 'root.sg.d', timestamp: 1, measurements: ['x'], dataTypes: ['DOUBLE'], values: [1] };
    let accepted = 0; // writes let through (each checked above to be a good one)
    for (const g of [...GARBAGE, Uint8Array.of(2, 9), Int32Array.of(0, 0), new Int16Array(2), [Uint8Array.of(1)]]) {
      const calls: (() => unknown)[] = [
        () => session.insertTablet({ ...tablet, nulls: g } as never),
        () => session.insertTablet({ ...tablet, nulls: [g, g, g] } as never),
        () => session.insertTablet({ ...tablet, columns: [g, g, g] } as never),
        () => session.insertTablet({ ...tablet, [String(g)]: 1 }),
        () => session.insertRecord({ ...record, values: [g] } as never),
        () => session.insertRecords([record, g] as never),
        () => session.createTimeseries({ path: 'root.sg.d.x', dataType: 'DOUBLE', compressor: g } as never),
        () => session.deleteData('root.sg.d.x', g as never),
        () => session.deleteData('root.sg.d.x', { endTime: g } as never),
        () => session.writer().write(g as never),
      ];
      for (const [i, call] of calls.entries()) {
        const e = await thrown(call);
        if (e === undefined && i !== 8) accepted++;
        if (e === undefined && (i === 0 || i === 1) && (g === undefined || g === null)) continue; // no masks
        if (e === undefined && i === 6 && (g === undefined || g === 0)) continue; // the default; 0 is UNCOMPRESSED
        if (e === undefined && i === 8 && (Number.isSafeInteger(g) || typeof g === 'bigint')) continue; // a time
        // any number is a DOUBLE; a record of nulls is nothing to write, as in Java
        if (e === undefined && i === 4 && (g == null || typeof g === 'number')) continue;
        expect(e, `call ${i} with ${String(g)}`).toBeInstanceOf(IoTDBError);
      }
    }
    // nothing else went out: a record of nulls is not sent at all
    const writes = fake.calls.slice(sent).filter((c) => c.method.startsWith('insert'));
    expect(writes.length).toBeLessThanOrEqual(accepted);
  });
});
