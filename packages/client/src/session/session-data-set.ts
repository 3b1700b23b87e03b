import {
  KnownKeys,
  IoTDBProtocolError,
  IoTDBValidationError,
  dataTypeFromName,
  decodeTsBlock,
  TSDataType,
  type DecodedTsBlock,
  type DecodeOptions,
  type TSExecuteStatementResp,
  type TSDataTypeName,
} from '@iotdb/fast-serializer';
import type { RpcConnection } from '../connection/rpc-connection.js';
import { frameReleaseOf } from '../connection/frame-pool.js';
import { IoTDBSessionClosedError } from '../errors.js';
import { verifySuccess } from '../protocol/status.js';
import { callOptionsRefused } from '../config/issues.js';
import {
  joinBlocks,
  joinColumn,
  joinTimes,
  joinNow,
  type BlockPiece,
  type ColumnPiece,
  type ColumnarResult,
} from './columnar.js';
import type { Int64Mode, TimestampMode } from './options.js';
import type { TimestampPrecision } from './node-session.js';
import { RowRecord, objectKeys, rowBlock, type RowBlock, type RowShape } from './row-record.js';
import { GAVE_UP, ResultFetcher, readAborted, untilAborted } from './result-fetcher.js';

/** toColumnar() holds every value it reads: repeated short text is decoded to one string per value (see DecodeOptions). */
const SHARED_STRINGS: DecodeOptions = { shareStrings: true };

/** Most TsBlock columns a mapping may name (each block is checked to have the columns named). */
const MAX_BLOCK_COLUMNS = 1 << 16;

/** Output column k reads TsBlock column mapping[k]: one entry per column, each a sane column index. */
function checkedMapping(mapping: readonly number[] | undefined, columns: number): number[] {
  if (mapping === undefined) return Array.from({ length: columns }, (_, i) => i);
  if (mapping.length !== columns || mapping.some((b) => !Number.isInteger(b) || b < 0 || b >= MAX_BLOCK_COLUMNS)) {
    throw new IoTDBProtocolError(
      `query result maps its ${columns} columns to TsBlock columns [${mapping.slice(0, 20).join(', ')}]`,
    );
  }
  return [...mapping];
}

/** Options of the reading calls: `signal` gives up on a fetch from the server (the query's own signal otherwise). */
export interface FetchOptions {
  signal?: AbortSignal;
}

/** How long releasing a query or a session waits for its reply (at most 2 s: a hung server must not hang close()), and why. */
export function releaseWait(timeoutMs: number): { timeoutMs: number; timeoutWhy: string } {
  return {
    timeoutMs: timeoutMs > 0 ? Math.min(timeoutMs, RELEASE_WAIT_MAX_MS) : RELEASE_WAIT_MAX_MS,
    timeoutWhy: `a release waits as long as a reply, ${RELEASE_WAIT_MAX_MS} ms at most`,
  };
}
const RELEASE_WAIT_MAX_MS = 2000;

/** How a session closes its data sets (not part of the public API). */
export const closeByOwner = Symbol('closeByOwner');

/**
 * `ds[whenSessionFree](free)` calls `free` once the data set's session may take its next call (at once if it may
 * now): closed, or its release handed to the connection, which sends that call once the release is answered. A pool
 * lends the session out again then, before the close() or the read that freed it resolves (not part of the public
 * API; one callback a data set).
 */
export const whenSessionFree = Symbol('whenSessionFree');

/** The options of a read given none (hasNext() and next() are called a row at a time). */
const NO_OPTIONS: FetchOptions = Object.freeze({});
const FETCH_OPTION_KEYS: KnownKeys = KnownKeys.of<FetchOptions>('options')('signal');

/** hasNext()'s answer while the current block has rows (and the first next() call's turn): settled once, shared. */
const ROW_LEFT: Promise<boolean> = Promise.resolve(true);

