import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Session, type TimestampPrecision } from '../index.js';
import { spyRpc } from '../testing/rpc-spy.js';

/**
 * Servers set otherwise than the suite's: two 1C1D clusters started here (scripts/iotdb-local.sh EXTRA_PROPS),
 * counting time in microseconds and nanoseconds (`timestamp_precision`: the ConfigNode decides it), the first also
 * dropping a query that asks for no timeout of its own after 2 s (`query_timeout_threshold`, 60 s by default).
 */
const control = inject('iotdb').control;
const exec = promisify(execFile);
const SERVERS: { precision: TimestampPrecision; port: number; offset: number; props?: string }[] = [
  { precision: 'us', port: 9667, offset: 3000, props: 'query_timeout_threshold=2000' },
  { precision: 'ns', port: 9767, offset: 4000 },
];
const UNIT = { ms: 1n, us: 1_000n, ns: 1_000_000n };
const dirOf = (p: string) => `${control?.dir}-${p}`;

beforeAll(async () => {
  if (control === null) return;
  // both at once: 19 s where one after the other took 23 (measured on two cores)
  const starts = SERVERS.map((s) =>
    exec('bash', [control.script, 'start', dirOf(s.precision)], {
      timeout: 240_000,
      env: {
        ...process.env,
        PORT_OFFSET: String(s.offset),
        RPC_PORT: String(s.port),
        DATANODES: '1',
        DN_HEAP: '1g',
        TLS: '0',
        RPC_COMPRESSION: '0',
        EXTRA_PROPS: [`timestamp_precision=${s.precision}`, s.props ?? ''].join('\n'),
      },
    }),
  );
  await Promise.all(starts);
}, 480_000);
afterAll(async () => {
  if (control === null) return;
  for (const s of SERVERS)
    await exec('bash', [control.script, 'kill', dirOf(s.precision)], { timeout: 120_000 }).catch(() => undefined);
}, 240_000);

describe.skipIf(control === null)("a server's own query timeout (query_timeout_threshold 2 s)", () => {
  const { port } = SERVERS[0];
  /** Reads `SELECT v FROM root.qt.d` (20,000 rows, 500 a fetch), 100 ms a fetch (4 s): the rows and how it ended. */
  async function readSlowly(options: { requestTimeoutMs?: number; queryTimeoutMs?: number }) {
    const s = new Session({ port, fetchSize: 500, readAhead: 0, ...options });
    await s.open();
    try {
      let rows = 0;
      const ds = await s.executeQueryStatement('SELECT v FROM root.qt.d');
      try {
        for await (const row of ds) {
          if (++rows % 500 === 0) await new Promise((r) => setTimeout(r, 100, row));
        }
        return { rows };
      } catch (error) {
        return { rows, error };
      }
    } finally {
      await s.close();
    }
  }

  beforeAll(async () => {
    const s = new Session({ port });
    await s.open();
    const timestamps = Array.from({ length: 20_000 }, (_, i) => i + 1);
    await s.insertTablet({
      deviceId: 'root.qt.d',
      measurements: ['v'],
      dataTypes: ['INT32'],
      timestamps,
      columns: [timestamps],
    });
    await s.close();
  });

  it('a query asking for no limit (queryTimeoutMs 0, or requestTimeoutMs 0) is read to its last row', async () => {
    // IoTDB reads a timeout of 0 as its threshold and drops the query there: the client asks for the longest
    expect(await readSlowly({ queryTimeoutMs: 0 })).toEqual({ rows: 20_000 });
    expect(await readSlowly({ requestTimeoutMs: 0 })).toEqual({ rows: 20_000 });
  });

  it('a query whose own timeout is longer than the threshold is read to its last row, its replies awaited 1 s', async () => {
    expect(await readSlowly({ requestTimeoutMs: 1_000, queryTimeoutMs: 60_000 })).toEqual({ rows: 20_000 });
  });
});

describe.skipIf(control === null)('timestamp precision', () => {
  it.each(SERVERS)(
    'a server in $precision: Dates go in converted and come back the same',
    async ({ precision, port }) => {
      const s = new Session({ port, timestampAs: 'Date' });
      await s.open();
      try {
        expect(s.timestampPrecision).toBe(precision);
        const d1 = new Date(Date.UTC(2024, 1, 29, 12, 0, 0, 123));
        const d2 = new Date(Date.UTC(2200, 0, 1)); // past 2^53 in us and ns
        await s.insertRecord({
          deviceId: 'root.prec.d',
          timestamp: d1,
          measurements: ['ts'],
          dataTypes: ['TIMESTAMP'],
          values: [d2],
        });
        await s.insertTablet({
          deviceId: 'root.prec.d',
          measurements: ['ts'],
          dataTypes: ['TIMESTAMP'],
          timestamps: [d2],
          values: [[d1]],
        });
        const ds = await s.executeQueryStatement('SELECT ts FROM root.prec.d');
        const rows = [];
        for await (const r of ds) rows.push(r);
        expect(rows.map((r) => r.timestamp)).toEqual([d1, d2]);
        expect(rows.map((r) => r.getLong('Time'))).toEqual([
          BigInt(d1.getTime()) * UNIT[precision],
          BigInt(d2.getTime()) * UNIT[precision],
        ]);
        expect(rows.map((r) => r.getTimestamp('root.prec.d.ts'))).toEqual([d2, d1]);
        expect(rows.map((r) => r.getLong('root.prec.d.ts'))).toEqual([
          BigInt(d2.getTime()) * UNIT[precision],
          BigInt(d1.getTime()) * UNIT[precision],
        ]);
        // a Date given to deleteData is converted as a write's: up to d1 and not beyond
        await s.deleteData('root.prec.d.ts', { endTime: d1 });
        const left = [];
        for await (const r of await s.executeQueryStatement('SELECT ts FROM root.prec.d')) left.push(r.timestamp);
        expect(left).toEqual([d2]);
      } finally {
        await s.close();
      }
    },
  );

  it.each(SERVERS)(
    'a server in $precision: records sent as tablets convert their Dates as records do',
    async ({ precision, port }) => {
      const [tablets, plain] = [new Session({ port }), new Session({ port, recordsAsTablets: false })];
      await tablets.open();
      await plain.open();
      try {
        const at = (i: number) => new Date(Date.UTC(2200, 0, 1) + i * 1001);
        const records = (device: string) =>
          Array.from({ length: 40 }, (_, i) => ({
            deviceId: device,
            timestamp: at(39 - i), // later rows first: the tablet sorts them
            measurements: ['ts', 'n'],
            dataTypes: ['TIMESTAMP' as const, 'INT64' as const],
            values: [at(i), 2n ** 62n + BigInt(i)],
          }));
        const spy = spyRpc('insertTablets');
        await tablets.insertRecords(records('root.prec.tablets')); // 40 records of one device: its tablet
        await plain.insertRecords(records('root.prec.records'));
        expect(spy.mock.calls).toHaveLength(1);
        spy.mockRestore();
        const read = async (device: string) => {
          const rows = [];
          for await (const r of await plain.executeQueryStatement(`SELECT ts, n FROM ${device}`))
            rows.push([r.getLong('Time'), r.getLong(`${device}.ts`), r.getLong(`${device}.n`)]);
          return rows;
        };
        const stored = await read('root.prec.tablets');
        const unit = (d: Date) => BigInt(d.getTime()) * UNIT[precision];
        expect(stored[0]).toEqual([unit(at(0)), unit(at(39)), 2n ** 62n + 39n]);
        expect(stored).toEqual(await read('root.prec.records'));
      } finally {
        await tablets.close();
        await plain.close();
      }
    },
  );
});
