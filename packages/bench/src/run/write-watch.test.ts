import { afterEach, describe, expect, it, vi } from 'vitest';
import { sampleConfig } from '../report/test-fixture.js';
import { WRITES_ONLY } from '../workload/operations.js';
import { liveCounters, liveSlot } from './live-counters.js';
import { WriteWatch } from './write-watch.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('WriteWatch', () => {
  const c = { ...sampleConfig(), workers: 2, reportIntervalMs: 20, progress: false };
  const live = new BigInt64Array(liveCounters(2));
  const barrier = new Int32Array(new SharedArrayBuffer(8));
  let watch: WriteWatch | undefined;
  afterEach(() => watch?.end());

  it('starts the timed phase when every worker is past the barrier: its wall clock, then samples from there', async () => {
    let started = 0;
    watch = new WriteWatch(c, live, barrier, () => started++);
    Atomics.store(barrier, 0, 1); // one worker of two still warming up
    await sleep(60);
    expect([watch.timedStartedAt, started, watch.throughput.length]).toEqual([undefined, 0, 0]);
    const before = Date.now();
    Atomics.store(barrier, 0, 2);
    await vi.waitFor(() => expect(started).toBe(1));
    expect(Date.parse(watch.timedStartedAt!)).toBeGreaterThanOrEqual(before - 1);
    Atomics.store(live, liveSlot(0, 'points'), 500n);
    Atomics.store(live, liveSlot(1, 'points'), 500n);
    await vi.waitFor(() => expect(watch!.throughput.some(([, rate]) => rate > 0)).toBe(true));
    const samples = watch.throughput.length;
    Atomics.store(live, liveSlot(0, 'points'), 600n);
    watch.end();
    // the last partial interval: 100 points more since the last sample
    expect(watch.throughput.length).toBe(samples + 1);
  });

  it("samples at whole intervals of the timed phase, however long the warm-up was (the charts' seconds since start)", () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
    try {
      live.fill(0n);
      Atomics.store(barrier, 0, 0);
      watch = new WriteWatch({ ...c, reportIntervalMs: 100 }, live, barrier, () => undefined);
      vi.advanceTimersByTime(130); // a warm-up of 0.13 s
      Atomics.store(barrier, 0, 2);
      vi.advanceTimersByTime(2); // the timed phase starts
      Atomics.store(live, liveSlot(0, 'points'), 1000n);
      vi.advanceTimersByTime(300);
      expect(watch.throughput.map(([s]) => Math.round(s * 1000))).toEqual([100, 200, 300]);
    } finally {
      watch?.end();
      vi.useRealTimers();
    }
  });

  it('prints a line during the untimed warm-up too: how many workers are past it, and the retries so far', async () => {
    const lines: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((t) => (lines.push(String(t)), true));
    try {
      live.fill(0n);
      watch = new WriteWatch({ ...c, progress: true }, live, barrier, () => undefined);
      Atomics.store(barrier, 0, 1); // one worker of two still warming up, its writes retried
      Atomics.store(live, liveSlot(1, 'retries'), 3n);
      await vi.waitFor(() =>
        expect(lines.join('')).toMatch(/^\[warm-up [\d.]+s\] untimed: 1 of 2 workers done, retries 3$/m),
      );
    } finally {
      watch?.end();
      write.mockRestore();
    }
  });

  it("prints a mixed run's operations in its progress line (--progress): writes and queries, ok or failed", async () => {
    const lines: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((t) => (lines.push(String(t)), true));
    try {
      const mixed = { ...c, progress: true, operationProportion: { ...WRITES_ONLY, TIME_RANGE: 1 } };
      live.fill(0n);
      watch = new WriteWatch(mixed, live, barrier, () => undefined);
      Atomics.store(barrier, 0, 2);
      Atomics.store(live, liveSlot(0, 'okOps'), 7n);
      Atomics.store(live, liveSlot(1, 'okOps'), 4n);
      Atomics.store(live, liveSlot(1, 'failedOps'), 1n);
      // of loop x (device groups) planned for every client
      const planned = mixed.loop * mixed.devices;
      const done = new RegExp(` ops 12/${planned.toLocaleString('en-US')} \\([\\d.]+ %, now [\\d.]+/s\\) {2}errors 1`);
      await vi.waitFor(() => expect(lines.join('')).toMatch(done));
    } finally {
      watch?.end();
      write.mockRestore();
    }
  });

  it("tells in an open loop's progress line how far behind its schedule the run is, by its workers' earliest due", async () => {
    const lines: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((t) => (lines.push(String(t)), true));
    try {
      live.fill(0n);
      watch = new WriteWatch({ ...c, progress: true, targetRate: 100 }, live, barrier, () => undefined);
      Atomics.store(barrier, 0, 2);
      const now = process.hrtime.bigint();
      Atomics.store(live, liveSlot(0, 'nextDueNs'), now + 5_000_000n); // due in 5 ms
      await vi.waitFor(() => expect(lines.join('')).toContain('on schedule'));
      Atomics.store(live, liveSlot(1, 'nextDueNs'), now - 3_000_000_000n); // overdue by 3 s: a stalled server
      await vi.waitFor(() => expect(lines.join('')).toMatch(/ {2}behind 3\.\ds {2}/));
    } finally {
      watch?.end();
      write.mockRestore();
    }
  });

  it.runIf(process.platform === 'linux')(
    "measures the server's CPU (--server-pid) over the timed phase alone, not the warm-up before it",
    async () => {
      const burn = (ms: number) => {
        // this process's CPU time, not the clock's: on a machine busy with other work a spin gets less than its time
        const start = process.cpuUsage();
        for (let spent = 0; spent < ms * 1000;) {
          const { user, system } = process.cpuUsage(start);
          spent = user + system;
        }
      };
      live.fill(0n);
      Atomics.store(barrier, 0, 0);
      watch = new WriteWatch({ ...c, serverPid: [process.pid] }, live, barrier, () => undefined);
      burn(300); // the warm-up: not counted
      await sleep(5);
      Atomics.store(barrier, 0, 2);
      await vi.waitFor(() => expect(watch!.timedStartedAt).toBeDefined());
      burn(100);
      watch.end();
      const spent = watch.serverCpu();
      expect(spent).toMatchObject({ pids: [process.pid] });
      const seconds = spent !== undefined && 'seconds' in spent ? spent.seconds : NaN;
      expect(seconds).toBeGreaterThan(0.05);
      expect(seconds).toBeLessThan(0.28);
    },
  );

  it('measures no server CPU without the server processes', () => {
    watch = new WriteWatch(c, live, barrier, () => undefined);
    watch.end();
    expect(watch.serverCpu()).toBeUndefined();
  });

  it.runIf(process.platform === 'linux')(
    "samples the server's cores busy each interval of the timed phase, beside the throughput (--server-pid)",
    async () => {
      live.fill(0n);
      Atomics.store(barrier, 0, 2);
      watch = new WriteWatch({ ...c, reportIntervalMs: 100, serverPid: [process.pid] }, live, barrier, () => undefined);
      await vi.waitFor(() => expect(watch!.timedStartedAt).toBeDefined());
      const end = Date.now() + 450;
      while (Date.now() < end); // this process, the "server", busy on one core: the timers wait
      await sleep(250); // idle: the samples after the busy spell
      watch.end();
      const samples = watch.serverCoresOverTime;
      expect(samples.length).toBeGreaterThanOrEqual(2);
      expect(samples.map(([at]) => at)).toEqual([...samples.map(([at]) => at)].sort((a, b) => a - b));
      // the first sample spans the busy spell (the interval timer could not fire in it): up to one core, less on a
      // machine busy with other work (0.54 seen while a test suite ran beside), and clearly above an idle one after it
      const idle = Math.min(...samples.slice(1).map(([, cores]) => cores));
      expect(idle).toBeLessThan(0.2);
      expect(samples[0][1]).toBeGreaterThan(idle + 0.25);
      expect(samples[0][1]).toBeLessThan(1.2);
    },
  );
});
