import type { BenchConfig, RunResult } from '../types.js';
import { repeatSummary } from './repeat.js';
import { runRepeats, type RunContext } from './run-repeats.js';

/**
 * The run (every repeat, each side, the summary of its repeats after them), once per rate of --sweep-rates in the order
 * given, each as --target-rate runs it (its runs labelled with the rate: sweepLabel), else once. Ctrl-C ends the rate
 * under way, and no other starts; a server ours could not reach, the same.
 */
export async function runSweep(config: BenchConfig, ctx: RunContext): Promise<{ runs: RunResult[]; exitCode: number }> {
  const rates = config.sweepRates.length > 0 ? config.sweepRates : [config.targetRate];
  const done = { runs: [] as RunResult[], exitCode: 0 };
  for (const [i, rate] of rates.entries()) {
    if (ctx.interrupt.aborted) break;
    if (rates.length > 1) console.log(`sweep: ${rate} operations/s (${i + 1} of ${rates.length})`);
    const atRate = await runRepeats({ ...config, targetRate: rate }, ctx);
    if (atRate.repeats.length > 1) console.log(repeatSummary(atRate.repeats).join('\n'));
    done.runs.push(...atRate.runs);
    if (atRate.exitCode !== 0) done.exitCode = atRate.exitCode;
    if (atRate.runs.some((r) => r.stopped === 'unreachable')) break;
  }
  return done;
}
