import { IoTDBBatchError, SessionPool, TableSessionPool } from '@iotdb/client';
import {
  ByteWriter,
  encodeRecord,
  globalBufferPool,
  prepareTableTablet,
  prepareTablet,
  writeInsertTabletReq,
  writeInsertTabletsReq,
  type PreparedTablet,
} from '@iotdb/fast-serializer';
import { LatencyHistogram } from '../report/histogram.js';
import { TRACED_PREFIX } from '../report/result-fields.js';
import type { BenchConfig, WorkerResult, WorkerTask } from '../types.js';
import { BatchGenerator } from '../workload/generator.js';
import { rowWriter } from './row-writer.js';
import { traceClient } from './trace.js';

/**
 * One piscina worker: its own SessionPool (poolMaxSize sessions) and `clients` writers over its share
 * of the devices. Per client: the untimed 1-row schema warm-up per device, `warmupRounds` rounds, a
 * barrier with the other workers, then `loop` timed rounds. Progress goes to shared counters that the
 * main thread reads for the live line; latency goes into one histogram per operation kind.
 */
export default async function run(task: WorkerTask): Promise<WorkerResult> {
  const { config: c, workerId } = task;
  const counters = new BigInt64Array(task.counters);
  const barrier = new Int32Array(task.barrier);
  const pool =
    c.model === 'table'
      ? new TableSessionPool({
          host: task.host,
          port: task.port,
          nodeUrls: c.nodeUrls,
          database: c.database,
          maxSize: c.poolMaxSize,
        })
      : new SessionPool({ host: task.host, port: task.port, nodeUrls: c.nodeUrls, maxSize: c.poolMaxSize });
  const latency = new Map<string, LatencyHistogram>();
  const errors: string[] = [];
  let points = 0;
  let writtenPoints = 0;
  let okOps = 0;
  let failedOps = 0;
  let timedStartMs = 0;
  let nextSendAt = performance.now();
  const rate = c.rateLimit / c.workers; // points/s of this worker
  const timed = { on: false };

  const record = (kind: string, ns: number) => {
    let h = latency.get(kind);
    if (h === undefined) latency.set(kind, (h = new LatencyHistogram()));
    h.record(ns);
  };

  /** One write of `pts` points; counts it, paces it, never throws. */
  // fn returns the points written; the dry run (encode only) returns them without awaiting anything
  const send = async (kind: string, pts: number, fn: () => number | Promise<number>) => {
    if (rate > 0) {
      const now = performance.now();
      const at = Math.max(now, nextSendAt);
      nextSendAt = at + (pts / rate) * 1000;
      if (at > now) await sleep(at - now);
    }
    const t0 = process.hrtime.bigint();
    let ok: number;
    let failed = false;
    try {
      ok = await fn();
      if (timed.on) okOps++;
    } catch (e) {
      failed = true;
      if (e instanceof IoTDBBatchError)
        ok = Math.round((pts * e.succeeded.length) / (e.succeeded.length + e.failures.length));
      else ok = 0;
      if (timed.on) failedOps++;
      if (errors.length < 10) errors.push((e as Error).message);
    }
    writtenPoints += ok;
    if (timed.on) {
      record(kind, Number(process.hrtime.bigint() - t0));
      points += ok;
      Atomics.add(counters, workerId * 3, BigInt(ok));
      Atomics.add(counters, workerId * 3 + 1, failed ? 0n : 1n);
      Atomics.add(counters, workerId * 3 + 2, failed ? 1n : 0n);
    }
    if (c.batchIntervalMs > 0) await sleep(c.batchIntervalMs);
  };

  const group = Math.max(1, c.method === 'insertTablet' ? 1 : c.tabletsPerRequest);
  const client = async (k: number) => {
    const mine: number[] = [];
    for (let d = task.firstDevice + k; d < task.firstDevice + task.deviceCount; d += c.clients) mine.push(d);
    const gens = Array.from({ length: Math.min(group, Math.max(1, mine.length)) }, () => new BatchGenerator(c));
    const write = writer(c, pool, gens, send);
    for (const d of mine) await write([d], -1); // schema warm-up row, untimed
    if (c.method === 'writer') return rowWriterClient(mine);
    for (let round = 0; round < c.warmupRounds; round++)
      for (let i = 0; i < mine.length; i += group) await write(mine.slice(i, i + group), round);
    await arrive();
    for (let round = c.warmupRounds; round < c.warmupRounds + c.loop; round++) {
      if (Atomics.load(barrier, 1) === 1) break;
      for (let i = 0; i < mine.length; i += group) await write(mine.slice(i, i + group), round);
    }
  };

  /** --method writer: every round row by row through one batching writer per client. */
  const rowWriterClient = async (mine: number[]) => {
    const w = rowWriter(c, pool, mine, send);
    for (let round = 0; round < c.warmupRounds; round++) await w.round(round);
    await arrive();
    for (let round = c.warmupRounds; round < c.warmupRounds + c.loop; round++) {
      if (Atomics.load(barrier, 1) === 1) break;
      await w.round(round);
    }
    await w.close();
  };

  /** Waits until every client of every worker is past warm-up. */
  let arrivedClients = 0;
  let allArrived: () => void;
  const workerReady = new Promise<void>((resolve) => (allArrived = resolve));
  const arrive = async () => {
    if (++arrivedClients === c.clients) {
      Atomics.add(barrier, 0, 1);
      Atomics.notify(barrier, 0);
      for (
        let n = Atomics.load(barrier, 0);
        n < c.workers && Atomics.load(barrier, 1) === 0;
        n = Atomics.load(barrier, 0)
      ) {
        const w = Atomics.waitAsync(barrier, 0, n, 1000);
        if (w.async) await w.value;
      }
      timed.on = true;
      timedStartMs = performance.timeOrigin + performance.now();
      allArrived();
    }
    await workerReady;
  };

  const untrace = c.trace
    ? traceClient((operation, ms) => {
        if (timed.on) record(TRACED_PREFIX + operation, ms * 1e6);
      })
    : undefined;
  try {
    await Promise.all(Array.from({ length: c.clients }, (_, k) => client(k)));
    return {
      state: 'done',
      workerId,
      points,
      writtenPoints,
      okOps,
      failedOps,
      latency: Object.fromEntries([...latency].map(([k, h]) => [k, h.toData()])),
      errors,
      timedStartMs,
      timedEndMs: performance.timeOrigin + performance.now(),
    };
  } catch (e) {
    Atomics.store(barrier, 1, 1);
    Atomics.notify(barrier, 0);
    return { state: 'failed', workerId, error: (e as Error).stack ?? String(e) };
  } finally {
    untrace?.();
    await pool.close();
  }
}

