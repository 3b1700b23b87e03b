import { formatReport, resultLine } from '../report/format.js';
import { prepareDatabase } from '../run/database.js';
import { verifyPoints } from '../run/verify.js';
import { rowsAfterRounds } from '../run/client-operations.js';
import { addQueriesAfter, noWholeRoundNote, runQueries } from '../run/queries.js';
import { keepErrors } from '../run/run-error.js';
import { runWrites } from '../run/run-writes.js';
import type { BenchConfig, Environment, RunResult } from '../types.js';
import { runFailed } from './run-failed.js';
import { runLabel, runLine, type Named } from './run-label.js';
import { largeWriteNote } from '../run/request-size.js';

/**
 * The write runs: one per method (`--compare`) or the one method, each on a freshly prepared database, then
 * its --verify count and its --queries; each reported as it ends, under the name it is kept by (`named`). `failed`: a
 * run that failed (runFailed). After Ctrl-C (`interrupt`) the run under way ends early (verified and reported) and no
 * other one starts; after a run stopped for a server no operation could reach, the same, unverified (`unreachable`),
 * and after --queries that ended so.
 */
export async function runMethods(
  config: BenchConfig,
  target: { host: string; port: number },
  environment: Environment,
  interrupt: AbortSignal,
  named: Named,
): Promise<{ runs: RunResult[]; failed: boolean; unreachable: boolean }> {
  const { host, port } = target;
  const needsServer = !config.dryRunSend;
  const runs: RunResult[] = [];
  let failed = false;
  let unreachable = false;
  const methods = config.compare.length > 0 ? config.compare : [config.method];
  for (const method of methods) {
    if (interrupt.aborted) break;
    const c = { ...config, method };
    const label = runLabel(c, methods.length > 1);
    if (needsServer) await prepareDatabase(c, host, port);
    console.log(runLine(c, label));
    const large = largeWriteNote(c);
    if (large !== undefined) console.log(large);
    const { result, writtenPoints, fullRounds } = await runWrites(c, label, target, interrupt);
    result.environment = environment;
    // a server no operation could reach: the count and the queries after would each spend the retry budget
    unreachable = result.stopped === 'unreachable';
    if (c.verify && needsServer && !c.serverNoop) {
      result.verify = unreachable
        ? { expected: writtenPoints, ok: false, error: 'not counted: the server could not be reached' }
        : await verifyPoints(c, host, port, writtenPoints);
    }
    if (c.queries.length > 0 && needsServer && !c.serverNoop && !interrupt.aborted && !unreachable) {
      // over the rows the run wrote: one stopped early (--test-max-time) wrote fewer than planned
      const partial = noWholeRoundNote(c, fullRounds, "ours'");
      if (partial !== undefined) console.log(partial);
      const queried = await runQueries(c, target, rowsAfterRounds(c, fullRounds));
      addQueriesAfter(result, queried.after);
      keepErrors(result.errors, ...queried.errors);
      unreachable = queried.reachedNoNode;
    }
    const shown = named(result);
    console.log(`${formatReport(shown)}\n${resultLine(shown)}`);
    if (runFailed(result) || unreachable) failed = true; // unreachable: --queries ended so
    runs.push(result);
    if (unreachable) break; // no other method's run either
  }
  return { runs, failed, unreachable };
}
