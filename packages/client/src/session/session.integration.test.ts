import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import {
  IoTDBAbortError,
  IoTDBQueryTimeoutError,
  IoTDBServerError,
  IoTDBSessionClosedError,
  Session,
  TSDataType,
  decodeDate,
  type CellValue,
  type ColumnarResult,
  type IoTDBValue,
  type RecordInput,
  type RowRecord,
  type SessionDataSet,
  type TSDataTypeName,
  type Tablet,
  IoTDBValidationError,
} from '../index.js';
import { useTreeDatabase } from '../testing/tree-database.js';
import { expectedReadBack } from '../testing/read-back.js';
import { spyRpc, type RpcSpy } from '../testing/rpc-spy.js';
import { RpcConnection } from '../connection/rpc-connection.js';
import { RELEASE_EVERY } from './statement-ids.js';

const { host, port } = inject('iotdb');
const DB = `root.it_session_${randomBytes(4).toString('hex')}`;

let session: Session;

useTreeDatabase({ host, port }, DB, (s) => (session = s));

// ---------- the ten types, their test values and how they come back ----------

const TYPES: readonly TSDataTypeName[] = [
  'BOOLEAN',
  'INT32',
  'INT64',
  'FLOAT',
  'DOUBLE',
  'TEXT',
  'TIMESTAMP',
  'DATE',
  'BLOB',
  'STRING',
];
const MEASUREMENTS = TYPES.map((t) => `s_${t.toLowerCase()}`);
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN_PLUS_1 = -(2n ** 63n) + 1n;

/** Per type, six values (one per row) covering the edges. */
const VALUES: Record<TSDataTypeName, CellValue[]> = {
  BOOLEAN: [true, false, true, true, false, false],
  INT32: [0, 1, -1, 2147483647, -2147483648, 123456],
  INT64: [INT64_MAX, INT64_MIN_PLUS_1, 9007199254740993n, 0n, -1, 42],
  FLOAT: [3.14, -0.5, 0, 1e30, -1.17549435e-38, 65504.1],
  DOUBLE: [Math.PI, -1e300, 0, 5e-324, Number.MAX_VALUE, -2.5],
  TEXT: ['héllo', '', '中文 😀', 'line\nbreak', 'a'.repeat(300), '"quoted"'],
  TIMESTAMP: [1_700_000_000_123n, 0, new Date(Date.UTC(2024, 1, 29, 12, 0, 0, 5)), -1_000n, 9_000_000_000_000, 1n],
  DATE: [
    '2024-02-29',
    new Date(Date.UTC(1999, 11, 31)),
    '1000-01-01',
    '9999-12-31',
    new Date(Date.UTC(1970, 0, 1, 23, 59)),
    '2000-06-15',
  ],
  BLOB: [
    Buffer.from([0, 1, 2, 255]),
    Buffer.alloc(0),
    new Uint8Array([7, 8, 9]),
    Buffer.from('blob'),
    Buffer.from([0xff]),
    Buffer.alloc(100, 0xab),
  ],
  STRING: ['abc', '', 'ünïcödé', 'x y z', '123', 'end'],
};
const ROWS = 6;

/** Null cells of the "with nulls" variant: per column, the rows that are null (no row is all null). */
const NULL_ROWS: Record<TSDataTypeName, number[]> = {
  BOOLEAN: [0],
  INT32: [1, 2],
  INT64: [3],
  FLOAT: [0, 5],
  DOUBLE: [4],
  TEXT: [2],
  TIMESTAMP: [1, 3, 5],
  DATE: [0, 4],
  BLOB: [3],
  STRING: [5],
};

const expected = expectedReadBack;

/** Column-major cells for the ten types, optionally with the null pattern. */
function columns(withNulls: boolean): CellValue[][] {
  return TYPES.map((t) => VALUES[t].map((v, r) => (withNulls && NULL_ROWS[t].includes(r) ? null : v)));
}

function transpose(cols: readonly (readonly CellValue[])[]): CellValue[][] {
  return Array.from({ length: cols[0].length }, (_, r) => cols.map((c) => c[r]));
}

const BASE_TIME = 1_000;
const TIMES = Array.from({ length: ROWS }, (_, r) => BASE_TIME + r * 10);

let deviceSeq = 0;
function newDevice(label: string): string {
  return `${DB}.${label}_${deviceSeq++}`;
}

// ---------- reading back ----------

interface Row {
  time: bigint | number | Date | null;
  values: IoTDBValue[];
}

async function rowsOf(ds: SessionDataSet): Promise<Row[]> {
  const out: Row[] = [];
  for await (const r of ds) out.push({ time: r.timestamp, values: [...r.values] });
  return out;
}

async function readDevice(
  device: string,
  s: Session = session,
  measurements = MEASUREMENTS,
  extra = '',
): Promise<{ ds: SessionDataSet; rows: Row[] }> {
  const ds = await s.executeQueryStatement(`SELECT ${measurements.join(', ')} FROM ${device} ${extra}`);
  // the columns come back as full paths; reorder each row into `measurements` order
  const names = ds.columnNames.slice(1);
  const order = measurements.map((m) => names.indexOf(`${device}.${m}`));
  expect(order, `columns ${names.join(',')}`).not.toContain(-1);
  const rows = (await rowsOf(ds)).map((r) => ({ time: r.time, values: order.map((i) => r.values[i]) }));
  return { ds, rows };
}

/** The rows that `cols` (in TYPES order) at `times` should read back as, sorted by time. */
function expectedRows(
  times: readonly (number | bigint)[],
  cols: readonly (readonly CellValue[])[],
  types = TYPES,
): Row[] {
  const rows = times.map((t, r) => ({ time: BigInt(t), values: types.map((ty, c) => expected(ty, cols[c][r])) }));
  return rows.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
}

function tablet(device: string, cols: CellValue[][], extra: Partial<Tablet> = {}): Tablet {
  return {
    deviceId: device,
    measurements: MEASUREMENTS,
    dataTypes: TYPES,
    timestamps: TIMES,
    values: transpose(cols),
    ...extra,
  };
}

// ---------- tests ----------

