import type { Clock } from './clock.js';
import { OpenLoopSchedule, PauseBetween, latencies, turn, type NextDueTimes } from './pacing.js';

/** One read of a statement (`sql`: the entry's, or one of its forEach statements): its rows and points, or its error. */
export type StatementRead = (sql: string) => Promise<{ rows: number; points: number; error?: string }>;

/** One read done: its latency (from its due time with --target-rate), its own time, its rows and points or error. */
export interface ReadDone {
  session: number;
  /** from when it was due (open loop) or started, ns */
  latencyNs: number;
  /** from when it started, ns: the uncorrected latency, with --target-rate only */
  uncorrectedNs?: number;
  rows: number;
  points: number;
  error?: string;
}

export interface StatementPacing {
  /** reads per second over all sessions, each on a fixed schedule (0: each when the last one ends) */
  targetRate: number;
  /** pause between a session's reads, ms */
  pauseMs: number;
}

/**
 * A query-file statement's sessions: one per share (config/for-each.ts everySession, dealStatements), each reading
 * its statements in order, `repetitions` times over, paced as the write runs are (--target-rate: open loop over all
 * sessions, their schedules staggered; --batch-interval-ms: a pause between reads). Once `stopped()`, no read starts
 * and no wait goes on. `nextDue` is told each session's next due time while it has reads left (open loop).
 */
export async function runStatementSessions(
  o: {
    shares: readonly (readonly string[])[];
    repetitions: number;
    read: StatementRead;
    done: (d: ReadDone) => void;
    nextDue?: NextDueTimes;
  },
  pacing: StatementPacing,
  clock: Clock,
  stopped: () => boolean,
): Promise<void> {
  const sessions = o.shares.length;
  const intervalNs = pacing.targetRate > 0 ? (1e9 * sessions) / pacing.targetRate : 0;
  const start = clock.now();
  const session = async (id: number) => {
    const schedule =
      intervalNs > 0
        ? new OpenLoopSchedule(clock, intervalNs, start + (intervalNs * id) / sessions, stopped)
        : undefined;
    const pause = new PauseBetween(clock, pacing.pauseMs, stopped);
    const share = o.shares[id];
    const reads = o.repetitions * share.length;
    for (let i = 0; i < reads && !stopped(); i++) {
      const due = await turn({ schedule, pause }, 0);
      // the last read has none due behind it
      if (schedule !== undefined) o.nextDue?.set(id, i === reads - 1 ? undefined : schedule.nextDue);
      if (stopped()) break;
      const t0 = clock.now();
      const { rows, points, error } = await o.read(share[i % share.length]);
      const end = clock.now();
      pause.done(end);
      o.done({ session: id, ...latencies(due, t0, end), rows, points, ...(error !== undefined && { error }) });
    }
    o.nextDue?.set(id, undefined);
  };
  await Promise.all(Array.from({ length: sessions }, (_, id) => session(id)));
}
