import type { SessionPool, TableSessionPool } from '@iotdb/client';
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
import type { BenchConfig } from '../types.js';
import type { BatchGenerator } from '../workload/generator.js';

/**
 * Runs one operation of `pts` points when its turn comes: times it, counts it, never throws; fn returns the
 * points written. It does not start once the run was stopped, unless `evenWhenStopped` (a writer's final flush).
 */
export type Send = (
  kind: string,
  pts: number,
  fn: () => number | Promise<number>,
  opts?: { evenWhenStopped?: boolean },
) => Promise<void>;

/** The write of one group of devices for one round, by method, model and mode (real, no-op, dry). */
export function writer(c: BenchConfig, pool: SessionPool | TableSessionPool, gens: BatchGenerator[], send: Send) {
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
