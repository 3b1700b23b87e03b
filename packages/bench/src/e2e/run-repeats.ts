import type { QueryFileEntry } from '../config/query-file.js';
import { formatReport, resultLine, statementShape } from '../report/format.js';
import { entryStatements } from '../run/for-each-rows.js';
import { runQueryFileEntry, statementNotRun } from '../run/query-file.js';
import type { BenchConfig, Environment, RunResult } from '../types.js';
import { printRatios, printStatementRatios, runJavaSide, runJavaStatements } from './java-side.js';
import { javaFirstIn, oneOrderNote, repeatLabel, type Repeat } from './repeat.js';
import { runMethods } from './run-methods.js';
import { sweepLabel, type Named } from './run-label.js';

/** What a run needs besides its config: where, what it reads, and the server each side starts on. */
export interface RunContext {
  target: { host: string; port: number };
  environment: Environment;
  interrupt: AbortSignal;
  queryFile: QueryFileEntry[] | undefined;
  /**
   * Readies the server for the next side (ours, or the Java client's): a local server is restarted after its first
   * use; true when the side's database is new (a fresh local server, or no server needed).
   */
  freshServer(): boolean;
  /** the processes of the local server the run started, as it is now; undefined for a server given */
  localServerPids(): number[] | undefined;
}

/** A side's config: the server processes whose CPU it measures, --server-pid's or the local server's it runs on. */
const measuring = (c: BenchConfig, ctx: RunContext): BenchConfig => ({
  ...c,
  serverPid: c.serverPid ?? ctx.localServerPids(),
});

/**
 * The run, `--repeat` times: ours, and with --vs-java the Java client before or after ours (the order alternating
 * from --java-first's), the ratios after each. Every run labelled by its repeat when there are several, and by its rate
 * in a sweep; `exitCode` 1 when something failed, 130 when Ctrl-C ended the Java client.
 */
export async function runRepeats(
  config: BenchConfig,
  ctx: RunContext,
): Promise<{ runs: RunResult[]; repeats: Repeat[]; exitCode: number }> {
  const repeats: Repeat[] = [];
  const runs: RunResult[] = [];
  let exitCode = 0;
  for (let k = 1; k <= config.repeat && !ctx.interrupt.aborted; k++) {
    const c = { ...config, javaFirst: config.vsJava && javaFirstIn(k, config.javaFirst) };
    if (config.repeat > 1) console.log(`repeat ${k} of ${config.repeat}${order(c)}`);
    // each run by the name it is kept under, from its report on: its repeat's, in a sweep its rate's
    const named = (r: RunResult) => repeatLabel(sweepLabel(r, config), k, config.repeat);
    const javaSide = async () => {
      const side = await runJavaClient(c, ctx, named);
      if (side.failed) exitCode = side.interrupted === true ? 130 : 1;
      return side.java;
    };
    let java = c.javaFirst ? await javaSide() : [];
    let ours: RunResult[] = [];
    // a server ours could not reach: the Java client would wait as long, and so would the next repeat
    let unreachable = false;
    if (!ctx.interrupt.aborted) {
      ctx.freshServer();
      const done = await runOurs(measuring(c, ctx), ctx, named);
      ours = done.runs;
      unreachable = done.unreachable;
      if (done.failed) exitCode = 1;
    }
    if (c.vsJava && !c.javaFirst && !ctx.interrupt.aborted && !unreachable) java = await javaSide();
    if (ctx.queryFile !== undefined) printStatementRatios(ours, java);
    else if (java.length > 0 && ours.length > 0) printRatios(ours[0], java[0]);
    const note = java.length > 0 && ours.length > 0 ? oneOrderNote(c, ctx.localServerPids() === undefined) : undefined;
    if (note !== undefined) console.log(note);
    repeats.push({ ours, java, javaFirst: c.javaFirst });
    const ran = ctx.queryFile === undefined ? [...ours, ...java] : sideBySide(ours, java);
    runs.push(...ran.map(named));
    if (unreachable) break;
  }
  return { runs, repeats, exitCode };
}

/** The Java client's side: its run of ours' workload, or its runs of the query file's statements. */
async function runJavaClient(
  c: BenchConfig,
  ctx: RunContext,
  named: Named,
): Promise<{ java: RunResult[]; failed: boolean; interrupted?: boolean }> {
  if (ctx.queryFile !== undefined)
    return runJavaStatements(measuring(c, ctx), ctx.queryFile, ctx.target, ctx.environment, named);
  const freshDatabase = ctx.freshServer();
  const side = await runJavaSide(measuring(c, ctx), { ...ctx.target, freshDatabase }, ctx.environment, named);
  return { ...side, java: side.java === undefined ? [] : [side.java] };
}

/** Ours' runs, each followed by the Java client's run in its place (a statement's beside ours' of it). */
function sideBySide(ours: readonly RunResult[], java: readonly RunResult[]): RunResult[] {
  return [...ours.flatMap((r, i) => (java[i] === undefined ? [r] : [r, java[i]])), ...java.slice(ours.length)];
}

/** `, ours first` or `, the Java client first` in a repeat of a --vs-java run; nothing without it. */
function order(c: BenchConfig): string {
  if (!c.vsJava) return '';
  return c.javaFirst ? ', the Java client first' : ', ours first';
}

/** Ours: each statement of the query file, or each method's write run (with its queries). */
async function runOurs(
  config: BenchConfig,
  ctx: RunContext,
  named: Named,
): Promise<{ runs: RunResult[]; failed: boolean; unreachable: boolean }> {
  const { queryFile, target, environment, interrupt } = ctx;
  if (queryFile === undefined) return runMethods(config, target, environment, interrupt, named);
  const runs: RunResult[] = [];
  for (const entry of queryFile) {
    if (interrupt.aborted) break;
    console.log(`run ${entry.label}: ${entry.model} model, ${statementShape(entry)}`);
    const listed = await entryStatements(config, entry, target);
    if ('note' in listed) console.log(listed.note);
    const run = {
      ...('error' in listed
        ? statementNotRun(config, entry, entry.label, listed.error)
        : await runQueryFileEntry(config, entry, listed.shares, target, interrupt)),
      environment,
    };
    const shown = named(run);
    console.log(`${formatReport(shown)}\n${resultLine(shown)}`);
    runs.push(run);
    if (run.stopped === 'unreachable') break; // the statements after it would each wait as long
  }
  const unreachable = runs.some((r) => r.stopped === 'unreachable');
  return { runs, failed: runs.some((r) => r.okOps === 0), unreachable };
}
