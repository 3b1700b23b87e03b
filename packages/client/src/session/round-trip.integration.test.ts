import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, inject, it } from 'vitest';
import { TSDataType, type DecodedColumn } from '@iotdb/fast-serializer';
import { cellValue, type IoTDBValue } from './cell-value.js';
import type { ColumnarResult } from './columnar.js';
import type { SessionDataSet } from './session-data-set.js';
import { Session } from './session.js';
import { TableSession } from './table-session.js';
import { useTreeDatabase } from '../testing/tree-database.js';

/**
 * Whatever a tablet holds comes back the same through every way of reading it, from the real server: random
 * types (all ten), nulls, INT64 beyond 2^53, any text, read with fetch sizes that split it into many blocks.
 */
const { host, port } = inject('iotdb');
const DB = 'root.roundtrip';
const TYPES = ['BOOLEAN', 'INT32', 'INT64', 'FLOAT', 'DOUBLE', 'TEXT', 'TIMESTAMP', 'DATE', 'BLOB', 'STRING'] as const;
type TypeName = (typeof TYPES)[number];

/** A non-null cell of the type, as a query gives it back (FLOAT already float32, DATE a UTC midnight). */
function cell(type: TypeName): fc.Arbitrary<Exclude<IoTDBValue, null>> {
  const noNegativeZero = (x: number) => (Object.is(x, -0) ? 0 : x);
  switch (type) {
    case 'BOOLEAN':
      return fc.boolean();
    case 'INT32':
      return fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
    case 'INT64':
    case 'TIMESTAMP':
      return fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
    case 'FLOAT':
      return fc.float({ noNaN: true, noDefaultInfinity: true }).map(noNegativeZero);
    case 'DOUBLE':
      return fc.double({ noNaN: true, noDefaultInfinity: true }).map(noNegativeZero);
    case 'DATE':
      return fc
        .date({ min: new Date(Date.UTC(1000, 0, 1)), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true })
        .map((d) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate())));
    case 'BLOB':
      return fc.uint8Array({ maxLength: 12 }).map((b) => Buffer.from(b));
    default:
      return fc.string({ unit: 'grapheme', maxLength: 12 });
  }
}

/** The tree-model calls that write the tablet: tablet rows or columns, aligned or not, or records (40 or more as a tablet). */
const WRITES = [
  'insertTablet values',
  'insertTablet columns',
  'insertAlignedTablet',
  'insertTablets',
  'insertRecords',
  'insertRecords, later rows first',
  'insertRecordsOfOneDevice',
  'insertAlignedRecordsOfOneDevice',
] as const;

/** Writes `values` (rows of `types`) at `timestamps` to `deviceId` through `write`. */
async function writeTree(
  session: Session,
  write: (typeof WRITES)[number],
  t: { deviceId: string; measurements: string[]; types: TypeName[]; timestamps: bigint[]; values: IoTDBValue[][] },
): Promise<void> {
  const { deviceId, measurements, types: dataTypes, timestamps, values } = t;
  const rows = values.map((row, r) => ({ timestamp: timestamps[r], measurements, dataTypes, values: row }));
  switch (write) {
    case 'insertTablet values':
      return session.insertTablet({ deviceId, measurements, dataTypes, timestamps, values });
    case 'insertTablet columns': {
      const columns = measurements.map((_, k) => values.map((row) => row[k]));
      return session.insertTablet({ deviceId, measurements, dataTypes, timestamps, columns });
    }
    case 'insertAlignedTablet':
      return session.insertAlignedTablet({ deviceId, measurements, dataTypes, timestamps, values });
    case 'insertTablets': {
      // the rows in two tablets of the device, the later half first: one request
      const half = Math.ceil(values.length / 2);
      const part = (from: number, to: number) => ({
        deviceId,
        measurements,
        dataTypes,
        timestamps: timestamps.slice(from, to),
        values: values.slice(from, to),
      });
      return session.insertTablets(half < values.length ? [part(half, values.length), part(0, half)] : [part(0, half)]);
    }
    case 'insertRecords':
      return session.insertRecords(rows.map((row) => ({ deviceId, ...row })));
    case 'insertRecords, later rows first':
      // 40 rows or more go as the device's tablet (recordsAsTablets), sorted back into time order
      return session.insertRecords(rows.map((row) => ({ deviceId, ...row })).reverse());
    case 'insertRecordsOfOneDevice':
      return session.insertRecordsOfOneDevice(deviceId, rows);
    case 'insertAlignedRecordsOfOneDevice':
      return session.insertAlignedRecordsOfOneDevice(deviceId, rows);
  }
}

