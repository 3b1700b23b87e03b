import { progressParts } from '../report/format.js';
import { clientIntervalMs } from '../report/open-loop.js';
import { hasQueries, readsOnly } from '../workload/operations.js';
import { groupsInRun } from './device-shares.js';
import { behindMs, liveSum, type LiveCounter } from './live-counters.js';
import { ProgressPrinter } from './progress-printer.js';
import { timeLimitLeft } from './run-stop.js';
import { ServerCoresSampler } from './server-cores.js';
import { serverCpuWindow } from './server-cpu.js';
import type { BenchConfig, ServerCpuSpent } from '../types.js';

/**
 * The main thread's watch over a write phase's workers: when the timed phase starts (every worker past the start
 * barrier: the client's CPU, the server's with --server-pid, and the wall clock taken then), and from then a
 * throughput sample every reportIntervalMs and the progress line (ProgressPrinter says how often it shows), from the
 * workers' live counters.
 */
export class WriteWatch {
  /** [seconds into the timed phase, points/s over the interval before] */
  readonly throughput: [number, number][] = [];
  /** the wall clock when the timed phase started (undefined until it does) */
  timedStartedAt: string | undefined;
  readonly #c: BenchConfig;
  readonly #live: BigInt64Array;
  readonly #printer: ProgressPrinter;
  /** [0]: the workers past the untimed warm-up */
  readonly #barrier: Int32Array;
  readonly #startedAt = performance.now();
  /**
   * queries in the mix: the line counts operations too (points alone stand still while the clients read), of these
   * planned (undefined without queries)
   */
  readonly #plannedOps: number | undefined;
  readonly #startWatch: NodeJS.Timeout;
  #progress: NodeJS.Timeout;
  #timedAt = 0;
  #cpuAtStart = process.cpuUsage();
  /** the server's CPU from the timed phase's start (from the watch's, if it never starts); none without its pids */
  #server: ServerCoresSampler | undefined;
  #serverCpu: ServerCpuSpent | undefined;
  #last = { t: 0, points: 0, ops: 0 };
  #ended = false;

  constructor(c: BenchConfig, live: BigInt64Array, barrier: Int32Array, onTimedPhase: () => void) {
    this.#c = c;
    this.#live = live;
    this.#barrier = barrier;
    this.#printer = new ProgressPrinter(c.progress);
    this.#plannedOps = hasQueries(c.operationProportion) ? plannedOps(c) : undefined;
    const pids = c.serverPid;
    this.#server = pids && new ServerCoresSampler(serverCpuWindow(pids));
    this.#startWatch = setInterval(() => {
      if (Atomics.load(barrier, 0) < c.workers) return;
      clearInterval(this.#startWatch);
      this.#timedAt = performance.now();
      this.timedStartedAt = new Date().toISOString();
      this.#cpuAtStart = process.cpuUsage();
      this.#server = pids && new ServerCoresSampler(serverCpuWindow(pids), this.#timedAt);
      this.#last = { t: this.#timedAt, points: 0, ops: 0 };
      // samples from here at whole intervals, the seconds of the latency samples and the Java client's
      clearInterval(this.#progress);
      this.#progress = setInterval(() => this.#sample(), c.reportIntervalMs);
      onTimedPhase();
    }, 2);
    this.#progress = setInterval(() => this.#sample(), c.reportIntervalMs);
  }

  /** The client's CPU seconds since the timed phase started (since the watch began, if it never did). */
  cpuS(): number {
    const cpu = process.cpuUsage(this.#cpuAtStart);
    return (cpu.user + cpu.system) / 1e6;
  }

  /** With --server-pid: [seconds into the timed phase, the server's cores busy over the interval before]. */
  get serverCoresOverTime(): [number, number][] {
    return this.#server?.samples ?? [];
  }

  /** The server's CPU over the timed phase, as end() found it; undefined without --server-pid. */
  serverCpu(): ServerCpuSpent | undefined {
    return this.#serverCpu;
  }

  /** The workers are done: no more sampling; the last partial interval is sampled, so that even a run shorter
   * than one interval has a point on the chart. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    clearInterval(this.#progress);
    clearInterval(this.#startWatch);
    const now = performance.now();
    const sampled = this.#timedAt > 0 && now > this.#last.t;
    this.#serverCpu = sampled ? this.#server?.sample(now) : this.#server?.spent();
    const points = this.#sum('points');
    if (sampled && points > this.#last.points) this.throughput.push(this.#rate(now, points));
    this.#printer.end();
  }

  #sample(): void {
    if (this.#timedAt === 0) return this.#warmingUp();
    const now = performance.now();
    const points = this.#sum('points');
    const ops = this.#sum('okOps') + this.#sum('failedOps');
    const sample = this.#rate(now, points);
    const nowOpsPerS = ((ops - this.#last.ops) * 1000) / Math.max(1, now - this.#last.t);
    this.throughput.push(sample);
    this.#server?.sample(now);
    this.#last = { t: now, points, ops };
    this.#printer.print(() =>
      progressParts({
        points,
        totalPoints: expectedPoints(this.#c),
        elapsedS: sample[0],
        nowPointsPerS: sample[1],
        errors: this.#sum('failedOps'),
        retries: this.#sum('retries'),
        ...(this.#plannedOps !== undefined && { ops, nowOpsPerS, totalOps: this.#plannedOps }),
        ...(readsOnly(this.#c.operationProportion) && { readsOnly: true }),
        ...(this.#c.targetRate > 0 && { schedule: this.#schedule() }),
        ...timeLimitLeft(this.#c.testMaxTime, sample[0]),
      }),
    );
  }

  /** Before timing: a line that says the untimed warm-up goes on (a write retried there can take a while). */
  #warmingUp(): void {
    const done = Math.min(Atomics.load(this.#barrier, 0), this.#c.workers);
    const elapsedS = ((performance.now() - this.#startedAt) / 1000).toFixed(1);
    this.#printer.print(() => [
      {
        text: `[warm-up ${elapsedS}s] untimed: ${done} of ${this.#c.workers} workers done, retries ${this.#sum('retries')}`,
      },
    ]);
  }

  /** An open loop's: how far behind its schedule the run is, and a client's interval between operations (ms). */
  #schedule(): { behindMs: number; slackMs: number } {
    const behind = behindMs(this.#live, this.#c.workers, Number(process.hrtime.bigint()));
    return { behindMs: behind, slackMs: clientIntervalMs(this.#c) };
  }

  /** [seconds into the timed phase at `now`, points/s since the last sample] */
  #rate(now: number, points: number): [number, number] {
    return [(now - this.#timedAt) / 1000, ((points - this.#last.points) * 1000) / Math.max(1, now - this.#last.t)];
  }

  #sum(counter: LiveCounter): number {
    return liveSum(this.#live, this.#c.workers, counter);
  }
}

/** The operations of a mixed run's timed phase, writes and queries: loop x (device groups) for every client. */
function plannedOps(c: BenchConfig): number {
  return c.loop * groupsInRun(c);
}

/** The points the timed phase writes; 0 (no total, no ETA) with queries in the mix: the writes' share is drawn. */
function expectedPoints(c: BenchConfig): number {
  const mixed = hasQueries(c.operationProportion);
  return mixed ? 0 : c.deviceCount * c.sensors * c.batchSize * c.loop;
}