/** What a data set needs from the session that ran the query. */
export interface QueryContext {
  readonly connection: RpcConnection;
  readonly sessionId: bigint;
  readonly statementId: bigint;
  readonly sql: string;
  readonly fetchSize: number;
  /** reply wait of each fetch, ms (0: none) */
  readonly timeoutMs: number;
  /** the option the reply wait came from, named when it runs out: the call's `timeoutMs` or `requestTimeoutMs` */
  readonly timeoutOption: 'timeoutMs' | 'requestTimeoutMs';
  /** how long the server keeps the query, ms (0: no limit) */
  readonly queryTimeoutMs: number;
  /** performance.now() when the query went out: the server drops it once queryTimeoutMs after about then */
  readonly sentAt?: number;
  readonly int64As: Int64Mode;
  /** how row timestamps come back */
  readonly timestampAs: TimestampMode;
  /** the server's time unit, for RowRecord.getTimestamp */
  readonly precision: TimestampPrecision;
  /** the session's zone when the query went out, for RowRecord.getString of a TIMESTAMP (as Java's data set keeps it) */
  readonly timeZone: string;
  /** the query's AbortSignal: it also ends the fetches of further rows */
  readonly signal?: AbortSignal;
  /** called once the data set is closed */
  readonly onClose?: (ds: SessionDataSet) => void;
  /**
   * told once the query is done with: `finished` when the server had sent its last rows, its id then left for its
   * statement's release (StatementIds) instead of a closeOperation of its own
   */
  readonly settled: (finished: boolean) => void;
  /** batches fetched ahead of the reader (the session's `readAhead`); absent or 0: fetch when needed */
  readonly readAhead?: number;
}

/** What reading a data set has cost so far (`SessionDataSet.readStats()`). */
export interface DataSetReadStats {
  /** TsBlocks decoded */
  blocks: number;
  /** fetchResults calls made (ahead or on demand) */
  fetches: number;
  /** time spent decoding TsBlocks, ms */
  decodeMs: number;
  /** time the reader waited for a fetch to land (not the time fetches took while it read), ms */
  fetchWaitMs: number;
}

/**
 * The rows of one TsBlock (`SessionDataSet.rowBatches()`): each row is made as the batch is iterated, so that
 * rows already read can be let go while the rest are read (an array of them all cost more than it saved).
 */
export interface RowBatch extends Iterable<RowRecord> {
  /** how many rows the batch gives */
  readonly length: number;
}

/** Why a data set's rows end before its result's end: closed early by its reader or its session, or a broken block. */
type CutShort = 'reader' | 'session' | { readonly error: unknown };

/** The end of an iteration (the row iterator's and a RowBatch's). */
const ITERATED: IteratorReturnResult<undefined> = { value: undefined, done: true };

/**
 * The result of a query: rows through `for await` (or hasNext()/next()), or everything as columns
 * through `toColumnar()`. Further rows are fetched from the server as they are needed
 * (fetchResultsV2, `fetchSize` rows at a time). The server drops a query as it sends its last rows; closing the data
 * set before then (close(), a loop left early) releases it there (closeOperation). A query read to its end keeps
 * only its id in the server session, released with its statement's every so many queries (StatementIds).
 */
