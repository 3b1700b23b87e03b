import { afterEach, describe, expect, it, vi } from 'vitest';
import { IoTDBAbortError, IoTDBBatchError, IoTDBPoolTimeoutError, IoTDBSessionClosedError } from '../errors.js';
import type { BaseSession } from '../session/base-session.js';
import { emptyStats, type SessionStats } from '../diagnostics/stats.js';
import { runAll, slotOf } from './parallel.js';
import { Pool } from './pool.js';
import type { PoolOptions } from './pool-options.js';

// ---------- a fake session and helpers ----------

/** Stands in for a Session: open()/close(), isOpen and isConnected are all the pool uses. */
class FakeSession {
  static seq = 0;
  readonly id = FakeSession.seq++;
  isConnected = false;
  isOpen = false;
  opens = 0;
  closes = 0;
  /** borrowers inside execute(fn) right now */
  borrowers = 0;
  constructor(private readonly openImpl: () => Promise<void> = async () => undefined) {}

  /** As a Session's open(): its signal ends it (the pool's close(), or a caller's). */
  async open(opts: { signal?: AbortSignal } = {}): Promise<void> {
    this.opens++;
    const { signal } = opts;
    await new Promise<void>((resolve, reject) => {
      const aborted = () => reject(signal!.reason);
      signal?.addEventListener('abort', aborted, { once: true });
      this.openImpl().then(resolve, reject);
    });
    this.isConnected = true;
    this.isOpen = true;
  }

  async close(): Promise<void> {
    this.closes++;
    this.isConnected = false;
    this.isOpen = false;
  }

  readonly contextChanged = false;
  async closeDataSets(): Promise<void> {}
  stats(): SessionStats {
    return { ...emptyStats(), calls: this.opens };
  }
}

/** A Pool whose slots can be borrowed by number, as device binding does. */
class TestPool extends Pool<BaseSession> {
  on<T>(slot: number, fn: (s: BaseSession) => Promise<T>): Promise<T> {
    return this.executeOn(slot, fn);
  }
}

function makePool(
  options: PoolOptions,
  openImpl?: (n: number) => Promise<void>,
): { pool: TestPool; created: FakeSession[] } {
  const created: FakeSession[] = [];
  const pool = new TestPool(() => {
    const n = created.length;
    const s = new FakeSession(openImpl ? () => openImpl(n) : undefined);
    created.push(s);
    return s as unknown as BaseSession;
  }, options);
  return { pool, created };
}

const fake = (s: BaseSession) => s as unknown as FakeSession;

