import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  IoTDBBatchError,
  IoTDBServerError,
  IoTDBValidationError,
  Session,
  SessionPool,
  escapeIdentifier,
  sql,
  type IoTDBValue,
} from '../index.js';

/** Schema and data management calls and safe SQL against the real server, each read back. */
const { host, port } = inject('iotdb');
const DB = `root.it_schema_${randomBytes(3).toString('hex')}`;
let s: Session;

beforeAll(async () => {
  s = new Session({ host, port });
  await s.open();
  await s.createDatabase(DB);
});
afterAll(async () => {
  await s.deleteDatabases([DB]).catch(() => undefined);
  await s.close();
});

async function rows(query: string): Promise<Record<string, IoTDBValue>[]> {
  const out: Record<string, IoTDBValue>[] = [];
  for await (const r of await s.executeQueryStatement(query)) out.push(r.toObject());
  return out;
}

async function count(path: string): Promise<number> {
  const [r] = await rows(`SELECT count(*) FROM ${path}`);
  return Object.values(r).reduce<number>((n, v) => n + Number(v ?? 0), 0);
}

describe('schema and data management', () => {
  it('createDatabase shows in SHOW DATABASES; creating it twice is a server error with its code', async () => {
    expect((await rows('SHOW DATABASES')).map((r) => r.Database)).toContain(DB);
    const e = await s.createDatabase(DB).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBServerError);
    expect((e as IoTDBServerError).statusCode).toBeGreaterThan(200);
  });

  it('createTimeseries with alias, encoding, compressor, tags and attributes reads back the same', async () => {
    await s.createTimeseries({
      path: `${DB}.d1.s1`,
      dataType: 'FLOAT',
      encoding: 'GORILLA',
      compressor: 'LZ4',
      tags: { unit: "deg'C" },
      attributes: { owner: 'ops' },
      alias: 'temp',
    });
    const [r] = await rows(`SHOW TIMESERIES ${DB}.d1.s1`);
    expect(r).toMatchObject({
      Timeseries: `${DB}.d1.s1`,
      Alias: 'temp',
      DataType: 'FLOAT',
      Encoding: 'GORILLA',
      Compression: 'LZ4',
    });
    expect(JSON.parse(String(r.Tags))).toEqual({ unit: "deg'C" });
    expect(JSON.parse(String(r.Attributes))).toEqual({ owner: 'ops' });
  });

  it('createAlignedTimeseries and createMultiTimeseries; checkTimeseriesExists before and after deleteTimeseries', async () => {
    await s.createAlignedTimeseries({
      deviceId: `${DB}.d2`,
      measurements: ['a', 'b'],
      dataTypes: ['INT32', 'TEXT'],
      encodings: ['RLE', 'PLAIN'],
    });
    await s.createMultiTimeseries([
      { path: `${DB}.d3.x`, dataType: 'INT64' },
      { path: `${DB}.d3.y`, dataType: 'BOOLEAN', encoding: 'RLE' },
    ]);
    const shown = await rows(`SHOW TIMESERIES ${DB}.d2.*`);
    expect(shown.map((r) => [r.Timeseries, r.DataType, r.Encoding])).toEqual(
      expect.arrayContaining([
        [`${DB}.d2.a`, 'INT32', 'RLE'],
        [`${DB}.d2.b`, 'TEXT', 'PLAIN'],
      ]),
    );
    expect(await s.checkTimeseriesExists(`${DB}.d3.x`)).toBe(true);
    await s.deleteTimeseries([`${DB}.d3.x`, `${DB}.d3.y`]);
    expect(await s.checkTimeseriesExists(`${DB}.d3.x`)).toBe(false);
  });

  it('a device named with a * in backquotes is one device: created, written and read back by the calls that take no pattern', async () => {
    const device = `${DB}.\`d*\``;
    await s.createAlignedTimeseries({ deviceId: device, measurements: ['v'], dataTypes: ['INT32'] });
    await s.insertAlignedTablet({
      deviceId: device,
      measurements: ['v'],
      dataTypes: ['INT32'],
      timestamps: [7],
      values: [[70]],
    });
    const last = await (await s.executeLastDataQueryForOneDevice(DB, device, ['v'])).toColumnar();
    expect([last.timestamps?.[0], last.values[1][0]]).toEqual([7n, '70']);
    await s.createTimeseries({ path: `${DB}.d9.\`s*\``, dataType: 'INT64' });
    expect(await s.checkTimeseriesExists(`${DB}.d9.\`s*\``)).toBe(true);
  });

  it('createMultiTimeseries over a series that exists creates the others, as Java does, and names the existing one', async () => {
    await s.createTimeseries({ path: `${DB}.d5.a`, dataType: 'INT32' });
    const paths = ['a', 'b', 'c'].map((m) => `${DB}.d5.${m}`);
    const e = await s
      .createMultiTimeseries(paths.map((path) => ({ path, dataType: 'INT32' })))
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBBatchError);
    expect((e as IoTDBBatchError).failures).toMatchObject([{ index: 0, device: paths[0], statusCode: 503 }]);
    expect((e as IoTDBBatchError).succeeded).toEqual([1, 2]);
    expect(await s.checkTimeseriesExists(paths[2])).toBe(true);
  });

  it('deleteData removes [startTime, endTime], both ends inclusive; without startTime, all up to endTime', async () => {
    const ts = Array.from({ length: 10 }, (_, i) => i + 1);
    await s.insertTablet({
      deviceId: `${DB}.d4`,
      measurements: ['v'],
      dataTypes: ['INT32'],
      timestamps: ts,
      values: ts.map((t) => [t]),
    });
    await s.deleteData(`${DB}.d4.v`, { startTime: 3, endTime: 5 });
    expect((await rows(`SELECT v FROM ${DB}.d4`)).map((r) => Number(r.Time))).toEqual([1, 2, 6, 7, 8, 9, 10]);
    await s.deleteData([`${DB}.d4.v`], { endTime: 7n });
    expect((await rows(`SELECT v FROM ${DB}.d4`)).map((r) => Number(r.Time))).toEqual([8, 9, 10]);
  });

  it('schema templates: create, set, activate on devices, unset and drop', async () => {
    const name = `t_${randomBytes(3).toString('hex')}`;
    await s.createSchemaTemplate({
      name,
      measurements: ['temp', 'ok'],
      dataTypes: ['DOUBLE', 'BOOLEAN'],
      encodings: ['GORILLA', 'RLE'],
      compressors: ['SNAPPY', 'SNAPPY'],
    });
    expect((await rows(`SHOW NODES IN SCHEMA TEMPLATE ${name}`)).map((r) => r.ChildNodes).sort()).toEqual([
      'ok',
      'temp',
    ]);
    await s.setSchemaTemplate(name, `${DB}.tpl`);
    await s.createTimeseriesUsingSchemaTemplate([`${DB}.tpl.d0`]);
    // one where it is active already: refused ([515]); the template activated on the others
    const again = await s
      .createTimeseriesUsingSchemaTemplate([`${DB}.tpl.d0`, `${DB}.tpl.d3`])
      .catch((x: unknown) => x);
    expect((again as IoTDBBatchError).failures).toMatchObject([{ index: 0, statusCode: 515 }]);
    expect(await s.checkTimeseriesExists(`${DB}.tpl.d3.temp`)).toBe(true);
    // several devices: IoTDB's statement takes one ([700] on a list), Java's request a list
    await s.createTimeseriesUsingSchemaTemplate([`${DB}.tpl.d1`, `${DB}.tpl.d2`]);
    expect(await s.checkTimeseriesExists(`${DB}.tpl.d1.temp`)).toBe(true);
    expect(await s.checkTimeseriesExists(`${DB}.tpl.d2.ok`)).toBe(true);
    // what Java's template calls tell, read off the server
    expect(await s.showAllTemplates()).toContain(name);
    expect((await s.showMeasurementsInTemplate(name)).sort()).toEqual(['ok', 'temp']);
    expect(await s.countMeasurementsInTemplate(name)).toBe(2);
    expect([await s.isMeasurementInTemplate(name, 'ok'), await s.isMeasurementInTemplate(name, 'nope')]).toEqual([
      true,
      false,
    ]);
    expect(await s.showPathsTemplateSetOn(name)).toEqual([`${DB}.tpl`]);
    expect((await s.showPathsTemplateUsingOn(name)).sort()).toEqual([0, 1, 2, 3].map((i) => `${DB}.tpl.d${i}`));
    await s.executeNonQueryStatement(`DEACTIVATE SCHEMA TEMPLATE ${name} FROM ${DB}.tpl.*`);
    await s.unsetSchemaTemplate(`${DB}.tpl`, name);
    await s.dropSchemaTemplate(name);
    expect(await s.showAllTemplates()).not.toContain(name);
    // a template that is not there: the server's error, as Java's calls give it
    expect(await s.showMeasurementsInTemplate(name).catch((x: unknown) => x)).toBeInstanceOf(IoTDBServerError);
  });

  it('deleteDatabases deletes those that exist in one statement, a missing one beside them no error (as Java deleteStorageGroups)', async () => {
    const [a, b] = [`${DB}_a`, `${DB}_b`];
    await s.createDatabase(a);
    await s.createDatabase(b);
    await s.deleteDatabases([a, `${DB}_missing`, b]);
    expect((await rows(`SHOW DATABASES ${DB}_*`)).map((r) => r.Database)).toEqual([]);
    // none of them there: the server's error, with its code
    const e = await s.deleteDatabases([a, b]).catch((x: unknown) => x);
    expect(e).toMatchObject({ statusCode: 508 });
  });

  it('a pool has the same calls', async () => {
    const pool = new SessionPool({ host, port, maxSize: 2 });
    try {
      await pool.createTimeseries({ path: `${DB}.p.s`, dataType: 'INT32' });
      expect(await pool.checkTimeseriesExists(`${DB}.p.s`)).toBe(true);
      await pool.deleteTimeseries(`${DB}.p.s`);
      expect(await pool.checkTimeseriesExists(`${DB}.p.s`)).toBe(false);
    } finally {
      await pool.close();
    }
  });
});

