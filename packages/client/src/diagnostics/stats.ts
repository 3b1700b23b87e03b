/**
 * What a session did since it was made (`session.stats()`); a pool's `stats()` adds these up over
 * every session it had. Plain counters, kept whether or not anything observes them.
 */
export interface SessionStats {
  /** calls made: open, statements, queries (their first request), writes */
  calls: number;
  /** calls that failed */
  errors: number;
  /** requests sent again: a write round, a connect, a query that never left (see the user's guide, "Retries") */
  retries: number;
  /** times the default node changed because the one in use (or the first of `nodeUrls`) could not be reached */
  failovers: number;
  /** times a redirect (a write's, a fast last query's) sent a device's writes and one-device queries to another DataNode */
  redirects: number;
  /** connections opened (the login included): the default node, reconnects, redirect targets */
  connects: number;
  /** connects that failed */
  connectFailures: number;
  /** RPC requests sent: every call's requests, retries, fetches of query results, logins and logouts */
  requests: number;
  /** bytes sent (request frames) */
  bytesOut: number;
  /** bytes received (reply frames) */
  bytesIn: number;
}

/** The counters of the wire: one connection adds to them as it sends and receives. */
export type WireCounters = Pick<SessionStats, 'requests' | 'bytesOut' | 'bytesIn'>;

export function emptyStats(): SessionStats {
  return {
    calls: 0,
    errors: 0,
    retries: 0,
    failovers: 0,
    redirects: 0,
    connects: 0,
    connectFailures: 0,
    requests: 0,
    bytesOut: 0,
    bytesIn: 0,
  };
}

const KEYS = Object.keys(emptyStats()) as (keyof SessionStats)[];

/** Adds `from` into `into`. */
export function addStats(into: SessionStats, from: Readonly<SessionStats>): SessionStats {
  for (const k of KEYS) into[k] += from[k];
  return into;
}
