import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { RunError } from './run-error.js';

/**
 * The CPU time (user + system, all threads) the server's processes have used so far, s, read from Linux's
 * /proc/PID/stat: for a server on the benchmark's own machine, whose cost per value read tells how fast any
 * reader could go on the cores the two share (`read-compare --server-pid`).
 */
export class ServerCpu {
  readonly #pids: readonly number[];
  readonly #ticksPerS: number;

  /** Throws RunError when a pid is not a process here (or this is not Linux). */
  constructor(pids: readonly number[]) {
    this.#pids = pids;
    this.#ticksPerS = clockTicksPerSecond();
    this.seconds();
  }

  seconds(): number {
    return this.#pids.reduce((s, pid) => s + processTicks(pid) / this.#ticksPerS, 0);
  }
}

/** utime + stime of a process, in clock ticks (fields 14 and 15 of /proc/PID/stat; the name in field 2 may hold spaces). */
export function processTicks(pid: number): number {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    throw new RunError(
      `--server-pid ${pid}: no such process here (it needs the server's process on this machine, and Linux's /proc)`,
    );
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // from field 3 (state) on
  return Number(fields[11]) + Number(fields[12]);
}

function clockTicksPerSecond(): number {
  try {
    const n = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isSafeInteger(n) && n > 0 ? n : 100;
  } catch {
    return 100; // USER_HZ on every Linux this runs on
  }
}
