#!/usr/bin/env node
import { mkdirSync, writeFileSync } from 'node:fs';
import { Int64BE } from 'int64-buffer';
import { Bench } from 'tinybench';
import { SessionDataSet, TSDataType, type RowRecord } from '@iotdb/client';
import {
  BufferPool,
  ByteWriter,
  TSInsertTabletReqSchema,
  decodeTsBlock,
  plainInsertTabletReq,
  prepareTablet,
  writeInsertTabletReq,
  writeInsertTabletReqCompact,
  writeStruct,
  writeTimestamps,
  type Tablet,
} from '@iotdb/fast-serializer';
import { AnchorTabletBuilder, toPlainColumns, toRowMajor } from '../workload/anchor.js';
import { anchorQueryReply, noServerContext } from '../workload/anchor-reply.js';
import { JavaInterrupted } from '../run/java-child.js';
import { nonNullValues } from '../run/read-pass.js';
import { runJavaCodec, type JavaCodecRates } from './java-reference.js';
import { encodeNaive } from './naive-baseline.js';
import { diagnosticsReport, measureDiagnostics } from './diagnostics.js';

/**
 * `pnpm bench`: codec microbenchmarks on the anchor workload (no server), single thread, and the Java
 * client's codec (java/codec.sh) in the same run when Java is present (`--no-java` skips it).
 * Prints a table, the ratios ours/Java, and writes bench-results/micro.json.
 * Rates are from each task's median time; BENCH_SECONDS sets the time per task (default 2).
 */
const ROWS = 500;
const SENSORS = 50;
const BLOCK_ROWS = 5000;
/** the most rows the server sends in one block (max_tsblock_line_number's default) */
const SERVER_BLOCK_ROWS = 1000;
const NARROW_SENSORS = 10;
const seconds = Number(process.env.BENCH_SECONDS ?? 2);
const withJava = !process.argv.includes('--no-java');

const pool = new BufferPool();
const typed = new AnchorTabletBuilder({ sensors: SENSORS, rows: ROWS }).fill(7, 1);
const plain = toPlainColumns(typed);
const rowMajor = toRowMajor(typed);

/** What Session.insertTablet does before the socket: prepare, then the whole request into a pooled buffer. */
function encodeFast(t: Tablet, write = writeInsertTabletReq): number {
  const w = new ByteWriter(4096, pool);
  write(w, 1n, prepareTablet(t));
  const n = w.pos;
  w.release();
  return n;
}

/** enableFastSerialization: false: the plain encoder's buffers, then the generic struct codec. */
function encodeLegacy(t: Tablet): number {
  const req = plainInsertTabletReq(1n, prepareTablet(t));
  const w = new ByteWriter(req.values.length + req.timestamps.length + 1024);
  writeStruct(w, TSInsertTabletReqSchema, req);
  return w.pos;
}

const WIDE = anchorQueryReply(BLOCK_ROWS, SENSORS);
/** the same columns with a third of the cells null, as a sparse result (the Java reference decodes it too) */
const SPARSE = anchorQueryReply(BLOCK_ROWS, SENSORS, 3);
/** a block the size the server sends (a query's reply holds several) */
const SERVER_BLOCK = anchorQueryReply(SERVER_BLOCK_ROWS, SENSORS);
/** a narrow result, where the await per row weighs most */
const NARROW = anchorQueryReply(BLOCK_ROWS, NARROW_SENSORS);
const { block, types: blockTypes } = WIDE;

/** A data set over one block, no server. */
function blockDataSet({ block, reply } = WIDE): SessionDataSet {
  return new SessionDataSet(noServerContext(BLOCK_ROWS), { ...reply, queryResult: [block] });
}

/** Row iterator, every value read through `row.values` (as Java's decode reads every value). */
async function iterateRowValues(result = WIDE): Promise<number> {
  let acc = 0;
  for await (const row of blockDataSet(result)) acc += nonNullValues(row);
  return acc;
}