export class SessionDataSet implements AsyncIterable<RowRecord> {
  /** column names as Java reports them: `Time` first when the result has a time column */
  readonly columnNames: readonly string[];
  /** type names, parallel to columnNames (`Time` is INT64) */
  readonly columnTypes: readonly TSDataTypeName[];
  readonly #ctx: QueryContext;
  readonly #queryId: bigint;
  readonly #replies: ResultFetcher;
  readonly #hasTime: boolean;
  readonly #valueNames: string[];
  readonly #valueTypes: TSDataType[];
  /** output value column k reads TsBlock column #blockIndex[k] */
  readonly #blockIndex: number[];
  readonly #blockTypes: (TSDataType | undefined)[];
  readonly #shape: RowShape;
  #raw: Buffer[] = [];
  #rawAt = 0;
  /** gives the frame of #raw back to its pool once its last block is decoded (frameReleaseOf) */
  #releaseRaw: (() => void) | undefined;
  /** a reader's wait for the next reply: another reader waits for it too, then looks again (a reply taken once) */
  #receiving: Promise<void> | null = null;
  /** next() calls waiting for a row, and the last of them: a later call waits its turn */
  #nextsWaiting = 0;
  #lastNext: Promise<unknown> = ROW_LEFT;
  /** the read options last found good (#refusedOptions) */
  #goodOptions: FetchOptions = NO_OPTIONS;
  #block: DecodedTsBlock | null = null;
  /** what the block's rows read: its columns in `values` order (made when its first row is read) */
  #rowBlock: RowBlock | null = null;
  #row = 0;
  /** what blocks are decoded with: strings shared while toColumnar() holds the whole result */
  #decodeOptions: DecodeOptions = {};
  #closed = false;
  /** the session was told the query is done with (#settleQuery) */
  #querySettled = false;
  /** the release on the server, once asked for (close()) */
  #closing: Promise<void> | undefined;
  readonly #stats: DataSetReadStats = { blocks: 0, fetches: 0, decodeMs: 0, fetchWaitMs: 0 };
  /**
   * Why its rows end before the result's end, reads past those received then failing: closed while rows were left on
   * the server by its reader (close(), a loop left early) or its session, or a block that did not decode (its error)
   */
  #cutShort: CutShort | null = null;
  /** the session may take its next call (#markFree) */
  #free = false;
  #onFree: (() => void) | undefined;
  #markClosed!: () => void;
  // a function kept on the data set that closes over a field initializer's `this` (a #markClosed that called
  // #markFree) made its rows 1.7x slower to read (Node 20; measured, cause not known): #settleClosed does that
  /** Settles once the data set is closed (its rows read to the end, or close() called). */
  readonly closed: Promise<void> = new Promise((resolve) => (this.#markClosed = resolve));
  /** the query's signal: once it fires, no further row is given (read by every row: a field of its own) */
  readonly #signal: AbortSignal | undefined;

  /** @internal data sets are made by the query calls (`executeQueryStatement`, ...). */
  constructor(ctx: QueryContext, resp: TSExecuteStatementResp) {
    this.#ctx = ctx;
    this.#signal = ctx.signal;
    this.#queryId = resp.queryId ?? -1n;
    this.#hasTime = resp.ignoreTimeStamp !== true;
    this.#valueNames = resp.columns ?? [];
    const typeNames = resp.dataTypeList ?? [];
    if (typeNames.length !== this.#valueNames.length) {
      throw new IoTDBProtocolError(`query result has ${this.#valueNames.length} columns but ${typeNames.length} types`);
    }
    this.#valueTypes = typeNames.map((name) => {
      const t = dataTypeFromName(name);
      if (t === undefined) throw new IoTDBProtocolError(`unknown column type ${name}`);
      return t;
    });
    // IoTDB 2.x always sends the mapping; older servers imply the identity
    this.#blockIndex = checkedMapping(resp.columnIndex2TsBlockColumnIndexList, this.#valueNames.length);
    this.#blockTypes = [];
    this.#blockIndex.forEach((b, k) => (this.#blockTypes[b] ??= this.#valueTypes[k]));
    const index = new Map<string, number>();
    this.#valueNames.forEach((n, k) => {
      if (!index.has(n)) index.set(n, k); // duplicates: the first one wins, as in Java
    });
    this.#shape = {
      index,
      objectKeys: objectKeys(this.#valueNames, this.#hasTime),
      types: this.#valueTypes,
      precision: ctx.precision,
      int64As: ctx.int64As,
      timestampAs: ctx.timestampAs,
      timeZone: ctx.timeZone,
    };
    this.columnNames = this.#hasTime ? ['Time', ...this.#valueNames] : [...this.#valueNames];
    const known = typeNames as TSDataTypeName[]; // each checked by dataTypeFromName above
    this.columnTypes = this.#hasTime ? ['INT64', ...known] : known;
    this.#raw = resp.queryResult ?? [];
    this.#releaseRaw = frameReleaseOf(resp);
    this.#replies = new ResultFetcher(ctx, this.#queryId, resp.moreData === true, this.#stats);
    if (resp.queryId === undefined) {
      this.#closed = true; // nothing to release on the server
      this.#replies.stop();
      this.#settleQuery(false);
      this.#settleClosed();
    }
  }

  get isClosed(): boolean {
    return this.#closed;
  }

  /** What reading this data set has cost so far: blocks decoded, fetches, decode time, time waited for fetches. */
  readStats(): DataSetReadStats {
    return { ...this.#stats };
  }

  /**
   * Whether a row is left; fetches more from the server when needed (`signal` gives up on that fetch, or on
   * waiting for the one already fetching ahead). Once `signal` or the query's has fired it throws IoTDBAbortError,
   * rows received or not, and releases the query.
   */
  hasNext(opts: FetchOptions = NO_OPTIONS): Promise<boolean> {
    const refused = this.#refusedOptions(opts);
    if (refused !== undefined) return Promise.reject(refused);
    if (this.#rowReady(opts)) {
      this.#replies.fetchAhead();
      return ROW_LEFT;
    }
    return this.#hasNextWaiting(opts);
  }

  /**
   * Why a read's options are refused (a name FetchOptions does not have), or undefined. A reader passes the same
   * object a row at a time: the last one found good is not checked again.
   */
  #refusedOptions(opts: FetchOptions): IoTDBValidationError | undefined {
    if (opts === this.#goodOptions) return undefined;
    const refused = callOptionsRefused(opts, FETCH_OPTION_KEYS);
    if (refused === undefined) this.#goodOptions = opts;
    return refused;
  }

  /**
   * A row of the current block, and no signal fired: hasNext() and next() answer it without an async function's
   * own promise and await (they took 3x the time of `for await` a row).
   */
  #rowReady(opts: FetchOptions): boolean {
    return this.#rowsLeft() && this.#fired(opts) === undefined;
  }

  /** The read's signal or the query's, whichever has fired (the read's first). */
  #fired(opts: FetchOptions): AbortSignal | undefined {
    if (opts.signal?.aborted === true) return opts.signal;
    return this.#signal?.aborted === true ? this.#signal : undefined;
  }

  async #hasNextWaiting(opts: FetchOptions): Promise<boolean> {
    const fired = this.#fired(opts);
    if (fired !== undefined) await this.#stopAborted(fired.reason);
    for (;;) {
      if (this.#rowsLeft()) {
        this.#replies.fetchAhead();
        return true;
      }
      if (this.#nextBlock()) continue;
      if (this.#replies.pending) {
        await this.#receive(opts.signal);
        continue;
      }
      if (this.#cutShort !== null) throw this.#cutShortError(this.#cutShort);
      this.#closeAfterLastRow();
      return false;
    }
  }

  /**
   * The last row is read: the data set closes at once, with nothing to send (the server sent its last rows, and the
   * query's id goes with its statement's release: StatementIds); the session may take its next call.
   */
  #closeAfterLastRow(): void {
    if (this.#closing === undefined) void this.close();
  }

  /** The next row; throws IoTDBValidationError past the end (check hasNext() first, or use `for await`). */
  next(opts: FetchOptions = NO_OPTIONS): Promise<RowRecord> {
    const refused = this.#refusedOptions(opts);
    if (refused !== undefined) return Promise.reject(refused);
    if (this.#nextsWaiting > 0 || !this.#rowReady(opts)) return this.#nextInTurn(opts);
    try {
      const row = this.#takeRow();
      this.#replies.fetchAhead();
      return Promise.resolve(row);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** A next() that waits: after the next() calls made before it (they get the rows in the order they were made). */
  #nextInTurn(opts: FetchOptions): Promise<RowRecord> {
    this.#nextsWaiting++;
    const turn = this.#lastNext.then(() => this.#nextWaiting(opts)).finally(() => this.#nextsWaiting--);
    this.#lastNext = turn.catch(() => undefined);
    return turn;
  }

  async #nextWaiting(opts: FetchOptions): Promise<RowRecord> {
    // a row another reader took while this one waited: look again
    while (await this.hasNext(opts)) if (this.#rowsLeft()) return this.#takeRow();
    throw new IoTDBValidationError('next', 'no more rows in this result');
  }

  /** The current block's next row, marked read only once it could be made (an unsafe INT64 as number throws). */
  #takeRow(): RowRecord {
    const row = this.#rowAt(this.#row);
    this.#row++;
    return row;
  }

  /** Rows of the current block not read yet. */
  #rowsLeft(): boolean {
    return this.#block !== null && this.#row < this.#block.rows;
  }

  /**
   * `for await (const row of ds)`. Not an async generator: a row of the current block comes back as an
   * already settled promise, without the generator's own awaits per row (they cost more than the row).
   * Reading to the end, breaking out of the loop or an error closes the data set.
   */
  [Symbol.asyncIterator](): AsyncIterator<RowRecord> {
    return {
      next: () => {
        if (!this.#rowsLeft() || this.#signal?.aborted === true) return this.#nextFetching();
        try {
          return Promise.resolve({ value: this.#takeRow(), done: false });
        } catch (e) {
          return this.close().then(() => Promise.reject(e));
        }
      },
      return: () => this.close().then(() => ITERATED),
    };
  }

  /** A read given up: the query is released (nothing more is read), the reader told why. */
  async #stopAborted(reason: unknown): Promise<never> {
    await this.close().catch(() => undefined); // a failed release is not the reader's error: the abort is
    throw readAborted(this.#ctx.sql, reason);
  }

  /** The iterator's next row when the block is used up (the next block, fetched if need be), or its abort. */
  async #nextFetching(): Promise<IteratorResult<RowRecord>> {
    try {
      while (await this.hasNext()) if (this.#rowsLeft()) return { value: this.#takeRow(), done: false };
      return { value: undefined, done: true };
    } catch (e) {
      await this.close();
      throw e;
    }
  }

  /** A view of row r of the current block; with `int64As`/`timestampAs` 'number' an unsafe value throws here. */
  #rowAt(r: number): RowRecord {
    return this.#rowOf((this.#rowBlock ??= this.#rowBlockOf(this.#block!)), r);
  }

  /** A view of row r of `block`, checked as #rowAt says. */
  #rowOf(block: RowBlock, r: number): RowRecord {
    const row = new RowRecord(block, r, this.#shape);
    if (this.#ctx.int64As === 'number') void row.values;
    if (this.#ctx.timestampAs === 'number') void row.timestamp;
    return row;
  }

  /** What a block's rows read (made for the first row read from it: columnar reads never need it). */
  #rowBlockOf(block: DecodedTsBlock): RowBlock {
    return rowBlock(
      this.#hasTime ? { type: TSDataType.TIMESTAMP, values: block.times, nulls: null } : null,
      this.#blockIndex.map((b) => block.columns[b]),
      this.#ctx.int64As,
    );
  }

  /** All rows not yet read, as columns (typed arrays handed over without a copy where the layout allows). */
  async toColumnar(opts: FetchOptions = {}): Promise<ColumnarResult> {
    const joined: BlockPiece[] = [];
    let pieces: BlockPiece[] = [];
    let rows = 0;
    this.#decodeOptions = SHARED_STRINGS;
    while (await this.hasNext(opts)) {
      if (!this.#rowsLeft()) continue;
      const piece = this.#takeBlock();
      rows += piece.block.rows - piece.from;
      pieces.push(piece);
      if (!joinNow(pieces.length, rows, this.#blockTypes.length)) continue;
      joined.push(joinBlocks(pieces));
      pieces = [];
      rows = 0;
    }
    return this.#columnar(joined.concat(pieces));
  }

  /**
   * The rows not yet read as a stream of columnar batches, one per TsBlock the server sent (its arrays
   * handed over without a copy): columnar speed without holding the whole result.
   */
  async *batches(opts: FetchOptions = {}): AsyncGenerator<ColumnarResult, void, undefined> {
    try {
      while (await this.hasNext(opts)) if (this.#rowsLeft()) yield this.#columnar([this.#takeBlock()]);
    } finally {
      await this.#leave();
    }
  }

  /**
   * The rows not yet read, one RowBatch per TsBlock the server sent: `for await (const rows of ds.rowBatches())
   * for (const row of rows)`. The same rows as `for await (const row of ds)`, with one await per block instead
   * of one per row (the await costs about as much as decoding a row of ten columns). Reading to the end,
   * leaving the loop or an error closes the data set. With `int64As`/`timestampAs` 'number', a row holding an
   * unsafe value throws when the batch's iteration reaches it, as `for await` does.
   */
  async *rowBatches(opts: FetchOptions = {}): AsyncGenerator<RowBatch, void, undefined> {
    try {
      while (await this.hasNext(opts)) if (this.#rowsLeft()) yield this.#takeRows();
    } finally {
      await this.#leave();
    }
  }

  /** A batch reader ends: the data set closes, unless the last row already sent its release (not waited for). */
  async #leave(): Promise<void> {
    if (this.#closing === undefined) await this.close();
  }

  /** The rest of the current block as a RowBatch, marked as read. */
  #takeRows(): RowBatch {
    const from = this.#row;
    const end = this.#block!.rows;
    const block = (this.#rowBlock ??= this.#rowBlockOf(this.#block!));
    this.#row = end;
    return {
      length: end - from,
      [Symbol.iterator]: () => {
        let r = from;
        const next = (): IteratorResult<RowRecord> => {
          if (r >= end) return ITERATED;
          const row = this.#rowOf(block, r); // a row that throws is not skipped: the next call throws again
          r++;
          return { value: row, done: false };
        };
        return { next };
      },
    };
  }

  /** The rest of the current block, marked as read. */
  #takeBlock(): BlockPiece {
    const piece = { block: this.#block!, from: this.#row };
    this.#row = this.#block!.rows;
    return piece;
  }

  #columnar(pieces: readonly BlockPiece[]): ColumnarResult {
    const values = [];
    const nulls = [];
    const rawText = [];
    for (let k = 0; k < this.#blockIndex.length; k++) {
      const cols: ColumnPiece[] = pieces.map((p) => ({
        column: p.block.columns[this.#blockIndex[k]],
        from: p.from,
        to: p.block.rows,
      }));
      const joined = joinColumn(this.#valueTypes[k], cols);
      values.push(joined.values);
      nulls.push(joined.nulls);
      rawText.push(joined.rawText);
    }
    const timestamps = this.#hasTime
      ? joinTimes(pieces.map((p) => ({ times: p.block.times, from: p.from, to: p.block.rows })))
      : null;
    return {
      columnNames: [...this.#valueNames],
      columnTypes: this.columnTypes.slice(this.#hasTime ? 1 : 0),
      timestamps,
      values,
      nulls,
      rawText,
      rowCount: pieces.reduce((n, p) => n + p.block.rows - p.from, 0),
    };
  }

  /**
   * Releases the query on the server when rows were left there (nothing to send once the last rows came); safe to call
   * more than once: every call waits for the one release and throws its failure. Rows already received can still be
   * read; nothing more is fetched, and a read past them throws IoTDBSessionClosedError when rows were left on the server.
   */
  close(): Promise<void> {
    // closed without a release: no query on the server, or a reply that broke the connection
    this.#closing ??= this.#closed ? Promise.resolve() : this.#release();
    return this.#closing;
  }

  async #release(): Promise<void> {
    // the server sent the last rows (none fetched ahead is in flight then): the query is over there, its id left
    // to its statement's release, a round trip saved on every query read to its end
    const over = !this.#replies.moreData;
    this.#markClosedEarly('reader');
    this.#closed = true;
    // replies fetched ahead are dropped; one still in flight lands before closeOperation (one call at a time)
    this.#replies.stop();
    try {
      if (over || !this.#ctx.connection.isOpen) return;
      const req = { sessionId: this.#ctx.sessionId, queryId: this.#queryId, statementId: this.#ctx.statementId }; // statementId mandatory (else 710)
      const reply = this.#ctx.connection.call('closeOperation', req, releaseWait(this.#ctx.timeoutMs));
      // the session's next call may be made: the connection sends it once this one is answered (one request in
      // flight: two replies back to back stalled on a hop that holds small writes)
      this.#markFree();
      verifySuccess(await reply, 'closeOperation');
    } finally {
      this.#settleQuery(over);
      this.#settleClosed();
      this.#ctx.onClose?.(this);
    }
  }

  /** Tells the session the query is done with, once (QueryContext.settled). */
  #settleQuery(finished: boolean): void {
    if (this.#querySettled) return;
    this.#querySettled = true;
    this.#ctx.settled(finished);
  }

  [whenSessionFree](free: () => void): void {
    if (this.#free) free();
    else this.#onFree = free;
  }

  /** The session may take its next call: whoever waits for it is told, once. */
  #markFree(): void {
    if (this.#free) return;
    this.#free = true;
    this.#onFree?.();
    this.#onFree = undefined;
  }

  /** Settles `closed`, and frees the session with it (freed earlier when a release was queued). */
  #settleClosed(): void {
    this.#markFree();
    this.#markClosed();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** Closed by its session (session.close(), pool.close()) rather than by its reader: its error says so. */
  async [closeByOwner](): Promise<void> {
    this.#markClosedEarly('session');
    await this.close();
  }

  /** Closed now with rows left on the server (more to fetch, or fetched ahead): reading past those received throws. */
  #markClosedEarly(by: 'reader' | 'session'): void {
    if (!this.#closed && this.#cutShort === null && this.#replies.pending) this.#cutShort = by;
  }

  /**
   * Why a read past the rows received fails once they were cut short: rather than end as if the result were complete
   * (the Java and Python clients' fetch on a closed data set throws too: 'This DataSet is already closed').
   */
  #cutShortError(cut: CutShort): unknown {
    if (typeof cut === 'object') return cut.error;
    const who =
      cut === 'session'
        ? 'its session was closed'
        : 'it was closed by its reader (close(), a loop left early, an abort)';
    return new IoTDBSessionClosedError('data set', `${who} before all its rows were read`);
  }

  #nextBlock(): boolean {
    if (this.#rawAt >= this.#raw.length) return false;
    const buf = this.#raw[this.#rawAt];
    this.#raw[this.#rawAt++] = undefined as unknown as Buffer; // let the frame go once decoded
    this.#block = this.#decode(buf);
    // a decoded block holds nothing of its frame: after the last, the frame's memory may take the next reply
    if (this.#rawAt === this.#raw.length) this.#releaseRaw?.();
    this.#rowBlock = null;
    this.#row = 0;
    return true;
  }

  /**
   * A block that does not decode, or lacks a column the mapping names, fails the data set with
   * IoTDBProtocolError, the reads after it too, and closes its connection: the server's bytes cannot be trusted
   * any more (the blocks after it in its reply are dropped unread, rather than given as if none were missing).
   */
  #decode(buf: Buffer): DecodedTsBlock {
    try {
      const started = performance.now();
      const block = decodeTsBlock(buf, this.#blockTypes, this.#decodeOptions);
      this.#stats.decodeMs += performance.now() - started;
      this.#stats.blocks++;
      // the block types are indexed by block column: one entry past the highest column the mapping names
      if (block.columns.length < this.#blockTypes.length) {
        throw new IoTDBProtocolError(
          `TsBlock has ${block.columns.length} columns, the result maps ${this.#blockTypes.length}`,
        );
      }
      return block;
    } catch (e) {
      this.#cutShort = { error: e };
      this.#raw = [];
      this.#rawAt = 0;
      this.#closed = true;
      this.#replies.stop();
      this.#ctx.connection.close();
      this.#settleQuery(false);
      this.#settleClosed();
      this.#ctx.onClose?.(this);
      throw e;
    }
  }

  /**
   * The next reply becomes the blocks to read, once: a reader that asks while another waits for it waits too (its
   * `signal` giving up that wait only), then looks again (data sets read from several places at once).
   */
  async #receive(given: AbortSignal | undefined): Promise<void> {
    if (this.#receiving !== null) {
      // another reader's: its reply (or its error) is that reader's; this one looks again once it is taken
      const outcome = await untilAborted(
        this.#receiving.catch(() => undefined),
        given,
      );
      if (outcome === GAVE_UP) throw readAborted(this.#ctx.sql, given?.reason);
      return;
    }
    const receiving = this.#replies
      .next(given)
      .then((reply) => {
        this.#raw = reply.raw;
        this.#rawAt = 0;
        this.#releaseRaw = reply.release;
      })
      .finally(() => (this.#receiving = null));
    this.#receiving = receiving;
    await receiving;
  }
}
