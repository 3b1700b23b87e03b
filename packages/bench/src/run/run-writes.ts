import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { progressLine } from '../report/format.js';
import { weightedQueries } from '../workload/operations.js';
import { combineWorkers, type DoneWorker } from './combine-workers.js';
import { workerShare } from './device-shares.js';
import { StartBarrier } from './barrier.js';
import { liveCounters, liveSum, type LiveCounter } from './live-counters.js';
import { RunError } from './run-error.js';
import { RunStop } from './run-stop.js';
import type { BenchConfig, RunResult, WorkerResult, WorkerTask } from '../types.js';

const workerFile = fileURLToPath(new URL('./worker.js', import.meta.url));

export interface WriteOutcome {
  result: RunResult;
  /** every acknowledged point, warm-ups included: what --verify expects to find */
  writtenPoints: number;
}

/**
 * The write phase: `workers` piscina threads, each with its share of the devices, started together;
 * a progress line at reportIntervalMs while they run; their counts and histograms merged at the end.
 * The timed window runs from the moment every worker is past its warm-up to the last one's end, or to the
 * operations under way when `interrupt` aborts (Ctrl-C) or --test-max-time is up.
 */
export async function runWrites(
  c: BenchConfig,
  label: string,
  target: { host: string; port: number },
  interrupt: AbortSignal,
): Promise<WriteOutcome> {
  const { host, port } = target;
  const counters = liveCounters(c.workers);
  const barrier = new SharedArrayBuffer(8);
  const shared = { live: new BigInt64Array(counters), barrier: new Int32Array(barrier) };
  const stop = new RunStop(() => StartBarrier.stop(shared.barrier), c.testMaxTime, interrupt);
  const tasks: WorkerTask[] = Array.from({ length: c.workers }, (_, w) => {
    const share = workerShare(c, w);
    return {
      kind: 'write',
      workerId: w,
      config: c,
      host,
      port,
      firstDevice: share.first,
      deviceCount: share.count,
      counters,
      barrier,
    };
  });
  const piscina = new Piscina({
    filename: workerFile,
    minThreads: c.workers,
    maxThreads: c.workers,
    idleTimeout: 1000,
  });
  // with queries in the mix the writes' share is drawn, not known: no total, no ETA
  const mixed = weightedQueries(c.operationProportion).length > 0;
  const expectedPoints = mixed ? 0 : c.deviceCount * c.sensors * c.batchSize * c.loop;
  const throughput: [number, number][] = [];
  let timedAt = 0;
  let cpuAtStart = process.cpuUsage();
  let last = { t: 0, points: 0 };
  const sum = (counter: LiveCounter) => liveSum(shared.live, c.workers, counter);
  // the timed phase starts when every worker passed the barrier: snapshot CPU then
  const startWatch = setInterval(() => {
    if (timedAt === 0 && Atomics.load(shared.barrier, 0) >= c.workers) {
      timedAt = performance.now();
      cpuAtStart = process.cpuUsage();
      last = { t: timedAt, points: 0 };
      stop.timedPhaseStarted();
      clearInterval(startWatch);
    }
  }, 2);
  const showProgress = c.progress || process.stdout.isTTY;
  const progress = setInterval(() => {
    if (timedAt === 0) return;
    const now = performance.now();
    const points = sum('points');
    const rate = ((points - last.points) * 1000) / Math.max(1, now - last.t);
    throughput.push([(now - timedAt) / 1000, rate]);
    last = { t: now, points };
    if (showProgress) {
      const line = progressLine({
        points,
        totalPoints: expectedPoints,
        elapsedS: (now - timedAt) / 1000,
        nowPointsPerS: rate,
        errors: sum('failedOps'),
        retries: sum('retries'),
      });
      process.stdout.write(process.stdout.isTTY ? `\r${line}` : `${line}\n`);
    }
  }, c.reportIntervalMs);
  const startedAt = new Date().toISOString();
  let results: WorkerResult[];
  try {
    results = await Promise.all(tasks.map((t) => piscina.run(t) as Promise<WorkerResult>));
  } finally {
    clearInterval(progress);
    clearInterval(startWatch);
    stop.dispose();
    await piscina.destroy();
  }
  if (timedAt > 0) {
    // the last partial interval, so that even a run shorter than one interval has a point on the chart
    const now = performance.now();
    const points = sum('points');
    if (now > last.t && points > last.points)
      throughput.push([(now - timedAt) / 1000, ((points - last.points) * 1000) / (now - last.t)]);
  }
  if (showProgress && process.stdout.isTTY) process.stdout.write('\n');
  const failed = results.find((r) => r.state === 'failed');
  if (failed && failed.state === 'failed') throw new RunError(`worker ${failed.workerId} failed: ${failed.error}`);
  const done = results.filter((r): r is DoneWorker => r.state === 'done');
  const cpu = process.cpuUsage(cpuAtStart);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  const combined = combineWorkers(done);
  return {
    writtenPoints: done.reduce((n, r) => n + r.writtenPoints, 0),
    result: {
      ...combined,
      label,
      config: c,
      startedAt,
      clientCpuS: cpuS,
      clientCpuSPerMpts: combined.points > 0 ? cpuS / (combined.points / 1e6) : 0,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      throughput,
      ...(stop.reason && { stopped: stop.reason }),
    },
  };
}
