import {
  serverName,
  type ColumnCategory,
  type PreparedTablet,
  type TSDataType,
  type TimestampPrecision,
} from '@iotdb/fast-serializer';
import {
  IoTDBBatchError,
  IoTDBServerError,
  IoTDBValidationError,
  IoTDBWriteFailedError,
  IoTDBWriterClosedError,
} from '../errors.js';
import { RowScratch, TabletBuffer, type BufferSpec, type TakenTablet } from './tablet-buffer.js';
import { StorePool } from './store-pool.js';
import { tableModel, treeModel, type WriterModel } from './rows.js';
import { mayLearn, isTypeRefusal, retypedTablet, type SchemaQuery } from './learned-types.js';
import { writerStream, type WriterStreamOptions } from './writer-stream.js';
import type { ResolvedWriterOptions } from './writer-options.js';
import type { Writable } from 'node:stream';

/** Where a writer's requests go: a session or a pool. */
export interface WriterSink {
  /** the server's timestamp precision, once there is a connection (a pool opens one) */
  ready(): Promise<TimestampPrecision>;
  /** One request: tree, several devices' tablets (insertTablets); table, one tablet. Retries are the session's. */
  send(tablets: PreparedTablet[]): Promise<void>;
  /** a schema statement's answer (devices' or a table's types, learned-types.ts) */
  schema: SchemaQuery;
  /** told as the writer's close() begins, with what it settles as (the owner's close() waits for it) */
  closing?(settled: Promise<void>): void;
}

/** A writer's counters, in rows. Every row written ends acknowledged or failed; until then it is buffered or in flight. */
export interface WriterStats {
  /** rows accepted by write() */
  written: number;
  /** rows the server acknowledged */
  acknowledged: number;
  /** rows the server rejected or that could not be sent, each reported (onError, or flush()/close()) */
  failed: number;
  /** rows write() refused (bad input): never accepted, not in `written` */
  rejected: number;
  /** rows waiting in buffers or for a request slot */
  buffered: number;
  /** rows in requests on the wire */
  inFlight: number;
  /** not rows: the devices (tree) or tables (table) the writer keeps a buffer for (one quiet for a minute is dropped) */
  bufferedDevices: number;
}

interface Request {
  readonly id: number;
  readonly taken: readonly TakenTablet[];
  readonly rows: number;
  /** the devices its rows are of (a table's: the table and its tags): none is in two requests under way at once */
  readonly devices: readonly string[];
  /** sent again with the types the server has (learned-types.ts): not looked up again */
  readonly retyped?: boolean;
}

const READY = Promise.resolve();
const MAX_KEPT_ERRORS = 10;
/**
 * The rows a device's buffer has room for at first; a busy device's grows by doubling (once: it keeps its room after
 * a flush). Small, because a fleet of devices that each write a row or two between flushes holds one buffer a
 * device: with 64 rows, 3 KB of arrays a device of three measurements (150 MB for 50,000), with 8 under 400 bytes.
 */
const FIRST_CAPACITY = 8;
/**
 * A device's buffer (its columns, their arrays) is dropped at the first flush after this long without a row, so that
 * a long-lived writer over devices that come and go holds the quiet ones no longer; one that comes back starts anew.
 */
const QUIET_DEVICE_MS = 60_000;

/**
 * Rows in, coalesced tablets out. `write()` appends a row to its device's column buffers (or its table's);
 * a flush (a device at `maxRows`, `maxBytes` buffered, `flushIntervalMs` after the first row, flush(),
 * close()) turns every buffer into a tablet and packs them into requests of up to `maxRowsPerRequest`
 * rows (tree: one insertTablets per request, routed per node by the session; table: one insert per
 * table), sent `maxInFlight` at a time. Past `maxBufferedRows` held rows, write() waits (backpressure).
 * Transient failures are retried by the session's retry policy; the rows of a request that still
 * fails go to `onError` (or make the next flush()/close() reject): nothing is dropped uncounted.
 */