/**
 * A tablet: its types, increasing times, and rows whose first cell is never null (a row of nulls is not stored),
 * the first row without nulls (records leave null cells out: a column of nulls would make no series to read).
 */
const tablet = fc
  .record({
    types: fc.array(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 8 }),
    rows: fc.integer({ min: 1, max: 60 }),
  })
  .chain(({ types, rows }) =>
    fc.record({
      types: fc.constant(types),
      gaps: fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: rows, maxLength: rows }),
      values: fc
        .tuple(
          fc.tuple(...types.map(cell)),
          fc.array(fc.tuple(...types.map((t, k) => (k === 0 ? cell(t) : fc.option(cell(t), { nil: null, freq: 4 })))), {
            minLength: rows - 1,
            maxLength: rows - 1,
          }),
        )
        .map(([first, rest]): IoTDBValue[][] => [first, ...rest]),
      write: fc.constantFrom(...WRITES),
      fetchSize: fc.integer({ min: 1, max: 25 }),
      readAhead: fc.integer({ min: 0, max: 2 }),
    }),
  );

/** Every row of a columnar result as `row.values` gives it. */
function columnarRows(c: ColumnarResult): IoTDBValue[][] {
  const columns: DecodedColumn[] = c.values.map((values, k) => ({
    type: TSDataType[c.columnTypes[k]],
    values,
    nulls: c.nulls[k],
  }));
  return Array.from({ length: c.rowCount }, (_, r) => columns.map((col) => cellValue(col, r, 'bigint')));
}

/** Reads `query`'s result five ways (rows, getters by name, rowBatches(), toColumnar(), batches()); each must give `expected`. */
async function expectReadsBack(
  query: () => Promise<SessionDataSet>,
  names: readonly string[],
  expected: readonly IoTDBValue[][],
): Promise<void> {
  const rows: IoTDBValue[][] = [];
  const byName: IoTDBValue[][] = [];
  for await (const row of await query()) {
    rows.push([...row.values]);
    byName.push(names.map((n) => row.getValue(n)));
  }
  expect(rows).toEqual(expected);
  expect(byName).toEqual(expected);

  const rowBatched: IoTDBValue[][] = [];
  for await (const batch of (await query()).rowBatches()) for (const row of batch) rowBatched.push([...row.values]);
  expect(rowBatched).toEqual(expected);

  const whole = await (await query()).toColumnar();
  expect(whole.columnNames).toEqual(names);
  expect(columnarRows(whole)).toEqual(expected);

  const batched: IoTDBValue[][] = [];
  for await (const batch of (await query()).batches()) batched.push(...columnarRows(batch));
  expect(batched).toEqual(expected);
}

/** Increasing times from the gaps between them. */
const timesOf = (gaps: readonly number[]): bigint[] => {
  let t = 0n;
  return gaps.map((g) => (t += BigInt(g)));
};

