#!/usr/bin/env node
import { mkdirSync, writeFileSync } from 'node:fs';
import { Bench } from 'tinybench';
import {
  BufferPool,
  ByteWriter,
  decodeTsBlock,
  encodeTabletPlain,
  prepareTablet,
  writeInsertTabletReq,
  writeStruct,
  TSInsertTabletReqSchema,
} from '@iotdb/fast-serializer';
import { AnchorTabletBuilder, toPlainColumns, toRowMajor } from '../workload/anchor.js';
import { anchorTsBlock } from '../workload/anchor-tsblock.js';

/**
 * `pnpm bench`: codec microbenchmarks on the anchor workload (no server), single thread.
 * Prints a table and writes bench-results/micro.json. Points = rows x sensors per operation.
 */
const ROWS = 500;
const SENSORS = 50;
const BLOCK_ROWS = 5000;
const seconds = Number(process.env.BENCH_SECONDS ?? 2);

const pool = new BufferPool();
const typed = new AnchorTabletBuilder({ sensors: SENSORS, rows: ROWS }).fill(7, 1);
const plain = toPlainColumns(typed);
const rowMajor = toRowMajor(typed);

/** What Session.insertTablet does before the socket: prepare, then write the whole request into a pooled buffer. */
function encodeFast(t: typeof typed): number {
  const w = new ByteWriter(4096, pool);
  writeInsertTabletReq(w, 1n, prepareTablet(t));
  const n = w.pos;
  w.release();
  return n;
}

/** enableFastSerialization: false: the plain encoder's buffers, then the generic struct codec. */
function encodePlain(t: typeof typed): number {
  const p = prepareTablet(t);
  const { values, timestamps } = encodeTabletPlain(p);
  const w = new ByteWriter(values.length + timestamps.length + 1024);
  writeStruct(w, TSInsertTabletReqSchema, {
    sessionId: 1n, prefixPath: p.prefixPath, measurements: p.measurements, values, timestamps, types: p.types, size: p.rows, isAligned: false,
  });
  return w.pos;
}

const block = anchorTsBlock(BLOCK_ROWS, SENSORS);
const blockTypes = new AnchorTabletBuilder({ sensors: SENSORS, rows: 1 }).types;

const bench = new Bench({ time: seconds * 1000, warmupTime: 500 });
const points: Record<string, number> = {};
const add = (name: string, pts: number, fn: () => unknown) => {
  points[name] = pts;
  bench.add(name, fn);
};
add('encode 500x50 tablet: typed-array columns', ROWS * SENSORS, () => encodeFast(typed));
add('encode 500x50 tablet: plain JS column arrays', ROWS * SENSORS, () => encodeFast(plain));
add('encode 500x50 tablet: row-major values', ROWS * SENSORS, () => encodeFast(rowMajor));
add('encode 500x50 tablet: legacy (plain encoder + struct codec)', ROWS * SENSORS, () => encodePlain(typed));
add('decode 5000x50 TsBlock to columns', BLOCK_ROWS * SENSORS, () => decodeTsBlock(block, blockTypes));
add('BufferPool acquire+release 64 KiB', 0, () => pool.release(pool.acquire(65536)));
add('Buffer.allocUnsafe 64 KiB', 0, () => Buffer.allocUnsafe(65536));

await bench.run();
const rows = bench.tasks.map((t) => {
  const r = t.result as { latency?: { mean: number; p50?: number; rme: number; samplesCount?: number }; throughput?: { mean: number } } | undefined;
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
const stats = pool.getStats();
console.log(`BufferPool after the run: hitRate=${stats.hitRate.toFixed(4)} pooledBuffers=${stats.pooledBuffers} retainedBytes=${stats.retainedBytes} misses=${stats.misses}`);
mkdirSync('bench-results', { recursive: true });
writeFileSync('bench-results/micro.json', JSON.stringify({ date: new Date().toISOString(), node: process.version, rows, bufferPool: stats }, null, 2));
console.log('wrote bench-results/micro.json');
