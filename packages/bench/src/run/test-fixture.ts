/** Test helpers of run/ (not a .test.ts file: shared by several). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BenchConfig, WorkerTask } from '../types.js';
import type { Clock } from './clock.js';
import { liveCounters } from './live-counters.js';

/** Worker 0's task over all of `config`'s devices, its counters and barrier its own (one worker). */
export function workerTask(config: BenchConfig, over: Partial<WorkerTask> = {}): WorkerTask {
  return {
    kind: 'write',
    workerId: 0,
    config,
    host: '127.0.0.1',
    port: 6667,
    firstDevice: 0,
    deviceCount: config.deviceCount,
    counters: liveCounters(1),
    barrier: new SharedArrayBuffer(8),
    ...over,
  };
}

/**
 * Simulated time: sleeping schedules a wake-up, and time jumps to the earliest one once every client is
 * waiting. Operations then take exactly what the test says, however many clients run at once.
 */
export class SimulatedClock implements Clock {
  #now = 1e12;
  readonly #sleepers: { at: number; wake: () => void }[] = [];

  now(): number {
    return this.#now;
  }

  sleep(ns: number): Promise<void> {
    return new Promise((wake) => this.#sleepers.push({ at: this.#now + ns, wake }));
  }

  /** Runs `work` to its end, moving time from one wake-up to the next. */
  async drive<T>(work: Promise<T>): Promise<T> {
    let done = false;
    void work.finally(() => (done = true));
    while (!done) {
      await new Promise((r) => setImmediate(r)); // let every client run until it sleeps
      this.#sleepers.sort((a, b) => a.at - b.at);
      const next = this.#sleepers.shift();
      if (next === undefined) continue;
      this.#now = Math.max(this.#now, next.at);
      next.wake();
    }
    return work;
  }
}

/**
 * What java/`script` (bench.sh, query-file.sh) lets through of its Java process's output: the lines its `grep -E`
 * passes. The parsers' tests read their output through it, so that a line a parser reads and the script drops fails
 * there (the grep hid START_LAG once, and the failures' FAILED lines another time).
 */
export function throughScript(script: string, out: string): string {
  const text = readFileSync(fileURLToPath(new URL(`../../java/${script}`, import.meta.url)), 'utf8');
  const passed = /^PASSED='([^']*)'$/m.exec(text)?.[1];
  const grep = /\| grep -E (["'])(.*)\1$/m.exec(text)?.[2];
  if (grep === undefined) throw new Error(`java/${script} has no grep -E of its output`);
  const pattern = new RegExp(passed === undefined ? grep : grep.replace('$PASSED', passed));
  return out
    .split('\n')
    .filter((l) => pattern.test(l))
    .join('\n');
}