describe('safe SQL', () => {
  const HOSTILE = ["it's", "a'); DELETE DATABASE root.**; --", 'back\\slash\\', '"double"', '中文 😀', "''"];

  it('a hostile value written through the sql template reads back unchanged, and nothing else happened', async () => {
    for (const [i, value] of HOSTILE.entries()) {
      await s.executeNonQueryStatement(
        sql`INSERT INTO ${sql.path(`${DB}.safe`)}(time, note) VALUES (${i + 1}, ${value})`,
      );
    }
    const back = await rows(`SELECT note FROM ${DB}.safe`);
    expect(back.map((r) => r[`${DB}.safe.note`])).toEqual(HOSTILE);
    expect((await rows('SHOW DATABASES')).map((r) => r.Database)).toContain(DB);
  });

  it('a hostile measurement name is one node with escapeIdentifier', async () => {
    const name = 'odd.`name` x';
    await s.createTimeseries({ path: `${DB}.safe2.${escapeIdentifier(name)}`, dataType: 'INT32' });
    await s.executeNonQueryStatement(
      sql`INSERT INTO ${sql.path(`${DB}.safe2`)}(time, ${sql.id(name)}) VALUES (1, ${42})`,
    );
    expect(await count(`${DB}.safe2`)).toBe(1);
  });
});

