/**
 * Our rows against the Java Session's (java/ReadDump.java), statement by statement, on data of every type with
 * nulls, NaN, -0, INT64 beyond 2^53 and text that JSON must escape: tree (non-aligned and aligned) and table model,
 * raw reads, aggregations, fills, expressions, SHOW statements, LAST queries and statements the server refuses.
 * Each side prints every value exactly (FLOAT and DOUBLE as their bits) and the row as text (Java's
 * RowRecord.toString, our String(row)), then reads the statement again and prints each cell's getString (Java's
 * iterator, our RowRecord), so any difference in a name, a type, a value, its text, a row's order or an error's code
 * and message shows as a difference of lines.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import {
  IoTDBServerError,
  Session,
  TableSession,
  type IoTDBValue,
  type SessionDataSet,
  type TAggregationTypeName,
} from '@iotdb/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const { host, port } = inject('iotdb');
const suffix = randomBytes(3).toString('hex');
const TREE = `root.it_parity_${suffix}`;
const TABLE_DB = `it_parity_${suffix}`;
const script = fileURLToPath(new URL('../../java/read-dump.sh', import.meta.url));

const NAMES = ['b', 'i32', 'i64', 'f', 'd', 'txt', 'ts', 'dt', 'blb', 'str'];
const TYPES = ['BOOLEAN', 'INT32', 'INT64', 'FLOAT', 'DOUBLE', 'TEXT', 'TIMESTAMP', 'DATE', 'BLOB', 'STRING'] as const;
const ROWS = 8;
const TEXTS = ['hello', 'wörld', '', '🙂x', 'a\nb "q" \\', 'tab\t\u0001', 'h2', 'w2'];

/** Row i of every type, some of them null, the extremes each type has. */
function row(i: number): IoTDBValue[] {
  return [
    i % 2 === 0,
    i === 4 ? null : (i - 3) * 1000003,
    i === 7 ? 9007199254740993n + BigInt(i) : BigInt(-i) * 12345678901n,
    i === 5 ? null : 0.1 * i + 1e-7,
    i === 2 ? NaN : i === 3 ? -0 : Math.PI * i * 1e15,
    i === 6 ? null : TEXTS[i],
    BigInt(i) * 86400000n - 1000n,
    new Date(Date.UTC(1999 + i * 3, i, 1 + i)),
    i === 1 ? null : Buffer.from([1, 2, 255 - i]),
    `s${i}`,
  ];
}

