import { IoTDBAbortError, IoTDBPoolTimeoutError, IoTDBSessionClosedError, withCallerStack } from '../errors.js';
import { resolveRetryOptions, type ResolvedRetryOptions, type RetryOptions } from '../retry/retry-policy.js';
import { withRetry } from '../retry/with-retry.js';
import { CALL_OPTION_KEYS, POOL_WAIT, type BaseSession } from '../session/base-session.js';
import { callOptionsRefused, checkCallOptions, signalOf, signalRefused } from '../config/issues.js';
import { insertChannel, queryChannel } from '../diagnostics/channels.js';
import { checkLogger, type Logger } from '../diagnostics/logger.js';
import { Recorder } from '../diagnostics/recorder.js';
import { addStats, type SessionStats } from '../diagnostics/stats.js';
import { resolvePoolOptions, type PoolOptions, type ResolvedPoolOptions } from './pool-options.js';
import { lend } from './lease.js';
import { OpenWriters, writersFailed } from '../writer/open-writers.js';

/**
 * A pool's state now, and the counters of every session it had (open and closed ones, and the
 * attempts to open one) added up: see SessionStats.
 */
export interface PoolStats extends SessionStats {
  /** sessions open (idle + in use) */
  size: number;
  idle: number;
  inUse: number;
  /** callers waiting for a session */
  waiting: number;
  /** sessions being opened */
  opening: number;
  /** sessions opened since the pool was made */
  sessionsCreated: number;
  /** sessions closed since the pool was made: idle too long, broken, context changed, the pool closed */
  sessionsClosed: number;
  /** sessions in use held by a data set (executeQueryStatement) not read to its end nor closed yet */
  openDataSets: number;
}

/** Why a pooled session was closed, as the logs say. */
type CloseReason = 'idle' | 'broken' | 'context-changed' | 'closed-by-borrower' | 'pool-closed';

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
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => void;
}

export interface ExecuteOptions {
  /** gives up waiting for a session, opening one, or in fn (which gets the signal through its own calls) */
  signal?: AbortSignal;
}

/** A closed pool is closed for good, as the Java client's and node-postgres' are: its sessions and timers are gone. */
const closedPool = () => new IoTDBSessionClosedError('pool', 'a closed pool does not open again: make a new one');
const closedWhileOpening = () => new IoTDBSessionClosedError('pool', 'it was closed while a session was being opened');

/**
 * A fixed number of session slots (maxSize). `execute(fn)` borrows a session and always gives it
 * back; a slot's session is opened on first use and closed when idle too long. Borrowing a specific
 * slot is how device binding keeps a device on one session. One borrower per session at a time:
 * concurrency comes from more sessions (connections), never from interleaving on one.
 */
/** A call's options as a pool reads them: for their signal (anything else, `null` too, the session refuses). */
type CallSignal = { signal?: AbortSignal } | null | undefined;

export class Pool<S extends BaseSession> {
  protected readonly poolOptions: ResolvedPoolOptions;
  readonly #retry: ResolvedRetryOptions;
  readonly #create: () => S;
  /** aborted by close(): ends the opening of sessions and their retry waits */
  readonly #lifetime = new AbortController();
  readonly #slots: Slot<S>[];
  readonly #waiters: Waiter[] = [];
  #opening = 0;
  #closed = false;
  /** close() began: new calls are refused, its writers' requests still lent sessions (their rows sent first) */
  #refusing = false;
  #closing: Promise<void> | null = null;
  #drained: (() => void) | null = null;
  readonly #timer: NodeJS.Timeout;
  /** the pool's own events (growth, shrinking, retried opens), and the counters of sessions no longer in a slot */
  readonly #recorder: Recorder;
  #sessionsCreated = 0;
  #sessionsClosed = 0;
  /** sessions lent to data sets until they are read to the end or closed (counted by the query pools) */
  protected openDataSets = 0;
  /** the writers made on this pool and not closed: close() closes them first */
  protected readonly writers = new OpenWriters();