describe('rows and time zones', () => {
  it('typed getters read every type back, by name and by 1-based position', async () => {
    const device = `${DB}.types`;
    await s.insertTablet({
      deviceId: device,
      measurements: ['b', 'i', 'l', 'f', 'd', 't', 'ts', 'dt', 'bl', 'st'],
      dataTypes: ['BOOLEAN', 'INT32', 'INT64', 'FLOAT', 'DOUBLE', 'TEXT', 'TIMESTAMP', 'DATE', 'BLOB', 'STRING'],
      timestamps: [1_700_000_000_000],
      values: [[true, 7, 2n ** 60n, 1.5, 2.25, 'txt', 1_700_000_000_123n, '2024-02-29', Buffer.from([1, 2]), null]],
    });
    const ds = await s.executeQueryStatement(`SELECT b, i, l, f, d, t, ts, dt, bl, st FROM ${device}`);
    const row = await ds.next();
    await ds.close();
    expect(row.getBoolean(`${device}.b`)).toBe(true);
    expect(row.getInt(`${device}.i`)).toBe(7);
    expect(row.getLong(`${device}.l`)).toBe(2n ** 60n);
    expect(row.getFloat(`${device}.f`)).toBe(1.5);
    expect(row.getDouble(`${device}.d`)).toBe(2.25);
    expect(row.getString(`${device}.t`)).toBe('txt');
    expect(row.getTimestamp(`${device}.ts`)).toEqual(new Date(1_700_000_000_123));
    expect(row.getDate(`${device}.dt`)).toEqual(new Date(Date.UTC(2024, 1, 29)));
    expect(row.getBlob(`${device}.bl`)).toEqual(Buffer.from([1, 2]));
    expect(row.isNull(`${device}.st`)).toBe(true);
    expect(row.getTimestamp(1)).toEqual(new Date(1_700_000_000_000)); // the time column
    expect(row.getBoolean(2)).toBe(true);
    expect(() => row.getInt(`${device}.t`)).toThrow(/getInt/);
  });

  it('setTimeZone changes how the server renders times; getTimeZone returns the zone as given', async () => {
    const z = new Session({ host, port, timeZone: 'UTC' });
    await z.open();
    try {
      expect(z.getTimeZone()).toBe('UTC');
      await z.setTimeZone('+05:30');
      expect(z.getTimeZone()).toBe('+05:30');
      // a time written as a zone-less string is read in the session's zone
      await z.executeNonQueryStatement(`INSERT INTO ${DB}.tz(time, v) VALUES (2024-01-01T00:00:00, 1)`);
      const ds = await z.executeQueryStatement(`SELECT v FROM ${DB}.tz`);
      const row = await ds.next();
      await ds.close();
      expect(row.timestamp).toBe(BigInt(Date.UTC(2024, 0, 1) - 5.5 * 3600_000));
      // refused before it is sent, as the server would ([703] Unknown time-zone ID), the zone left as it was
      await expect(z.setTimeZone('Not/AZone')).rejects.toThrow(IoTDBValidationError);
      expect(z.getTimeZone()).toBe('+05:30');
    } finally {
      await z.close();
    }
  });
});

