import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { IoTDBServerError, Session, SessionPool, TableSession, type IoTDBValue, type TreeRow } from '../index.js';

// The batching writer against the real server: what it writes is what a query reads back, exactly.

const { host, port } = inject('iotdb');
const TREE = `root.it_writer_${randomBytes(3).toString('hex')}`;
const TABLE_DB = `it_writer_${randomBytes(3).toString('hex')}`;
let session: Session;

beforeAll(async () => {
  session = new Session({ host, port });
  await session.open();
  await session.executeNonQueryStatement(`CREATE DATABASE ${TREE}`);
});

afterAll(async () => {
  try {
    await session.executeNonQueryStatement(`DELETE DATABASE ${TREE}`);
  } finally {
    await session.close();
  }
});

async function rows(s: Session | TableSession, sql: string): Promise<Record<string, IoTDBValue>[]> {
  const out: Record<string, IoTDBValue>[] = [];
  for await (const r of await s.executeQueryStatement(sql)) out.push(r.toObject());
  return out;
}

describe('tree model', () => {
  it('writes rows out of order, widened, with nulls, inferred and declared types, exactly', async () => {
    const w = session.writer({ types: { f: 'FLOAT', i: 'INT32' } });
    const d = `${TREE}.mixed`;
    await w.write({ deviceId: d, timestamp: 3, values: { f: 1.5, i: 3, big: 2n ** 60n + 1n } });
    await w.write({ deviceId: d, timestamp: 1, values: { f: 0.5, i: 1 } });
    await w.write({ deviceId: d, timestamp: 2, values: { f: null, i: 2, text: 'two', ok: true } });
    await w.write({ deviceId: d, timestamp: new Date(4), values: { x: 4.25 } });
    await w.close();
    expect(w.stats()).toMatchObject({ written: 4, acknowledged: 4, failed: 0 });
    const got = await rows(session, `SELECT f, i, big, text, ok, x FROM ${d} ORDER BY time`);
    expect(got).toEqual([
      {
        Time: 1n,
        [`${d}.f`]: 0.5,
        [`${d}.i`]: 1,
        [`${d}.big`]: null,
        [`${d}.text`]: null,
        [`${d}.ok`]: null,
        [`${d}.x`]: null,
      },
      {
        Time: 2n,
        [`${d}.f`]: null,
        [`${d}.i`]: 2,
        [`${d}.big`]: null,
        [`${d}.text`]: 'two',
        [`${d}.ok`]: true,
        [`${d}.x`]: null,
      },
      {
        Time: 3n,
        [`${d}.f`]: 1.5,
        [`${d}.i`]: 3,
        [`${d}.big`]: 2n ** 60n + 1n,
        [`${d}.text`]: null,
        [`${d}.ok`]: null,
        [`${d}.x`]: null,
      },
      {
        Time: 4n,
        [`${d}.f`]: null,
        [`${d}.i`]: null,
        [`${d}.big`]: null,
        [`${d}.text`]: null,
        [`${d}.ok`]: null,
        [`${d}.x`]: 4.25,
      },
    ]);
    const types = await rows(session, `SHOW TIMESERIES ${d}.*`);
    expect(Object.fromEntries(types.map((r) => [String(r.Timeseries).split('.').pop(), r.DataType]))).toEqual({
      f: 'FLOAT',
      i: 'INT32',
      big: 'INT64',
      text: 'TEXT',
      ok: 'BOOLEAN',
      x: 'DOUBLE',
    });
  });

  it('a pooled writer ingests 30,000 rows of 40 devices row by row; count(*) equals the acknowledged rows', async () => {
    const pool = new SessionPool({ host, port, maxSize: 2 });
    const w = pool.writer({ maxRows: 500, flushIntervalMs: 100 });
    try {
      for (let r = 0; r < 750; r++)
        for (let d = 0; d < 40; d++)
          await w.write({ deviceId: `${TREE}.p${d}`, timestamp: r, values: { v: r * d, n: BigInt(r) } });
      await w.close();
    } finally {
      await pool.close();
    }
    expect(w.stats()).toMatchObject({ written: 30_000, acknowledged: 30_000, failed: 0, buffered: 0, inFlight: 0 });
    const [counts] = await rows(session, `SELECT count(v), count(n) FROM ${TREE}.p*`);
    expect(Object.values(counts).reduce((a, b) => Number(a) + Number(b), 0)).toBe(60_000);
  });

  it('a pooled writer applies a point written again and again in the order written: the last value stays', async () => {
    const pool = new SessionPool({ host, port, maxSize: 4 });
    const w = pool.writer({ maxRows: 1, flushIntervalMs: 0 }); // a flush, a request, at every row
    try {
      for (let d = 0; d < 8; d++)
        for (let k = 1; k <= 6; k++) await w.write({ deviceId: `${TREE}.again${d}`, timestamp: 1, values: { v: k } });
      await w.close();
    } finally {
      await pool.close();
    }
    expect(w.stats()).toMatchObject({ written: 48, acknowledged: 48, failed: 0 });
    const [last] = await rows(session, `SELECT v FROM ${TREE}.again*`);
    expect(new Set(Object.entries(last).flatMap(([k, v]) => (k === 'Time' ? [] : [v])))).toEqual(new Set([6]));
  });

  it('stores the rows a writer holds when its pool or session is closed before it', async () => {
    const pool = new SessionPool({ host, port, maxSize: 2 });
    const pooled = pool.writer({ flushIntervalMs: 0 });
    const own = new Session({ host, port });
    await own.open();
    const single = own.writer({ flushIntervalMs: 0 });
    for (let t = 1; t <= 100; t++) {
      await pooled.write({ deviceId: `${TREE}.owner.pool`, timestamp: t, values: { v: t } });
      await single.write({ deviceId: `${TREE}.owner.session`, timestamp: t, values: { v: t } });
    }
    await pool.close();
    await own.close();
    for (const w of [pooled, single]) expect(w.stats()).toMatchObject({ acknowledged: 100, failed: 0, buffered: 0 });
    const [counts] = await rows(session, `SELECT count(v) FROM ${TREE}.owner.*`);
    expect(Object.values(counts)).toEqual([100n, 100n]);
  });

  it('hands onError exactly the rows the server refused, and writes the others', async () => {
    await session.executeNonQueryStatement(`CREATE TIMESERIES ${TREE}.typed.v WITH DATATYPE=BOOLEAN`);
    const refused: { error: Error; rows: TreeRow[] }[] = [];
    const w = session.writer({ onError: (error, rs) => refused.push({ error, rows: rs }) });
    await w.write({ deviceId: `${TREE}.typed`, timestamp: 1, values: { v: 'not a boolean' } });
    await w.write({ deviceId: `${TREE}.fine`, timestamp: 1, values: { v: 1 } });
    await w.close();
    expect(refused).toHaveLength(1);
    expect(refused[0].error).toBeInstanceOf(IoTDBServerError);
    expect(refused[0].rows).toEqual([{ deviceId: `${TREE}.typed`, timestamp: 1, values: { v: 'not a boolean' } }]);
    expect(w.stats()).toMatchObject({ written: 2, acknowledged: 1, failed: 1 });
    expect(await rows(session, `SELECT v FROM ${TREE}.fine`)).toEqual([{ Time: 1n, [`${TREE}.fine.v`]: 1 }]);
  });

  it('rejects a row naming the time column (IoTDB refuses a measurement `time` or `timestamp`) and stores the others of its device', async () => {
    const w = session.writer();
    const d = `${TREE}.reserved`;
    await w.write({ deviceId: d, timestamp: 1, values: { v: 1 } });
    await expect(w.write({ deviceId: d, timestamp: 2, values: { v: 2, time: 2 } })).rejects.toThrow(/^values\.time: /);
    await expect(w.write({ deviceId: d, timestamp: 3, values: { Timestamp: 3 } })).rejects.toThrow(
      /^values\.Timestamp: /,
    );
    await w.write({ deviceId: d, timestamp: 4, values: { v: 4 } });
    await w.close();
    expect(w.stats()).toMatchObject({ acknowledged: 2, rejected: 2, failed: 0 });
    expect(await rows(session, `SELECT v FROM ${d}`)).toEqual([
      { Time: 1n, [`${d}.v`]: 1 },
      { Time: 4n, [`${d}.v`]: 4 },
    ]);
  });

  it("writes numbers to FLOAT, INT32 and INT64 series made before, without `types`: every row stored as the series' type", async () => {
    const d = `${TREE}.made`;
    for (const [m, type] of [
      ['f', 'FLOAT'],
      ['i', 'INT32'],
      ['l', 'INT64'],
    ])
      await session.executeNonQueryStatement(`CREATE TIMESERIES ${d}.${m} WITH DATATYPE=${type}`);
    const refused: Error[] = [];
    const w = session.writer({ onError: (error) => refused.push(error) });
    await w.write({ deviceId: d, timestamp: 1, values: { f: 25.5, i: 3, l: -(2 ** 40), x: 0.1 } });
    await w.flush();
    await w.write({ deviceId: d, timestamp: 2, values: { f: 0.1, i: -7, l: 5, x: 2.5 } });
    await w.close();
    expect(refused).toEqual([]);
    expect(w.stats()).toMatchObject({ written: 2, acknowledged: 2, failed: 0 });
    expect(await rows(session, `SELECT f, i, l, x FROM ${d} ORDER BY time`)).toEqual([
      { Time: 1n, [`${d}.f`]: 25.5, [`${d}.i`]: 3, [`${d}.l`]: -(2n ** 40n), [`${d}.x`]: 0.1 },
      { Time: 2n, [`${d}.f`]: Math.fround(0.1), [`${d}.i`]: -7, [`${d}.l`]: 5n, [`${d}.x`]: 2.5 },
    ]);
  });

  it('writes bigints to an INT32 series and date strings to a DATE series made before, without `types`', async () => {
    const d = `${TREE}.madeDate`;
    await session.executeNonQueryStatement(`CREATE TIMESERIES ${d}.i WITH DATATYPE=INT32`);
    await session.executeNonQueryStatement(`CREATE TIMESERIES ${d}.day WITH DATATYPE=DATE`);
    const w = session.writer({});
    await w.write({ deviceId: d, timestamp: 1, values: { i: 7n, day: '2024-02-29' } });
    await w.write({ deviceId: d, timestamp: 2, values: { i: -(2n ** 31n), day: '1970-01-01' } });
    await w.close();
    expect(w.stats()).toMatchObject({ written: 2, acknowledged: 2, failed: 0 });
    expect(await rows(session, `SELECT i, day FROM ${d} ORDER BY time`)).toEqual([
      { Time: 1n, [`${d}.i`]: 7, [`${d}.day`]: new Date(Date.UTC(2024, 1, 29)) },
      { Time: 2n, [`${d}.i`]: -(2 ** 31), [`${d}.day`]: new Date(0) },
    ]);
  });

  it('writes Dates to a DATE series made before, without `types`: their UTC day, as the session writes them', async () => {
    const d = `${TREE}.madeDay`;
    await session.executeNonQueryStatement(`CREATE TIMESERIES ${d}.day WITH DATATYPE=DATE`);
    const w = session.writer({});
    await w.write({ deviceId: d, timestamp: 1, values: { day: new Date(Date.UTC(2024, 1, 29)) } });
    await w.write({ deviceId: d, timestamp: 2, values: { day: new Date('2025-12-31T23:59:59Z') } });
    await w.close();
    expect(w.stats()).toMatchObject({ written: 2, acknowledged: 2, failed: 0 });
    expect(await rows(session, `SELECT day FROM ${d} ORDER BY time`)).toEqual([
      { Time: 1n, [`${d}.day`]: new Date(Date.UTC(2024, 1, 29)) },
      { Time: 2n, [`${d}.day`]: new Date(Date.UTC(2025, 11, 31)) },
    ]);
  });

  it('writes bytes to TEXT and STRING series made before, without `types`: stored as they are, as the session writes them', async () => {
    const d = `${TREE}.madeText`;
    await session.executeNonQueryStatement(`CREATE TIMESERIES ${d}.t WITH DATATYPE=TEXT`);
    await session.executeNonQueryStatement(`CREATE TIMESERIES ${d}.s WITH DATATYPE=STRING`);
    const w = session.writer({});
    await w.write({ deviceId: d, timestamp: 1, values: { t: Buffer.from('hi'), s: new Uint8Array([0xff, 0x41]) } });
    await w.close();
    expect(w.stats()).toMatchObject({ written: 1, acknowledged: 1, failed: 0 });
    const ds = await session.executeQueryStatement(`SELECT t, s FROM ${d}`);
    const read: string[][] = [];
    for await (const row of ds) read.push([row.getString(2)!, row.getBlob(3)!.toString('hex')]);
    expect(read).toEqual([['hi', 'ff41']]);
  });

  it('learns the type of a series named in backquotes, its device written with or without them', async () => {
    const d = `${TREE}.madeQuoted`;
    await session.executeNonQueryStatement(`CREATE TIMESERIES ${d}.\`x-y\` WITH DATATYPE=FLOAT`);
    const w = session.writer({});
    await w.write({ deviceId: d, timestamp: 1, values: { '`x-y`': 0.1 } });
    await w.write({ deviceId: `${TREE}.\`madeQuoted\``, timestamp: 2, values: { '`x-y`': 0.2 } });
    await w.close();
    expect(w.stats()).toMatchObject({ written: 2, acknowledged: 2, failed: 0 });
    expect(await rows(session, `SELECT \`x-y\` FROM ${d} ORDER BY time`)).toEqual([
      { Time: 1n, [`${d}.\`x-y\``]: Math.fround(0.1) },
      { Time: 2n, [`${d}.\`x-y\``]: Math.fround(0.2) },
    ]);
  });

  it('applies a point written through two spellings of its device and series in the order written: the last value stays', async () => {
    const w = session.writer(); // one flush: every row below in one request
    const device = (k: number) => (k % 2 ? `${TREE}.\`spelt\`` : `${TREE}.spelt`);
    const series = (k: number) => (k % 3 ? 'v' : '`v`');
    for (let k = 1; k <= 6; k++) await w.write({ deviceId: device(k), timestamp: 1, values: { [series(k)]: k } });
    await w.close();
    expect(w.stats()).toMatchObject({ written: 6, acknowledged: 6, failed: 0 });
    expect(await rows(session, `SELECT v FROM ${TREE}.spelt`)).toEqual([{ Time: 1n, [`${TREE}.spelt.v`]: 6 }]);
  });

  it('a stream pipeline of CSV lines ends with every row stored', async () => {
    const lines = Array.from({ length: 2_000 }, (_, i) => `${TREE}.csv${i % 5},${i},${(i * 0.5).toFixed(1)}`);
    const w = session.writer();
    const toRow = async function* (source: AsyncIterable<string>) {
      for await (const line of source) {
        const [deviceId, t, v] = line.split(',');
        yield { deviceId, timestamp: Number(t), values: { temp: Number(v) } };
      }
    };
    await pipeline(Readable.from(lines), toRow, w.stream({ closeWriter: true }));
    const [c] = await rows(session, `SELECT count(temp) FROM ${TREE}.csv*`);
    expect(Object.values(c).reduce((a, b) => Number(a) + Number(b), 0)).toBe(2_000);
  });
});