/** The same rows a block at a time (`rowBatches()`): one await per block instead of one per row. */
async function iterateRowBatchValues(result = WIDE): Promise<number> {
  let acc = 0;
  for await (const rows of blockDataSet(result).rowBatches()) for (const row of rows) acc += nonNullValues(row);
  return acc;
}

/** Row iterator, every value through the typed getter of its type (as Java's DataIterator), by position. */
async function iterateRowGetters(): Promise<number> {
  let acc = 0;
  for await (const row of blockDataSet()) {
    acc += Number(row.getLong(1)! & 1n);
    for (let k = 0; k < blockTypes.length; k++) {
      const p = k + 2;
      if (row.isNull(p)) continue;
      acc += typedValue(row, blockTypes[k], p);
    }
  }
  return acc;
}

function typedValue(row: RowRecord, type: TSDataType, p: number): number {
  switch (type) {
    case TSDataType.FLOAT:
      return row.getFloat(p)!;
    case TSDataType.DOUBLE:
      return row.getDouble(p)!;
    case TSDataType.INT32:
      return row.getInt(p)!;
    case TSDataType.INT64:
      return Number(row.getLong(p)! & 1n);
    case TSDataType.TEXT:
      return row.getString(p)!.length;
    default:
      return row.getBoolean(p) ? 1 : 0;
  }
}

const tsPrepared = prepareTablet(typed);
const tsOut = Buffer.allocUnsafe(8 * ROWS);
const tsNumbers = Array.from(typed.timestamps as Float64Array);

const bench = new Bench({ time: seconds * 1000, warmupTime: 500 });
const points: Record<string, number> = {};
const add = (name: string, pts: number, fn: () => unknown) => {
  points[name] = pts;
  bench.add(name, fn);
};
const TABLET = ROWS * SENSORS;
const ROW_MAJOR = 'encode 500x50 tablet: row-major values';
const ROWS_VALUES = 'decode 5000x50 TsBlock through the row iterator: row.values';
const ROWS_GETTERS = 'decode 5000x50 TsBlock through the row iterator: typed getters';
const ROW_BATCHES_VALUES = 'decode 5000x50 TsBlock through rowBatches(): row.values';
const NARROW_ROWS_VALUES = 'decode 5000x10 TsBlock through the row iterator: row.values';
const NARROW_ROW_BATCHES_VALUES = 'decode 5000x10 TsBlock through rowBatches(): row.values';
const SPARSE_COLUMNS = 'decode 5000x50 TsBlock, a third null, to columns';
const SPARSE_ROW_BATCHES_VALUES = 'decode 5000x50 TsBlock, a third null, through rowBatches(): row.values';
const SERVER_BLOCK_COLUMNS = 'decode 1000x50 TsBlock (the server sends at most 1000 rows a block) to columns';
const SERVER_BLOCK_ROW_BATCHES_VALUES = 'decode 1000x50 TsBlock through rowBatches(): row.values';
add('encode 500x50 tablet: typed-array columns', TABLET, () => encodeFast(typed));
add('encode 500x50 tablet: plain JS column arrays', TABLET, () => encodeFast(plain));
add(ROW_MAJOR, TABLET, () => encodeFast(rowMajor));
add('encode 500x50 tablet: typed-array columns, compact protocol (rpcCompression)', TABLET, () =>
  encodeFast(typed, writeInsertTabletReqCompact),
);
add('encode 500x50 tablet: legacy (plain encoder + struct codec)', TABLET, () => encodeLegacy(typed));
add('encode 500x50 tablet: naive (plain encoder + thrift generated struct)', TABLET, () => encodeNaive(typed, 1));
add('decode 5000x50 TsBlock to columns', BLOCK_ROWS * SENSORS, () => decodeTsBlock(block, blockTypes));
add(SPARSE_COLUMNS, BLOCK_ROWS * SENSORS, () => decodeTsBlock(SPARSE.block, blockTypes));
add(ROWS_VALUES, BLOCK_ROWS * SENSORS, () => iterateRowValues());
add(ROWS_GETTERS, BLOCK_ROWS * SENSORS, iterateRowGetters);
add(ROW_BATCHES_VALUES, BLOCK_ROWS * SENSORS, () => iterateRowBatchValues());
add(SPARSE_ROW_BATCHES_VALUES, BLOCK_ROWS * SENSORS, () => iterateRowBatchValues(SPARSE));
add(SERVER_BLOCK_COLUMNS, SERVER_BLOCK_ROWS * SENSORS, () => decodeTsBlock(SERVER_BLOCK.block, blockTypes));
add(SERVER_BLOCK_ROW_BATCHES_VALUES, SERVER_BLOCK_ROWS * SENSORS, () => iterateRowBatchValues(SERVER_BLOCK));
add(NARROW_ROWS_VALUES, BLOCK_ROWS * NARROW_SENSORS, () => iterateRowValues(NARROW));
add(NARROW_ROW_BATCHES_VALUES, BLOCK_ROWS * NARROW_SENSORS, () => iterateRowBatchValues(NARROW));
add('500 int64 timestamps: ours (number -> hi/lo words, one swap)', ROWS, () => writeTimestamps(tsOut, 0, tsPrepared));
add('500 int64 timestamps: int64-buffer Int64BE per value', ROWS, () => {
  for (let r = 0; r < ROWS; r++) new Int64BE(tsOut, 8 * r, tsNumbers[r]);
});
add('BufferPool acquire+release 256 KiB', 0, () => pool.release(pool.acquire(262144)));
add('Buffer.allocUnsafeSlow 256 KiB', 0, () => Buffer.allocUnsafeSlow(262144));