const STATEMENTS = [
  `tree|select * from ${TREE}.**`,
  `tree|select * from ${TREE}.** align by device`,
  `tree|select last * from ${TREE}.**`,
  `tree|select last i32, d from ${TREE}.d1`,
  `tree|select count(*) from ${TREE}.**`,
  `tree|select count(*) from ${TREE}.** align by device`,
  `tree|select avg(i32), sum(i64), max_value(f), min_value(d), first_value(txt), last_value(dt), extreme(i32), max_time(i64), min_value(ts), count(blb), first_value(str), last_value(b) from ${TREE}.d1`,
  `tree|select count(i32), avg(d) from ${TREE}.d1 group by ([0, 100), 10ms)`,
  `tree|select last_value(i32), last_value(d) from ${TREE}.d1 group by ([0, 100), 10ms) fill(previous)`,
  `tree|select i32, d from ${TREE}.d1 where i32 > 0 order by time desc limit 3 offset 1`,
  `tree|select i32 + i64, -d, f * 2, i32 / 2, i32 % 3 from ${TREE}.d1`,
  `tree|select cast(i32 as TEXT), cast(b as INT32) from ${TREE}.d1`,
  `tree|select cast(d as INT32) from ${TREE}.d1`,
  `tree|select i32, d from ${TREE}.d1 fill(linear)`,
  `tree|select i32, d from ${TREE}.d1 fill(previous)`,
  `tree|select i32, txt from ${TREE}.d1 fill(7)`,
  `tree|select diff(i32), abs(i64), sin(d), top_k(i32, 'k'='2') from ${TREE}.d1`,
  `tree|select * from ${TREE}.d2 where time >= 3 and time <= 6`,
  `tree|select s from ${TREE}.nothing`,
  `tree|show timeseries ${TREE}.**`,
  `tree|show devices ${TREE}.**`,
  `tree|count timeseries ${TREE}.**`,
  `tree|show databases ${TREE}`,
  `tree|select i64 from ${TREE}.d1 where i64 > 9007199254740993`,
  `tree|select count(i32) from ${TREE}.** group by level = 1`,
  `tree|select i32 from ${TREE}.d1 where time in (1, 3, 5)`,
  `tree|select * from ${TREE}.d1 where txt like 'h%'`,
  `tree|select count(i32) from ${TREE}.d1 group by variation(i32)`,
  `tree|select ts, dt, blb, str from ${TREE}.d1 order by ts desc`,
  `tree|selec * from ${TREE}.d1`,
  'table|select * from tt order by time, device_id',
  'table|select device_id, count(*), avg(i32), sum(i64), max(f), min(d) from tt group by device_id order by device_id',
  'table|select date_bin(10ms, time) as w, device_id, count(i32) from tt group by 1, device_id order by 1, 2',
  'table|select last(time), last_by(i32, time), first(d) from tt',
  "table|select * from tt where blb = X'0102ff'",
  'table|select cast(i32 as DOUBLE), cast(d as INT64), i64 * 2, -f from tt order by time, device_id',
  'table|show tables',
  'table|desc tt',
  'table|select time, device_id, i32 from tt where i32 is null order by time, device_id',
  "table|select coalesce(i32, -1), coalesce(str, 'none') from tt order by time, device_id",
  'table|select * from tt order by time desc limit 2 offset 1',
  'table|select round(d, 2), length(txt), upper(str), date_bin(1d, ts) from tt order by time, device_id',
  'table|select nosuch from tt',
  // the tree session's structured queries (ReadDump.java's kinds)
  `raw|${TREE}.d1.i32,${TREE}.d1.txt,${TREE}.d2.d,${TREE}.d1.dt|2|7`,
  `last|${TREE}.d1.i32,${TREE}.d1.blb,${TREE}.d2.str,${TREE}.d2.ts|0`,
  `last|${TREE}.d1.f|8`,
  `lastdevice|${TREE}|${TREE}.d2|i64,dt,f,txt`,
  `agg|${TREE}.d1.i32,${TREE}.d1.d,${TREE}.d2.i64,${TREE}.d1.txt|COUNT,AVG,MAX_VALUE,LAST_VALUE|0|100|0`,
  `agg|${TREE}.d1.i32,${TREE}.d1.f|SUM,FIRST_VALUE|0|9|3`,
  `raw|${TREE}.d1.nosuch|0|10`,
];

let tree: Session;
let table: TableSession;

beforeAll(async () => {
  tree = new Session({ host, port });
  table = new TableSession({ host, port });
  await tree.open();
  await table.open();
  for (const [device, isAligned] of [
    [`${TREE}.d1`, false],
    [`${TREE}.d2`, true],
  ] as const) {
    await tree.insertTablet({
      deviceId: device,
      isAligned,
      measurements: NAMES,
      dataTypes: [...TYPES],
      timestamps: Array.from({ length: ROWS }, (_, i) => i + 1),
      values: Array.from({ length: ROWS }, (_, i) => row(i)),
    });
  }
  await table.executeNonQueryStatement(`CREATE DATABASE ${TABLE_DB}`);
  await table.executeNonQueryStatement(`USE ${TABLE_DB}`);
  const values: IoTDBValue[][] = [];
  for (let i = 0; i < ROWS; i++)
    for (const device of ['dA', 'dB'])
      values.push([
        device,
        'north',
        ...row(i).map((v, k) => (k === 1 && device === 'dB' && typeof v === 'number' ? v + 1 : v)),
      ]);
  values[0][2] = null; // a null BOOLEAN too
  values[3][11] = Buffer.from([1, 2, 0xff]); // a STRING given as bytes
  await table.insert({
    tableName: 'tt',
    columnNames: ['device_id', 'region', ...NAMES],
    columnCategories: ['TAG', 'ATTRIBUTE', ...NAMES.map(() => 'FIELD' as const)],
    dataTypes: ['STRING', 'STRING', ...TYPES],
    timestamps: Array.from({ length: ROWS * 2 }, (_, k) => Math.floor(k / 2) + 1),
    values,
  });
}, 60_000);

