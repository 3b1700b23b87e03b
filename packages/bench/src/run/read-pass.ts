import type { BaseSession, ColumnValues, ColumnarResult, QueryOptions, RowRecord, SessionDataSet } from '@iotdb/client';
import type { ReadPass } from './java-query.js';

/** What a read of a query's result came to: its rows, and its values that were not null (the points read). */
export interface RowsRead {
  rows: number;
  points: number;
}

/**
 * Reads a query's result to the end, row by row as an application would, every value of every row made and looked
 * at, as the Java client's reads in --vs-java runs read each through its getter (java/QueryBench.java readAll).
 */
export async function readRows(ds: SessionDataSet): Promise<RowsRead> {
  let rows = 0;
  let points = 0;
  for await (const row of ds) {
    rows++;
    points += nonNullValues(row);
  }
  return { rows, points };
}

/** `sql` read as rows (`for await`), every value of every row through `row.values`. */
export function readAsRows(session: BaseSession, sql: string, opts: QueryOptions): Promise<ReadPass> {
  return timed(async () => readRows(await session.executeQueryStatement(sql, opts)));
}

/** `sql` read as rows a block at a time (`rowBatches()`), every value of every row through `row.values`. */
export function readAsRowBatches(session: BaseSession, sql: string, opts: QueryOptions): Promise<ReadPass> {
  return timed(async () => {
    let rows = 0;
    let points = 0;
    for await (const batch of (await session.executeQueryStatement(sql, opts)).rowBatches())
      for (const row of batch) {
        rows++;
        points += nonNullValues(row);
      }
    return { rows, points };
  });
}

/** Makes every value of `row` and looks at each; returns the non-null ones. */
export function nonNullValues(row: RowRecord): number {
  const values = row.values;
  let n = 0;
  for (let k = 0; k < values.length; k++) if (values[k] !== null) n++;
  return n;
}

/** `sql` read as columns (`toColumnar()`), every cell looked at. */
export function readAsColumns(session: BaseSession, sql: string, opts: QueryOptions): Promise<ReadPass> {
  return timed(async () => {
    const c = await (await session.executeQueryStatement(sql, opts)).toColumnar();
    return { rows: c.rowCount, points: readColumns(c) };
  });
}

/** `sql` read as a stream of columnar batches (`batches()`, one per TsBlock), every cell looked at. */
export function readAsBatches(session: BaseSession, sql: string, opts: QueryOptions): Promise<ReadPass> {
  return timed(async () => {
    let rows = 0;
    let points = 0;
    for await (const c of (await session.executeQueryStatement(sql, opts)).batches()) {
      rows += c.rowCount;
      points += readColumns(c);
    }
    return { rows, points };
  });
}

/** Reads every cell of a columnar result; returns the non-null ones. */
function readColumns(c: ColumnarResult): number {
  return c.values.reduce<number>((n, column, k) => n + readColumn(column, c.nulls[k], c.rowCount), 0);
}

/** Reads every value of a column (one loop per array kind, as a columnar reader would); returns the non-null ones. */
function readColumn(column: ColumnValues, nulls: Uint8Array | null, rows: number): number {
  let sink = 0;
  if (column instanceof Float64Array) for (let r = 0; r < rows; r++) sink += column[r];
  else if (column instanceof Float32Array) for (let r = 0; r < rows; r++) sink += column[r];
  else if (column instanceof Int32Array || column instanceof Uint8Array)
    for (let r = 0; r < rows; r++) sink += column[r];
  else if (column instanceof BigInt64Array) for (let r = 0; r < rows; r++) sink += column[r] === 0n ? 0 : 1;
  else for (let r = 0; r < rows; r++) sink += column[r]?.length ?? 0;
  sinkHole = sink;
  if (nulls === null) return rows;
  let n = 0;
  for (let r = 0; r < rows; r++) n += 1 - nulls[r];
  return n;
}

/** where the values read go, so that reading them cannot be optimised away */
export let sinkHole = 0;

/** A read's rows and values, with its wall time and the process's CPU over it. */
async function timed(read: () => Promise<{ rows: number; points: number }>): Promise<ReadPass> {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const { rows, points } = await read();
  const wallS = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  return { rows, points, wallS, pointsPerS: points / wallS, cpuSPerMpts: cpuS / (points / 1e6) };
}