const poolBefore = pool.getStats();
await bench.run();
const diagnostics = await measureDiagnostics(seconds * 5);
const rows = bench.tasks.map((t) => {
  const r = t.result as { latency?: { mean: number; p50?: number; rme: number; samplesCount?: number } } | undefined;
  const medianMs = r?.latency?.p50 ?? r?.latency?.mean ?? NaN;
  const opsPerS = 1000 / medianMs;
  return {
    name: t.name,
    ops_per_s: Math.round(opsPerS),
    points_per_s: points[t.name] ? Math.round(opsPerS * points[t.name]) : null,
    median_ms: Number(medianMs.toFixed(6)),
    rme_pct: Number((r?.latency?.rme ?? NaN).toFixed(2)),
    samples: r?.latency?.samplesCount ?? null,
  };
});
console.table(rows);
const rate = (name: string) => rows.find((r) => r.name === name)?.points_per_s ?? NaN;
const stats = pool.getStats();
console.log(
  `BufferPool: ${stats.acquires - poolBefore.acquires} acquires during the run, ${stats.misses - poolBefore.misses} new buffers ` +
    `(hitRate ${stats.hitRate.toFixed(6)}, pooledBuffers ${stats.pooledBuffers}, retainedBytes ${stats.retainedBytes})`,
);
const encode = rate('encode 500x50 tablet: typed-array columns');
const naive = rate('encode 500x50 tablet: naive (plain encoder + thrift generated struct)');
console.log(`fast path / naive thrift baseline: ${(encode / naive).toFixed(1)}x`);
console.log(
  `rows a block at a time (rowBatches()) / one await a row (for await): 5000x${SENSORS} ` +
    `${(rate(ROW_BATCHES_VALUES) / rate(ROWS_VALUES)).toFixed(2)}x, 5000x${NARROW_SENSORS} ` +
    `${(rate(NARROW_ROW_BATCHES_VALUES) / rate(NARROW_ROWS_VALUES)).toFixed(2)}x`,
);
console.log(diagnosticsReport(diagnostics));
const compactBytes = encodeFast(typed, writeInsertTabletReqCompact);
const binaryBytes = encodeFast(typed);
console.log(
  `RPC compression (compact protocol), one 500x50 anchor tablet: ${compactBytes} bytes vs ${binaryBytes} binary ` +
    `(${((1 - compactBytes / binaryBytes) * 100).toFixed(3)}% smaller); encode ${(rate('encode 500x50 tablet: typed-array columns, compact protocol (rpcCompression)') / encode).toFixed(2)}x the binary rate`,
);

