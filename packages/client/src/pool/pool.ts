import { IoTDBPoolTimeoutError, IoTDBSessionClosedError } from '../errors.js';
import type { BaseSession } from '../session/base-session.js';
import { resolvePoolOptions, type PoolOptions, type ResolvedPoolOptions } from './pool-options.js';

export interface PoolStats {
  /** sessions open (idle + in use) */
  size: number;
  idle: number;
  inUse: number;
  /** callers waiting for a session */
  waiting: number;
  /** sessions being opened */
  opening: number;
}

interface Slot<S> {
  session: S | null;
  busy: boolean;
  idleSince: number;
}

interface Waiter {
  /** a specific slot (device binding), or null for any */
  readonly slot: number | null;
  readonly resolve: (slot: number) => void;
  readonly reject: (e: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * A fixed number of session slots (maxSize). `execute(fn)` borrows a session and always gives it
 * back; a slot's session is opened on first use and closed when idle too long. Borrowing a specific
 * slot is how device binding keeps a device on one session. One borrower per session at a time:
 * concurrency comes from more sessions (connections), never from interleaving on one.
 */
export class Pool<S extends BaseSession> {
  protected readonly poolOptions: ResolvedPoolOptions;
  readonly #create: () => S;
  readonly #slots: Slot<S>[];
  readonly #waiters: Waiter[] = [];
  #opening = 0;
  #closed = false;
  #closing: Promise<void> | null = null;
  #drained: (() => void) | null = null;
  readonly #timer: NodeJS.Timeout;

  constructor(create: () => S, options: PoolOptions) {
    this.poolOptions = resolvePoolOptions(options);
    this.#create = create;
    this.#slots = Array.from({ length: this.poolOptions.maxSize }, () => ({ session: null, busy: false, idleSince: 0 }));
    this.#timer = setInterval(() => void this.#checkIdle(), this.poolOptions.healthCheckIntervalMs || 1_000_000_000);
    this.#timer.unref();
  }

  /** Opens minSize sessions now (otherwise sessions open on first use). */
  async open(): Promise<void> {
    const slots = this.#slots.slice(0, this.poolOptions.minSize);
    await Promise.all(slots.map((_, i) => this.execute(async () => undefined, i)));
  }

  /** Borrows a session for `fn` and gives it back when fn settles. `slot` pins a slot (device binding). */
  async execute<T>(fn: (session: S) => Promise<T>, slot?: number): Promise<T> {
    const i = await this.#acquire(slot ?? null);
    const s = this.#slots[i];
    try {
      if (s.session === null) s.session = await this.#openSession();
      return await fn(s.session);
    } finally {
      this.#release(i);
    }
  }

  stats(): PoolStats {
    let size = 0;
    let inUse = 0;
    for (const s of this.#slots) {
      if (s.session !== null) size++;
      if (s.busy) inUse++;
    }
    return { size, idle: this.#slots.filter((s) => s.session !== null && !s.busy).length, inUse, waiting: this.#waiters.length, opening: this.#opening };
  }

  get maxSize(): number {
    return this.poolOptions.maxSize;
  }

  /** Refuses new work, waits for borrowed sessions to come back, then closes every session. */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    for (const w of this.#waiters.splice(0)) {
      clearTimeout(w.timer);
      w.reject(new IoTDBSessionClosedError('pool'));
    }
    if (this.#slots.some((s) => s.busy)) await new Promise<void>((resolve) => (this.#drained = resolve));
    await Promise.all(this.#slots.map((s) => s.session?.close().catch(() => undefined)));
    for (const s of this.#slots) s.session = null;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #acquire(slot: number | null): Promise<number> {
    if (this.#closed) return Promise.reject(new IoTDBSessionClosedError('pool'));
    const free = slot !== null ? (this.#slots[slot].busy ? -1 : slot) : this.#freeSlot();
    if (free >= 0) {
      this.#slots[free].busy = true;
      return Promise.resolve(free);
    }
    return new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        const at = this.#waiters.indexOf(waiter);
        if (at >= 0) this.#waiters.splice(at, 1);
        reject(new IoTDBPoolTimeoutError(this.poolOptions.waitTimeoutMs, this.stats()));
      }, this.poolOptions.waitTimeoutMs);
      const waiter: Waiter = { slot, resolve, reject, timer };
      this.#waiters.push(waiter);
    });
  }

  /** An idle open session first, then an empty slot. */
  #freeSlot(): number {
    const idle = this.#slots.findIndex((s) => !s.busy && s.session !== null);
    return idle >= 0 ? idle : this.#slots.findIndex((s) => !s.busy);
  }

  #release(i: number): void {
    const s = this.#slots[i];
    const at = this.#waiters.findIndex((w) => w.slot === i || w.slot === null);
    if (at >= 0 && !this.#closed) {
      const [w] = this.#waiters.splice(at, 1);
      clearTimeout(w.timer);
      w.resolve(i); // stays busy: handed straight to the next borrower
      return;
    }
    s.busy = false;
    s.idleSince = Date.now();
    if (this.#drained && !this.#slots.some((x) => x.busy)) this.#drained();
  }

  async #openSession(): Promise<S> {
    this.#opening++;
    try {
      const session = this.#create();
      await session.open();
      return session;
    } finally {
      this.#opening--;
    }
  }

  /** Health check: drops idle sessions whose connection broke, closes those idle too long beyond minSize. */
  async #checkIdle(): Promise<void> {
    const now = Date.now();
    let open = this.#slots.filter((s) => s.session !== null).length;
    for (const s of this.#slots) {
      if (s.busy || s.session === null) continue;
      const broken = !s.session.isConnected;
      const stale = now - s.idleSince > this.poolOptions.maxIdleTimeMs && open > this.poolOptions.minSize;
      if (!broken && !stale) continue;
      const session = s.session;
      s.session = null;
      open--;
      await session.close().catch(() => undefined);
    }
  }
}
