// What the A/B scripts that compare builds share (small-query-ab, query-cost-ab, device-records-ab): each side's
// run in a process of its own, the sides alternating round by round.
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
