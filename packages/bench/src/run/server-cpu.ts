import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { ServerCpuSpent } from '../types.js';

/**
 * Counts the CPU (user + system, all threads) the server's processes on this machine spend from now, read from
 * Linux's /proc: the function returned says how much by the time it is called (a run's timed window, a read-compare
 * pass), or which process it could not read at either end, never throwing: a DataNode stopped or restarted during a
 * run (a fault test) ends the figure, not the run.
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

/**
 * A note for each of `pids` that runs no IoTDB node: no `org.apache.iotdb.` main class (ConfigNode, DataNode) on its
 * command line. A pid mistyped, or another JVM's, would have its CPU counted as the server's; a node started some other
 * way may be named so too, so this warns and refuses nothing.
 */
export function notIoTDBNodes(pids: readonly number[]): string[] {
  return pids.flatMap((pid) => {
    const args = readProc(pid, 'cmdline')?.split('\0') ?? [];
    if (args.some((arg) => arg.startsWith('org.apache.iotdb.'))) return [];
    const name = readProc(pid, 'comm')?.trim() ?? '?';
    return [
      `--server-pid ${pid}: process ${pid} (${name}) runs no IoTDB node (no org.apache.iotdb class on its command line): its CPU is counted as the server's`,
    ];
  });
}

/** /proc/PID/<file>, undefined where it cannot be read (the process gone, not Linux). */
function readProc(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
}

/** Why `pids` cannot be measured: the first that is no process here (or this is not Linux); undefined when all are. */
export function missingProcess(pids: readonly number[]): string | undefined {
  const gone = pids.find((pid) => ticksOf(pid) === undefined);
  return gone === undefined
    ? undefined
    : `no process ${gone} on this machine (the server's processes, read through Linux's /proc)`;
}

/**
 * utime + stime of a process, in clock ticks (fields 14 and 15 of /proc/PID/stat; the name in field 2 may hold
 * spaces); undefined where the process is not there (or this is not Linux).
 */
function ticksOf(pid: number): number | undefined {
  const stat = readProc(pid, 'stat');
  if (stat === undefined) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // from field 3 (state) on
  return Number(fields[11]) + Number(fields[12]);
}

let ticksPerSecond: number | undefined;

/** The clock ticks of /proc's CPU times per second (asked of getconf once). */
function clockTicksPerSecond(): number {
  ticksPerSecond ??= askClockTicks();
  return ticksPerSecond;
}

function askClockTicks(): number {
  try {
    const n = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isSafeInteger(n) && n > 0 ? n : 100;
  } catch {
    return 100; // USER_HZ on every Linux this runs on
  }
}