interface Deferred<T = void> {
  promise: Promise<T>;
  resolve: (v: T) => void;
  reject: (e: unknown) => void;
}
function deferred<T = void>(): Deferred<T> {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every pending promise continuation run (works with real and fake timers). */
async function flush(): Promise<void> {
  for (let i = 0; i < 50; i++) await Promise.resolve();
}

/** Whether `p` has settled by now. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  p.then(
    () => (done = true),
    () => (done = true),
  );
  await flush();
  return done;
}

async function rejectionOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

const pools: Pool<BaseSession>[] = [];
function track<P extends { pool: Pool<BaseSession> }>(x: P): P {
  pools.push(x.pool);
  return x;
}

afterEach(async () => {
  vi.useRealTimers();
  for (const p of pools.splice(0)) await p.close().catch(() => undefined);
});

// ---------- Pool ----------

describe('Pool: sizing under load', () => {
  it('never lends more than maxSize (4) sessions to 32 concurrent callers, one borrower per session, and reports stats while and after', async () => {
    const { pool, created } = track(makePool({ maxSize: 4 }));
    const gates = Array.from({ length: 32 }, () => deferred());
    const running = new Set<number>();
    let maxRunning = 0;
    let overlap = false;
    const calls = gates.map((g, i) =>
      pool.execute(async (s) => {
        const f = fake(s);
        if (f.borrowers > 0) overlap = true;
        f.borrowers++;
        running.add(i);
        maxRunning = Math.max(maxRunning, running.size);
        await g.promise;
        running.delete(i);
        f.borrowers--;
        return i;
      }),
    );
    await flush();
    expect(pool.stats()).toMatchObject({ size: 4, idle: 0, inUse: 4, waiting: 28, opening: 0 });
    expect(running.size).toBe(4);

    // let the callers finish one at a time, in an order that is not the arrival order
    for (let done = 1; done <= 32; done++) {
      const running_ = [...running];
      gates[running_[(done * 7) % running_.length]].resolve();
      await flush();
      const left = 32 - done;
      expect(pool.stats(), `after ${done} finished`).toMatchObject({
        size: 4,
        idle: left >= 4 ? 0 : 4 - left,
        inUse: Math.min(4, left),
        waiting: Math.max(0, left - 4),
        opening: 0,
      });
      expect(running.size).toBe(Math.min(4, left));
    }
    expect(await Promise.all(calls)).toEqual(Array.from({ length: 32 }, (_, i) => i));
    expect(maxRunning).toBe(4);
    expect(overlap).toBe(false);
    // no leaks: exactly 4 sessions, each opened once, none closed while the pool is open
    expect(created).toHaveLength(4);
    expect(created.map((s) => [s.opens, s.closes])).toEqual([
      [1, 0],
      [1, 0],
      [1, 0],
      [1, 0],
    ]);
    expect(pool.stats()).toMatchObject({ size: 4, idle: 4, inUse: 0, waiting: 0, opening: 0 });
    await pool.close();
    expect(created.map((s) => s.closes)).toEqual([1, 1, 1, 1]);
  });

  it('reuses an idle open session before opening a new one', async () => {
    const { pool, created } = track(makePool({ maxSize: 4 }));
    for (let i = 0; i < 10; i++) await pool.execute(async () => undefined);
    expect(created).toHaveLength(1);
    expect(pool.stats()).toMatchObject({ size: 1, idle: 1, inUse: 0, waiting: 0, opening: 0 });
  });
});

describe('Pool: waitTimeoutMs', () => {
  it('rejects a caller with IoTDBPoolTimeoutError when no session frees up in time, and removes it from the queue', async () => {
    const { pool } = track(makePool({ maxSize: 1, waitTimeoutMs: 60 }));
    const hold = deferred();
    const holder = pool.execute(() => hold.promise.then(() => 'held'));
    await flush();
    const ran = vi.fn<() => void>();
    const t0 = performance.now();
    const waiter = pool.execute(async () => ran());
    await flush();
    expect(pool.stats().waiting).toBe(1);
    const e = await rejectionOf(waiter);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(50);
    expect(e).toBeInstanceOf(IoTDBPoolTimeoutError);
    expect((e as Error).message).toContain('waitTimeoutMs=60');
    expect(ran).not.toHaveBeenCalled();
    expect(pool.stats()).toMatchObject({ inUse: 1, waiting: 0 });
    // the released session is not handed to the caller that gave up: it goes idle
    hold.resolve();
    expect(await holder).toBe('held');
    await flush();
    expect(ran).not.toHaveBeenCalled();
    expect(pool.stats()).toMatchObject({ size: 1, idle: 1, inUse: 0, waiting: 0, opening: 0 });
    expect(await pool.execute(async () => 'next')).toBe('next');
  });

  it('does not time out a caller that got a session before waitTimeoutMs', async () => {
    const { pool } = track(makePool({ maxSize: 1, waitTimeoutMs: 200 }));
    const hold = deferred();
    const holder = pool.execute(() => hold.promise);
    await flush();
    const waiter = pool.execute(() => new Promise<string>((r) => setTimeout(() => r('slow but fine'), 300)));
    setTimeout(() => hold.resolve(), 20);
    await holder;
    // the waiter's timer must have been cleared when it got the session: it outlives waitTimeoutMs
    expect(await waiter).toBe('slow but fine');
  });
});

describe("Pool: a caller's signal", () => {
  it('ends a wait for a session at once, naming the wait; the session then goes to the next caller, not to it', async () => {
    const { pool } = track(makePool({ maxSize: 1 }));
    const hold = deferred();
    const holder = pool.execute(() => hold.promise);
    await flush();
    const ac = new AbortController();
    const ran = vi.fn<() => void>();
    const waiter = pool.execute(async () => ran(), { signal: ac.signal });
    const next = pool.execute(async () => 'next');
    await flush();
    const reason = new Error('gave up');
    ac.abort(reason);
    const e = await rejectionOf(waiter);
    expect(e).toBeInstanceOf(IoTDBAbortError);
    expect((e as Error).message).toBe('pool: wait for a session: aborted');
    expect((e as Error).cause).toBe(reason);
    expect(pool.stats()).toMatchObject({ inUse: 1, waiting: 1 });
    hold.resolve();
    await holder;
    expect(await next).toBe('next');
    expect(ran).not.toHaveBeenCalled();
  });

  it('refuses a call whose signal is already aborted before a session is taken or opened', async () => {
    const { pool, created } = track(makePool({ maxSize: 1 }));
    const ac = new AbortController();
    ac.abort(new Error('before'));
    const e = await rejectionOf(pool.execute(async () => 'ran', { signal: ac.signal }));
    expect((e as Error).message).toBe('pool: borrow a session: aborted');
    expect(created).toHaveLength(0);
    expect(pool.stats()).toMatchObject({ size: 0, inUse: 0, waiting: 0 });
  });

  it("ends the opening of the caller's session, naming the open; the slot opens afresh for the next caller", async () => {
    const opening = deferred();
    const { pool, created } = track(makePool({ maxSize: 1 }, (n) => (n === 0 ? opening.promise : Promise.resolve())));
    const ac = new AbortController();
    const call = pool.execute(async () => 'ran', { signal: ac.signal });
    await flush();
    expect(pool.stats().opening).toBe(1);
    ac.abort(new Error('too slow'));
    const e = await rejectionOf(call);
    expect((e as Error).message).toBe('pool: open a session: aborted');
    expect(await pool.execute(async () => 'next')).toBe('next');
    expect(created.length).toBeGreaterThanOrEqual(2);
  });
});

describe('Pool: execute always gives the session back', () => {
  it('releases the session when fn rejects, throws synchronously or returns a rejected promise', async () => {
    const { pool, created } = track(makePool({ maxSize: 1 }));
    const boom = new Error('async boom');
    expect(await rejectionOf(pool.execute(async () => Promise.reject(boom)))).toBe(boom);
    expect(pool.stats()).toMatchObject({ inUse: 0, idle: 1 });
    const sync = new TypeError('sync boom');
    expect(
      await rejectionOf(
        pool.execute(() => {
          throw sync;
        }),
      ),
    ).toBe(sync);
    expect(pool.stats()).toMatchObject({ inUse: 0, idle: 1 });
    expect(await pool.execute(async () => 'still works')).toBe('still works');
    expect(created).toHaveLength(1);
  });

  it('hands the session of a failing borrower to the next waiter', async () => {
    const { pool } = track(makePool({ maxSize: 1 }));
    const gate = deferred();
    const failing = pool.execute(async () => {
      await gate.promise;
      throw new Error('failed');
    });
    const next = pool.execute(async () => 'next ran');
    await flush();
    expect(pool.stats().waiting).toBe(1);
    gate.resolve();
    await expect(failing).rejects.toThrow('failed');
    expect(await next).toBe('next ran');
    expect(pool.stats()).toMatchObject({ inUse: 0, waiting: 0 });
  });
});

describe('Pool: pinned slots', () => {
  it('runs the borrowers of a pinned slot one at a time, in the order they asked, on the same session', async () => {
    const { pool } = track(makePool({ maxSize: 3 }));
    const log: string[] = [];
    const sessions = new Set<FakeSession>();
    const gates = Array.from({ length: 5 }, () => deferred());
    const calls = gates.map((g, i) =>
      pool.on(1, async (s) => {
        sessions.add(fake(s));
        log.push(`start ${i}`);
        await g.promise;
        log.push(`end ${i}`);
      }),
    );
    await flush();
    expect(pool.stats()).toMatchObject({ inUse: 1, waiting: 4 });
    // release them in reverse: each can only finish once it has started, and they start in order
    for (let i = 4; i >= 0; i--) gates[i].resolve();
    await Promise.all(calls);
    expect(log).toEqual([
      'start 0',
      'end 0',
      'start 1',
      'end 1',
      'start 2',
      'end 2',
      'start 3',
      'end 3',
      'start 4',
      'end 4',
    ]);
    expect(sessions.size).toBe(1);
  });

  it('lets unpinned callers use the other slots while a pinned slot is busy', async () => {
    const { pool } = track(makePool({ maxSize: 3 }));
    const hold = deferred();
    let pinnedSession: FakeSession | undefined;
    const pinned = pool.on(0, async (s) => {
      pinnedSession = fake(s);
      await hold.promise;
    });
    await flush();
    const other = await pool.execute(async (s) => fake(s).id);
    expect(other).not.toBe(pinnedSession?.id);
    expect(await settled(pinned)).toBe(false);
    hold.resolve();
    await pinned;
  });

  it('serves pinned and unpinned waiters of a full pool in arrival order', async () => {
    const { pool } = track(makePool({ maxSize: 1 }));
    const hold = deferred();
    const first = pool.execute(() => hold.promise);
    await flush();
    const order: string[] = [];
    const a = pool.on(0, async () => void order.push('pinned a'));
    const b = pool.execute(async () => void order.push('any b'));
    const c = pool.on(0, async () => void order.push('pinned c'));
    await flush();
    expect(pool.stats().waiting).toBe(3);
    hold.resolve();
    await Promise.all([first, a, b, c]);
    expect(order).toEqual(['pinned a', 'any b', 'pinned c']);
  });
});

describe('Pool: close()', () => {
  it('rejects waiters and new calls with IoTDBSessionClosedError, waits for borrowed sessions, then closes every session', async () => {
    const { pool, created } = track(makePool({ maxSize: 2 }));
    const holds = [deferred(), deferred()];
    const borrowed = holds.map((h, i) => pool.execute(() => h.promise.then(() => `borrower ${i}`)));
    await flush();
    const waiter = pool.execute(async () => 'never');
    await flush();
    expect(pool.stats()).toMatchObject({ size: 2, inUse: 2, waiting: 1 });

    const closing = pool.close();
    expect(await rejectionOf(waiter)).toBeInstanceOf(IoTDBSessionClosedError);
    expect(await rejectionOf(pool.execute(async () => 'late'))).toBeInstanceOf(IoTDBSessionClosedError);
    expect(pool.stats().waiting).toBe(0);
    // still waiting for the two borrowers; nothing closed under their feet
    expect(await settled(closing)).toBe(false);
    expect(created.map((s) => s.closes)).toEqual([0, 0]);

    holds[0].resolve();
    expect(await borrowed[0]).toBe('borrower 0');
    expect(await settled(closing)).toBe(false);
    expect(created.map((s) => s.closes)).toEqual([0, 0]);

    holds[1].resolve();
    expect(await borrowed[1]).toBe('borrower 1');
    await closing;
    expect(created.map((s) => s.closes)).toEqual([1, 1]);
    expect(pool.stats()).toMatchObject({ size: 0, idle: 0, inUse: 0, waiting: 0, opening: 0 });
    await pool.close(); // twice is fine
    expect(created.map((s) => s.closes)).toEqual([1, 1]);
  });

  it('closes idle sessions at once when nothing is borrowed', async () => {
    const { pool, created } = track(makePool({ maxSize: 3, minSize: 3 }));
    await pool.open();
    await pool.close();
    expect(created.map((s) => s.closes)).toEqual([1, 1, 1]);
  });

  it('closes a session whose close() fails and still closes the others', async () => {
    const { pool, created } = track(makePool({ maxSize: 2, minSize: 2 }));
    await pool.open();
    const failingClose = vi.fn(async () => {
      throw new Error('logout failed');
    });
    created[0].close = failingClose;
    await pool.close();
    expect(failingClose).toHaveBeenCalledTimes(1);
    expect(created[1].closes).toBe(1);
  });

  it("is for good, as Java's and node-postgres' pools: open() refuses, and the calls after say to make a new pool", async () => {
    const { pool } = track(makePool({ maxSize: 2 }));
    await pool.execute(async () => undefined);
    await pool.close();
    const reopened = await rejectionOf(pool.open()); // minSize 0: it opened nothing, and resolved
    expect(reopened).toBeInstanceOf(IoTDBSessionClosedError);
    expect((reopened as Error).message).toBe('the pool is closed; a closed pool does not open again: make a new one');
    const call = await rejectionOf(pool.execute(async () => 'late'));
    expect((call as Error).message).toBe('the pool is closed; a closed pool does not open again: make a new one');
  });

  it('makes a second, concurrent close() wait until the sessions are closed, like the first', async () => {
    const { pool, created } = track(makePool({ maxSize: 1 }));
    const hold = deferred();
    const borrowed = pool.execute(() => hold.promise);
    await flush();
    const first = pool.close();
    const second = pool.close();
    const secondDone = await settled(second);
    hold.resolve();
    await borrowed;
    await first;
    expect(created[0].closes).toBe(1);
    expect(secondDone).toBe(false);
  });
});

describe('Pool: open() and minSize', () => {
  it('opens minSize sessions in open(), and none before', async () => {
    const { pool, created } = track(makePool({ maxSize: 4, minSize: 2 }));
    expect(created).toHaveLength(0);
    expect(pool.stats().size).toBe(0);
    await pool.open();
    expect(created).toHaveLength(2);
    expect(created.every((s) => s.opens === 1 && s.isConnected)).toBe(true);
    expect(pool.stats()).toMatchObject({ size: 2, idle: 2, inUse: 0, waiting: 0, opening: 0 });
  });

  it('counts sessions being opened in stats().opening', async () => {
    const opening = deferred();
    const { pool } = track(makePool({ maxSize: 2 }, () => opening.promise));
    const call = pool.execute(async () => 'done');
    await flush();
    expect(pool.stats()).toMatchObject({ size: 0, idle: 0, inUse: 1, waiting: 0, opening: 1 });
    opening.resolve();
    expect(await call).toBe('done');
    expect(pool.stats()).toMatchObject({ size: 1, idle: 1, inUse: 0, waiting: 0, opening: 0 });
  });
});

describe('Pool: health check', () => {
  it('closes idle sessions beyond minSize after maxIdleTimeMs, keeps minSize and never closes a borrowed one', async () => {
    vi.useFakeTimers();
    const { pool, created } = track(
      makePool({ maxSize: 4, minSize: 1, maxIdleTimeMs: 1_000, healthCheckIntervalMs: 100 }),
    );
    await pool.open();
    const holds = [deferred(), deferred(), deferred(), deferred()];
    const calls = holds.map((h) => pool.execute(() => h.promise));
    await flush();
    expect(pool.stats()).toMatchObject({ size: 4, inUse: 4 });
    // borrowed for a long time: nothing is closed
    await vi.advanceTimersByTimeAsync(5_000);
    expect(created.map((s) => s.closes)).toEqual([0, 0, 0, 0]);
    // three come back, one stays borrowed
    for (const h of holds.slice(0, 3)) h.resolve();
    await Promise.all(calls.slice(0, 3));
    expect(pool.stats()).toMatchObject({ size: 4, idle: 3, inUse: 1 });
    await vi.advanceTimersByTimeAsync(800);
    expect(pool.stats().size).toBe(4); // not idle long enough yet
    await vi.advanceTimersByTimeAsync(400);
    // idle for > 1000 ms: closed down to minSize (the borrowed one counts as open)
    expect(pool.stats()).toMatchObject({ size: 1, idle: 0, inUse: 1 });
    expect(created.filter((s) => s.closes === 1)).toHaveLength(3);
    holds[3].resolve();
    await calls[3];
    await vi.advanceTimersByTimeAsync(5_000);
    expect(pool.stats()).toMatchObject({ size: 1, idle: 1, inUse: 0, waiting: 0, opening: 0 }); // minSize kept
    expect(created.filter((s) => s.closes === 0)).toHaveLength(1);
  });

  it('drops an idle session whose connection broke (isConnected false), and the next call opens a new one', async () => {
    vi.useFakeTimers();
    const { pool, created } = track(makePool({ maxSize: 2, healthCheckIntervalMs: 100, maxIdleTimeMs: 60_000 }));
    await pool.execute(async () => undefined);
    expect(pool.stats().size).toBe(1);
    await vi.advanceTimersByTimeAsync(300);
    expect(created[0].closes).toBe(0); // healthy and idle for less than maxIdleTimeMs: kept
    created[0].isConnected = false;
    await vi.advanceTimersByTimeAsync(100);
    expect(created[0].closes).toBe(1);
    expect(pool.stats().size).toBe(0);
    expect(await pool.execute(async (s) => fake(s).id)).toBe(created[1].id);
    expect(created[1].isConnected).toBe(true);
  });

  it('drops a session its borrower closed when it comes back: the next call gets a new one, not a closed one', async () => {
    const { pool, created } = track(makePool({ maxSize: 1 }));
    await pool.execute((s) => s.close());
    expect(await pool.execute(async (s) => fake(s).id)).toBe(created[1].id);
    expect(created[1].isOpen).toBe(true);
    expect(pool.stats()).toMatchObject({ size: 1, sessionsCreated: 2, sessionsClosed: 1 });
  });

  it("refuses a call through a session kept past its execute(): the session is the pool's again, left as it was", async () => {
    const { pool, created } = track(makePool({ maxSize: 1 }));
    const kept = await pool.execute(async (s) => s);
    const refused = await rejectionOf(kept.close());
    expect(refused).toBeInstanceOf(IoTDBSessionClosedError);
    expect((refused as Error).message).toMatch(/went back to the pool when execute\(\)'s function settled.*close\(\)/);
    expect(() => kept.stats()).toThrow(IoTDBSessionClosedError); // a method that returns no promise throws
    expect(kept.isOpen).toBe(true); // reading a property is no call
    expect(created[0].closes).toBe(0);
    expect(await pool.execute(async (s) => fake(s).id)).toBe(created[0].id);
    expect(created).toHaveLength(1);
  });

  it('lends the session itself inside execute(): its methods run on it (private fields and all) until fn settles', async () => {
    class PrivateSession extends FakeSession {
      #calls = 0;
      async call(): Promise<number> {
        return ++this.#calls;
      }
    }
    const pool = new Pool(() => new PrivateSession() as unknown as BaseSession, { maxSize: 1 });
    track({ pool });
    const counts = await pool.execute(async (s) => {
      const p = s as unknown as PrivateSession;
      return [await p.call(), await p.call()];
    });
    expect(counts).toEqual([1, 2]);
    let kept!: PrivateSession;
    const pending = pool.execute(async (s) => {
      kept = s as unknown as PrivateSession;
      await flush();
      return kept.call(); // still inside fn: allowed
    });
    expect(await pending).toBe(3);
    await expect(kept.call()).rejects.toThrow(/call\(\)/);
  });

  it('does not drop a borrowed session whose connection broke until it comes back', async () => {
    vi.useFakeTimers();
    const { pool, created } = track(makePool({ maxSize: 1, healthCheckIntervalMs: 100 }));
    const hold = deferred();
    const call = pool.execute(async (s) => {
      fake(s).isConnected = false;
      await hold.promise;
    });
    await vi.advanceTimersByTimeAsync(500);
    expect(created[0].closes).toBe(0);
    hold.resolve();
    await call;
    await vi.advanceTimersByTimeAsync(100);
    expect(created[0].closes).toBe(1);
    expect(pool.stats().size).toBe(0);
  });
});

describe('Pool: a session that fails to open', () => {
  it('rejects the caller with the open() error and frees the slot', async () => {
    const { pool, created } = track(
      makePool({ maxSize: 1 }, async (n) => {
        if (n === 0) throw new Error('connection refused');
      }),
    );
    const fn = vi.fn(async () => 'ran');
    await expect(pool.execute(fn)).rejects.toThrow('connection refused');
    expect(fn).not.toHaveBeenCalled();
    expect(pool.stats()).toMatchObject({ size: 0, idle: 0, inUse: 0, waiting: 0, opening: 0 });
    expect(await pool.execute(fn)).toBe('ran');
    expect(created).toHaveLength(2);
    expect(pool.stats()).toMatchObject({ size: 1, idle: 1, inUse: 0, waiting: 0, opening: 0 });
  });

  it('hands the slot to a waiter queued behind the failing open, which opens a new session', async () => {
    const firstOpen = deferred();
    const { pool, created } = track(makePool({ maxSize: 1 }, (n) => (n === 0 ? firstOpen.promise : Promise.resolve())));
    const first = pool.execute(async () => 'first');
    const second = pool.execute(async (s) => fake(s).id);
    await flush();
    expect(pool.stats()).toMatchObject({ opening: 1, inUse: 1, waiting: 1 });
    firstOpen.reject(new Error('refused'));
    await expect(first).rejects.toThrow('refused');
    expect(await second).toBe(created[1].id);
    expect(pool.stats()).toMatchObject({ size: 1, idle: 1, inUse: 0, waiting: 0, opening: 0 });
  });
});

// ---------- runAll ----------

describe('runAll', () => {
  it('runs every item with at most `concurrency` at once and returns the results by index', async () => {
    let active = 0;
    let maxActive = 0;
    const results = await runAll('job', 20, 3, async (i) => {
      active++;
      maxActive = Math.max(maxActive, active);
      await new Promise((r) => setTimeout(r, (i * 7) % 5));
      active--;
      return i * 10;
    });
    expect(maxActive).toBe(3);
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i * 10));
  });

  it('runs the rest after failures and throws IoTDBBatchError with failures (index, error), succeeded and results', async () => {
    const boom = new Error('boom at 4');
    const ran: number[] = [];
    const e = await rejectionOf(
      runAll('insertSomething', 7, 2, async (i) => {
        ran.push(i);
        // later items finish first: failures are still reported by index
        await new Promise((r) => setTimeout(r, (7 - i) * 3));
        if (i === 4) throw boom;
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- what a callback may throw: reported as it is
        if (i === 1) throw 'not an Error';
        return `r${i}`;
      }),
    );
    expect(ran.sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(e).toBeInstanceOf(IoTDBBatchError);
    const b = e as IoTDBBatchError<string>;
    expect(b.failures.map((f) => f.index)).toEqual([1, 4]);
    expect(b.failures[0].error).toBeInstanceOf(Error);
    expect(b.failures[0].error.message).toBe('not an Error');
    expect(b.failures[1].error).toBe(boom);
    expect(b.succeeded).toEqual([0, 2, 3, 5, 6]);
    expect(b.results).toEqual(['r0', undefined, 'r2', 'r3', undefined, 'r5', 'r6']);
    expect(b.message).toBe('insertSomething: 2 of 7 failed (first: not an Error)');
    expect(b.cause).toBe(b.failures[0].error);
  });

  it('returns [] for no items and runs one at a time with concurrency 0', async () => {
    expect(await runAll('none', 0, 4, async () => 1)).toEqual([]);
    let active = 0;
    let maxActive = 0;
    await runAll('serial', 5, 0, async () => {
      maxActive = Math.max(maxActive, ++active);
      await new Promise((r) => setTimeout(r, 1));
      active--;
    });
    expect(maxActive).toBe(1);
  });
});

// ---------- slotOf ----------

describe('slotOf', () => {
  it('is FNV-1a of the key modulo the slot count', () => {
    expect(slotOf('', 2 ** 32)).toBe(0x811c9dc5);
    expect(slotOf('a', 2 ** 32)).toBe(0xe40c292c);
    expect(slotOf('foobar', 2 ** 32)).toBe(0xbf9cf968);
  });

  it('gives the same slot for the same key every time, always in [0, slots)', () => {
    for (const slots of [1, 2, 3, 4, 7, 8, 64]) {
      for (let d = 0; d < 500; d++) {
        const key = `root.sg.device_${d}`;
        const s = slotOf(key, slots);
        expect(Number.isInteger(s) && s >= 0 && s < slots, `${key} in ${slots}`).toBe(true);
        expect(slotOf(key, slots)).toBe(s);
      }
    }
    expect(slotOf('root.sg.d1', 1)).toBe(0);
  });

  it('spreads devices over every slot', () => {
    const counts = new Array(8).fill(0);
    for (let d = 0; d < 800; d++) counts[slotOf(`root.sg.d${d}`, 8)]++;
    for (const c of counts) expect(c).toBeGreaterThan(50);
  });
});
