import { frameReleaseOf } from '../connection/frame-pool.js';
import { IoTDBAbortError, IoTDBQueryTimeoutError, sqlContext, withCallerStack } from '../errors.js';
import { verifySuccess } from '../protocol/status.js';
import type { DataSetReadStats, QueryContext } from './session-data-set.js';

/** One fetchResults reply: its TsBlocks and whether the server has rows after them. */
export interface Fetched {
  readonly raw: Buffer[];
  readonly moreData: boolean;
  /** gives the reply's frame back to its pool, if pooled: once every block of `raw` is decoded */
  readonly release?: () => void;
}

/**
 * A query's timeout as the server is sent it: IoTDB reads 0 or less as its own query_timeout_threshold (60 s by
 * default) and drops the query there, so no limit (0) goes as the largest exact number.
 */
export function serverQueryTimeout(queryTimeoutMs: number): number {
  return queryTimeoutMs === 0 ? Number.MAX_SAFE_INTEGER : queryTimeoutMs;
}

/** What a read of `sql`'s rows is called in its errors: the statement's, or the path query's (which has none: ''). */
export function readingOf(sql: string): string {
  return sql === '' ? 'reading a result' : `reading ${sqlContext(sql)}`;
}

/** untilAborted's answer when the signal fired first */
export const GAVE_UP = Symbol('gave up');

/** What `promise` settles with, or GAVE_UP once `signal` aborts first (the promise itself goes on). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T | typeof GAVE_UP> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.resolve(GAVE_UP);
  return new Promise<T | typeof GAVE_UP>((resolve, reject) => {
    const onAbort = () => resolve(GAVE_UP);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The IoTDBAbortError of a read of `sql` given up because `reason`, with the reader's stack. */
export function readAborted(sql: string, reason: unknown): IoTDBAbortError {
  return withCallerStack(new IoTDBAbortError(readingOf(sql), reason), new Error());
}

/**
 * The replies of a query after its first: fetchResults calls, made when the reader needs the next one or, up to
 * the context's `readAhead`, while it reads the current one. One fetch is in flight at a time; replies come out in
 * the order they were fetched. A fetch that failed is met by the reader (nothing more is fetched ahead until then).
 */
export class ResultFetcher {
  readonly #ctx: QueryContext;
  readonly #queryId: bigint;
  readonly #stats: DataSetReadStats;
  /** the server has rows after the last reply received (a fetch in flight does not count until it lands) */
  #moreData: boolean;
  /** replies fetched ahead of the reader, oldest first: landed or in flight */
  #ahead: Promise<Fetched>[] = [];
  #fetching = false;
  /** a fetch ahead failed: nothing more is fetched ahead until the reader has met its error */
  #aheadFailed = false;
  /** stop() was called: nothing more is fetched, and a reply that lands after it changes nothing */
  #stopped = false;

  constructor(ctx: QueryContext, queryId: bigint, moreData: boolean, stats: DataSetReadStats) {
    this.#ctx = ctx;
    this.#queryId = queryId;
    this.#moreData = moreData;
    this.#stats = stats;
  }

  /** The server had rows after the last reply received. */
  get moreData(): boolean {
    return this.#moreData;
  }

  /** A reply is still to come: fetched ahead, or on the server (until stopped). */
  get pending(): boolean {
    return this.#ahead.length > 0 || this.#moreData;
  }

  /** Nothing more is fetched; replies fetched ahead are dropped (one in flight still lands, unread). */
  stop(): void {
    this.#stopped = true;
    this.#moreData = false;
    this.#ahead = [];
  }

  /**
   * The next reply, fetched ahead or now. A fetch made now takes the reader's `signal` (aborting it breaks the
   * connection, as any call aborted after its bytes left); for a fetch made ahead, the signal gives up the wait
   * only: its reply is kept for the next read.
   */
  async next(given: AbortSignal | undefined): Promise<Fetched> {
    if (this.#ahead.length === 0) this.#start(given ?? this.#ctx.signal);
    const started = performance.now();
    const outcome = await untilAborted(this.#ahead[0], given).catch((e: unknown) => {
      void this.#ahead.shift(); // settled: the reader has met its error; the next read fetches again
      this.#aheadFailed = false;
      const aborted = [given, this.#ctx.signal].some((s) => s?.aborted && e === s.reason);
      throw withCallerStack(aborted ? new IoTDBAbortError(readingOf(this.#ctx.sql), e) : e, new Error());
    });
    if (outcome === GAVE_UP) throw readAborted(this.#ctx.sql, given?.reason);
    void this.#ahead.shift(); // settled: its reply is the caller's
    this.#stats.fetchWaitMs += performance.now() - started;
    return outcome;
  }

  /** Up to `readAhead` replies waiting: the next fetch goes out while the reader reads this one. */
  fetchAhead(): void {
    const depth = this.#ctx.readAhead ?? 0;
    // stopped: moreData is false for good (stop() sets it, and a reply landing after it changes nothing)
    if (this.#ahead.length >= depth || this.#fetching || !this.#moreData || this.#aheadFailed) return;
    this.#start(this.#ctx.signal);
  }

  #start(signal: AbortSignal | undefined): void {
    const next = this.#fetch(signal);
    next.catch(() => undefined); // the reader meets the error when it gets there (or never, if it stops first)
    this.#ahead.push(next);
  }

  /** One fetchResults; while it is in flight no other fetch starts. */
  async #fetch(signal: AbortSignal | undefined): Promise<Fetched> {
    this.#fetching = true;
    try {
      const fetched = await this.#request(signal);
      if (!this.#stopped) this.#moreData = fetched.moreData;
      return fetched;
    } catch (e) {
      this.#aheadFailed = true;
      throw e;
    } finally {
      this.#fetching = false;
      if (!this.#stopped) queueMicrotask(() => this.fetchAhead());
    }
  }

  async #request(signal: AbortSignal | undefined): Promise<Fetched> {
    this.#stats.fetches++;
    const req = {
      sessionId: this.#ctx.sessionId,
      statement: this.#ctx.sql,
      fetchSize: this.#ctx.fetchSize,
      queryId: this.#queryId,
      isAlign: true,
      timeout: serverQueryTimeout(this.#ctx.queryTimeoutMs),
    };
    const operation = `fetchResults ${sqlContext(this.#ctx.sql)}`;
    const resp = await this.#ctx.connection.call('fetchResultsV2', req, {
      timeoutMs: this.#ctx.timeoutMs,
      timeoutOption: this.#ctx.timeoutOption,
      operation,
      signal,
    });
    verifySuccess(resp.status, operation);
    if (!resp.hasResultSet) {
      this.#checkNotDropped(operation);
      return { raw: [], moreData: false };
    }
    return { raw: resp.queryResult ?? [], moreData: resp.moreData === true, release: frameReleaseOf(resp) };
  }

  /**
   * A fetch answered with no result set: the rows' end, or a query the server no longer has, which IoTDB answers
   * alike. It drops a query still running at its timeout (or ends it with an error, 301), so an end past the timeout
   * cannot be told from a cut and fails the read; an end within it is the end it says.
   */
  #checkNotDropped(operation: string): void {
    const { sentAt, queryTimeoutMs: limitMs } = this.#ctx;
    if (limitMs <= 0 || sentAt === undefined) return;
    const elapsedMs = performance.now() - sentAt;
    if (elapsedMs >= limitMs) throw new IoTDBQueryTimeoutError(operation, limitMs, elapsedMs);
  }
}