/**
 * The Java reference's rates, or null without one; Ctrl-C or SIGTERM while it runs ends it (passed on to its
 * process group) and keeps ours (exit 130).
 */
async function javaReference(): Promise<JavaCodecRates | null> {
  console.log(`running the Java reference (java/codec.sh ${Math.max(3, seconds * 2)}) ...`);
  try {
    const rates = await runJavaCodec(Math.max(3, seconds * 2));
    if (rates === null) console.log('no Java reference in this run');
    return rates;
  } catch (e) {
    if (!(e instanceof JavaInterrupted)) throw e;
    console.log(`${e.message}: no Java reference in this run`);
    process.exitCode = 130;
    return null;
  }
}

const java = withJava ? await javaReference() : null;
const ratios = java && {
  encode_typed: encode / java.encodePointsPerS,
  encode_row_major: rate(ROW_MAJOR) / java.encodePointsPerS,
  decode_columns: rate('decode 5000x50 TsBlock to columns') / java.decodePointsPerS,
  decode_third_null_columns: rate(SPARSE_COLUMNS) / java.decodeThirdNullPointsPerS,
  decode_rows_values: rate(ROWS_VALUES) / java.decodePointsPerS,
  decode_rows_getters: rate(ROWS_GETTERS) / java.decodePointsPerS,
  decode_row_batches_values: rate(ROW_BATCHES_VALUES) / java.decodePointsPerS,
  decode_third_null_row_batches_values: rate(SPARSE_ROW_BATCHES_VALUES) / java.decodeThirdNullPointsPerS,
  decode_server_block_columns: rate(SERVER_BLOCK_COLUMNS) / java.decodeServerBlockPointsPerS,
  decode_server_block_row_batches_values: rate(SERVER_BLOCK_ROW_BATCHES_VALUES) / java.decodeServerBlockPointsPerS,
  // like for like: each client's row iterator over the same block; each encoding an application's rows
  ...(java.rowRecordsPointsPerS !== null && {
    rows_values_vs_java_row_records: rate(ROWS_VALUES) / java.rowRecordsPointsPerS,
  }),
  ...(java.rowGettersPointsPerS !== null && {
    rows_getters_vs_java_getters: rate(ROWS_GETTERS) / java.rowGettersPointsPerS,
  }),
  ...(java.encodeRowsPointsPerS !== null && {
    encode_row_major_vs_java_rows: rate(ROW_MAJOR) / java.encodeRowsPointsPerS,
  }),
};
if (java && ratios) {
  const rows =
    java.rowGettersPointsPerS === null || java.rowRecordsPointsPerS === null
      ? `its row iterator not measured (${java.rowsUnavailable ?? 'no figures'})`
      : `rows by getters ${java.rowGettersPointsPerS} points/s, by RowRecords ${java.rowRecordsPointsPerS} points/s`;
  console.log(
    `Java: encode ${java.encodePointsPerS} points/s (from rows: ${java.encodeRowsPointsPerS ?? 'not measured'}), ` +
      `decode ${java.decodePointsPerS} points/s ` +
      `(a third null: ${java.decodeThirdNullPointsPerS}; 1000 rows: ${java.decodeServerBlockPointsPerS}), ${rows}`,
  );
  for (const [k, v] of Object.entries(ratios)) console.log(`ours/Java ${k}: ${v.toFixed(2)}x`);
}
mkdirSync('bench-results', { recursive: true });
writeFileSync(
  'bench-results/micro.json',
  JSON.stringify(
    { date: new Date().toISOString(), node: process.version, seconds, rows, bufferPool: stats, java, ratios },
    null,
    2,
  ),
);
console.log('wrote bench-results/micro.json');