describe('string records and records of one device', () => {
  it('insertStringRecord(s): the server infers the types; values read back', async () => {
    await s.insertStringRecord({
      deviceId: `${DB}.str`,
      timestamp: 1,
      measurements: ['n', 't'],
      values: ['42', "'hi'"],
    });
    await s.insertStringRecords([
      { deviceId: `${DB}.str`, timestamp: 2, measurements: ['n', 't'], values: ['43', "'ho'"] },
      { deviceId: `${DB}.str2`, timestamp: 1, measurements: ['n'], values: ['1.5'] },
    ]);
    const shown = await rows(`SHOW TIMESERIES ${DB}.str*.*`);
    expect(shown.length).toBe(3);
    expect(await count(`${DB}.str`)).toBe(4);
    // each value under its own measurement, as written
    const back = await rows(`SELECT n, t FROM ${DB}.str`);
    expect(back.map((r) => [Number(r.Time), Number(r[`${DB}.str.n`]), r[`${DB}.str.t`]])).toEqual([
      [1, 42, 'hi'],
      [2, 43, 'ho'],
    ]);
    expect((await rows(`SELECT n FROM ${DB}.str2`)).map((r) => r[`${DB}.str2.n`])).toEqual([1.5]);
  });

  it('insertRecordsOfOneDevice and the aligned variant: unsorted rows land at their own times', async () => {
    const row = (t: number, v: number) => ({
      timestamp: t,
      measurements: ['v', 'w'],
      dataTypes: ['INT32' as const, 'TEXT' as const],
      values: [v, `r${v}`],
    });
    await s.insertRecordsOfOneDevice(`${DB}.one`, [row(3, 30), row(1, 10), row(2, 20)]);
    await s.insertAlignedRecordsOfOneDevice(`${DB}.onea`, [row(2, 20), row(1, 10)]);
    const back = await rows(`SELECT v, w FROM ${DB}.one`);
    expect(back.map((r) => [Number(r.Time), r[`${DB}.one.v`], r[`${DB}.one.w`]])).toEqual([
      [1, 10, 'r10'],
      [2, 20, 'r20'],
      [3, 30, 'r30'],
    ]);
    expect(await count(`${DB}.onea`)).toBe(4);
    expect((await rows(`SHOW DEVICES ${DB}.onea`))[0]?.IsAligned).toBe('true');
  });
});