describe('table model', () => {
  let admin: TableSession;
  let table: TableSession;
  beforeAll(async () => {
    admin = new TableSession({ host, port });
    await admin.open();
    await admin.executeNonQueryStatement(`CREATE DATABASE ${TABLE_DB}`);
    table = new TableSession({ host, port, database: TABLE_DB });
    await table.open();
  });
  afterAll(async () => {
    await table?.close();
    await admin?.executeNonQueryStatement(`DROP DATABASE ${TABLE_DB}`).catch(() => undefined);
    await admin?.close();
  });

  it('writes tags, attributes and fields of several devices; the table reads back the same rows', async () => {
    const w = table.writer({ types: { temp: 'FLOAT' } });
    await w.write({
      table: 'sensors',
      timestamp: 2,
      tags: { site: 'a', unit: '1' },
      attributes: { model: 'x' },
      fields: { temp: 20.5, ok: true },
    });
    await w.write({
      table: 'sensors',
      timestamp: 1,
      tags: { site: 'b', unit: '1' },
      fields: { temp: 21.5, count: 7n },
    });
    await w.write({
      table: 'sensors',
      timestamp: 3,
      tags: { site: 'a', unit: '1' },
      fields: { temp: 22.5, note: 'late' },
    });
    await w.close();
    expect(w.stats()).toMatchObject({ written: 3, acknowledged: 3, failed: 0 });
    const got = await rows(table, 'SELECT time, site, unit, model, temp, ok, count, note FROM sensors ORDER BY time');
    expect(got).toEqual([
      { time: 1n, site: 'b', unit: '1', model: null, temp: 21.5, ok: null, count: 7n, note: null },
      { time: 2n, site: 'a', unit: '1', model: 'x', temp: 20.5, ok: true, count: null, note: null },
      { time: 3n, site: 'a', unit: '1', model: 'x', temp: 22.5, ok: null, count: null, note: 'late' },
    ]);
  });

  it('keeps the attributes a device last wrote when a later flush holds its rows without them beside another device setting them', async () => {
    // IoTDB 2.0.1-beta clears an attribute updated since the device was made when a row sends it as null
    const w = table.writer({ flushIntervalMs: 0 });
    const attrs = (site: string) => ({ table: 'kept', tags: { site }, fields: { v: 1 } });
    await w.write({ ...attrs('x'), timestamp: 1, attributes: { fw: 'a', hw: 'h' } });
    await w.flush();
    await w.write({ ...attrs('x'), timestamp: 2, attributes: { fw: 'b' } });
    await w.flush();
    await w.write({ ...attrs('x'), timestamp: 3 });
    await w.write({ ...attrs('y'), timestamp: 4, attributes: { fw: 'c', hw: 'k' } });
    await w.flush();
    await w.write({ ...attrs('x'), timestamp: 5, attributes: { hw: 'i' } });
    await w.write({ ...attrs('y'), timestamp: 6, attributes: { fw: 'd' } });
    await w.close();
    expect(w.stats()).toMatchObject({ written: 6, acknowledged: 6, failed: 0 });
    expect(await rows(table, 'SELECT DISTINCT site, fw, hw FROM kept ORDER BY site')).toEqual([
      { site: 'x', fw: 'b', hw: 'i' },
      { site: 'y', fw: 'd', hw: 'k' },
    ]);
  });

  it('keeps apart the devices of an empty tag and a null one, which IoTDB keeps as two, with their own attributes', async () => {
    const w = table.writer();
    await w.write({
      table: 'bays',
      timestamp: 1,
      tags: { site: 'a', bay: '' },
      attributes: { m: 'e' },
      fields: { v: 1 },
    });
    await w.write({
      table: 'bays',
      timestamp: 2,
      tags: { site: 'a', bay: null },
      attributes: { m: 'n' },
      fields: { v: 2 },
    });
    await w.close();
    expect(await rows(table, 'SELECT time, bay, m FROM bays ORDER BY time')).toEqual([
      { time: 1n, bay: '', m: 'e' },
      { time: 2n, bay: null, m: 'n' },
    ]);
  });

  it("writes numbers to a table's FLOAT and INT32 fields made before, without `types`, named in any case", async () => {
    await table.executeNonQueryStatement('CREATE TABLE made (site STRING TAG, level FLOAT FIELD, n INT32 FIELD)');
    const w = table.writer({});
    await w.write({ table: 'made', timestamp: 1, tags: { site: 'a' }, fields: { Level: 1.1, n: 4 } });
    await w.close();
    expect(w.stats()).toMatchObject({ written: 1, acknowledged: 1, failed: 0 });
    expect(await rows(table, 'SELECT time, site, level, n FROM made')).toEqual([
      { time: 1n, site: 'a', level: Math.fround(1.1), n: 4 },
    ]);
  });

  it("writes a bigint to a table's INT32 field and a date string to its DATE field made before, without `types`", async () => {
    await table.executeNonQueryStatement('CREATE TABLE made_day (site STRING TAG, n INT32 FIELD, day DATE FIELD)');
    const w = table.writer({});
    await w.write({ table: 'made_day', timestamp: 1, tags: { site: 'a' }, fields: { n: 9n, day: '2025-12-31' } });
    await w.close();
    expect(w.stats()).toMatchObject({ written: 1, acknowledged: 1, failed: 0 });
    expect(await rows(table, 'SELECT time, site, n, day FROM made_day')).toEqual([
      { time: 1n, site: 'a', n: 9, day: new Date(Date.UTC(2025, 11, 31)) },
    ]);
  });

  it("writes a Date to a table's DATE field made before, without `types`, beside a TIMESTAMP field", async () => {
    await table.executeNonQueryStatement(
      'CREATE TABLE made_date (site STRING TAG, day DATE FIELD, at TIMESTAMP FIELD)',
    );
    const w = table.writer({});
    const at = new Date('2024-01-02T03:04:05Z');
    await w.write({ table: 'made_date', timestamp: 1, tags: { site: 'a' }, fields: { day: at, at } });
    await w.close();
    expect(w.stats()).toMatchObject({ written: 1, acknowledged: 1, failed: 0 });
    expect(await rows(table, 'SELECT time, site, day, at FROM made_date')).toEqual([
      { time: 1n, site: 'a', day: new Date(Date.UTC(2024, 0, 2)), at: BigInt(at.getTime()) },
    ]);
  });

  it("writes bytes to a table's STRING field made before, without `types`", async () => {
    await table.executeNonQueryStatement('CREATE TABLE made_text (site STRING TAG, note STRING FIELD)');
    const w = table.writer({});
    await w.write({ table: 'made_text', timestamp: 1, tags: { site: 'a' }, fields: { note: Buffer.from('ok') } });
    await w.close();
    expect(w.stats()).toMatchObject({ written: 1, acknowledged: 1, failed: 0 });
    expect(await rows(table, 'SELECT time, site, note FROM made_text')).toEqual([{ time: 1n, site: 'a', note: 'ok' }]);
  });

  it('takes names in any case as the one column IoTDB makes of them: every row stored', async () => {
    const w = table.writer({ types: { level: 'FLOAT' } });
    await w.write({ table: 'Readings', timestamp: 1, tags: { Site: 'a' }, fields: { Level: 1.5 } });
    await w.write({ table: 'Readings', timestamp: 2, tags: { site: 'b' }, fields: { LEVEL: 2.5 } });
    await w.close();
    expect(w.stats()).toMatchObject({ written: 2, acknowledged: 2, failed: 0 });
    expect(await rows(table, 'SELECT time, site, level FROM readings ORDER BY time')).toEqual([
      { time: 1n, site: 'a', level: 1.5 },
      { time: 2n, site: 'b', level: 2.5 },
    ]);
  });
});
