// What the A/B scripts that compare builds share (small-query-ab, query-cost-ab, device-records-ab, table-write-ab;
// open-loop-ab and timer-lag take `median`):
// each side's run in a process of its own, the sides alternating round by round; a run's timed calls.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The build a child process runs (a checkout's root), set by `alternate`; undefined in the parent. */
export const childBuild = process.env.CHILD_BUILD;

/**
 * Runs `script` (its import.meta.url) once per side and round, each in a process of its own with CHILD_BUILD set to
 * the side's `dir` (and the side's `env`), `args` after it; `rounds` rounds, the sides in the order given. Returns
 * each side's outputs (stdout), in round order, by name.
 */
export function alternate(script, sides, rounds, args = []) {
  const out = Object.fromEntries(sides.map((s) => [s.name, []]));
  for (let round = 0; round < rounds; round++)
    for (const side of sides) {
      const env = { ...process.env, ...side.env, CHILD_BUILD: side.dir };
      out[side.name].push(execFileSync(process.execPath, [fileURLToPath(script), ...args], { env, encoding: 'utf8' }));
    }
  return out;
}

/** The median of `xs`. */
export const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/**
 * Runs `send(make(c))` for c in [from, to), each argument made before its timing starts; the medians of the client
 * CPU ms and wall ms of a call.
 */
export async function timedCalls(make, send, from, to) {
  const cpu = [];
  const wall = [];
  for (let c = from; c < to; c++) {
    const data = make(c);
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    await send(data);
    const used = process.cpuUsage(c0);
    cpu.push((used.user + used.system) / 1000);
    wall.push(performance.now() - w0);
  }
  return { cpu: median(cpu), wall: median(wall) };
}