export class Writer<Row> {
  readonly #model: WriterModel<Row>;
  readonly #sink: WriterSink;
  readonly #o: ResolvedWriterOptions<Row>;
  /** the buffers by the device (table) they hold as the server names it: one however the application spells it */
  readonly #buffers = new Map<string, TabletBuffer>();
  /** each key a row gave, to its buffer (the first spelling names the buffer's tablets) */
  readonly #spellings = new Map<string, TabletBuffer>();
  #spec: BufferSpec | undefined;
  #starting: Promise<void> | undefined;
  #seq = 0;
  #bufferedBytes = 0;
  /** rows in buffers (not yet in a request) */
  #bufferedRows = 0;
  #timer: NodeJS.Timeout | undefined;
  readonly #queue: Request[] = [];
  /** device -> the request under way that holds rows of it (until that request is settled, its parts and resends too) */
  readonly #underWay = new Map<string, number>();
  /** requests (by id) not settled yet: how many parts each still has (a split request has one per tablet) */
  readonly #unsettled = new Map<number, number>();
  #nextRequest = 0;
  #requestsInFlight = 0;
  #inFlightRows = 0;
  #drained: (() => void)[] = [];
  #flushed: { upTo: number; resolve: () => void }[] = [];
  #unreported = { rows: 0, errors: [] as Error[] };
  #closing: Promise<void> | undefined;
  readonly #counts = { written: 0, acknowledged: 0, failed: 0, rejected: 0 };
  /** per buffer key: the types the server has for its columns, once a tablet of it was refused (learned-types.ts) */
  readonly #learned = new Map<string, ReadonlyMap<string, TSDataType>>();
  /** the declared types by the name the server reads (serverName; the first of names it reads alike) */
  readonly #typesByServerName: ReadonlyMap<string, TSDataType>;
  readonly #table: boolean;
  readonly #bufferOf = (key: string): TabletBuffer => {
    let b = this.#spellings.get(key);
    if (b === undefined) {
      this.#model.checkKey(key);
      const name = this.#model.serverName(key);
      b = this.#buffers.get(name);
      if (b === undefined) this.#buffers.set(name, (b = new TabletBuffer(key, this.#spec!, performance.now())));
      this.#spellings.set(key, b);
      b.spellings.push(key);
    }
    return b;
  };

  /** @internal sessions and pools make writers (`session.writer()`, `pool.writer()`). */
  constructor(
    model: WriterModel<Row>,
    sink: WriterSink,
    options: ResolvedWriterOptions<Row>,
    private readonly isAligned = false,
  ) {
    // the class is exported for its type; an application's `new Writer(session)` would fail at its first write
    if (model !== treeModel && (model as unknown) !== tableModel) {
      throw new IoTDBValidationError('Writer', 'made by session.writer() or pool.writer(), not new Writer()');
    }
    this.#model = model;
    this.#sink = sink;
    this.#o = options;
    this.#table = model === tableModel;
    this.#typesByServerName = byServerName(options.types, this.#table);
  }

  /**
   * Buffers one row. Resolves at once while fewer than `maxBufferedRows` rows are held, else when
   * enough were acknowledged (await it: that is the backpressure). Rejects with IoTDBValidationError,
   * for this row only, when it does not fit (a value of another type than its column's, a bad time).
   */
  write(row: Row): Promise<void> {
    if (this.#closing !== undefined) return Promise.reject(new IoTDBWriterClosedError());
    // a row written while the writer starts is taken once it has, though close() came meanwhile: it came before
    if (this.#spec === undefined) return this.#start().then(() => this.#take(row));
    return this.#take(row);
  }

  /** Buffers a row write() accepted (the writer started); rejects for that row only when it does not fit. */
  #take(row: Row): Promise<void> {
    try {
      this.#append(row);
    } catch (e) {
      this.#counts.rejected++;
      return Promise.reject(e);
    }
    return this.#held() < this.#o.maxBufferedRows ? READY : new Promise((resolve) => this.#drained.push(resolve));
  }

  /** Sends what is buffered; resolves when every row written so far was acknowledged or reported. */
  async flush(): Promise<void> {
    if (this.#starting !== undefined) await this.#starting.catch(() => undefined);
    this.#flushBuffers();
    const upTo = this.#nextRequest - 1;
    if (this.#pendingUpTo(upTo)) await new Promise<void>((resolve) => this.#flushed.push({ upTo, resolve }));
    this.#throwUnreported();
  }

  /**
   * Flushes, then refuses further writes and lets its buffers go (a closed writer kept somewhere holds no typed
   * arrays). Rejects like flush() when rows failed and there is no onError.
   */
  close(): Promise<void> {
    if (this.#closing === undefined) {
      this.#closing = this.flush().finally(() => {
        clearTimeout(this.#timer);
        this.#forgetEmptyBuffers();
      });
      this.#sink.closing?.(this.#closing);
    }
    return this.#closing;
  }

  /** Drops every buffer without rows (#forget). */
  #forgetEmptyBuffers(): void {
    for (const [name, b] of this.#buffers) if (b.rows === 0) this.#forget(name);
  }

  /** Drops a device's buffer (its arrays to the collector), its spellings and what was learned of its types. */
  #forget(name: string): void {
    const b = this.#buffers.get(name)!;
    this.#buffers.delete(name);
    for (const key of b.spellings) this.#spellings.delete(key);
    this.#learned.delete(b.key);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  stats(): WriterStats {
    const { written, acknowledged, failed, rejected } = this.#counts;
    return {
      written,
      acknowledged,
      failed,
      rejected,
      buffered: this.#held() - this.#inFlightRows,
      inFlight: this.#inFlightRows,
      bufferedDevices: this.#buffers.size,
    };
  }

  /**
   * The writer as an object-mode Writable for `stream.pipeline`: its write() returns false (then 'drain')
   * while this writer holds `maxBufferedRows`; 'finish' comes after a flush. A row that does not fit
   * fails the stream with its IoTDBValidationError.
   */
  stream(options: WriterStreamOptions = {}): Writable {
    return writerStream(this, options);
  }

  #start(): Promise<void> {
    this.#starting ??= this.#sink.ready().then(
      (precision) => {
        this.#spec = {
          table: this.#table,
          isAligned: this.isAligned,
          precision,
          capacity: Math.min(FIRST_CAPACITY, this.#o.maxRows),
          typeOf: this.#typeOf,
          stores: new StorePool(),
          row: new RowScratch(),
        };
      },
      (e: unknown) => {
        this.#starting = undefined; // the next write tries again
        throw e;
      },
    );
    return this.#starting;
  }

  readonly #typeOf = (name: string, first: unknown, category: ColumnCategory): TSDataType | undefined =>
    this.#declared(name) ?? this.#model.infer(name, first, category);

  /** `name`'s type in `types`, under another spelling of it too (a table's in any case, a measurement's backquotes). */
  #declared(name: string): TSDataType | undefined {
    return this.#o.types.get(name) ?? this.#typesByServerName.get(serverName(name, this.#table));
  }

  /** Whether the writer inferred column `name`'s type (learned-types.ts): `types` does not name it. */
  readonly #inferred = (name: string): boolean => this.#declared(name) === undefined;

  #append(row: Row): void {
    const buffer = this.#model.append(row, this.#bufferOf, ++this.#seq, this.#spec!.precision);
    this.#counts.written++;
    this.#bufferedBytes += buffer.lastRowBytes;
    // half of maxBufferedRows waiting in buffers: send them while the other half fills (pipelining)
    this.#bufferedRows++;
    if (
      buffer.rows >= this.#o.maxRows ||
      this.#bufferedBytes >= this.#o.maxBytes ||
      2 * this.#bufferedRows >= this.#o.maxBufferedRows
    ) {
      this.#flushBuffers();
    } else if (this.#timer === undefined && this.#o.flushIntervalMs > 0) {
      this.#timer = setTimeout(() => this.#flushBuffers(), this.#o.flushIntervalMs);
    }
  }

  /** rows accepted and not yet acknowledged or failed */
  #held(): number {
    const c = this.#counts;
    return c.written - c.acknowledged - c.failed;
  }

  /** Every buffer with rows becomes a tablet (a quiet one is dropped); the tablets are packed into requests and queued. */
  #flushBuffers(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const taken: TakenTablet[] = [];
    const now = performance.now();
    for (const [name, b] of this.#buffers) {
      if (b.rows > 0) for (const t of b.take(now)) taken.push(this.#tabletWithLearnedTypes(t));
      else if (now - b.lastRowsAt > QUIET_DEVICE_MS) this.#forget(name);
    }
    this.#bufferedBytes = 0;
    this.#bufferedRows = 0;
    let request: TakenTablet[] = [];
    let rows = 0;
    for (const t of taken) {
      if (
        request.length > 0 &&
        (this.#model.tabletsPerRequest === 'one' || rows + t.tablet.rows > this.#o.maxRowsPerRequest)
      ) {
        this.#enqueue(request, rows);
        request = [];
        rows = 0;
      }
      request.push(t);
      rows += t.tablet.rows;
    }
    if (request.length > 0) this.#enqueue(request, rows);
    this.#pump();
  }

  #enqueue(taken: TakenTablet[], rows: number): void {
    const id = this.#nextRequest++;
    this.#unsettled.set(id, 1);
    this.#queue.push({ id, taken, rows, devices: taken.flatMap((t) => t.devices) });
  }

  /**
   * Starts queued requests, up to maxInFlight, in order but for one holding rows of a device that an earlier request
   * holds too, under way (in flight, or refused and being sent again) or still queued: it waits for that one, so that
   * a device's rows are applied in the order written (a point written twice, an attribute changed) on a pool's
   * sessions too; a later request of other devices may go first.
   */
  #pump(): void {
    const waiting = new Set<string>(); // devices of requests left in the queue: no later request of theirs goes first
    for (let i = 0; i < this.#queue.length && this.#requestsInFlight < this.#o.maxInFlight;) {
      const r = this.#queue[i];
      if (r.devices.some((d) => waiting.has(d) || (this.#underWay.get(d) ?? r.id) !== r.id)) {
        for (const d of r.devices) waiting.add(d);
        i++;
        continue;
      }
      this.#queue.splice(i, 1);
      for (const d of r.devices) this.#underWay.set(d, r.id);
      this.#requestsInFlight++;
      this.#inFlightRows += r.rows;
      this.#sink.send(r.taken.map((t) => t.tablet)).then(
        () => this.#settle(r, null),
        (e: unknown) => this.#settle(r, e instanceof Error ? e : new Error(String(e))),
      );
    }
  }

  /**
   * A request answered. Refused for a type, once: sent again with the types learnt (its devices looked up first when a
   * column's type on the server is not known yet). Else a refusal of several devices is split; the rest concluded.
   */
  #settle(r: Request, error: Error | null): void {
    this.#requestsInFlight--;
    this.#inFlightRows -= r.rows;
    if (error !== null && r.retyped !== true && isTypeRefusal(error)) {
      if (this.#mayLearn(r)) return this.#lookUpTypes(r, error);
      const taken = this.#withLearnedTypes(r);
      if (taken !== null) return this.#resend(r, taken);
    }
    if (error !== null && this.#split(r, error)) return this.#pump();
    this.#conclude(r, error);
  }

  /** A request is done: acknowledged, or its rows failed and reported. */
  #conclude(r: Request, error: Error | null): void {
    const left = this.#unsettled.get(r.id)! - 1;
    if (left === 0) {
      this.#unsettled.delete(r.id);
      for (const [d, id] of this.#underWay) if (id === r.id) this.#underWay.delete(d);
    } else this.#unsettled.set(r.id, left);
    if (error === null) this.#counts.acknowledged += r.rows;
    else this.#fail(r, error);
    for (const t of r.taken) t.release();
    if (this.#held() < this.#o.maxBufferedRows) for (const resolve of this.#drained.splice(0)) resolve();
    this.#flushed = this.#flushed.filter((f) => this.#pendingUpTo(f.upTo) || (f.resolve(), false));
    this.#pump();
  }

  /**
   * A request of several devices that the server refused as a whole (one status, not one per device)
   * may still have written some of them (IoTDB 2.0 stores the good tablets of an insertTablets and
   * answers with the first failure). Each tablet is sent again on its own, first in the queue, so that
   * the rows reported are exactly those refused; writing a point again stores the same value.
   */
  #split(r: Request, error: Error): boolean {
    if (r.taken.length < 2 || !(error instanceof IoTDBServerError)) return false; // (an IoTDBBatchError answers per device)
    this.#unsettled.set(r.id, this.#unsettled.get(r.id)! - 1 + r.taken.length);
    this.#queue.unshift(
      ...r.taken.map((t) => ({
        id: r.id,
        taken: [t],
        rows: t.tablet.rows,
        devices: t.devices,
        retyped: r.retyped,
      })),
    );
    return true;
  }

  /** Whether a lookup might change the request: a column the writer inferred whose server type it has not learnt. */
  #mayLearn(r: Request): boolean {
    const table = this.#table;
    return r.taken.some((t) => mayLearn(t.tablet, this.#learned.get(t.tablet.prefixPath), this.#inferred, table));
  }

  /**
   * A request refused for a type, with a column the writer inferred whose type on the server it has not learnt (a
   * device is looked up again only for a column it did not have then): its devices are looked up (table: in one
   * statement) and it is sent again with what was learnt. When that changes nothing, or the lookup fails, it goes on
   * as any refusal (#split, else its rows fail as they did), never looked up again.
   */
  #lookUpTypes(r: Request, error: Error): void {
    const keys = [...new Set(r.taken.map((t) => t.tablet.prefixPath))];
    this.#model.registeredTypes(keys, this.#sink.schema).then(
      (found) => {
        for (const [key, types] of found) this.#learned.set(key, types);
        const taken = this.#withLearnedTypes(r);
        if (taken === null) this.#refusedAgain(r, error);
        else this.#resend(r, taken);
      },
      () => this.#refusedAgain(r, error),
    );
    this.#pump(); // the other requests go on meanwhile
  }

  /** Sends the request again, first in the queue, with its tablets as `taken` (the types learnt), never retyped again. */
  #resend(r: Request, taken: TakenTablet[]): void {
    this.#queue.unshift({ ...r, taken, retyped: true });
    this.#pump();
  }

  /** A refusal the types learnt do not change: split as any refusal, else its rows fail as they did. */
  #refusedAgain(r: Request, error: Error): void {
    const again = { ...r, retyped: true };
    if (this.#split(again, error)) this.#pump();
    else this.#conclude(again, error);
  }

  /**
   * The request's tablets with the inferred columns as the server has them (the types learnt, by this request's
   * lookup or another's since it was taken), or null when that changes none.
   */
  #withLearnedTypes(r: Request): TakenTablet[] | null {
    const taken = r.taken.map((t) => this.#tabletWithLearnedTypes(t));
    return taken.some((t, k) => t !== r.taken[k]) ? taken : null;
  }

  /** A taken tablet with the types learnt for its device (table), if any. */
  #tabletWithLearnedTypes(t: TakenTablet): TakenTablet {
    const learned = this.#learned.get(t.tablet.prefixPath);
    const tablet = learned && retypedTablet(t.tablet, learned, this.#inferred, this.#table);
    return tablet === undefined ? t : { ...t, tablet };
  }

  /** Counts and reports the rows of a failed request: those an IoTDBBatchError lists, else all. */
  #fail(r: Request, error: Error): void {
    const groups = new Map<string, { error: Error; rows: Row[] }>();
    const failures =
      error instanceof IoTDBBatchError
        ? error.failures
        : this.#model.indexes(r.taken).map((index) => ({ index, error }));
    for (const f of failures) {
      const rows = this.#model.rowsAt(r.taken, f.index);
      const key = f.error.message;
      const g = groups.get(key);
      if (g === undefined) groups.set(key, { error: f.error, rows });
      else g.rows.push(...rows);
    }
    let failed = 0;
    for (const g of groups.values()) failed += g.rows.length;
    this.#counts.failed += failed;
    this.#counts.acknowledged += r.rows - failed;
    for (const g of groups.values()) this.#report(g.error, g.rows);
  }

  #report(error: Error, rows: Row[]): void {
    const onError = this.#o.onError;
    if (onError !== undefined) {
      try {
        onError(error, rows);
        return;
      } catch (e) {
        error = e instanceof Error ? e : new Error(String(e)); // a throwing handler: flush() reports it
      }
    }
    this.#unreported.rows += rows.length;
    if (this.#unreported.errors.length < MAX_KEPT_ERRORS) this.#unreported.errors.push(error);
  }

  #throwUnreported(): void {
    const { rows, errors } = this.#unreported;
    if (rows === 0 && errors.length === 0) return;
    this.#unreported = { rows: 0, errors: [] };
    throw new IoTDBWriteFailedError(rows, errors);
  }

  /** whether a request up to `upTo` is still queued or in flight */
  #pendingUpTo(upTo: number): boolean {
    for (const id of this.#unsettled.keys()) if (id <= upTo) return true;
    return false;
  }
}

/** `types` by the name the server reads (serverName), the first of names it reads alike winning (declared first). */
function byServerName(types: ReadonlyMap<string, TSDataType>, table: boolean): Map<string, TSDataType> {
  const byName = new Map<string, TSDataType>();
  for (const [name, type] of types) if (!byName.has(serverName(name, table))) byName.set(serverName(name, table), type);
  return byName;
}