type Send = (kind: string, pts: number, fn: () => number | Promise<number>) => Promise<void>;

/** The write of one group of devices for one round, by method, model and mode (real, no-op, dry). */
function writer(c: BenchConfig, pool: SessionPool | TableSessionPool, gens: BatchGenerator[], send: Send) {
  const dry = c.dryRunSend;
  /** --dry-run-send: everything Session.insertTablet does before the socket, into a pooled buffer. */
  const encode = (write: (w: ByteWriter) => void) => {
    const w = new ByteWriter(4096, globalBufferPool);
    write(w);
    w.release();
  };
  if (c.model === 'table') {
    const p = pool as TableSessionPool;
    return async (devices: number[], round: number) => {
      const tablets = devices.map((d, k) => gens[k].table(d, round));
      const pts = gens.slice(0, devices.length).reduce((n, g) => n + g.points, 0);
      if (dry)
        return send(
          'encode',
          pts,
          () => (tablets.forEach((t) => encode((w) => writeInsertTabletReq(w, 1n, prepareTableTablet(t)))), pts),
        );
      if (tablets.length === 1) return send('insert', pts, async () => (await p.insert(tablets[0]), pts));
      return send(
        'insertParallel',
        pts,
        async () => (await p.insertParallel(tablets, { concurrency: tablets.length }), pts),
      );
    };
  }
  const p = pool as SessionPool;
  const noop = c.serverNoop;
  return async (devices: number[], round: number) => {
    if (c.method === 'insertRecords') {
      const lists = devices.map((d, k) => gens[k].records(d, round));
      const pts = gens.slice(0, devices.length).reduce((n, g) => n + g.points, 0);
      const records = interleave(lists, c.interlacedDevices > 1);
      if (dry) return send('encode', pts, () => (records.forEach((r) => encodeRecord(r)), pts));
      const kind = noop ? 'testInsertRecords' : 'insertRecords';
      return send(
        kind,
        pts,
        async () => (await (noop ? p.execute((s) => s.testInsertRecords(records)) : p.insertRecords(records)), pts),
      );
    }
    const tablets = devices.map((d, k) => gens[k].tree(d, round));
    const pts = gens.slice(0, devices.length).reduce((n, g) => n + g.points, 0);
    if (dry) {
      return send('encode', pts, () => {
        const prepared: PreparedTablet[] = tablets.map((t) => prepareTablet(t));
        encode((w) =>
          prepared.length === 1 ? writeInsertTabletReq(w, 1n, prepared[0]) : writeInsertTabletsReq(w, 1n, prepared),
        );
        return pts;
      });
    }
    if (round < 0 || c.method === 'insertTablet') {
      const kind = noop ? 'testInsertTablet' : 'insertTablet';
      return send(kind, pts, async () => {
        for (const t of tablets) await (noop ? p.execute((s) => s.testInsertTablet(t)) : p.insertTablet(t));
        return pts;
      });
    }
    if (c.method === 'insertTablets') {
      const kind = noop ? 'testInsertTablets' : 'insertTablets';
      return send(
        kind,
        pts,
        async () => (await (noop ? p.execute((s) => s.testInsertTablets(tablets)) : p.insertTablets(tablets)), pts),
      );
    }
    return send(
      'insertTabletsParallel',
      pts,
      async () => (await p.insertTabletsParallel(tablets, { concurrency: tablets.length }), pts),
    );
  };
}

function interleave<T>(lists: T[][], byRow: boolean): T[] {
  if (!byRow || lists.length === 1) return lists.flat();
  const out: T[] = [];
  const n = Math.max(...lists.map((l) => l.length));
  for (let r = 0; r < n; r++) for (const l of lists) if (r < l.length) out.push(l[r]);
  return out;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