  constructor(create: () => S, options: PoolOptions & { retry?: RetryOptions; logger?: Logger }) {
    this.poolOptions = resolvePoolOptions(options);
    this.#recorder = new Recorder(checkLogger(options.logger), 0);
    this.#retry = resolveRetryOptions(options.retry);
    this.#create = create;
    this.#slots = Array.from({ length: this.poolOptions.maxSize }, () => ({
      session: null,
      busy: false,
      idleSince: 0,
    }));
    this.#timer = setInterval(() => void this.#checkIdle(), this.poolOptions.healthCheckIntervalMs || 1_000_000_000);
    this.#timer.unref();
  }

  /** Opens minSize sessions now (otherwise sessions open on first use). */
  async open(opts: ExecuteOptions = {}): Promise<void> {
    checkCallOptions(opts, CALL_OPTION_KEYS);
    if (this.#refusing) throw closedPool();
    const slots = this.#slots.slice(0, this.poolOptions.minSize);
    await Promise.all(slots.map((_, i) => this.executeOn(i, () => Promise.resolve(), opts)));
  }

  /**
   * Borrows a session for `fn` and gives it back when fn settles. Make every call on the session inside fn:
   * one made after, through a reference kept, is refused (IoTDBSessionClosedError), as the session may be
   * another borrower's by then.
   */
  execute<T>(fn: (session: S) => Promise<T>, opts: ExecuteOptions = {}): Promise<T> {
    const refused = callOptionsRefused(opts, CALL_OPTION_KEYS);
    if (refused !== undefined) return Promise.reject(refused);
    return this.executeOn(undefined, (session) => lend(session, fn), opts);
  }

  /** execute() for the pool's own calls, whose options the session checks (a query's, a statement's). */
  protected onAnySession<T>(fn: (session: S) => Promise<T>, opts: { signal?: AbortSignal }): Promise<T> {
    return this.executeOn(undefined, fn, opts);
  }

  /**
   * How a writer made now borrows a session for its requests: one made before close() began is lent sessions while
   * close() sends its rows, when other calls are refused; one made after is refused as they are.
   */
  protected writerRun(): <T>(fn: (session: S) => Promise<T>) => Promise<T> {
    const whileClosing = !this.#refusing;
    return (fn) => this.executeOn(undefined, fn, undefined, whileClosing);
  }

  /** execute() on slot `slot` (device binding), or on any slot when undefined; `opts`: the call's (their signal). */
  protected executeOn<T>(
    slot: number | undefined,
    fn: (session: S) => Promise<T>,
    opts?: CallSignal,
    whileClosing = false,
  ): Promise<T> {
    return this.borrow(
      slot,
      opts,
      async (session, giveBack) => {
        try {
          return await fn(session);
        } finally {
          giveBack();
        }
      },
      whileClosing,
    );
  }

  /**
   * Lends a session (of slot `slot`, or any) to `fn` until fn calls `giveBack` (again is nothing), which may be
   * after fn resolved: a pooled query's data set gives its session back as it is done with. `opts`: the call's, read
   * for their signal only (the session checks them, and refuses options that are not an object, naming them).
   */
  protected async borrow<T>(
    slot: number | undefined,
    opts: CallSignal,
    fn: (session: S, giveBack: () => void) => Promise<T>,
    whileClosing = false,
  ): Promise<T> {
    const signal = signalOf(opts);
    const refused = signalRefused(signal); // before AbortSignal.any sees it (its TypeError)
    if (refused !== undefined) throw refused;
    if (this.#refusing && !whileClosing) throw closedPool();
    if (signal?.aborted) throw new IoTDBAbortError('pool: borrow a session', signal.reason);
    const traced = insertChannel.hasSubscribers || queryChannel.hasSubscribers;
    const waitStart = traced ? performance.now() : 0;
    const i = await this.#acquire(slot ?? null, signal).catch((e: unknown) => {
      throw withCallerStack(e, new Error());
    });
    let lent = true;
    const giveBack = (): void => {
      if (!lent) return;
      lent = false;
      this.#release(i);
    };
    const s = this.#slots[i];
    try {
      // closed while idle, through a reference its borrower kept: it is not lent again
      if (s.session !== null && !s.session.isOpen) this.#drop(s, 'closed-by-borrower');
      if (s.session === null) s.session = await this.#openSession(signal);
      if (traced) s.session[POOL_WAIT] = performance.now() - waitStart;
      return await fn(s.session, giveBack);
    } catch (error) {
      giveBack();
      throw error;
    }
  }

  /** The pool's state and counters now (a new object each time). */
  stats(): PoolStats {
    let size = 0;
    let inUse = 0;
    const counters = { ...this.#recorder.stats };
    for (const s of this.#slots) {
      if (s.session !== null) {
        size++;
        addStats(counters, s.session.stats());
      }
      if (s.busy) inUse++;
    }
    return {
      ...counters,
      size,
      idle: this.#slots.filter((s) => s.session !== null && !s.busy).length,
      inUse,
      waiting: this.#waiters.length,
      opening: this.#opening,
      sessionsCreated: this.#sessionsCreated,
      sessionsClosed: this.#sessionsClosed,
      openDataSets: this.openDataSets,
    };
  }

  get maxSize(): number {
    return this.poolOptions.maxSize;
  }

  /**
   * Refuses new work, closes the writers made on it that are still open (their rows sent first), waits for
   * borrowed sessions to come back and closes every session. Rejects, once closed, with the failures of those
   * writers that no onError took.
   */
  close(): Promise<void> {
    this.#refusing = true;
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    // its writers' rows sent first, through sessions the pool still lends (as their own close() would)
    const failures = await this.writers.closeAll();
    this.#closed = true;
    clearInterval(this.#timer);
    this.#lifetime.abort(closedWhileOpening());
    for (const w of this.#waiters.splice(0)) this.#dropWaiter(w, closedPool());
    if (this.#slots.some((s) => s.busy)) {
      const drained = new Promise<void>((resolve) => (this.#drained = resolve));
      // a borrowed session may be held by an open data set: closing those gives their slots back
      await Promise.all(this.#slots.flatMap((s) => (s.busy && s.session !== null ? [s.session.closeDataSets()] : [])));
      await drained;
    }
    await Promise.all(
      this.#slots.flatMap((s) => (s.session === null ? [] : [s.session.close().catch(() => undefined)])),
    );
    for (const s of this.#slots) {
      if (s.session !== null) this.#retire(s.session, 'pool-closed');
      s.session = null;
    }
    if (failures.length > 0) throw writersFailed(failures, 'pool');
  }

  /** A session leaves its slot: its counters stay in the pool's, and the logs hear why. */
  #retire(session: S, reason: CloseReason): void {
    addStats(this.#recorder.stats, session.stats());
    this.#sessionsClosed++;
    const size = this.#slots.filter((s) => s.session !== null && s.session !== session).length;
    this.#recorder.logger?.info({ event: 'pool-shrink', reason, size }, `iotdb pool: session closed (${reason})`);
  }

  /** Empties a slot whose session is closed or being closed: the next borrower of the slot opens a new one. */
  #drop(s: Slot<S>, reason: CloseReason): void {
    this.#retire(s.session!, reason);
    s.session = null;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #acquire(slot: number | null, signal: AbortSignal | undefined): Promise<number> {
    if (this.#closed) return Promise.reject(closedPool());
    const free = slot !== null ? (this.#slots[slot].busy ? -1 : slot) : this.#freeSlot();
    if (free >= 0) {
      this.#slots[free].busy = true;
      return Promise.resolve(free);
    }
    return new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => this.#dropWaiter(waiter, new IoTDBPoolTimeoutError(this.poolOptions.waitTimeoutMs, this.stats())),
        this.poolOptions.waitTimeoutMs,
      );
      const onAbort = () => this.#dropWaiter(waiter, new IoTDBAbortError('pool: wait for a session', signal!.reason));
      const waiter: Waiter = { slot, resolve, reject, timer, signal, onAbort };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  /** Takes a waiter out of the queue (timeout, abort, close) and rejects it. */
  #dropWaiter(w: Waiter, error: Error): void {
    const at = this.#waiters.indexOf(w);
    if (at >= 0) this.#waiters.splice(at, 1);
    clearTimeout(w.timer);
    w.signal?.removeEventListener('abort', w.onAbort);
    w.reject(error);
  }

  /** An idle open session first, then an empty slot. */
  #freeSlot(): number {
    const idle = this.#slots.findIndex((s) => !s.busy && s.session !== null);
    return idle >= 0 ? idle : this.#slots.findIndex((s) => !s.busy);
  }

  #release(i: number): void {
    const s = this.#slots[i];
    if (s.session !== null && !s.session.isOpen) this.#drop(s, 'closed-by-borrower');
    else if (s.session?.contextChanged) {
      // a borrower ran USE or SET SQL_DIALECT: the next one gets a fresh session in the pool's context
      void s.session.close().catch(() => undefined);
      this.#drop(s, 'context-changed');
    }
    const at = this.#waiters.findIndex((w) => w.slot === i || w.slot === null);
    if (at >= 0 && !this.#closed) {
      const [w] = this.#waiters.splice(at, 1);
      clearTimeout(w.timer);
      w.signal?.removeEventListener('abort', w.onAbort);
      w.resolve(i); // stays busy: handed straight to the next borrower
      return;
    }
    s.busy = false;
    s.idleSince = Date.now();
    if (this.#drained && !this.#slots.some((x) => x.busy)) this.#drained();
  }

  /**
   * Opens a session for a slot. While the cluster restarts this is retried within the retry budget
   * (the caller's write would be retried as long), unlike Session.open(), which tries each node once.
   */
  async #openSession(signal: AbortSignal | undefined): Promise<S> {
    this.#opening++;
    const joined = signal === undefined ? this.#lifetime.signal : AbortSignal.any([signal, this.#lifetime.signal]);
    const report = { recorder: this.#recorder, operation: 'pool: open a session' };
    try {
      const opened = await withRetry(
        'connect',
        this.#retry,
        joined,
        async () => {
          const session = this.#create();
          try {
            await session.open({ signal: joined });
            return session;
          } catch (error) {
            await session.close().catch(() => undefined);
            addStats(this.#recorder.stats, session.stats()); // its failed connects count
            throw error;
          }
        },
        report,
      );
      this.#grew();
      return opened;
    } catch (e) {
      // the caller's signal: the session's open() names itself ("open: aborted"), the caller asked the pool for a session
      if (signal?.aborted && (e === signal.reason || e instanceof IoTDBAbortError)) {
        throw new IoTDBAbortError(report.operation, signal.reason);
      }
      // the pool closed meanwhile: the session's open() saw an abort, its caller asked for none (as Session.close())
      if (this.#lifetime.signal.aborted && e instanceof IoTDBAbortError) throw closedWhileOpening();
      throw e;
    } finally {
      this.#opening--;
    }
  }

  #grew(): void {
    this.#sessionsCreated++;
    // the slot is filled after this returns: count it now
    const size = this.#slots.filter((s) => s.session !== null).length + 1;
    this.#recorder.logger?.info({ event: 'pool-grow', size, maxSize: this.maxSize }, 'iotdb pool: session opened');
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
      this.#retire(session, broken ? 'broken' : 'idle');
    }
  }
}