describe('tree queries', () => {
  const dev = `${DB}.q`;
  beforeAll(async () => {
    const ts = Array.from({ length: 10 }, (_, i) => i + 1);
    await s.insertTablet({
      deviceId: dev,
      measurements: ['s1', 's2'],
      dataTypes: ['INT32', 'DOUBLE'],
      timestamps: ts,
      values: ts.map((t) => [t, t / 2]),
    });
  });

  const all = async (ds: Promise<import('../index.js').SessionDataSet>) => {
    const out = [];
    for await (const r of await ds) out.push(r);
    return out;
  };

  it('executeRawDataQuery: [startTime, endTime)', async () => {
    const rows = await all(s.executeRawDataQuery([`${dev}.s1`, `${dev}.s2`], 3, 6));
    expect(rows.map((r) => [Number(r.timestamp), r.getInt(`${dev}.s1`), r.getDouble(`${dev}.s2`)])).toEqual([
      [3, 3, 1.5],
      [4, 4, 2],
      [5, 5, 2.5],
    ]);
  });

  it('executeLastDataQuery: the last point, and none past lastTime', async () => {
    const rows = await all(s.executeLastDataQuery([`${dev}.s1`]));
    expect(rows.map((r) => [Number(r.timestamp), r.getValue('Timeseries'), r.getValue('Value')])).toEqual([
      [10, `${dev}.s1`, '10'],
    ]);
    expect(await all(s.executeLastDataQuery([`${dev}.s1`], { lastTime: 11 }))).toEqual([]);
  });

  it('executeLastDataQueryForOneDevice: the fast-last path', async () => {
    const rows = await all(s.executeLastDataQueryForOneDevice(DB, dev, ['s1', 's2']));
    expect(rows.map((r) => [Number(r.timestamp), r.getValue('Timeseries'), r.getValue('Value')]).sort()).toEqual([
      [10, `${dev}.s1`, '10'],
      [10, `${dev}.s2`, '5.0'],
    ]);
  });

  it('executeAggregationQuery: aggregations[i] on paths[i], over a range and per window', async () => {
    const [total] = await all(
      s.executeAggregationQuery([`${dev}.s1`, `${dev}.s1`, `${dev}.s2`], ['COUNT', 'SUM', 'MAX_VALUE'], {
        startTime: 1,
        endTime: 11,
      }),
    );
    expect(total.values.map(Number)).toEqual([10, 55, 5]);
    const windows = await all(
      s.executeAggregationQuery([`${dev}.s1`], ['COUNT'], { startTime: 1, endTime: 11, interval: 5 }),
    );
    expect(windows.map((r) => [Number(r.timestamp), Number(r.values[0])])).toEqual([
      [1, 5],
      [6, 5],
    ]);
  });
});
