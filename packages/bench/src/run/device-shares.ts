import type { BenchConfig } from '../types.js';

type ShareConfig = Pick<
  BenchConfig,
  'workers' | 'clients' | 'deviceOffset' | 'deviceCount' | 'method' | 'tabletsPerRequest'
>;

/** Worker w's devices: [first, first + count), consecutive, the machine's share split as evenly as it goes. */
export function workerShare(c: ShareConfig, w: number): { first: number; count: number } {
  const first = c.deviceOffset + Math.floor((w * c.deviceCount) / c.workers);
  const next = c.deviceOffset + Math.floor(((w + 1) * c.deviceCount) / c.workers);
  return { first, count: next - first };
}

/** Client k's devices of a worker's share: every clients-th one from the share's k-th. */
export function clientDevices(c: ShareConfig, share: { first: number; count: number }, k: number): number[] {
  const mine: number[] = [];
  for (let d = share.first + k; d < share.first + share.count; d += c.clients) mine.push(d);
  return mine;
}

/** A client's devices in the groups that one write each carries (one device for insertTablet). */
export function deviceGroups(c: ShareConfig, mine: readonly number[]): number[][] {
  const group = groupSize(c);
  const groups: number[][] = [];
  for (let i = 0; i < mine.length; i += group) groups.push(mine.slice(i, i + group));
  return groups;
}

export function groupSize(c: ShareConfig): number {
  return Math.max(1, c.method === 'insertTablet' ? 1 : c.tabletsPerRequest);
}

/**
 * The share of all timed operations that client `id` (worker x clients + k) does: its device groups over every
 * client's (each does loop x its groups). An open-loop client paced at this share of the target rate keeps
 * the total at the target for the whole run, however unevenly the devices divide.
 */
export function operationShare(c: ShareConfig, id: number): number {
  const all = groupsInRun(c);
  const mine = [...everyClient(c)].find((client) => client.id === id)?.groups.length ?? 0;
  return all === 0 ? 0 : mine / all;
}

/** The device groups of every client of the run together: the operations of one timed round. */
export function groupsInRun(c: ShareConfig): number {
  let groups = 0;
  for (const client of everyClient(c)) groups += client.groups.length;
  return groups;
}

/** Every client of the run (worker x clients + k, in that order) with its device groups, as the workers make them. */
export function* everyClient(c: ShareConfig): Generator<{ id: number; groups: number[][] }, void, undefined> {
  for (let w = 0; w < c.workers; w++) {
    const share = workerShare(c, w);
    for (let k = 0; k < c.clients; k++)
      yield { id: w * c.clients + k, groups: deviceGroups(c, clientDevices(c, share, k)) };
  }
}
