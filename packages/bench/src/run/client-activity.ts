import type { SessionStats } from '@iotdb/client';

/** The client's counters a run reports: what its sessions did besides the operations. */
const ACTIVITY_KEYS = ['retries', 'connects', 'connectFailures', 'failovers', 'redirects'] as const;

/** What a client's sessions did besides the operations, from its pool's stats() (the user's guide, "Diagnostics"). */
export type ClientActivity = Pick<SessionStats, (typeof ACTIVITY_KEYS)[number]>;

export function clientActivity(stats: Readonly<SessionStats>): ClientActivity {
  return sumActivity([stats]);
}

/** The counters added up (workers, machines). */
export function sumActivity(all: readonly Readonly<ClientActivity>[]): ClientActivity {
  const sum = (k: keyof ClientActivity) => all.reduce((n, a) => n + a[k], 0);
  return Object.fromEntries(ACTIVITY_KEYS.map((k) => [k, sum(k)])) as ClientActivity;
}
