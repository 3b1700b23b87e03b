import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { PreciseTimer } from './precise-timer.js';

const now = (): number => Number(process.hrtime.bigint());
const MS = 1e6;

/**
 * Sleeps each of `offsetsMs` (from one start 50 ms ahead, so that none is due when it comes, however slow the machine),
 * in the order given; resolves with who woke when, in wake order.
 */
async function sleepAll(timer: PreciseTimer, offsetsMs: number[]): Promise<{ at: number; woke: number }[]> {
  const start = now() + 50 * MS;
  const woken: { at: number; woke: number }[] = [];
  await Promise.all(
    offsetsMs.map((ms) => {
      const at = start + ms * MS;
      return timer.sleepUntil(at).then(() => woken.push({ at, woke: now() }));
    }),
  );
  return woken;
}

/** `timer` once its thread runs (until then its fallback timer keeps time). */
async function running(timer: PreciseTimer): Promise<PreciseTimer> {
  while (timer.woken().thread === 0) await timer.sleepUntil(now() + MS);
  return timer;
}

describe('PreciseTimer', () => {
  it('wakes every sleeper no sooner than its time, earliest first, whatever order they came in', async () => {
    const woken = await sleepAll(new PreciseTimer(), [30, 4, 17, 1, 25, 9, 9, 2, 40, 13]);
    expect(woken.map((w) => w.at)).toEqual([...woken.map((w) => w.at)].sort((a, b) => a - b));
    for (const w of woken) expect(w.woke).toBeGreaterThanOrEqual(w.at);
  });

  it('wakes a sleeper that came after a later one first (the thread waits for the earliest)', async () => {
    const timer = new PreciseTimer();
    await timer.sleepUntil(now() + MS); // the thread has started
    const order: string[] = [];
    const late = timer.sleepUntil(now() + 60 * MS).then(() => order.push('late'));
    const early = timer.sleepUntil(now() + 5 * MS).then(() => order.push('early'));
    await Promise.all([late, early]);
    expect(order).toEqual(['early', 'late']);
  });

  it('resolves a time already passed at once, and sleeps again after its sleepers are all woken', async () => {
    const timer = new PreciseTimer();
    await timer.sleepUntil(now() - MS);
    for (const ms of [3, 1, 2]) {
      const at = now() + ms * MS;
      await timer.sleepUntil(at);
      expect(now()).toBeGreaterThanOrEqual(at);
    }
  });

  it('loses no wake when the thread fires again while the last wake is handled (busy cores)', async () => {
    // a fire between a wake's re-arming and the listener's next wait was lost when the event loop was held up
    // there, and the sleepers waited for ever (a version that woke the thread at every re-arm: busy threads beside
    // it made that likely within a second); no sleeper may be left waiting however the threads are scheduled
    const spin = 'const end = Date.now() + 5000; while (Date.now() < end);'; // ends on its own should the test fail
    const busy = Array.from({ length: 3 }, () => new Worker(spin, { eval: true }));
    try {
      const timer = await running(new PreciseTimer());
      const client = async (id: number) => {
        let due = now() + MS + id * 0.1 * MS;
        for (let i = 0; i < 400; i++, due += 0.4 * MS) await timer.sleepUntil(due);
      };
      await Promise.all([0, 1, 2, 3].map(client));
    } finally {
      await Promise.all(busy.map((w) => w.terminate()));
    }
  }, 10_000);

  it('wakes every sleeper the thread fired ahead for, though the event loop heard it after both fires', async () => {
    // the thread fires 0.3 ms ahead of a deadline; the event loop, held up, hears it only after it fired for both
    // sleepers (0.1 ms apart), before either is due: a version that waited out the first one's deadline alone left
    // the second waiting for a fire that had come already
    const timer = await running(new PreciseTimer(0.3 * MS));
    const at = now() + 20 * MS;
    const woke: number[] = [];
    const sleeping = [at, at + 0.1 * MS].map((t) => timer.sleepUntil(t).then(() => woke.push(now() - t)));
    while (now() < at - 0.05 * MS); // held up past both fires, not past either deadline
    await Promise.all(sleeping);
    expect(woke).toHaveLength(2);
    expect(woke.every((late) => late >= 0)).toBe(true);
  }, 5_000);

  it('never wakes anyone before their time while it learns its lead, which stays within its bound', async () => {
    const timer = await running(new PreciseTimer());
    const woken = await sleepAll(timer, [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]);
    expect(woken.every(({ at, woke }) => woke >= at)).toBe(true);
    expect(timer.leadNs()).toBeGreaterThanOrEqual(0);
    expect(timer.leadNs()).toBeLessThanOrEqual(MS);
  });

  it('keeps time by its thread once it runs (the event loop timer is the fallback)', async () => {
    const timer = new PreciseTimer();
    for (let i = 0; i < 20; i++) await timer.sleepUntil(now() + 3 * MS);
    const woken = timer.woken();
    expect(woken.thread + woken.fallback).toBe(20);
    expect(woken.thread).toBeGreaterThan(0);
  });

  it('never gives the event loop timer a negative delay (Node 24 warns of one on stderr)', async () => {
    const delays: number[] = [];
    const original = globalThis.setTimeout;
    const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation((fn: () => void, ms?: number) => {
      delays.push(ms ?? 0);
      return original(fn, ms);
    });
    try {
      // a new timer keeps time by the event loop until its thread runs: sleepers due at once, and one after another
      const timer = new PreciseTimer();
      const start = now();
      await Promise.all(Array.from({ length: 40 }, (_, i) => timer.sleepUntil(start + (i % 4) * 0.2 * MS)));
    } finally {
      spy.mockRestore();
    }
    expect(delays.length).toBeGreaterThan(0);
    expect(delays.filter((ms) => ms < 0)).toEqual([]);
  });

  it('keeps a process alive while someone sleeps, and nothing after (its thread does not)', async () => {
    // the built module (pnpm test builds first), run in a child that must end on its own, once woken
    const built = fileURLToPath(new URL('../../dist/run/precise-timer.js', import.meta.url));
    const body = `const now = () => Number(process.hrtime.bigint());
      const timer = new PreciseTimer();
      while (timer.woken().thread === 0) await timer.sleepUntil(now() + 2e6);
      await timer.sleepUntil(now() + 300e6); // nothing else pending meanwhile
      console.log('woken');`;
    const child = spawn(process.execPath, [
      '--input-type=module',
      '-e',
      `import { PreciseTimer } from ${JSON.stringify(built)};\n${body}`,
    ]);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), 4_000);
    const code = await new Promise((resolve) => child.on('exit', resolve));
    clearTimeout(killer);
    expect({ code, out: out.trim() }).toEqual({ code: 0, out: 'woken' });
  });
});
