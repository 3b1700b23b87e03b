import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  ColumnCategory,
  IoTDBServerError,
  IoTDBValidationError,
  TableSession,
  decodeDate,
  type CellValue,
  type ColumnCategoryName,
  type ColumnarResult,
  type IoTDBValue,
  type SessionDataSet,
  type TSDataTypeName,
  type TableTablet,
} from '../index.js';
import { expectedReadBack } from '../testing/read-back.js';

const { host, port } = inject('iotdb');
const DB = `it_table_session_${randomBytes(4).toString('hex')}`;

/** created without a database; makes and drops DB */
let admin: TableSession;
/** opened with `database: DB` */
let session: TableSession;

beforeAll(async () => {
  admin = new TableSession({ host, port });
  await admin.open();
  await admin.executeNonQueryStatement(`CREATE DATABASE ${DB}`);
  session = new TableSession({ host, port, database: DB });
  await session.open();
});

afterAll(async () => {
  try {
    await session?.close();
  } finally {
    try {
      await admin?.executeNonQueryStatement(`DROP DATABASE ${DB}`);
    } finally {
      await admin?.close();
    }
  }
});

// ---------- a table with a TAG, an ATTRIBUTE and a FIELD of each of the ten types ----------

const FIELD_TYPES: readonly TSDataTypeName[] = [
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
const FIELDS = FIELD_TYPES.map((t) => `f_${t.toLowerCase()}`);
const COLUMN_NAMES = ['device', 'model', ...FIELDS];
const CATEGORIES: ColumnCategoryName[] = ['TAG', 'ATTRIBUTE', ...FIELD_TYPES.map((): ColumnCategoryName => 'FIELD')];
const DATA_TYPES: TSDataTypeName[] = ['STRING', 'STRING', ...FIELD_TYPES];
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN_PLUS_1 = -(2n ** 63n) + 1n;

/** Six rows: three of device 'a' (model 'm1'), three of device 'b' (model 'm2'); every field has nulls. */
const TIMES = [1_000, 2_000, 3_000, 1_500, 2_500, 3_500];
const ROWS: CellValue[][] = [
  [
    'a',
    'm1',
    true,
    1,
    INT64_MAX,
    1.25,
    Math.PI,
    'text-1',
    1_700_000_000_000n,
    '2024-02-29',
    Buffer.from([1, 2]),
    'str-1',
  ],
  [
    'a',
    'm1',
    null,
    -2147483648,
    INT64_MIN_PLUS_1,
    null,
    -0.5,
    null,
    new Date(Date.UTC(2020, 0, 1)),
    null,
    Buffer.alloc(0),
    '',
  ],
  [
    'a',
    'm1',
    false,
    null,
    9007199254740993n,
    3.3,
    null,
    '中文 😀',
    null,
    new Date(Date.UTC(1999, 11, 31, 18)),
    null,
    null,
  ],
  ['b', 'm2', true, 2147483647, null, -1e30, 1e300, '', 0, '1000-01-01', new Uint8Array([255]), 'ß'],
  ['b', 'm2', null, 0, 0n, 0, 0, 'x', -1n, '9999-12-31', Buffer.from('blob'), null],
  ['b', 'm2', false, 42, -1, null, null, null, 9_000_000_000_000, null, null, 'last'],
];

const expected = expectedReadBack;

function tablet(tableName: string, over: Partial<TableTablet> = {}): TableTablet {
  return {
    tableName,
    columnNames: COLUMN_NAMES,
    columnCategories: CATEGORIES,
    dataTypes: DATA_TYPES,
    timestamps: TIMES,
    values: ROWS,
    ...over,
  };
}

/** The rows of `SELECT time, <COLUMN_NAMES> ... ORDER BY device, time`, as objects. */
function expectedObjects(): Record<string, IoTDBValue>[] {
  return TIMES.map((t, r) => {
    const o: Record<string, IoTDBValue> = { time: BigInt(t) };
    COLUMN_NAMES.forEach((name, c) => (o[name] = expected(DATA_TYPES[c], ROWS[r][c])));
    return o;
  }).sort((x, y) =>
    x.device === y.device
      ? Number((x.time as bigint) - (y.time as bigint))
      : String(x.device) < String(y.device)
        ? -1
        : 1,
  );
}

async function objectsOf(ds: SessionDataSet): Promise<Record<string, IoTDBValue>[]> {
  const out: Record<string, IoTDBValue>[] = [];
  for await (const r of ds) out.push(r.toObject());
  return out;
}

const selectAll = (table: string) => `SELECT time, ${COLUMN_NAMES.join(', ')} FROM ${table} ORDER BY device, time`;

/** Every cell of a columnar result as the row iterator gives it (int64As 'bigint'). */
function columnarObjects(c: ColumnarResult): Record<string, IoTDBValue>[] {
  const out: Record<string, IoTDBValue>[] = [];
  for (let r = 0; r < c.rowCount; r++) {
    const o: Record<string, IoTDBValue> = {};
    c.columnNames.forEach((name, k) => {
      if (c.nulls[k]?.[r] === 1) {
        o[name] = null;
        return;
      }
      const v = (c.values[k] as ArrayLike<unknown>)[r];
      o[name] =
        c.columnTypes[k] === 'BOOLEAN'
          ? v === 1
          : c.columnTypes[k] === 'DATE'
            ? decodeDate(v as number)
            : (v as IoTDBValue);
    });
    out.push(o);
  }
  return out;
}

describe('TableSession', () => {
  it('starts in the database it was given', async () => {
    expect(session.database).toBe(DB);
    expect(session.isOpen).toBe(true);
    expect(session.timestampPrecision).toBe('ms');
    // an unqualified CREATE TABLE lands in DB
    await session.executeNonQueryStatement('CREATE TABLE ddl_probe (tag1 STRING TAG, v INT32 FIELD)');
    const ds = await admin.executeQueryStatement(`SHOW TABLES FROM ${DB}`);
    const names = (await objectsOf(ds)).map((o) => o.TableName ?? o.tablename ?? Object.values(o)[0]);
    expect(names).toContain('ddl_probe');
  });

  it('writes a table tablet with TAG, ATTRIBUTE and all ten FIELD types with nulls, and reads it back', async () => {
    await session.insert(tablet('all_types'));
    const ds = await session.executeQueryStatement(selectAll('all_types'));
    expect(ds.columnNames).toEqual(['time', ...COLUMN_NAMES]);
    expect(ds.columnNames).not.toContain('Time');
    expect(ds.columnTypes).toEqual(['TIMESTAMP', ...DATA_TYPES]);
    const rows = [];
    for await (const r of ds) rows.push(r);
    expect(rows).toHaveLength(TIMES.length);
    for (const r of rows) {
      expect(r.timestamp).toBeNull();
      expect(typeof r.getValue('time')).toBe('bigint');
    }
    expect(rows.map((r) => r.toObject())).toEqual(expectedObjects());
  });

  it('reads `time` as a TIMESTAMP value column: no Time key in toObject()', async () => {
    const ds = await session.executeQueryStatement(
      `SELECT time, f_int32 FROM all_types WHERE device = 'b' ORDER BY time`,
    );
    const objects = await objectsOf(ds);
    expect(objects).toEqual([
      { time: 1_500n, f_int32: 2147483647 },
      { time: 2_500n, f_int32: 0 },
      { time: 3_500n, f_int32: 42 },
    ]);
    expect(objects[0]).not.toHaveProperty('Time');
  });

  it("keeps both columns of a join that names them alike in each row's object: a and a#2", async () => {
    // device a at 1000 (f_int32 1) beside device b 500 ms later (2147483647)
    const ds = await session.executeQueryStatement(
      `SELECT l.f_int32, r.f_int32 FROM all_types l JOIN all_types r ON l.time = r.time - 500 ` +
        `WHERE l.device = 'a' AND r.device = 'b' ORDER BY l.time LIMIT 1`,
    );
    expect(ds.columnNames).toEqual(['f_int32', 'f_int32']);
    const objects = await objectsOf(ds);
    expect(objects).toEqual([{ f_int32: 1, 'f_int32#2': 2147483647 }]);
    expect(JSON.stringify(objects)).toBe('[{"f_int32":1,"f_int32#2":2147483647}]');
  });

  it('gives the same data through toColumnar as through the rows, with no separate timestamps', async () => {
    const viaRows = await objectsOf(await session.executeQueryStatement(selectAll('all_types')));
    const c = await (await session.executeQueryStatement(selectAll('all_types'))).toColumnar();
    expect(c.timestamps).toBeNull();
    expect(c.columnNames).toEqual(['time', ...COLUMN_NAMES]);
    expect(c.columnTypes).toEqual(['TIMESTAMP', ...DATA_TYPES]);
    expect(c.rowCount).toBe(TIMES.length);
    expect(c.values[0]).toBeInstanceOf(BigInt64Array);
    expect(columnarObjects(c)).toEqual(viaRows);
    expect(viaRows).toEqual(expectedObjects());
  });

  it('gives a wide result, which the server sends in blocks of a few dozen rows, through toColumnar as through the rows', async () => {
    // 300 fields of five types with nulls: the server's blocks of ~70 rows make toColumnar join them as they come
    const types = ['DOUBLE', 'INT32', 'STRING', 'INT64', 'BOOLEAN'] as const;
    const fields = Array.from({ length: 300 }, (_, k) => ({ name: `f${k}`, type: types[k % 5] }));
    const cell = (type: (typeof types)[number], r: number, k: number): CellValue =>
      (r * 7 + k) % 11 === 0
        ? null
        : type === 'DOUBLE'
          ? r * 0.5 + k
          : type === 'INT32'
            ? r + k
            : type === 'STRING'
              ? `v${(r + k) % 13}`
              : type === 'INT64'
                ? BigInt(r) * 2n ** 40n + BigInt(k)
                : (r + k) % 2 === 0;
    for (let first = 0; first < 4000; first += 1000) {
      const rows = Array.from({ length: 1000 }, (_, i) => first + i);
      await session.insert({
        tableName: 'wide',
        columnNames: ['device', ...fields.map((f) => f.name)],
        dataTypes: ['STRING', ...fields.map((f) => f.type)],
        columnCategories: ['TAG', ...fields.map((): ColumnCategoryName => 'FIELD')],
        timestamps: rows,
        values: rows.map((r) => ['d1', ...fields.map((f, k) => cell(f.type, r, k))]),
      });
    }
    const sql = 'SELECT * FROM wide ORDER BY time';
    const viaRows = await objectsOf(await session.executeQueryStatement(sql));
    const ds = await session.executeQueryStatement(sql);
    const c = await ds.toColumnar();
    expect(ds.readStats().blocks).toBeGreaterThan(8192 / 302); // enough small blocks to be joined as they come
    expect(c.rowCount).toBe(4000);
    expect(columnarObjects(c)).toEqual(viaRows);
  });

  it('keeps one attribute value per TAG device', async () => {
    const ds = await session.executeQueryStatement(
      `SELECT device, model, count(*) AS n FROM all_types GROUP BY device, model ORDER BY device`,
    );
    expect(await objectsOf(ds)).toEqual([
      { device: 'a', model: 'm1', n: 3n },
      { device: 'b', model: 'm2', n: 3n },
    ]);
  });

  it("keeps a tag's value with a * as written (IoTDB may read it as a wildcard in a query's condition: user guide)", async () => {
    const regions = ['a', 'ab', 'a*', '*'];
    await session.insert({
      ...{ tableName: 'starred', columnNames: ['region', 'v'], dataTypes: ['STRING', 'INT32'] },
      ...{ columnCategories: ['TAG', 'FIELD'], timestamps: [1, 2, 3, 4], values: regions.map((r, i) => [r, i]) },
    });
    const rows = await objectsOf(await session.executeQueryStatement('SELECT region, v FROM starred ORDER BY v'));
    expect(rows).toEqual(regions.map((region, v) => ({ region, v })));
  });

  it('refuses a TAG given as bytes that are not UTF-8 before sending; an ATTRIBUTE and a FIELD keep such bytes', async () => {
    const notUtf8 = Buffer.from([0xfe, 0x41]);
    const tablet = (tag: Buffer) => ({
      tableName: 'tag_bytes',
      columnNames: ['dev', 'note', 'v'],
      dataTypes: ['STRING', 'STRING', 'STRING'] as TSDataTypeName[],
      columnCategories: ['TAG', 'ATTRIBUTE', 'FIELD'] as ColumnCategoryName[],
      timestamps: [1],
      values: [[tag, notUtf8, notUtf8]],
    });
    await expect(session.insert(tablet(notUtf8))).rejects.toThrow(
      /^values\[0\]\[0\] \("dev"\): a TAG value needs UTF-8/,
    );
    await session.insert(tablet(Buffer.from('d1')));
    const ds = await session.executeQueryStatement('SELECT dev, note, v FROM tag_bytes');
    const read: string[][] = [];
    for await (const row of ds)
      read.push([row.getString('dev')!, row.getBlob('note')!.toString('hex'), row.getBlob('v')!.toString('hex')]);
    expect(read).toEqual([['d1', 'fe41', 'fe41']]); // the refused row wrote nothing
  });

  it('creates the table with the categories and types the tablet gave', async () => {
    const ds = await session.executeQueryStatement('DESCRIBE all_types');
    const cols = await objectsOf(ds);
    const byName = new Map(cols.map((o) => [String(o.ColumnName), o]));
    expect(byName.get('time')).toMatchObject({ DataType: 'TIMESTAMP', Category: 'TIME' });
    expect(byName.get('device')).toMatchObject({ DataType: 'STRING', Category: 'TAG' });
    expect(byName.get('model')).toMatchObject({ DataType: 'STRING', Category: 'ATTRIBUTE' });
    FIELDS.forEach((f, i) => expect(byName.get(f), f).toMatchObject({ DataType: FIELD_TYPES[i], Category: 'FIELD' }));
  });

  it('sorts unsorted timestamps and accepts numeric categories and column-major typed arrays', async () => {
    const times = [30, 10, 20];
    await session.insert({
      tableName: 'typed',
      columnNames: ['device', 'f', 'd', 'i', 'l'],
      columnCategories: [
        ColumnCategory.TAG,
        ColumnCategory.FIELD,
        ColumnCategory.FIELD,
        ColumnCategory.FIELD,
        ColumnCategory.FIELD,
      ],
      dataTypes: ['STRING', 'FLOAT', 'DOUBLE', 'INT32', 'INT64'],
      timestamps: times,
      columns: [
        ['x', 'x', 'x'],
        Float32Array.from([3.5, 1.5, 2.5]),
        Float64Array.from([3, 1, 2]),
        Int32Array.from([30, 10, 20]),
        BigInt64Array.from([3n, 1n, INT64_MAX]),
      ],
    });
    const objects = await objectsOf(
      await session.executeQueryStatement('SELECT time, f, d, i, l FROM typed ORDER BY time'),
    );
    expect(objects).toEqual([
      { time: 10n, f: 1.5, d: 1, i: 10, l: 1n },
      { time: 20n, f: 2.5, d: 2, i: 20, l: INT64_MAX },
      { time: 30n, f: 3.5, d: 3, i: 30, l: 3n },
    ]);
  });

  it('writes the same rows through the plain path (enableFastSerialization: false)', async () => {
    const plain = new TableSession({ host, port, database: DB, enableFastSerialization: false });
    await plain.open();
    try {
      await plain.insert(tablet('all_types_plain'));
      const viaPlain = await objectsOf(await plain.executeQueryStatement(selectAll('all_types_plain')));
      expect(viaPlain).toEqual(expectedObjects());
      const viaFast = await objectsOf(await session.executeQueryStatement(selectAll('all_types')));
      expect(viaPlain).toEqual(viaFast);
    } finally {
      await plain.close();
    }
  });

  it('reads INT64 and TIMESTAMP as numbers with int64As: number', async () => {
    const num = new TableSession({ host, port, database: DB, int64As: 'number' });
    await num.open();
    try {
      const objects = await objectsOf(
        await num.executeQueryStatement(
          `SELECT time, f_int64, f_timestamp FROM all_types WHERE device = 'b' ORDER BY time`,
        ),
      );
      expect(objects).toEqual([
        { time: 1_500, f_int64: null, f_timestamp: 0 },
        { time: 2_500, f_int64: 0, f_timestamp: -1 },
        { time: 3_500, f_int64: -1, f_timestamp: 9_000_000_000_000 },
      ]);
      await expect(
        objectsOf(await num.executeQueryStatement(`SELECT f_int64 FROM all_types WHERE device = 'a'`)),
      ).rejects.toThrow(IoTDBValidationError);
    } finally {
      await num.close();
    }
  });

  it('works without a database option through USE and qualified names', async () => {
    const s = new TableSession({ host, port });
    await s.open();
    try {
      const e = await s.executeQueryStatement('SELECT * FROM all_types').catch((x: unknown) => x);
      expect(e).toBeInstanceOf(IoTDBServerError); // no database selected
      const qualified = await objectsOf(await s.executeQueryStatement(`SELECT count(*) AS n FROM ${DB}.all_types`));
      expect(qualified).toEqual([{ n: 6n }]);
      await s.executeNonQueryStatement(`USE ${DB}`);
      await s.insert({
        tableName: 'via_use',
        columnNames: ['device', 'v'],
        columnCategories: ['TAG', 'FIELD'],
        dataTypes: ['STRING', 'INT32'],
        timestamps: [1],
        values: [['d', 7]],
      });
      expect(await objectsOf(await session.executeQueryStatement('SELECT device, v FROM via_use'))).toEqual([
        { device: 'd', v: 7 },
      ]);
    } finally {
      await s.close();
    }
  });

  it('refuses a tablet whose categories do not match its columns (IoTDBValidationError), then goes on', async () => {
    const e = await session.insert(tablet('bad', { columnCategories: ['TAG', 'FIELD'] })).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBValidationError);
    expect((e as IoTDBValidationError).field).toBe('columnCategories');
    const e2 = await session
      .insert(
        tablet('bad', {
          columnCategories: CATEGORIES.map((c, i) => (i === 3 ? ('MEASUREMENT' as ColumnCategoryName) : c)),
        }),
      )
      .catch((x: unknown) => x);
    expect(e2).toBeInstanceOf(IoTDBValidationError);
    expect((e2 as IoTDBValidationError).field).toBe('columnCategories[3]');
    await session.insert({
      tableName: 'after_bad',
      columnNames: ['device', 'v'],
      columnCategories: ['TAG', 'FIELD'],
      dataTypes: ['STRING', 'INT32'],
      timestamps: [1],
      values: [['d', 1]],
    });
    expect(await objectsOf(await session.executeQueryStatement('SELECT v FROM after_bad'))).toEqual([{ v: 1 }]);
  });

  it('an insert into a database that does not exist fails at once with the server’s 301, not after the retry budget', async () => {
    const retries: unknown[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (o: unknown) => retries.push(o) };
    const missing = new TableSession({ host, port, database: `${DB}_missing`, logger });
    await missing.open();
    try {
      const e = await missing.insert(tablet('t')).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(IoTDBServerError);
      expect((e as IoTDBServerError).statusCode).toBe(301);
      expect((e as IoTDBServerError).serverMessage).toContain(`Unknown database ${DB}_missing`);
      expect((e as Error).message).toMatch(/^insert t \(6 items\): \[301\]/);
      expect(retries).toEqual([]); // sent once: trying again cannot make the database exist
    } finally {
      await missing.close();
    }
  });

  it('rejects a SQL error with IoTDBServerError 700', async () => {
    const e = await session.executeQueryStatement('SELEC * FROM all_types').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBServerError);
    expect((e as IoTDBServerError).statusCode).toBe(700);
  });
});
