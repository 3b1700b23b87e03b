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
 * Runs one operation of `pts` points when its turn comes: times it, counts it, never throws once timing started (a
 * write of the untimed warm-up that fails ends the run); fn returns the points written. It does not start once the
 * run was stopped, unless `evenWhenStopped` (a writer's final flush).
 */
export type Send = (
  kind: string,
  pts: number,
  fn: () => number | Promise<number>,
  /** evenWhenStopped: run after a stop too; last: the client's last operation (no other falls due after it) */
  opts?: { evenWhenStopped?: boolean; last?: boolean },
) => Promise<void>;

/** What every write of a run shares: its knobs, each client's generator per device slot, and `send`. */
interface WriteContext {
  readonly c: BenchConfig;
  readonly gens: BatchGenerator[];
  readonly send: Send;
}

/** The write of one group of devices for one round, by method, model and mode (real, no-op, dry). */
export function writer(
  c: BenchConfig,
  pool: SessionPool | TableSessionPool,
  gens: BatchGenerator[],
  send: Send,
): (devices: number[], round: number) => Promise<void> {
  const w: WriteContext = { c, gens, send };
  if (c.model === 'table') return (devices, round) => writeTable(w, pool as TableSessionPool, devices, round);
  const p = pool as SessionPool;
  return (devices, round) =>
    c.method === 'insertRecords' ? writeRecords(w, p, devices, round) : writeTreeTablets(w, p, devices, round);
}

/** Table model: one tablet through insert, several through insertParallel. */
function writeTable({ c, gens, send }: WriteContext, p: TableSessionPool, devices: number[], round: number) {
  const tablets = devices.map((d, k) => gens[k].table(d, round));
  const pts = pointsOf(gens, devices.length);
  if (c.dryRunSend)
    return send('encode', pts, () => {
      for (const t of tablets) encodeOnly((w) => writeInsertTabletReq(w, 1n, prepareTableTablet(t)));
      return pts;
    });
  if (tablets.length === 1) return send('insert', pts, async () => (await p.insert(tablets[0]), pts));
  return send(
    'insertParallel',
    pts,
    async () => (await p.insertParallel(tablets, { concurrency: tablets.length }), pts),
  );
}

/** insertRecords: the devices' rows as records, one device after another or interleaved (--interlaced-devices). */
function writeRecords({ c, gens, send }: WriteContext, p: SessionPool, devices: number[], round: number) {
  const lists = devices.map((d, k) => gens[k].records(d, round));
  const pts = pointsOf(gens, devices.length);
  const records = interleave(lists, c.interlacedDevices > 1);
  if (c.dryRunSend) return send('encode', pts, () => (records.forEach((r) => encodeRecord(r)), pts));
  if (c.serverNoop) return send('testInsertRecords', pts, async () => (await p.testInsertRecords(records), pts));
  return send('insertRecords', pts, async () => (await p.insertRecords(records), pts));
}

/** Tree tablets: insertTablet each (and the schema warm-up, round -1), insertTablets, or insertTabletsParallel. */
function writeTreeTablets({ c, gens, send }: WriteContext, p: SessionPool, devices: number[], round: number) {
  const tablets = devices.map((d, k) => gens[k].tree(d, round));
  const pts = pointsOf(gens, devices.length);
  const noop = c.serverNoop;
  if (c.dryRunSend)
    return send('encode', pts, () => {
      const prepared: PreparedTablet[] = tablets.map((t) => prepareTablet(t));
      encodeOnly((w) =>
        prepared.length === 1 ? writeInsertTabletReq(w, 1n, prepared[0]) : writeInsertTabletsReq(w, 1n, prepared),
      );
      return pts;
    });
  if (round < 0 || c.method === 'insertTablet')
    return send(noop ? 'testInsertTablet' : 'insertTablet', pts, async () => {
      for (const t of tablets) await (noop ? p.testInsertTablet(t) : p.insertTablet(t));
      return pts;
    });
  if (c.method === 'insertTablets')
    return send(
      noop ? 'testInsertTablets' : 'insertTablets',
      pts,
      async () => (await (noop ? p.testInsertTablets(tablets) : p.insertTablets(tablets)), pts),
    );
  return send(
    'insertTabletsParallel',
    pts,
    async () => (await p.insertTabletsParallel(tablets, { concurrency: tablets.length }), pts),
  );
}

/** The points of one write of the first `n` device slots. */
function pointsOf(gens: BatchGenerator[], n: number): number {
  return gens.slice(0, n).reduce((sum, g) => sum + g.points, 0);
}

/** --dry-run-send: everything Session.insertTablet does before the socket, into a pooled buffer. */
function encodeOnly(write: (w: ByteWriter) => void): void {
  const w = new ByteWriter(4096, globalBufferPool);
  write(w);
  w.release();
}

function interleave<T>(lists: T[][], byRow: boolean): T[] {
  if (!byRow || lists.length === 1) return lists.flat();
  const out: T[] = [];
  const n = Math.max(...lists.map((l) => l.length));
  for (let r = 0; r < n; r++) for (const l of lists) if (r < l.length) out.push(l[r]);
  return out;
}
