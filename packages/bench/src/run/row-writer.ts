import type { CellValue, SessionPool, TableRow, TableSessionPool, TreeRow, Writer } from '@iotdb/client';
import type { BenchConfig } from '../types.js';
import { BatchGenerator } from '../workload/generator.js';
import { DEVICE_TAG, TABLE_NAME } from '../workload/schema.js';
import type { Send } from './write-ops.js';

/**
 * `--method writer`: a client that hands the batching writer one row at a time, as an application
 * fed by MQTT or Kafka would: each round, row 0 of every device, then row 1 of every device, ...
 * (each row a fresh object with one value per sensor). One timed operation is one row of every
 * device; `close()` (the final flush) is timed too, and points the writer reports failed are taken
 * back there.
 */
export function rowWriter(
  c: BenchConfig,
  pool: SessionPool | TableSessionPool,
  devices: readonly number[],
  send: Send,
) {
  const gens = devices.map(() => new BatchGenerator(c));
  const { measurements, types } = gens[0];
  const declared = Object.fromEntries(measurements.map((m, s) => [m, types[s]]));
  let failedPoints = 0;
  const onError = (_e: Error, rows: (TreeRow | TableRow)[]) => {
    for (const r of rows) failedPoints += Object.keys('values' in r ? r.values : r.fields).length;
  };
  const table = c.model === 'table';
  const writer: Writer<TreeRow> | Writer<TableRow> = table
    ? (pool as TableSessionPool).writer({ types: declared, onError })
    : (pool as SessionPool).writer({ types: declared, aligned: c.model === 'aligned', onError });
  const write = writer.write.bind(writer) as (row: TreeRow | TableRow) => Promise<void>;
  const valuesOf = rowOfColumns(measurements, table ? 1 : 0); // a table tablet's column 0 is its TAG

  return {
    async round(round: number): Promise<void> {
      const tablets = devices.map((d, k) => (table ? gens[k].table(d, round) : gens[k].tree(d, round)));
      const rows = tablets[0].timestamps.length;
      for (let r = 0; r < rows; r++) {
        await send('writer', devices.length * measurements.length, async () => {
          let pts = 0;
          for (const t of tablets) {
            const cols = t.columns!;
            const values = valuesOf(cols, r);
            pts += c.nullRatio === 0 ? measurements.length : nonNull(values);
            const timestamp = t.timestamps[r];
            await write(
              'deviceId' in t
                ? { deviceId: t.deviceId, timestamp, values }
                : { table: TABLE_NAME, timestamp, tags: { [DEVICE_TAG]: cols[0][r] as string }, fields: values },
            );
          }
          return pts;
        });
      }
    },
    /**
     * Flushes and closes; the points reported failed are subtracted from what the rounds counted. Also after a
     * stop: the rows the rounds handed over were counted as written.
     */
    close(): Promise<void> {
      const flush = async () => (await writer.close(), -failedPoints);
      return send('writer', 0, flush, { evenWhenStopped: true, last: true });
    },
  };
}

/**
 * `(cols, r) => ({ s0: cols[0][r], s1: cols[1][r], ... })`: row r of the generator's columns as a fresh
 * object of the shape an application's rows have when they come from JSON.parse or an object literal (one
 * load site per column, so reading the typed arrays costs little). An object built key by key past a dozen
 * keys is in V8's dictionary mode instead, which costs every reader, the writer included, several times
 * more per cell: see docs/PERFORMANCE.md.
 */
function rowOfColumns(
  names: readonly string[],
  first: number,
): (cols: readonly ArrayLike<unknown>[], r: number) => Record<string, CellValue> {
  const body = `return { ${names.map((n, k) => `${JSON.stringify(n)}: cols[${k + first}][r]`).join(', ')} };`;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- generated on purpose: one object literal per shape
  return new Function('cols', 'r', body) as (
    cols: readonly ArrayLike<unknown>[],
    r: number,
  ) => Record<string, CellValue>;
}

function nonNull(values: Record<string, CellValue>): number {
  let n = 0;
  for (const k in values) if (values[k] != null) n++;
  return n;
}
