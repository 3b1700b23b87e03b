import { writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Session, TableSession, type BaseSession } from '@iotdb/client';
import { fixed, times } from '../report/numbers.js';
import { textTable } from '../report/table.js';
import { outDirReady } from '../report/write-results.js';
import { runJavaQuery, type FailedPass, type ReadPass } from '../run/java-query.js';
import { readAsBatches, readAsColumns, readAsRows } from '../run/read-pass.js';
import { RunError } from '../run/run-error.js';

const USAGE =
  'usage: iotdb-bench read-compare [--host H] [--port P] [--sql SQL] [--database DB (table model)] [--fetch-size N] [--rounds N] [--out FILE.json]';
const DEFAULT_SQL = 'SELECT * FROM root.bench.** ALIGN BY DEVICE';

interface Options {
  host: string;
  port: number;
  sql: string;
  database: string | undefined;
  fetchSize: number;
  rounds: number;
  out: string | undefined;
}

/** The readers compared, in the order each round runs them; Java's is the baseline. */
const READERS = [
  { key: 'rows', name: 'ours: rows (for await)' },
  { key: 'columns', name: 'ours: columns (toColumnar)' },
  { key: 'batches', name: 'ours: columns (batches)' },
  { key: 'java', name: 'Java: SessionDataSet iterator' },
] as const;
type ReaderKey = (typeof READERS)[number]['key'];
type Passes = Record<ReaderKey, ReadPass[]>;

/**
 * `iotdb-bench read-compare`: one statement read in the same run by our rows (`for await`, every value),
 * our columns (`toColumnar()`, and `batches()` streamed) and the Java client's iterator (java/QueryBench.java),
 * alternating, `rounds` times after an untimed warm-up of ours (Java warms up on its own first read in each
 * JVM, which is not counted); prints each round's points/s and the medians' ratios. 2 on bad usage, 1 when
 * the statement reads no values (nothing to compare) or the readers did not read the same rows and values.
 */
export async function readCompareCommand(args: readonly string[]): Promise<number> {
  let o: Options;
  try {
    o = parseOptions(args);
  } catch (e) {
    console.error(`iotdb-bench read-compare: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (o.out !== undefined && !outDirReady(dirname(o.out), 'iotdb-bench read-compare')) return 2;
  const session: BaseSession =
    o.database === undefined
      ? new Session({ host: o.host, port: o.port })
      : new TableSession({ host: o.host, port: o.port, database: o.database });
  await session.open();
  const read: Record<ReaderKey, () => Promise<ReadPass>> = {
    rows: () => readAsRows(session, o.sql, o.fetchSize),
    columns: () => readAsColumns(session, o.sql, o.fetchSize),
    batches: () => readAsBatches(session, o.sql, o.fetchSize),
    java: () => Promise.resolve(javaPass(runJavaQuery({ ...o, reps: 2 }).at(-1)!)), // a child process, run to its end
  };
  const passes: Passes = { rows: [], columns: [], batches: [], java: [] };
  try {
    const warmUp = await read.rows();
    for (const { key } of READERS) if (key !== 'java' && key !== 'rows') await read[key]();
    if (warmUp.points === 0)
      throw new RunError(
        `the statement read no values (${warmUp.rows} rows): nothing to compare; --sql must read data (default: ${DEFAULT_SQL}, what iotdb-bench writes)`,
      );
    for (let round = 1; round <= o.rounds; round++) {
      for (const { key } of READERS) passes[key].push(await read[key]());
      console.log(roundLine(round, passes));
    }
  } finally {
    await session.close();
  }
  const all = READERS.flatMap(({ key }) => passes[key]);
  const differ = all.find((p) => p.rows !== all[0].rows || p.points !== all[0].points);
  console.log(summary(o, passes));
  if (o.out !== undefined) writeFileSync(o.out, `${JSON.stringify({ options: o, passes }, null, 2)}\n`);
  if (differ !== undefined) {
    console.error(
      `iotdb-bench read-compare: the readers read different data: ${all[0].rows} rows / ${all[0].points} values vs ${differ.rows} / ${differ.points}`,
    );
    return 1;
  }
  return 0;
}

function parseOptions(args: readonly string[]): Options {
  const o: Options = {
    host: process.env.IOTDB_HOST ?? '127.0.0.1',
    port: Number(process.env.IOTDB_PORT ?? 6667),
    sql: DEFAULT_SQL,
    database: undefined,
    fetchSize: 5000,
    rounds: 3,
    out: undefined,
  };
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i], args[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    const count = () => {
      const n = Number(value);
      if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${flag} needs an integer >= 1, got ${value}`);
      return n;
    };
    if (flag === '--host') o.host = value;
    else if (flag === '--port') o.port = count();
    else if (flag === '--sql') o.sql = value;
    else if (flag === '--database') o.database = value;
    else if (flag === '--fetch-size') o.fetchSize = count();
    else if (flag === '--rounds') o.rounds = count();
    else if (flag === '--out') o.out = value;
    else throw new Error(`unknown option ${flag}`);
  }
  return o;
}

/** The Java client's read, or the end of the comparison when the server refused it. */
function javaPass(p: ReadPass | FailedPass): ReadPass {
  if ('error' in p) throw new RunError(`the Java client could not read the statement: ${p.error}`);
  return p;
}

const M = (p: ReadPass) => `${fixed(p.pointsPerS / 1e6, 2)} M`;

function roundLine(round: number, p: Passes): string {
  const last = p.rows.at(-1)!;
  const rates = READERS.map(({ key, name }) => `${name} ${M(p[key].at(-1)!)}`).join(', ');
  return `round ${round}: ${rates} values/s (${last.rows} rows, ${last.points} values)`;
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function summary(o: Options, p: Passes): string {
  const med = (k: ReaderKey) => median(p[k].map((x) => x.pointsPerS));
  const cpu = (k: ReaderKey) => median(p[k].map((x) => x.cpuSPerMpts));
  const row = ({ key, name }: (typeof READERS)[number]) => [
    name,
    p[key].map((x) => fixed(x.pointsPerS / 1e6, 2)).join(', '),
    fixed(med(key) / 1e6, 2),
    times(med(key), med('java')),
    fixed(cpu(key), 3),
    times(cpu(key), cpu('java')),
  ];
  return [
    `${o.sql} (fetch size ${o.fetchSize}), ${o.rounds} rounds:`,
    textTable(
      ['reader', 'M values/s per round', 'median', 'vs Java', 'client CPU s/M values', 'vs Java'],
      READERS.map(row),
    ),
  ].join('\n');
}