afterAll(async () => {
  await tree?.executeNonQueryStatement(`DELETE DATABASE ${TREE}`).catch(() => {});
  await table?.executeNonQueryStatement(`DROP DATABASE IF EXISTS ${TABLE_DB}`).catch(() => {});
  await tree?.close();
  await table?.close();
});

const bits = new DataView(new ArrayBuffer(8));

/** A value as ReadDump.java prints it, by its column's declared type. */
function printed(type: string, v: IoTDBValue): string {
  if (v === null) return 'null';
  switch (type) {
    case 'FLOAT':
      bits.setFloat32(0, v as number);
      return `f${bits.getUint32(0).toString(16)}`;
    case 'DOUBLE':
      bits.setFloat64(0, v as number);
      return `d${bits.getBigUint64(0).toString(16)}`;
    case 'TEXT':
    case 'STRING':
      return JSON.stringify(v);
    case 'BLOB':
      return `0x${(v as Buffer).toString('hex')}`;
    case 'DATE':
      return (v as Date).toISOString().slice(0, 10);
    default:
      return String(v);
  }
}

async function dump(ds: SessionDataSet, isTree: boolean): Promise<string[]> {
  const lines = [`names ${ds.columnNames.join(',')}`, `types ${ds.columnTypes.join(',')}`];
  const hasTime = isTree && ds.columnNames[0] === 'Time';
  const types = ds.columnTypes.slice(hasTime ? 1 : 0);
  for await (const r of ds) {
    const cells = r.values.map((v, i) => printed(types[i], v));
    lines.push((hasTime ? [String(r.timestamp), ...cells] : cells).join(' | '));
    lines.push(`text ${JSON.stringify(String(r))}`); // as Java's RowRecord.toString, getString's text of each value
  }
  return lines;
}

/** A line of STATEMENTS run as ReadDump.java runs it. */
function query(line: string): Promise<SessionDataSet> {
  const [kind, ...p] = line.split('|');
  const list = (commaSeparated: string) => commaSeparated.split(',');
  switch (kind) {
    case 'tree':
      return tree.executeQueryStatement(line.slice('tree|'.length));
    case 'table':
      return table.executeQueryStatement(line.slice('table|'.length));
    case 'raw':
      return tree.executeRawDataQuery(list(p[0]), Number(p[1]), Number(p[2]));
    case 'last':
      return tree.executeLastDataQuery(list(p[0]), { lastTime: Number(p[1]) });
    case 'lastdevice':
      return tree.executeLastDataQueryForOneDevice(p[0], p[1], list(p[2]));
    case 'agg': {
      const interval = Number(p[4]);
      const range = { startTime: Number(p[2]), endTime: Number(p[3]) };
      return tree.executeAggregationQuery(list(p[0]), list(p[1]) as TAggregationTypeName[], {
        ...range,
        ...(interval === 0 ? {} : { interval }),
      });
    }
    default:
      throw new Error(`unknown kind of statement: ${line}`);
  }
}

/** Each row's getString of every column, as ReadDump.java's second read prints them through Java's iterator. */
async function strings(ds: SessionDataSet): Promise<string[]> {
  const lines = [];
  for await (const r of ds) {
    const cells = ds.columnNames.map((_, k) => r.getString(k + 1) ?? 'null');
    lines.push(`strings ${JSON.stringify(cells.join('\t'))}`);
  }
  return lines;
}

