import { tracingChannel } from 'node:diagnostics_channel';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  CHANNELS,
  Session,
  SessionPool,
  TSDataType,
  type InsertTraceContext,
  type QueryTraceContext,
  type TraceContext,
} from '../index.js';

/** The tracing channels and stats against a real server: real endpoints, real byte counts. */
const { host, port } = inject('iotdb');
const DB = `root.it_diag_${Date.now() % 100_000}`;
const endpoint = `${host}:${port}`;

const ended = new Map<string, TraceContext[]>();
const errors: TraceContext[] = [];
const handlers = Object.values(CHANNELS).map((name) => {
  const list: TraceContext[] = [];
  ended.set(name, list);
  const noop = () => undefined;
  const h = {
    start: noop,
    end: noop,
    asyncStart: noop,
    asyncEnd: (ctx: TraceContext) => void list.push({ ...ctx }),
    error: (ctx: TraceContext) => void errors.push(ctx),
  };
  tracingChannel<unknown, TraceContext>(name).subscribe(h);
  return [name, h] as const;
});

let session: Session;
beforeAll(async () => {
  session = new Session({ host, port });
  await session.open();
  await session.executeNonQueryStatement(`CREATE DATABASE ${DB}`).catch(() => undefined);
});
afterAll(async () => {
  await session.executeNonQueryStatement(`DELETE DATABASE ${DB}`).catch(() => undefined);
  await session.close();
  for (const [name, h] of handlers) tracingChannel<unknown, TraceContext>(name).unsubscribe(h);
});

describe('diagnostics against the server', () => {
  it('traces the connect, an insert and a query with the real endpoint and byte counts', async () => {
    const connects = ended.get(CHANNELS.connect)!;
    expect(connects.at(-1)).toMatchObject({ operation: 'openSession', endpoint });
    expect(connects.at(-1)!.bytesOut).toBeGreaterThan(20);
    expect(connects.at(-1)!.bytesIn).toBeGreaterThan(20);

    const rows = 1_000;
    await session.insertTablet({
      deviceId: `${DB}.d1`,
      measurements: ['a', 'b'],
      dataTypes: [TSDataType.INT64, TSDataType.DOUBLE],
      timestamps: Array.from({ length: rows }, (_, i) => i + 1),
      columns: [BigInt64Array.from({ length: rows }, (_, i) => BigInt(i)), new Float64Array(rows)],
    });
    const insert = ended.get(CHANNELS.insert)!.at(-1) as InsertTraceContext;
    expect(insert).toMatchObject({ operation: 'insertTablet', endpoint, rows, points: 2 * rows, attempts: 1 });
    expect(insert.bytesOut).toBeGreaterThan(rows * (8 + 8 + 8)); // times and two 8-byte columns
    expect(insert.bytesIn).toBeGreaterThan(0);
    expect(insert.durationMs).toBeGreaterThan(0);

    const ds = await session.executeQueryStatement(`SELECT a, b FROM ${DB}.d1`);
    const columns = await ds.toColumnar();
    expect(columns.timestamps).toHaveLength(rows);
    const query = ended.get(CHANNELS.query)!.at(-1) as QueryTraceContext;
    expect(query).toMatchObject({
      operation: 'executeQueryStatement',
      statement: `SELECT a, b FROM ${DB}.d1`,
      endpoint,
    });
    expect(query.bytesIn).toBeGreaterThan(100);
    expect(errors).toEqual([]);
  });

  it('traces a failing statement with its error, and counts it in stats', async () => {
    const before = session.stats();
    await expect(session.executeNonQueryStatement('THIS IS NOT SQL')).rejects.toThrow();
    expect(errors.at(-1)).toMatchObject({ operation: 'executeNonQueryStatement', endpoint });
    expect(errors.at(-1)!.error).toBeInstanceOf(Error);
    const after = session.stats();
    expect(after.calls - before.calls).toBe(1);
    expect(after.errors - before.errors).toBe(1);
    expect(after.bytesOut).toBeGreaterThan(before.bytesOut);
    expect(after.bytesIn).toBeGreaterThan(before.bytesIn);
  });

  it('adds up a pool’s sessions in pool.stats()', async () => {
    const pool = new SessionPool({ host, port, maxSize: 2 });
    try {
      await pool.executeParallel([
        (s) =>
          s.insertRecord({
            deviceId: `${DB}.p1`,
            timestamp: 1,
            measurements: ['x'],
            dataTypes: ['INT32'],
            values: [1],
          }),
        (s) =>
          s.insertRecord({
            deviceId: `${DB}.p2`,
            timestamp: 1,
            measurements: ['x'],
            dataTypes: ['INT32'],
            values: [2],
          }),
      ]);
      const st = pool.stats();
      expect(st.sessionsCreated).toBeGreaterThanOrEqual(1);
      expect(st.connects).toBe(st.sessionsCreated);
      expect(st.calls).toBeGreaterThanOrEqual(2 + st.sessionsCreated); // the opens and the two inserts
      expect(st.bytesOut).toBeGreaterThan(0);
    } finally {
      await pool.close();
    }
    expect(pool.stats()).toMatchObject({ size: 0 });
    expect(pool.stats().sessionsClosed).toBe(pool.stats().sessionsCreated);
  });
});