describe('a tablet read back', () => {
  let session: Session;
  let device = 0;
  useTreeDatabase({ host, port }, DB, (s) => (session = s));

  it('tree model, written by any of its calls: the same values and times through rows, getters by name, rowBatches(), toColumnar() and batches()', async () => {
    await fc.assert(
      fc.asyncProperty(tablet, async ({ types, gaps, values, write, fetchSize, readAhead }) => {
        const deviceId = `${DB}.d${device++}`;
        const measurements = types.map((_, k) => `m${k}`);
        const timestamps = timesOf(gaps);
        await writeTree(session, write, { deviceId, measurements, types, timestamps, values });
        const sql = `SELECT ${measurements.join(', ')} FROM ${deviceId}`;
        const query = () => session.executeQueryStatement(sql, { fetchSize, readAhead });
        const names = measurements.map((m) => `${deviceId}.${m}`);
        await expectReadsBack(query, names, values);
        const times: unknown[] = [];
        for await (const row of await query()) times.push(row.timestamp);
        expect(times).toEqual(timestamps);
        expect((await (await query()).toColumnar()).timestamps).toEqual(BigInt64Array.from(timestamps));
      }),
      { numRuns: 60, endOnFailure: true },
    );
  });

  it('a toColumnar() result written back as a tablet (typed columns, DATE yyyymmdd, BOOLEAN 0/1, nulls as masks) reads back the same', async () => {
    await fc.assert(
      fc.asyncProperty(tablet, async ({ types, gaps, values, fetchSize }) => {
        const measurements = types.map((_, k) => `m${k}`);
        const timestamps = timesOf(gaps);
        const from = `${DB}.d${device++}`;
        await session.insertTablet({ deviceId: from, measurements, dataTypes: [...types], timestamps, values });
        const read = await (
          await session.executeQueryStatement(`SELECT ${measurements.join(', ')} FROM ${from}`, { fetchSize })
        ).toColumnar();
        const to = `${DB}.d${device++}`;
        await session.insertTablet({
          deviceId: to,
          measurements: read.columnNames.map((name) => name.slice(from.length + 1)),
          dataTypes: read.columnTypes,
          timestamps: read.timestamps!,
          columns: read.values,
          nulls: read.nulls,
        });
        const query = () => session.executeQueryStatement(`SELECT ${measurements.join(', ')} FROM ${to}`);
        await expectReadsBack(
          query,
          measurements.map((m) => `${to}.${m}`),
          values,
        );
      }),
      { numRuns: 30, endOnFailure: true },
    );
  });

  it("int64As 'number': rows up to the first INT64 or TIMESTAMP beyond 2^53 as numbers; that row throws, every time, and is not skipped", async () => {
    const numbers = new Session({ host, port, int64As: 'number' });
    await numbers.open();
    const isInt64 = (t: TypeName) => t === 'INT64' || t === 'TIMESTAMP';
    const unsafe = (v: IoTDBValue) => typeof v === 'bigint' && !Number.isSafeInteger(Number(v));
    try {
      await fc.assert(
        fc.asyncProperty(tablet, async ({ types, gaps, values, fetchSize, readAhead }) => {
          const deviceId = `${DB}.d${device++}`;
          const measurements = types.map((_, k) => `m${k}`);
          const timestamps = timesOf(gaps);
          await session.insertTablet({ deviceId, measurements, dataTypes: [...types], timestamps, values });
          const sql = `SELECT ${measurements.join(', ')} FROM ${deviceId}`;
          const ds = await numbers.executeQueryStatement(sql, { fetchSize, readAhead });
          try {
            const firstUnsafe = values.findIndex((row) => row.some(unsafe));
            const safeRows = firstUnsafe < 0 ? values.length : firstUnsafe;
            for (let r = 0; r < safeRows; r++) {
              const row = await ds.next();
              expect(row.timestamp).toBe(Number(timestamps[r]));
              expect(row.values).toEqual(values[r].map((v, k) => (isInt64(types[k]) && v !== null ? Number(v) : v)));
            }
            if (firstUnsafe < 0) expect(await ds.hasNext()).toBe(false);
            else
              for (let attempt = 0; attempt < 2; attempt++)
                await expect(ds.next()).rejects.toThrow(/beyond Number.MAX_SAFE_INTEGER/);
          } finally {
            await ds.close();
          }
        }),
        { numRuns: 40, endOnFailure: true },
      );
    } finally {
      await numbers.close();
    }
  });

  it('table model: the same through every way of reading, time a column of its own', async () => {
    const database = `roundtrip_${randomBytes(4).toString('hex')}`;
    const admin = new TableSession({ host, port });
    await admin.open();
    await admin.executeNonQueryStatement(`CREATE DATABASE ${database}`);
    const tables = new TableSession({ host, port, database });
    await tables.open();
    let table = 0;
    try {
      await fc.assert(
        fc.asyncProperty(tablet, async ({ types, gaps, values, write, fetchSize, readAhead }) => {
          const tableName = `t${table++}`;
          const fields = types.map((_, k) => `f${k}`);
          const timestamps = timesOf(gaps);
          const rows = values.map((row) => ['d1', ...row]);
          const shape = {
            tableName,
            columnNames: ['device', ...fields],
            columnCategories: ['TAG' as const, ...fields.map(() => 'FIELD' as const)],
            dataTypes: ['STRING' as const, ...types],
            timestamps,
          };
          // the table model has one write call: its tablet given by rows or by columns
          await tables.insert(
            write === 'insertTablet columns'
              ? { ...shape, columns: shape.columnNames.map((_, k) => rows.map((row) => row[k])) }
              : { ...shape, values: rows },
          );
          const sql = `SELECT time, ${fields.join(', ')} FROM ${tableName} ORDER BY time`;
          const query = () => tables.executeQueryStatement(sql, { fetchSize, readAhead });
          await expectReadsBack(
            query,
            ['time', ...fields],
            values.map((row, r) => [timestamps[r], ...row]),
          );
        }),
        { numRuns: 40, endOnFailure: true },
      );
    } finally {
      await tables.close();
      await admin.executeNonQueryStatement(`DROP DATABASE ${database}`);
      await admin.close();
    }
  });
});