describe('insertTablet round trip, all ten types', () => {
  for (const withNulls of [false, true]) {
    const label = withNulls ? 'with nulls' : 'without nulls';

    it(`reads back every type ${label} as written (row-major values)`, async () => {
      const device = newDevice('tab');
      const cols = columns(withNulls);
      await session.insertTablet(tablet(device, cols));
      const { ds, rows } = await readDevice(device);
      expect(ds.columnNames[0]).toBe('Time');
      expect(rows).toEqual(expectedRows(TIMES, cols));
    });

    it(`reads back every type ${label} through insertAlignedTablet`, async () => {
      const device = newDevice('aligned');
      const cols = columns(withNulls);
      await session.insertAlignedTablet(tablet(device, cols));
      const { rows } = await readDevice(device);
      expect(rows).toEqual(expectedRows(TIMES, cols));
      // the device was created aligned
      const ds = await session.executeQueryStatement(`SHOW DEVICES ${device}`);
      const devices = await rowsOf(ds);
      expect(devices).toHaveLength(1);
      const isAligned = ds.columnNames.indexOf('IsAligned');
      expect(String(devices[0].values[isAligned - (ds.columnNames[0] === 'Time' ? 1 : 0)])).toBe('true');
    });

    it(`reads back every type ${label} through the column-major form (plain arrays)`, async () => {
      const device = newDevice('cols');
      const cols = columns(withNulls);
      await session.insertTablet({
        deviceId: device,
        measurements: MEASUREMENTS,
        dataTypes: TYPES,
        timestamps: TIMES,
        columns: cols,
      });
      const { rows } = await readDevice(device);
      expect(rows).toEqual(expectedRows(TIMES, cols));
    });
  }

  it('reads back the exact INT64 extremes and 2^53+1 as bigint', async () => {
    const device = newDevice('int64');
    const values = [INT64_MAX, INT64_MIN_PLUS_1, 9007199254740993n, -9007199254740993n];
    await session.insertTablet({
      deviceId: device,
      measurements: ['v'],
      dataTypes: ['INT64'],
      timestamps: [1, 2, 3, 4],
      columns: [values],
    });
    const { rows } = await readDevice(device, session, ['v']);
    expect(rows.map((r) => r.values[0])).toEqual(values);
    expect(rows.every((r) => typeof r.values[0] === 'bigint')).toBe(true);
  });

  it('reads DATE back as a Date at UTC midnight and BLOB as a Buffer', async () => {
    const device = newDevice('datblob');
    await session.insertTablet({
      deviceId: device,
      measurements: ['d', 'b'],
      dataTypes: [TSDataType.DATE, TSDataType.BLOB],
      timestamps: [1],
      values: [['2024-02-29', new Uint8Array([1, 2, 3])]],
    });
    const { rows } = await readDevice(device, session, ['d', 'b']);
    const [d, b] = rows[0].values;
    expect(d).toBeInstanceOf(Date);
    expect((d as Date).toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(Buffer.isBuffer(b)).toBe(true);
    expect([...(b as Buffer)]).toEqual([1, 2, 3]);
  });
});

describe('column-major tablets with typed arrays', () => {
  const N = 50;
  const f32 = Float32Array.from({ length: N }, (_, i) => i * 1.1 - 20.3);
  const f64 = Float64Array.from({ length: N }, (_, i) => i * Math.E - 1e10);
  const i32 = Int32Array.from({ length: N }, (_, i) => (i % 2 ? 2147483647 - i : -2147483648 + i));
  const i64 = BigInt64Array.from({ length: N }, (_, i) =>
    i % 2 ? INT64_MAX - BigInt(i) : INT64_MIN_PLUS_1 + BigInt(i),
  );
  const ts64 = BigInt64Array.from({ length: N }, (_, i) => 1_600_000_000_000n + BigInt(i));
  const text = Array.from({ length: N }, (_, i) => (i % 7 === 0 ? null : `t${i}`));
  const measurements = ['f', 'd', 'i', 'l', 'ts', 'txt'];
  const types: TSDataTypeName[] = ['FLOAT', 'DOUBLE', 'INT32', 'INT64', 'TIMESTAMP', 'TEXT'];

  function expectTyped(rows: Row[], times: readonly bigint[]): void {
    expect(rows.map((r) => r.time)).toEqual([...times]);
    rows.forEach((r, i) => {
      expect(r.values, `row ${i}`).toEqual([Math.fround(f32[i]), f64[i], i32[i], i64[i], ts64[i], text[i]]);
    });
  }

  for (const aligned of [false, true]) {
    it(`reads back Float32Array, Float64Array, Int32Array and BigInt64Array columns (${aligned ? 'aligned' : 'not aligned'}, bigint timestamps)`, async () => {
      const device = newDevice('typed');
      const timestamps = BigInt64Array.from({ length: N }, (_, i) => BigInt(10 + i));
      await session.insertTablet({
        deviceId: device,
        measurements,
        dataTypes: types,
        timestamps,
        columns: [f32, f64, i32, i64, ts64, text],
        isAligned: aligned,
      });
      const { rows } = await readDevice(device, session, measurements);
      expectTyped(rows, [...timestamps]);
    });
  }

  it('reads back typed-array columns with Float64Array timestamps', async () => {
    const device = newDevice('typedf64');
    const timestamps = Float64Array.from({ length: N }, (_, i) => 2_000 + i);
    await session.insertTablet({
      deviceId: device,
      measurements,
      dataTypes: types,
      timestamps,
      columns: [f32, f64, i32, i64, ts64, text],
    });
    const { rows } = await readDevice(device, session, measurements);
    expectTyped(rows, [...timestamps].map(BigInt));
  });

  it('sorts typed-array columns along with unsorted timestamps', async () => {
    const device = newDevice('typedunsorted');
    // reversed time: row i of the input is written at time 1000 - i
    const timestamps = Array.from({ length: N }, (_, i) => 1_000 - i);
    await session.insertTablet({
      deviceId: device,
      measurements,
      dataTypes: types,
      timestamps,
      columns: [f32, f64, i32, i64, ts64, text],
    });
    const { rows } = await readDevice(device, session, measurements);
    expect(rows.map((r) => r.time)).toEqual(Array.from({ length: N }, (_, k) => BigInt(1_000 - (N - 1) + k)));
    rows.forEach((r, k) => {
      const i = N - 1 - k; // the input row that holds this time
      expect(r.values, `row ${k}`).toEqual([Math.fround(f32[i]), f64[i], i32[i], i64[i], ts64[i], text[i]]);
    });
  });
});

describe('unsorted timestamps', () => {
  it('comes back sorted by time with every row keeping its own values and nulls (row-major)', async () => {
    const device = newDevice('unsorted');
    const perm = [3, 0, 5, 1, 4, 2]; // input row k is original row perm[k]
    const cols = columns(true).map((c) => perm.map((p) => c[p]));
    const times = perm.map((p) => TIMES[p]);
    await session.insertTablet({
      deviceId: device,
      measurements: MEASUREMENTS,
      dataTypes: TYPES,
      timestamps: times,
      values: transpose(cols),
    });
    const { rows } = await readDevice(device);
    expect(rows.map((r) => r.time)).toEqual(TIMES.map(BigInt));
    expect(rows).toEqual(expectedRows(TIMES, columns(true)));
  });

  it('comes back sorted through insertAlignedTablet too', async () => {
    const device = newDevice('unsortedaligned');
    const times = [50, 10, 40, 20, 30];
    const vals = [[5], [1], [4], [null], [3]];
    await session.insertAlignedTablet({
      deviceId: device,
      measurements: ['v', 'w'],
      dataTypes: ['INT32', 'TEXT'],
      timestamps: times,
      values: vals.map((v) => [v[0], `w${v[0]}`]),
    });
    const { rows } = await readDevice(device, session, ['v', 'w']);
    expect(rows).toEqual([
      { time: 10n, values: [1, 'w1'] },
      { time: 20n, values: [null, 'wnull'] },
      { time: 30n, values: [3, 'w3'] },
      { time: 40n, values: [4, 'w4'] },
      { time: 50n, values: [5, 'w5'] },
    ]);
  });
});

describe('insertTablets', () => {
  it('writes three devices in one call, each readable with its own rows', async () => {
    const devices = [newDevice('multi'), newDevice('multi'), newDevice('multi')];
    const cols = [columns(false), columns(true), columns(false).map((c) => [...c].reverse())];
    await session.insertTablets(devices.map((d, i) => tablet(d, cols[i])));
    for (let i = 0; i < 3; i++) {
      const { rows } = await readDevice(devices[i]);
      expect(rows, devices[i]).toEqual(expectedRows(TIMES, cols[i]));
    }
  });

  it('writes three aligned devices with different measurements in one call', async () => {
    const devices = [newDevice('multia'), newDevice('multia'), newDevice('multia')];
    await session.insertTablets([
      {
        deviceId: devices[0],
        measurements: ['a'],
        dataTypes: ['INT32'],
        timestamps: [1, 2],
        values: [[1], [2]],
        isAligned: true,
      },
      {
        deviceId: devices[1],
        measurements: ['b', 'c'],
        dataTypes: ['TEXT', 'DOUBLE'],
        timestamps: [3],
        values: [['x', 1.5]],
        isAligned: true,
      },
      {
        deviceId: devices[2],
        measurements: ['d'],
        dataTypes: ['BOOLEAN'],
        timestamps: [9, 8],
        columns: [[true, false]],
        isAligned: true,
      },
    ]);
    expect((await readDevice(devices[0], session, ['a'])).rows).toEqual([
      { time: 1n, values: [1] },
      { time: 2n, values: [2] },
    ]);
    expect((await readDevice(devices[1], session, ['b', 'c'])).rows).toEqual([{ time: 3n, values: ['x', 1.5] }]);
    expect((await readDevice(devices[2], session, ['d'])).rows).toEqual([
      { time: 8n, values: [false] },
      { time: 9n, values: [true] },
    ]);
  });
});

describe('the test writes (testInsert*)', () => {
  it('are acknowledged by the server and store nothing, a series not even created', async () => {
    const device = newDevice('testins');
    const record = { deviceId: device, timestamp: 1, measurements: ['a'], dataTypes: ['INT64' as const], values: [7n] };
    const strings = { deviceId: device, timestamp: 2, measurements: ['b'], values: ['1.5'] };
    const tablet = {
      deviceId: device,
      measurements: ['c'],
      dataTypes: ['INT32' as const],
      timestamps: [3],
      values: [[1]],
    };
    await session.testInsertTablet(tablet);
    await session.testInsertTablets([tablet]);
    await session.testInsertRecord(record);
    await session.testInsertRecords([record]);
    await session.testInsertStringRecord(strings);
    await session.testInsertStringRecords([strings]);
    const ds = await session.executeQueryStatement(`SHOW TIMESERIES ${device}.**`);
    expect(await rowsOf(ds)).toEqual([]);
  });
});

describe('insertRecord and insertRecords', () => {
  it('writes one record of all ten types', async () => {
    const device = newDevice('rec');
    const row = TYPES.map((t) => VALUES[t][2]);
    await session.insertRecord({
      deviceId: device,
      timestamp: 77,
      measurements: MEASUREMENTS,
      dataTypes: TYPES,
      values: row,
    });
    const { rows } = await readDevice(device);
    expect(rows).toEqual([{ time: 77n, values: TYPES.map((t, c) => expected(t, row[c])) }]);
  });

  it('does not write a null value: the series is not even created', async () => {
    const device = newDevice('recnull');
    await session.insertRecord({
      deviceId: device,
      timestamp: 5,
      measurements: ['a', 'b'],
      dataTypes: ['INT32', 'TEXT'],
      values: [7, null],
    });
    const ds = await session.executeQueryStatement(`SHOW TIMESERIES ${device}.**`);
    expect(ds.columnNames).not.toContain('Time');
    const series = (await rowsOf(ds)).map((r) => r.values[0]);
    expect(series).toEqual([`${device}.a`]);
  });

  it('writes records of several devices in one call, leaving null values unwritten', async () => {
    const [d1, d2, d3] = [newDevice('recs'), newDevice('recs'), newDevice('recs')];
    await session.insertRecords([
      {
        deviceId: d1,
        timestamp: 1,
        measurements: ['x', 'y'],
        dataTypes: ['INT64', 'STRING'],
        values: [INT64_MAX, 'one'],
      },
      { deviceId: d2, timestamp: 2, measurements: ['x', 'y'], dataTypes: ['INT64', 'STRING'], values: [5n, 'two'] },
      { deviceId: d1, timestamp: 3, measurements: ['x', 'y'], dataTypes: ['INT64', 'STRING'], values: [null, 'three'] },
      {
        deviceId: d3,
        timestamp: 4,
        measurements: ['b', 'blob', 'date'],
        dataTypes: ['BOOLEAN', 'BLOB', 'DATE'],
        values: [false, Buffer.from([9]), '2020-01-02'],
      },
      { deviceId: d2, timestamp: 5, measurements: ['x', 'y'], dataTypes: ['INT64', 'STRING'], values: [6, null] },
    ]);
    expect((await readDevice(d1, session, ['x', 'y'])).rows).toEqual([
      { time: 1n, values: [INT64_MAX, 'one'] },
      { time: 3n, values: [null, 'three'] },
    ]);
    expect((await readDevice(d2, session, ['x', 'y'])).rows).toEqual([
      { time: 2n, values: [5n, 'two'] },
      { time: 5n, values: [6n, null] },
    ]);
    expect((await readDevice(d3, session, ['b', 'blob', 'date'])).rows).toEqual([
      { time: 4n, values: [false, Buffer.from([9]), new Date(Date.UTC(2020, 0, 2))] },
    ]);
  });

  /** insertRecords of `records` on a session with `recordsAsTablets: asTablets`; the write requests it sent. */
  async function writeRecords(asTablets: boolean, records: RecordInput[]): Promise<unknown[]> {
    const s = new Session({ host, port, recordsAsTablets: asTablets });
    await s.open();
    const calls = vi.spyOn(RpcConnection.prototype, 'call');
    try {
      await s.insertRecords(records);
      return calls.mock.calls.map(([m]) => m).filter((m) => m === 'insertRecords' || m === 'insertTablets');
    } finally {
      calls.mockRestore();
      await s.close();
    }
  }

  it.each([true, false])(
    'writes many rows of a few devices alike as their tablets or as records (recordsAsTablets: %s): all ten types, nulls, times out of order',
    async (asTablets) => {
      const devices = [newDevice('manyrecs'), newDevice('manyrecs')];
      // 60 rows a device, the six rows of VALUES (and their nulls) over and over, the later times first
      const cols = TYPES.map((t) =>
        Array.from({ length: 60 }, (_, r) => (NULL_ROWS[t].includes(r % ROWS) ? null : VALUES[t][r % ROWS])),
      );
      const times = Array.from({ length: 60 }, (_, r) => BASE_TIME + r * 10);
      const records = times.flatMap((t, r) =>
        devices.map((deviceId) => ({
          deviceId,
          timestamp: t,
          measurements: MEASUREMENTS,
          dataTypes: TYPES,
          values: cols.map((c) => c[r]),
        })),
      );
      expect(await writeRecords(asTablets, records.reverse())).toEqual([asTablets ? 'insertTablets' : 'insertRecords']);
      for (const d of devices) expect((await readDevice(d)).rows).toEqual(expectedRows(times, cols));
    },
  );

  it.each([true, false])(
    'writes rows that each name some of the measurements alike as tablets or as records (recordsAsTablets: %s)',
    async (asTablets) => {
      const device = newDevice('sparserecs');
      // row r names the 6 measurements c with (c + r) % 10 < 6, in reverse order: every name in some row
      const named = (r: number) =>
        TYPES.map((_, c) => c)
          .filter((c) => (c + r) % 10 < 6)
          .reverse();
      const times = Array.from({ length: 50 }, (_, r) => BASE_TIME + r * 10);
      const records = times.map((timestamp, r) => ({
        deviceId: device,
        timestamp,
        measurements: named(r).map((c) => MEASUREMENTS[c]),
        dataTypes: named(r).map((c) => TYPES[c]),
        values: named(r).map((c) => VALUES[TYPES[c]][r % ROWS]),
      }));
      expect(await writeRecords(asTablets, records)).toEqual([asTablets ? 'insertTablets' : 'insertRecords']);
      const cols = TYPES.map((t, c) => times.map((_, r) => (named(r).includes(c) ? VALUES[t][r % ROWS] : null)));
      expect((await readDevice(device)).rows).toEqual(expectedRows(times, cols));
    },
  );

  it.each([true, false])(
    'applies a point written through two spellings of its device in the order written: the last value stays (recordsAsTablets: %s)',
    async (asTablets) => {
      const device = newDevice('spelt');
      const quoted = device.replace(/\.([^.]+)$/, '.`$1`');
      // point k written by records 2k and 2k + 1: plain, then quoted for an even k; quoted, then plain for an odd one
      const spelling = (r: number) => ((r + (r >> 1)) % 2 ? quoted : device);
      const records = Array.from({ length: 40 }, (_, r) => ({
        deviceId: spelling(r),
        timestamp: BASE_TIME + (r >> 1),
        measurements: ['v'],
        dataTypes: ['INT32' as const],
        values: [r],
      }));
      await writeRecords(asTablets, records);
      const ds = await session.executeQueryStatement(`SELECT v FROM ${device}`);
      expect((await rowsOf(ds)).map((r) => r.values[0])).toEqual(Array.from({ length: 20 }, (_, k) => 2 * k + 1));
    },
  );

  it.each([true, false])(
    'a measurement null in every record makes its empty series as a tablet, as the Java Session does, and none as records (recordsAsTablets: %s)',
    async (asTablets) => {
      const device = newDevice('nullcolumn');
      const records = Array.from({ length: 40 }, (_, r) => ({
        deviceId: device,
        timestamp: BASE_TIME + r,
        measurements: ['a', 'b'],
        dataTypes: ['INT32' as const, 'DOUBLE' as const],
        values: [r, null],
      }));
      expect(await writeRecords(asTablets, records)).toEqual([asTablets ? 'insertTablets' : 'insertRecords']);
      const series: unknown[] = [];
      for await (const r of await session.executeQueryStatement(`SHOW TIMESERIES ${device}.*`))
        series.push(r.values[0]);
      expect(series.sort()).toEqual(asTablets ? [`${device}.a`, `${device}.b`] : [`${device}.a`]);
    },
  );

  it('writes aligned records', async () => {
    const device = newDevice('recaligned');
    await session.insertRecords([
      {
        deviceId: device,
        timestamp: 2,
        measurements: ['a', 'b'],
        dataTypes: ['FLOAT', 'DOUBLE'],
        values: [1.1, 2.2],
        isAligned: true,
      },
      {
        deviceId: device,
        timestamp: 1,
        measurements: ['a', 'b'],
        dataTypes: ['FLOAT', 'DOUBLE'],
        values: [null, 3.3],
        isAligned: true,
      },
    ]);
    expect((await readDevice(device, session, ['a', 'b'])).rows).toEqual([
      { time: 1n, values: [null, 3.3] },
      { time: 2n, values: [Math.fround(1.1), 2.2] },
    ]);
  });
});

// ---------- queries ----------

/** Every cell of a columnar result as the row iterator would give it (int64As 'bigint'). */
function columnarRows(c: ColumnarResult): Row[] {
  const out: Row[] = [];
  for (let r = 0; r < c.rowCount; r++) {
    const values = c.values.map((col, k): IoTDBValue => {
      if (c.nulls[k]?.[r] === 1) return null;
      const v = (col as ArrayLike<unknown>)[r];
      switch (c.columnTypes[k]) {
        case 'BOOLEAN':
          return v === 1;
        case 'DATE':
          return decodeDate(v as number);
        default:
          return v as IoTDBValue;
      }
    });
    out.push({ time: c.timestamps === null ? null : c.timestamps[r], values });
  }
  return out;
}

describe('queries', () => {
  const BIG = 2_500;
  let bigDevice: string;
  /** 25 devices x 100 rows: ALIGN BY DEVICE returns a TsBlock per device, so fetchSize 100 takes many fetches */
  const DEVICES = 25;
  const PER_DEVICE = 100;
  let manyPrefix: string;
  const manyDevice = (d: number) => `${manyPrefix}.d${String(d).padStart(2, '0')}`;
  const manySql = () => `SELECT n, txt FROM ${manyPrefix}.* ALIGN BY DEVICE`;
  /** row k of the ALIGN BY DEVICE result */
  const manyRow = (k: number) => {
    const d = Math.floor(k / PER_DEVICE);
    const i = k % PER_DEVICE;
    return { time: BigInt(i + 1), device: manyDevice(d), n: d * 1000 + i, txt: i % 10 === 0 ? null : `d${d}r${i}` };
  };
  let fetches: RpcSpy;

  beforeAll(async () => {
    bigDevice = newDevice('big');
    await session.insertTablet({
      deviceId: bigDevice,
      measurements: ['n', 'txt'],
      dataTypes: ['INT32', 'TEXT'],
      timestamps: Float64Array.from({ length: BIG }, (_, i) => i + 1),
      columns: [
        Int32Array.from({ length: BIG }, (_, i) => i * 3),
        Array.from({ length: BIG }, (_, i) => (i % 10 === 0 ? null : `r${i}`)),
      ],
    });
    manyPrefix = newDevice('many');
    await session.insertTablets(
      Array.from({ length: DEVICES }, (_, d) => ({
        deviceId: manyDevice(d),
        measurements: ['n', 'txt'],
        dataTypes: ['INT32', 'TEXT'] as TSDataTypeName[],
        timestamps: Array.from({ length: PER_DEVICE }, (_, i) => i + 1),
        columns: [
          Array.from({ length: PER_DEVICE }, (_, i) => d * 1000 + i),
          Array.from({ length: PER_DEVICE }, (_, i) => (i % 10 === 0 ? null : `d${d}r${i}`)),
        ],
      })),
    );
  });

  beforeEach(() => {
    fetches = spyRpc('fetchResultsV2');
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each([0, 1, 3])(
    'returns every row in order from a query spanning many fetches (2500 rows, fetchSize 100, readAhead %i)',
    async (readAhead) => {
      const ds = await session.executeQueryStatement(manySql(), { fetchSize: 100, readAhead });
      expect(ds.columnNames).toEqual(['Time', 'Device', 'n', 'txt']);
      expect(ds.columnTypes).toEqual(['INT64', 'TEXT', 'INT32', 'TEXT']);
      let k = 0;
      for await (const row of ds) {
        const want = manyRow(k);
        expect(row.timestamp, `row ${k}`).toBe(want.time);
        expect(row.values, `row ${k}`).toEqual([want.device, want.n, want.txt]);
        k++;
      }
      expect(k).toBe(DEVICES * PER_DEVICE);
      expect(fetches.mock.calls.length).toBeGreaterThan(5); // the premise: the rows did come in many fetches
      expect(ds.isClosed).toBe(true);
    },
  );

  it('gathers a many-fetch result into columns with every row (toColumnar)', async () => {
    const ds = await session.executeQueryStatement(manySql(), { fetchSize: 100 });
    const c = await ds.toColumnar();
    const all = Array.from({ length: DEVICES * PER_DEVICE }, (_, k) => manyRow(k));
    expect(fetches.mock.calls.length).toBeGreaterThan(5);
    expect(c.rowCount).toBe(all.length);
    expect(c.columnNames).toEqual(['Device', 'n', 'txt']);
    expect(c.columnTypes).toEqual(['TEXT', 'INT32', 'TEXT']);
    expect(c.timestamps).toEqual(BigInt64Array.from(all.map((r) => r.time)));
    expect(c.values[0]).toEqual(all.map((r) => r.device));
    expect(c.values[1]).toEqual(Int32Array.from(all.map((r) => r.n)));
    expect(c.nulls[1]).toBeNull();
    expect(c.values[2]).toEqual(all.map((r) => r.txt));
    expect([...c.nulls[2]!]).toEqual(all.map((r) => (r.txt === null ? 1 : 0)));
    expect(ds.isClosed).toBe(true);
  });

  it('gives the same rows through hasNext()/next() over many fetches and throws IoTDBValidationError past the end', async () => {
    const ds = await session.executeQueryStatement(manySql(), { fetchSize: 100 });
    const got: { time: unknown; n: unknown }[] = [];
    while (await ds.hasNext()) {
      const r = await ds.next();
      got.push({ time: r.timestamp, n: r.getValue('n') });
    }
    expect(got).toEqual(
      Array.from({ length: DEVICES * PER_DEVICE }, (_, k) => ({ time: manyRow(k).time, n: manyRow(k).n })),
    );
    await expect(ds.next()).rejects.toBeInstanceOf(IoTDBValidationError);
  });

  it('returns the rows not yet read when toColumnar follows some next() calls', async () => {
    const ds = await session.executeQueryStatement(manySql(), { fetchSize: 100 });
    for (let i = 0; i < 150; i++) await ds.next();
    const c = await ds.toColumnar();
    expect(c.rowCount).toBe(DEVICES * PER_DEVICE - 150);
    expect(c.values[1]).toEqual(Int32Array.from({ length: c.rowCount }, (_, k) => manyRow(150 + k).n));
    expect(c.timestamps![0]).toBe(manyRow(150).time);
  });

  it('gives the same data through toColumnar as through the row iterator over many fetches', async () => {
    const viaRows = await rowsOf(await session.executeQueryStatement(manySql(), { fetchSize: 128 }));
    const c = await (await session.executeQueryStatement(manySql(), { fetchSize: 128 })).toColumnar();
    expect(viaRows).toHaveLength(DEVICES * PER_DEVICE);
    expect(columnarRows(c)).toEqual(viaRows);
  });

  it('returns a large single-series result in full (2500 rows) through rows and columns', async () => {
    const ds = await session.executeQueryStatement(`SELECT n, txt FROM ${bigDevice}`, { fetchSize: 100 });
    expect(ds.columnNames).toEqual(['Time', `${bigDevice}.n`, `${bigDevice}.txt`]);
    expect(ds.columnTypes).toEqual(['INT64', 'INT32', 'TEXT']);
    let i = 0;
    for await (const row of ds) {
      expect(row.timestamp).toBe(BigInt(i + 1));
      expect(row.getValue(`${bigDevice}.n`)).toBe(i * 3);
      expect(row.getValue(`${bigDevice}.txt`)).toBe(i % 10 === 0 ? null : `r${i}`);
      i++;
    }
    expect(i).toBe(BIG);
    const c = await (
      await session.executeQueryStatement(`SELECT n, txt FROM ${bigDevice}`, { fetchSize: 100 })
    ).toColumnar();
    expect(c.rowCount).toBe(BIG);
    expect(c.timestamps).toEqual(BigInt64Array.from({ length: BIG }, (_, k) => BigInt(k + 1)));
    expect(c.values[0]).toEqual(Int32Array.from({ length: BIG }, (_, k) => k * 3));
    expect(c.values[1]).toEqual(Array.from({ length: BIG }, (_, k) => (k % 10 === 0 ? null : `r${k}`)));
  });

  it('yields no rows for an empty result, and toColumnar gives rowCount 0', async () => {
    const sql = `SELECT n, txt FROM ${bigDevice} WHERE time > 9000000000000000000`;
    const ds = await session.executeQueryStatement(sql);
    expect(ds.columnNames).toEqual(['Time', `${bigDevice}.n`, `${bigDevice}.txt`]);
    expect(await rowsOf(ds)).toEqual([]);
    expect(await ds.hasNext()).toBe(false);
    const c = await (await session.executeQueryStatement(sql)).toColumnar();
    expect(c.rowCount).toBe(0);
    expect(c.columnNames).toEqual([`${bigDevice}.n`, `${bigDevice}.txt`]);
    expect(c.timestamps).toEqual(new BigInt64Array(0));
    expect(c.values.map((v) => v.length)).toEqual([0, 0]);
    expect(c.values[0]).toBeInstanceOf(Int32Array);
  });

  it('gives the same data through toColumnar as through the row iterator (all ten types, with nulls)', async () => {
    const device = newDevice('columnar');
    const cols = columns(true);
    await session.insertTablet(tablet(device, cols));
    const sql = `SELECT ${MEASUREMENTS.join(', ')} FROM ${device}`;
    const viaRows = await rowsOf(await session.executeQueryStatement(sql));
    const c = await (await session.executeQueryStatement(sql)).toColumnar();
    expect(c.rowCount).toBe(ROWS);
    expect(columnarRows(c)).toEqual(viaRows);
    expect(viaRows).toHaveLength(ROWS);
    // and the typed columns have the documented array types
    const byName = (m: string) => c.values[c.columnNames.indexOf(`${device}.${m}`)];
    expect(byName('s_boolean')).toBeInstanceOf(Uint8Array);
    expect(byName('s_int32')).toBeInstanceOf(Int32Array);
    expect(byName('s_int64')).toBeInstanceOf(BigInt64Array);
    expect(byName('s_float')).toBeInstanceOf(Float32Array);
    expect(byName('s_double')).toBeInstanceOf(Float64Array);
    expect(byName('s_timestamp')).toBeInstanceOf(BigInt64Array);
    expect(byName('s_date')).toBeInstanceOf(Int32Array);
    expect((byName('s_date') as Int32Array)[1]).toBe(19991231);
  });

  it('reads rows by column name, Time included, and as objects', async () => {
    const ds = await session.executeQueryStatement(`SELECT n, txt FROM ${bigDevice} WHERE time = 2`);
    const rows: RowRecord[] = [];
    for await (const r of ds) rows.push(r);
    expect(rows).toHaveLength(1);
    expect(rows[0].getValue('Time')).toBe(2n);
    expect(rows[0].toObject()).toEqual({ Time: 2n, [`${bigDevice}.n`]: 3, [`${bigDevice}.txt`]: 'r1' });
    expect(() => rows[0].getValue('nope')).toThrow(IoTDBValidationError);
  });

  it('releases a query closed early (with rows still on the server) and fetches no more', async () => {
    const close = spyRpc('closeOperation');
    const ds = await session.executeQueryStatement(manySql(), { fetchSize: 100 });
    await ds.next();
    await ds.close();
    expect(ds.isClosed).toBe(true);
    expect(close.mock.calls).toHaveLength(1);
    await ds.close(); // twice is fine, and sends nothing
    expect(close.mock.calls).toHaveLength(1);
    const fetched = fetches.mock.calls.length;
    // the rows already received may still be read, nothing more is fetched, and reading past them throws rather
    // than end as if the result were complete
    let read = 0;
    const readOn = async () => {
      while (await ds.hasNext()) {
        await ds.next();
        read++;
      }
    };
    await expect(readOn()).rejects.toThrow(IoTDBSessionClosedError);
    expect(read).toBeGreaterThan(0);
    expect(fetches.mock.calls.length).toBe(fetched);
    const c = await (await session.executeQueryStatement(`SELECT n FROM ${bigDevice} WHERE time <= 3`)).toColumnar();
    expect(c.rowCount).toBe(3);
  });

  it('stops early out of for await, releasing the query, without breaking the session', async () => {
    const close = spyRpc('closeOperation');
    const ds = await session.executeQueryStatement(manySql(), { fetchSize: 100 });
    let n = 0;
    for await (const _ of ds) if (++n === 150) break;
    expect(ds.isClosed).toBe(true);
    expect(close.mock.calls).toHaveLength(1);
    const again = await rowsOf(await session.executeQueryStatement(`SELECT n FROM ${bigDevice} WHERE time <= 2`));
    expect(again.map((r) => r.values[0])).toEqual([0, 3]);
  });

  it("leaves queries read to their end and statements to their statement's release: one closeOperation a statement, answered ok", async () => {
    const logged: unknown[][] = [];
    const line = (level: string) => (obj: unknown) => void logged.push([level, obj]);
    const logger = { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
    const s = new Session({ host, port, logger, spreadQueries: false });
    await s.open();
    try {
      const close = spyRpc('closeOperation');
      for await (const _ of await s.executeQueryStatement(manySql(), { fetchSize: 100 })) void _;
      await (await s.executeQueryStatement(`SELECT n FROM ${bigDevice} WHERE time < 0`)).close(); // no rows
      expect(close.mock.calls).toHaveLength(0);
      // the server dropped them as it sent their last rows: SHOW QUERIES lists none (only itself)
      const running = await (await s.executeQueryStatement('SHOW QUERIES')).toColumnar();
      expect(running.values[running.columnNames.indexOf('Statement')]).toEqual(['SHOW QUERIES']);
      // statements that return no rows count alike (IoTDB holds their ids as a query's)
      const stmtDevice = newDevice('stmt');
      for (let i = 0; i < RELEASE_EVERY / 2; i++)
        await s.executeNonQueryStatement(`INSERT INTO ${stmtDevice}(time, v) VALUES (${i}, ${i})`);
      for (let i = 0; i < RELEASE_EVERY / 2; i++)
        await (await s.executeQueryStatement(`SELECT n FROM ${bigDevice} WHERE time <= 2`)).toColumnar();
      await vi.waitFor(() => expect(close.mock.calls).toHaveLength(1)); // the statement's, taking every query id
      expect(close.mock.calls[0][1]).not.toHaveProperty('queryId');
      await Promise.all(close.mock.results.map((r) => r.value));
      const again = await rowsOf(await s.executeQueryStatement(`SELECT n FROM ${bigDevice} WHERE time <= 2`));
      expect(again.map((r) => r.values[0])).toEqual([0, 3]); // under the new statement id
      expect(logged.filter(([, obj]) => (obj as { event?: string }).event === 'release-failed')).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('gives every row once to three readers of one data set at once (fetchSize 100, readAhead 3)', async () => {
    const ds = await session.executeQueryStatement(manySql(), { fetchSize: 100, readAhead: 3 });
    const got: string[] = [];
    const reader = async () => {
      while (await ds.hasNext()) {
        const row = await ds.next().catch(() => null); // another reader may have taken the last row meanwhile
        if (row !== null) got.push(`${String(row.values[0])}@${String(row.timestamp)}`);
      }
    };
    await Promise.all([reader(), reader(), reader()]);
    const want = Array.from({ length: DEVICES * PER_DEVICE }, (_, k) => `${manyRow(k).device}@${manyRow(k).time}`);
    expect(got.sort()).toEqual(want.sort());
    expect(fetches.mock.calls.length).toBeGreaterThan(5); // the premise: the rows did come in many fetches
  });

  it("stops at the row its query's signal fires on, rows received or not, releasing the query", async () => {
    const close = spyRpc('closeOperation');
    const ac = new AbortController();
    const ds = await session.executeQueryStatement(manySql(), { fetchSize: 500, readAhead: 0, signal: ac.signal });
    let n = 0;
    const e = await (async () => {
      for await (const _ of ds) if (++n === 150) ac.abort(new Error('enough'));
    })().catch((x: unknown) => x);
    expect(n).toBe(150); // the reply in hand held 500 rows
    expect(e).toBeInstanceOf(IoTDBAbortError);
    expect((e as Error).cause).toEqual(new Error('enough'));
    expect(ds.isClosed).toBe(true);
    const again = await rowsOf(await session.executeQueryStatement(`SELECT n FROM ${bigDevice} WHERE time <= 2`));
    expect(again.map((r) => r.values[0])).toEqual([0, 3]);
    expect(close.mock.calls).toHaveLength(1); // its release; the second query read to its end has none of its own
    expect(fetches.mock.calls).toHaveLength(0);
  });

  it('never ends a result short without an error when its reader outlives the query timeout', async () => {
    const s = new Session({ host, port, readAhead: 0 });
    await s.open();
    try {
      const ds = await s.executeQueryStatement(manySql(), { fetchSize: 100, timeoutMs: 800 }); // a fetch a device
      let rows = 0;
      const reading = (async () => {
        for await (const batch of ds.rowBatches()) {
          rows += batch.length;
          await new Promise((r) => setTimeout(r, 150));
        }
      })();
      // a query still running at its timeout is dropped: the server answers the next fetch with 301, or, once the
      // query is gone, as if no rows were left; one it had finished it serves to the end (a cluster of 2 DataNodes
      // did), whose end past the timeout looks the same and fails the read too
      const e = await reading.then(
        () => undefined,
        (x: unknown) => x,
      );
      if (e === undefined) expect(rows).toBe(DEVICES * PER_DEVICE);
      else if (e instanceof IoTDBServerError) expect(e.statusCode).toBe(301);
      else expect(e).toBeInstanceOf(IoTDBQueryTimeoutError);
      // the session goes on
      expect((await rowsOf(await s.executeQueryStatement(`SELECT n FROM ${bigDevice} WHERE time <= 2`))).length).toBe(
        2,
      );
    } finally {
      await s.close();
    }
  });

  it('keeps working when the application holds the event loop after the last row, past the release timeout', async () => {
    // the release goes out with the next call: its timeout (at most requestTimeoutMs) runs from that write
    const s = new Session({ host, port, requestTimeoutMs: 200 });
    await s.open();
    try {
      const sql = `SELECT n FROM ${bigDevice} WHERE time <= 2`;
      expect((await rowsOf(await s.executeQueryStatement(sql))).map((r) => r.values[0])).toEqual([0, 3]);
      const end = performance.now() + 500; // synchronous work on the rows read
      while (performance.now() < end);
      expect((await rowsOf(await s.executeQueryStatement(sql))).map((r) => r.values[0])).toEqual([0, 3]);
    } finally {
      await s.close();
    }
  });
});

describe('edge values and result shapes', () => {
  it('round-trips NaN and the infinities in FLOAT and DOUBLE', async () => {
    const device = newDevice('nan');
    const vals = [NaN, Infinity, -Infinity, -0];
    await session.insertTablet({
      deviceId: device,
      measurements: ['f', 'd'],
      dataTypes: ['FLOAT', 'DOUBLE'],
      timestamps: [1, 2, 3, 4],
      columns: [vals, vals],
    });
    const { rows } = await readDevice(device, session, ['f', 'd']);
    expect(rows.map((r) => r.values)).toEqual(vals.map((v) => [v, v]));
  });

  /** A device of `rows` rows whose TEXT t and STRING s both hold `bytes` in turn; the rows stored (no all-null row). */
  async function writeBytes(name: string, bytes: readonly (Buffer | null)[], rows: number) {
    const device = newDevice(name);
    const cells = Array.from({ length: rows }, (_, i) => bytes[i % bytes.length]);
    await session.insertTablet({
      deviceId: device,
      measurements: ['t', 's'],
      dataTypes: ['TEXT', 'STRING'],
      timestamps: cells.map((_, i) => i),
      values: cells.map((b) => [b, b]),
    });
    return { device, stored: cells.filter((b) => b !== null) }; // a row of nulls alone is no row
  }

  it('gives back TEXT and STRING bytes that are not UTF-8 exactly through getBlob, in every block, as Java reads them', async () => {
    const bytes = [Buffer.from([0xff, 0x41]), Buffer.from([0xc3]), Buffer.from('é\uFFFD', 'utf8'), null];
    const { device, stored } = await writeBytes('bytes', bytes, 12);
    const ds = await session.executeQueryStatement(`SELECT t, s FROM ${device}`, { fetchSize: 5 });
    const read: (string | null)[][] = [];
    for await (const row of ds)
      read.push([row.getBlob(2)?.toString('hex') ?? null, row.getBlob(3)?.toString('hex') ?? null]);
    expect(read).toEqual(stored.map((b) => [b.toString('hex'), b.toString('hex')]));
  });

  it('gives back TEXT and STRING bytes that are not UTF-8 exactly as columns too: rawText of toColumnar() and batches()', async () => {
    const bytes = [Buffer.from([0xff, 0x41]), Buffer.from('ok'), Buffer.from([0xc3]), null];
    // 40 rows, values repeated: toColumnar()'s shared strings too
    const { device, stored } = await writeBytes('bytescols', bytes, 40);
    const expected = new Map(
      stored.flatMap((b, row) => (b.toString('utf8') === 'ok' ? [] : [[row, b.toString('hex')]])),
    );
    const hex = (m: ReadonlyMap<number, Buffer> | null, from = 0) =>
      new Map([...(m ?? [])].map(([row, b]) => [row + from, b.toString('hex')]));
    const sql = `SELECT t, s FROM ${device}`;
    const whole = await (await session.executeQueryStatement(sql, { fetchSize: 7 })).toColumnar();
    expect(whole.rawText.map((m) => hex(m))).toEqual([expected, expected]);
    const fromBatches = [new Map<number, string>(), new Map<number, string>()];
    let at = 0;
    for await (const b of (await session.executeQueryStatement(sql, { fetchSize: 7 })).batches()) {
      b.rawText.forEach((m, k) => hex(m, at).forEach((v, row) => fromBatches[k].set(row, v)));
      at += b.rowCount;
    }
    expect(fromBatches).toEqual([expected, expected]);
  });

  it('round-trips negative timestamps and timestamps centuries ahead', async () => {
    // (a server in ms precision refuses timestamps past ~year 2262 x 1000, so int64 extremes cannot be times here)
    const device = newDevice('times');
    const times = [-86_400_000n, -1n, 0n, 1n, 9_000_000_000_000n];
    await session.insertTablet({
      deviceId: device,
      measurements: ['v'],
      dataTypes: ['INT32'],
      timestamps: [...times].reverse(),
      values: times.map((_, i) => [times.length - 1 - i]),
    });
    const { rows } = await readDevice(device, session, ['v']);
    expect(rows).toEqual(times.map((t, i) => ({ time: t, values: [i] })));
  });

  it('answers a column selected twice and an expression through the right TsBlock columns', async () => {
    const device = newDevice('dup');
    await session.insertTablet({
      deviceId: device,
      measurements: ['a', 'b'],
      dataTypes: ['INT32', 'TEXT'],
      timestamps: [1, 2],
      values: [
        [10, 'x'],
        [20, null],
      ],
    });
    const ds = await session.executeQueryStatement(`SELECT a, b, a, a + 1 FROM ${device}`);
    expect(ds.columnNames).toEqual(['Time', `${device}.a`, `${device}.b`, `${device}.a`, `${device}.a + 1`]);
    expect(ds.columnTypes).toEqual(['INT64', 'INT32', 'TEXT', 'INT32', 'DOUBLE']);
    const rows = await rowsOf(ds);
    expect(rows).toEqual([
      { time: 1n, values: [10, 'x', 10, 11] },
      { time: 2n, values: [20, null, 20, 21] },
    ]);
    const c = await (await session.executeQueryStatement(`SELECT a, b, a, a + 1 FROM ${device}`)).toColumnar();
    expect(columnarRows(c)).toEqual(rows);
  });

  it('answers aggregations as INT64/DOUBLE values', async () => {
    const device = newDevice('agg');
    await session.insertTablet({
      deviceId: device,
      measurements: ['v'],
      dataTypes: ['INT32'],
      timestamps: [1, 2, 3],
      values: [[1], [2], [null]],
    });
    // an aggregation result has no time column
    const ds = await session.executeQueryStatement(`SELECT count(v), sum(v), max_value(v) FROM ${device}`);
    const rows = await rowsOf(ds);
    expect(ds.columnNames).toEqual([`count(${device}.v)`, `sum(${device}.v)`, `max_value(${device}.v)`]);
    expect(rows).toEqual([{ time: null, values: [2n, 3, 2] }]);
  });

  it('answers a query with no time column (SHOW) with null row timestamps', async () => {
    const ds = await session.executeQueryStatement(`SHOW DATABASES ${DB}`);
    expect(ds.columnNames[0]).not.toBe('Time');
    const rows = await rowsOf(ds);
    expect(rows).toHaveLength(1);
    expect(rows[0].time).toBeNull();
    expect(rows[0].values[0]).toBe(DB);
    const c = await (await session.executeQueryStatement(`SHOW DATABASES ${DB}`)).toColumnar();
    expect(c.timestamps).toBeNull();
    expect(c.values[0]).toEqual([DB]);
  });
});

describe("int64As: 'number'", () => {
  let numSession: Session;
  let safeDevice: string;
  let bigDevice: string;

  beforeAll(async () => {
    numSession = new Session({ host, port, int64As: 'number' });
    await numSession.open();
    safeDevice = newDevice('num');
    bigDevice = newDevice('numbig');
    await session.insertTablet({
      deviceId: safeDevice,
      measurements: ['l', 'ts', 'i'],
      dataTypes: ['INT64', 'TIMESTAMP', 'INT32'],
      timestamps: [1, 2],
      values: [
        [Number.MAX_SAFE_INTEGER, 1_700_000_000_000, 5],
        [-Number.MAX_SAFE_INTEGER, null, 6],
      ],
    });
    await session.insertTablet({
      deviceId: bigDevice,
      measurements: ['l'],
      dataTypes: ['INT64'],
      timestamps: [1, 2],
      values: [[1], [2n ** 53n + 1n]],
    });
  });

  afterAll(async () => {
    await numSession?.close();
  });

  it('gives INT64, TIMESTAMP and row timestamps as numbers', async () => {
    const { rows } = await readDevice(safeDevice, numSession, ['l', 'ts', 'i']);
    expect(rows).toEqual([
      { time: 1, values: [Number.MAX_SAFE_INTEGER, 1_700_000_000_000, 5] },
      { time: 2, values: [-Number.MAX_SAFE_INTEGER, null, 6] },
    ]);
  });

  it('throws IoTDBValidationError for an INT64 beyond 2^53 instead of rounding, and the session goes on', async () => {
    const ds = await numSession.executeQueryStatement(`SELECT l FROM ${bigDevice}`);
    const e = await (async () => {
      while (await ds.hasNext()) await ds.next();
    })().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBValidationError);
    expect((e as Error).message).toContain('9007199254740993');
    await ds.close();
    const { rows } = await readDevice(safeDevice, numSession, ['i']);
    expect(rows.map((r) => r.values[0])).toEqual([5, 6]);
  });

  it('reads the rows before the unsafe INT64, then throws IoTDBValidationError at the unsafe row', async () => {
    const ds = await numSession.executeQueryStatement(`SELECT l FROM ${bigDevice}`);
    try {
      const first = await ds.next();
      expect(first.timestamp).toBe(1);
      expect(first.values[0]).toBe(1);
      await expect(ds.next()).rejects.toThrow(IoTDBValidationError);
    } finally {
      await ds.close();
    }
  });

  it('throws IoTDBValidationError out of for await too', async () => {
    const ds = await numSession.executeQueryStatement(`SELECT l FROM ${bigDevice}`);
    await expect(rowsOf(ds)).rejects.toThrow(/beyond Number.MAX_SAFE_INTEGER/);
    expect(ds.isClosed).toBe(true);
  });
});

describe('enableFastSerialization: false', () => {
  let plain: Session;

  beforeAll(async () => {
    plain = new Session({ host, port, enableFastSerialization: false });
    await plain.open();
  });

  afterAll(async () => {
    await plain?.close();
  });

  for (const aligned of [false, true]) {
    it(`writes the same data as the fast path, read back identically (${aligned ? 'aligned' : 'not aligned'}, nulls, unsorted)`, async () => {
      const fastDevice = newDevice('fast');
      const plainDevice = newDevice('plain');
      const perm = [5, 2, 0, 4, 1, 3];
      const cols = columns(true).map((c) => perm.map((p) => c[p]));
      const times = perm.map((p) => TIMES[p]);
      const t = (d: string): Tablet => ({
        deviceId: d,
        measurements: MEASUREMENTS,
        dataTypes: TYPES,
        timestamps: times,
        values: transpose(cols),
        isAligned: aligned,
      });
      await session.insertTablet(t(fastDevice));
      await plain.insertTablet(t(plainDevice));
      const fastRows = (await readDevice(fastDevice)).rows;
      const plainRows = (await readDevice(plainDevice, plain)).rows;
      expect(plainRows).toEqual(fastRows);
      expect(plainRows).toEqual(expectedRows(TIMES, columns(true)));
    });
  }

  it('writes typed-array columns the same way', async () => {
    const device = newDevice('plaintyped');
    await plain.insertTablet({
      deviceId: device,
      measurements: ['f', 'd', 'i', 'l'],
      dataTypes: ['FLOAT', 'DOUBLE', 'INT32', 'INT64'],
      timestamps: BigInt64Array.from([1n, 2n]),
      columns: [
        Float32Array.from([1.5, -2.25]),
        Float64Array.from([Math.PI, -0]),
        Int32Array.from([7, -7]),
        BigInt64Array.from([INT64_MAX, INT64_MIN_PLUS_1]),
      ],
    });
    const { rows } = await readDevice(device, plain, ['f', 'd', 'i', 'l']);
    expect(rows).toEqual([
      { time: 1n, values: [1.5, Math.PI, 7, INT64_MAX] },
      { time: 2n, values: [-2.25, -0, -7, INT64_MIN_PLUS_1] },
    ]);
  });

  it('reports a server failure the same way (IoTDBServerError)', async () => {
    const device = newDevice('plainerr');
    await plain.insertTablet({
      deviceId: device,
      measurements: ['v'],
      dataTypes: ['INT32'],
      timestamps: [1],
      values: [[1]],
    });
    const e = await plain
      .insertTablet({
        deviceId: device,
        measurements: ['v'],
        dataTypes: ['BLOB'],
        timestamps: [2],
        values: [[Buffer.from([1])]],
      })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBServerError);
  });
});
