import { QueryNodes } from '../cluster/query-nodes.js';
import { RedirectCache } from '../cluster/redirect-cache.js';
import type { ResolvedSessionOptions } from './options.js';
import { TableDevices } from './table-devices.js';

/**
 * What the sessions made from one resolved options object share: a pool's sessions (a session of its own shares
 * with no one). Kept while that object lives: as long as the pool.
 */

/** How often a session asks the cluster for its DataNodes again (discoverNodes), as the Java Session. */
const DATANODES_REFRESH_MS = 60_000;

const queryTurns = new WeakMap<ResolvedSessionOptions, QueryNodes>();
const redirects = new WeakMap<ResolvedSessionOptions, RedirectCache>();
const tables = new WeakMap<ResolvedSessionOptions, TableDevices>();

/** The query turn: one SHOW DATANODES a minute for a pool, its queries spread evenly over the nodes. */
export function queryNodesOf(options: ResolvedSessionOptions): QueryNodes {
  let nodes = queryTurns.get(options);
  if (nodes === undefined) queryTurns.set(options, (nodes = new QueryNodes(options.endpoints, DATANODES_REFRESH_MS)));
  return nodes;
}

/**
 * Which node leads each device: what one session's writes and queries learnt routes every session's (a device's key,
 * a tree path or a table's in its database, means the same to each).
 */
export function redirectsOf(options: ResolvedSessionOptions): RedirectCache {
  let cache = redirects.get(options);
  if (cache === undefined) redirects.set(options, (cache = new RedirectCache()));
  return cache;
}

/** The TAGs of the tables the sessions wrote: any session can tell a SELECT of one device of them. */
export function tableDevicesOf(options: ResolvedSessionOptions): TableDevices {
  let devices = tables.get(options);
  if (devices === undefined) tables.set(options, (devices = new TableDevices()));
  return devices;
}
