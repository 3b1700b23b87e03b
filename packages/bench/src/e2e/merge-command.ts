import { COMMANDS } from '../config/argv.js';
import { formatReport, resultLine } from '../report/format.js';
import { mergeFiles } from '../report/merge-runs.js';
import { sweepText } from '../report/sweep-table.js';
import { writeResults } from '../report/write-results.js';
import type { RunResult } from '../types.js';
import { readRuns } from './compare-command.js';

/**
 * `iotdb-bench merge A.json B.json ... [--out DIR]`: the shares of several machines as one report (and, with
 * --out, one set of result files); 2 on bad usage.
 */
export function mergeCommand(args: readonly string[]): number {
  const at = args.indexOf('--out');
  const out = at === -1 ? undefined : args[at + 1];
  const paths = at === -1 ? args : [...args.slice(0, at), ...args.slice(at + 2)];
  if (paths.length < 2 || (at !== -1 && out === undefined)) {
    console.error(`usage: ${COMMANDS.merge.usage}`);
    return 2;
  }
  let merged: RunResult[];
  let unmerged: string[];
  try {
    ({ merged, unmerged } = mergeFiles(paths.map(readRuns)));
  } catch (e) {
    console.error(`iotdb-bench merge: ${(e as Error).message}`);
    return 2;
  }
  if (merged.length === 0) {
    console.error(`iotdb-bench merge: nothing to merge: ${unmerged.join(', ')} keep no histograms (the Java client's)`);
    return 2;
  }
  for (const run of merged) console.log(`${formatReport(run)}\n${resultLine(run)}`);
  const sweep = sweepText(merged); // the shares of a --sweep-rates run: each rate the machines ran together
  if (sweep.length > 0) console.log(sweep.join('\n'));
  if (unmerged.length > 0)
    console.log(
      `not merged: ${unmerged.join(', ')} (the Java client's runs keep percentiles, no histograms: each file's stands alone)`,
    );
  if (out !== undefined) {
    const files = writeResults(out, merged);
    console.log(`wrote ${Object.values(files).join(', ')}`);
  }
  return 0;
}
