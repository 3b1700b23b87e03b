import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { ServerCpuSpent } from '../types.js';
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

/**
 * Counts the CPU the server's processes spend from now: the function returned says how much by the time it is
 * called (a run's timed window), or which process it could not read at either end, never throwing: a DataNode
 * stopped or restarted during the run (a fault test) ends the figure, not the run.
 */
export function serverCpuWindow(pids: readonly number[]): () => ServerCpuSpent {
  const ticksPerS = clockTicksPerSecond();
  const read = (when: 'start' | 'end'): number | string => {
    let ticks = 0;
    for (const pid of pids) {
      const t = ticksOf(pid);
      if (t === undefined) return processGone(pid, when);
      ticks += t;
    }
    return ticks;
  };
  const start = read('start');
  return () => {
    const end = typeof start === 'string' ? start : read('end');
    if (typeof end === 'string') return { pids: [...pids], error: end };
    return { pids: [...pids], seconds: (end - (start as number)) / ticksPerS };
  };
}

/** Why the server's CPU was not measured: a process of it was not there at the window's start or end. */
export function processGone(pid: number, when: string): string {
  return `process ${pid} was gone at the ${when} (a server node stopped or restarted during the run)`;
}

/** utime + stime of a process, in clock ticks (fields 14 and 15 of /proc/PID/stat; the name in field 2 may hold spaces). */
export function processTicks(pid: number): number {
  const ticks = ticksOf(pid);
  if (ticks === undefined)
    throw new RunError(
      `--server-pid ${pid}: no such process here (it needs the server's process on this machine, and Linux's /proc)`,
    );
  return ticks;
}

/** Whether `pid` is a process whose CPU can be read here. */
export const processHere = (pid: number): boolean => ticksOf(pid) !== undefined;

/** processTicks, undefined where the process is not there (or this is not Linux). */
function ticksOf(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
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