/** Our answer to each statement, as ReadDump.java prints the Java client's: its rows, then read again, its strings. */
async function ours(): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const orError = async (read: () => Promise<string[]>): Promise<string[]> => {
    try {
      return await read();
    } catch (e) {
      if (!(e instanceof IoTDBServerError)) throw e;
      return [`ERROR ${e.statusCode}: ${e.serverMessage}`];
    }
  };
  for (const line of STATEMENTS) {
    const rows = await orError(async () => dump(await query(line), !line.startsWith('table|')));
    const texts = await orError(async () => strings(await query(line)));
    out.set(line, [...rows, ...texts]);
  }
  return out;
}

function java(): Map<string, string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'iotdb-read-parity-'));
  try {
    const file = join(dir, 'statements.txt');
    writeFileSync(file, `${STATEMENTS.join('\n')}\n`);
    const args = [`host=${host}`, `port=${port}`, `database=${TABLE_DB}`, `statements=${file}`];
    const text = execFileSync('bash', [script, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    const out = new Map<string, string[]>();
    let lines: string[] = [];
    for (const line of text.split('\n'))
      if (line.startsWith('### ')) out.set(line.slice(4), (lines = []));
      else if (line !== '') lines.push(line);
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Java's getString of a TIMESTAMP in a zone west of UTC: the fraction after the offset (1969-12-31T19:00:00-05:00.000). */
const FRACTION_AFTER_OFFSET = /^(.*T\d\d:\d\d:\d\d)(-\d\d:\d\d)(\.\d+)$/;

/**
 * The Java dump of a statement with its `text` (RowRecord.toString) and `strings` (getString) lines as ours should
 * read, where they differ by design: Java prints a time first in a row's text even for a result without one (0: a
 * table-model result, an aggregation, SHOW), ours does not; a FLOAT or DOUBLE that JDK 18 and earlier print with more
 * digits than it needs (2.1991148575128552E16 for 2.199114857512855E16) ours prints shortest, as JDK 19 and later
 * do; and a TIMESTAMP's getString in a zone west of UTC has its fraction before the offset, as ISO 8601 has it. Any
 * other difference stays.
 */
function asOursPrints(theirs: string[], mine: string[]): string[] {
  const types = (theirs[1] ?? '').replace(/^types /, '').split(',');
  const untimed = !theirs[0]?.startsWith('names Time,');
  const kind = (line: string | undefined) => /^(text|strings) /.exec(line ?? '')?.[1];
  const cells = (line: string) => (JSON.parse(line.slice(line.indexOf(' ') + 1)) as string).split('\t');
  const sameValue = (type: string, java: string, ours: string) =>
    (type === 'DOUBLE' && Number(java) === Number(ours)) ||
    (type === 'FLOAT' && Math.fround(Number(java)) === Math.fround(Number(ours))) ||
    (type === 'TIMESTAMP' && java.replace(FRACTION_AFTER_OFFSET, '$1$3$2') === ours);
  return theirs.map((line, k) => {
    const what = kind(line);
    if (what === undefined) return line;
    const java = cells(line).slice(what === 'text' && untimed ? 1 : 0);
    const ours = kind(mine[k]) === what ? cells(mine[k]) : [];
    const asOurs = (cell: string, c: number) =>
      cell !== ours[c] && sameValue(types[c], cell, ours[c]) ? ours[c] : cell;
    return `${what} ${JSON.stringify(java.map(asOurs).join('\t'))}`;
  });
}

describe('reads against the Java Session', () => {
  it('answer every statement as the Java Session does: names, types, every value exactly, errors', async () => {
    // IoTDB's last cache types a LAST query's DataType column otherwise once warm (a STRING series TEXT, DATE
    // INT32), for both clients: each side reads after one read has warmed it.
    await ours();
    const theirs = java();
    const mine = await ours();
    expect([...theirs.keys()]).toEqual(STATEMENTS);
    for (const line of STATEMENTS)
      expect(mine.get(line), line).toEqual(asOursPrints(theirs.get(line)!, mine.get(line)!));
    // the data is there: not two empty answers compared
    expect(mine.get(STATEMENTS[0])!.length).toBe(2 + 3 * ROWS); // a row's values and its text, then its strings
    expect(mine.get('table|select * from tt order by time, device_id')!.length).toBe(2 + 6 * ROWS);
  }, 120_000);
});
