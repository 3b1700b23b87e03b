import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { combineWorkers, type DoneWorker } from './combine-workers.js';
import { overTime } from './interval-latency.js';
import { workerShare } from './device-shares.js';
import { StartBarrier } from './barrier.js';
import { liveCounters } from './live-counters.js';
import { RunError } from './run-error.js';
import { RunStop } from './run-stop.js';
import { WriteWatch } from './write-watch.js';
import type { BenchConfig, RunResult, StopReason, WorkerResult, WorkerTask } from '../types.js';

const workerFile = fileURLToPath(new URL('./worker.js', import.meta.url));

interface WriteOutcome {
  result: RunResult;
  /** every acknowledged point, warm-ups included: what --verify expects to find */
  writtenPoints: number;
  /** the rounds every device was written in (warm-up rounds included): all, or those before a stop */
  fullRounds: number;
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
  const counters = liveCounters(c.workers);
  const barrier = new SharedArrayBuffer(8);
  const barrierView = new Int32Array(barrier);
  const stop = new RunStop(() => StartBarrier.stop(barrierView), c.testMaxTime, interrupt);
  const piscina = new Piscina({
    filename: workerFile,
    minThreads: c.workers,
    maxThreads: c.workers,
    idleTimeout: 1000,
  });
  const calledAt = new Date().toISOString();
  const watch = new WriteWatch(c, new BigInt64Array(counters), barrierView, () => stop.timedPhaseStarted());
  let results: WorkerResult[];
  try {
    const tasks = writeTasks(c, target, counters, barrier);
    results = await Promise.all(tasks.map((t) => piscina.run(t) as Promise<WorkerResult>));
  } finally {
    watch.end();
    stop.dispose();
    await piscina.destroy();
  }
  const failed = results.find((r) => r.state === 'failed');
  if (failed && failed.state === 'failed') throw new RunError(`worker ${failed.workerId} failed: ${failed.error}`);
  const done = results.filter((r): r is DoneWorker => r.state === 'done');
  const cpuS = watch.cpuS();
  const serverCpu = watch.serverCpu();
  const combined = combineWorkers(done);
  const stopped = stoppedBy(stop, barrierView);
  return {
    writtenPoints: done.reduce((n, r) => n + r.writtenPoints, 0),
    fullRounds: Math.min(...done.map((r) => r.fullRounds)),
    result: {
      ...combined,
      label,
      config: c,
      // the timed phase's start, as durationS counts from it (the call's, when no worker got past its warm-up)
      startedAt: watch.timedStartedAt ?? calledAt,
      clientCpuS: cpuS,
      clientCpuSPerMpts: combined.points > 0 ? cpuS / (combined.points / 1e6) : 0,
      ...(serverCpu && { serverCpu }),
      ...(watch.serverCoresOverTime.length > 0 && { serverCoresOverTime: watch.serverCoresOverTime }),
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      throughput: watch.throughput,
      ...overTime(done, c.reportIntervalMs),
      ...(stopped && { stopped }),
      ...(stop.signal && { interruptedBy: stop.signal }),
    },
  };
}

/** What ended the timed phase early: the main thread's stop (Ctrl-C, --test-max-time) or a worker's. */
function stoppedBy(stop: RunStop, barrier: Int32Array): StopReason | undefined {
  return stop.reason ?? (StartBarrier.unreachable(barrier) ? 'unreachable' : undefined);
}

/** Each worker's task: its share of the devices, the shared live counters and start barrier. */
function writeTasks(
  c: BenchConfig,
  target: { host: string; port: number },
  counters: SharedArrayBuffer,
  barrier: SharedArrayBuffer,
): WorkerTask[] {
  return Array.from({ length: c.workers }, (_, w) => {
    const share = workerShare(c, w);
    return {
      kind: 'write',
      workerId: w,
      config: c,
      host: target.host,
      port: target.port,
      firstDevice: share.first,
      deviceCount: share.count,
      counters,
      barrier,
    };
  });
}
