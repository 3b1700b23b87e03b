import {
  KnownKeys,
  ByteWriter,
  ColumnCategory,
  IoTDBValidationError,
  plainInsertTabletReq,
  writeInsertTabletReq,
  writeInsertTabletReqCompact,
  type ClientMethod,
  type PreparedTablet,
  type TSExecuteStatementResp,
  type TSStatus,
} from '@iotdb/fast-serializer';
import { endpointKey, type Endpoint } from '../cluster/endpoint.js';
import { checkedIfGiven, int32Count, positiveInt, timerMs } from '../config/checks.js';
import { checkCallOptions } from '../config/issues.js';
import { checkTimeZone } from '../config/time-zone.js';
import {
  withSessionId,
  writeArgs,
  type ArgsOf,
  type ArgsWriter,
  type ResultOf,
  type RpcConnection,
} from '../connection/rpc-connection.js';
import { NodeRegistry } from '../cluster/node-registry.js';
import { namesNode } from '../cluster/redirect-cache.js';
import {
  insertChannel,
  insertContext,
  queryChannel,
  queryContext,
  traced,
  type TraceContext,
} from '../diagnostics/channels.js';
import { Recorder } from '../diagnostics/recorder.js';
import type { SessionStats } from '../diagnostics/stats.js';
import {
  IoTDBAbortError,
  IoTDBConnectionError,
  IoTDBSessionClosedError,
  sqlContext,
  withCallerStack,
} from '../errors.js';
import { verifySuccess } from '../protocol/status.js';
import type { OperationKind } from '../retry/retry-policy.js';
import { withRetry } from '../retry/with-retry.js';
import { deviceOfSelect } from '../sql/select-device.js';
import { isReadOnlySql } from '../sql/read-only.js';
import type { WritePlan, WriteReport, WriteTargets } from '../write/write-plan.js';
import { routeWrite } from '../write/write-router.js';
import {
  type NodeSession,
  type QueryFields,
  type SessionContext,
  type SqlDialect,
  type TimestampPrecision,
} from './node-session.js';
import { discoverDataNodes } from './discover-nodes.js';
import { NodeSessions } from './node-sessions.js';
import { dataSetContext, type QuerySettings, type SentQuery } from './data-set-context.js';
import type { Statement } from './statement-ids.js';
import { queryNodesOf, redirectsOf } from './pool-shared.js';
import { resolveSessionOptions, type ResolvedSessionOptions, type TableSessionOptions } from './options.js';
import { QueryRouter, type DeviceQuery } from './query-router.js';
import { SessionDataSet, closeByOwner, type QueryContext } from './session-data-set.js';
import { serverQueryTimeout } from './result-fetcher.js';
import { OpenWriters, writersFailed } from '../writer/open-writers.js';

export type { SqlDialect, TimestampPrecision } from './node-session.js';

/** Options every async call takes. */
export interface CallOptions {
  /** Gives up on the call: it rejects with IoTDBAbortError. A write in flight may still be applied. */
  signal?: AbortSignal;
}

export interface StatementOptions extends CallOptions {
  /** reply wait for this statement, ms. @default the session's requestTimeoutMs */
  timeoutMs?: number;
}

export interface QueryOptions extends CallOptions {
  /** rows per fetch for this query. @default the session's fetchSize */
  fetchSize?: number;
  /** batches fetched ahead of the reader for this query (0 = none). @default the session's readAhead */
  readAhead?: number;
  /** reply wait for this query's calls (its execute and fetches), ms. @default the session's requestTimeoutMs */
  timeoutMs?: number;
  /**
   * how long the server keeps this query (its execute to its last fetch), ms; 0 = no limit.
   * @default the session's queryTimeoutMs, else this query's reply wait
   */
  queryTimeoutMs?: number;
}

/** The options a plain call (a write, open, setTimeZone), a statement and a query take (checkCallOptions). */
export const CALL_OPTION_KEYS: KnownKeys = KnownKeys.of<CallOptions>('options')('signal');
const STATEMENT_OPTION_KEYS: KnownKeys = KnownKeys.of<StatementOptions>('options')('signal', 'timeoutMs');
export const QUERY_OPTION_NAMES = ['signal', 'fetchSize', 'readAhead', 'timeoutMs', 'queryTimeoutMs'] as const;
export const QUERY_OPTION_KEYS: KnownKeys = KnownKeys.of<QueryOptions>('options')(...QUERY_OPTION_NAMES);

/** A statement's or a query's call, as #run makes it. */
interface Call<T> {
  readonly kind: Exclude<OperationKind, 'write'>;
  /** what logs and errors call it */
  readonly what: string;
  readonly opts: CallOptions;
  readonly fn: (ns: NodeSession, signal: AbortSignal) => Promise<T>;
  /** the SQL, for the trace */
  readonly statement?: string;
  /** the server session each attempt goes out on; the default node's when absent */
  readonly node?: (signal: AbortSignal) => Promise<NodeSession>;
}

/** A node's server session is quarantined 1 s after its first failure, doubling up to a minute. */
const QUARANTINE = { firstMs: 1_000, maxMs: 60_000 };
const SET_DIALECT = /^\s*set\s+sql_dialect\s*=\s*(tree|table)\s*;?\s*$/i;

/**
 * Where a pool notes, while the tracing channels are subscribed, how long its borrower waited for this
 * session (ms, opening it included); the next traced call reports it as `poolWaitMs`. Not public API.
 */
export const POOL_WAIT = Symbol('iotdb.poolWait');

/**
 * What tree and table sessions share. A session has a default node (the first reachable of
 * `nodeUrls`) and, with redirection, one more server session per DataNode that leads some of its
 * devices. Failures are retried as the retry policy says (retry/retry-policy.ts): writes through
 * restarts within the retry budget, queries and statements only when they never left the client.
 */
export abstract class BaseSession {
  [POOL_WAIT] = 0;
  protected readonly options: ResolvedSessionOptions;
  /** the writers made on this session and not closed: close() closes them first */
  protected readonly writers = new OpenWriters();
  readonly #registry: NodeRegistry;
  readonly #nodes: NodeSessions;
  readonly #router: QueryRouter;
  readonly #initial: SessionContext;
  #context: SessionContext;
  #lifetime = new AbortController();
  #open = false;
  /** the data sets not closed yet, each with the connection it reads from */
  readonly #dataSets = new Map<SessionDataSet, RpcConnection>();
  readonly #targets: WriteTargets<NodeSession>;
  readonly #recorder: Recorder;
  /** what an untraced write reports to (built once: writes are the hot path) */
  readonly #untraced: WriteReport;

  /** `options`: an options object, or a connection string (see SessionOptions for the precedence). */
  protected constructor(options: TableSessionOptions | string, dialect: SqlDialect) {
    this.options = resolveSessionOptions(options, dialect);
    const database = this.options.database;
    this.#initial = this.#context = { dialect, database, timeZone: this.options.timeZone };
    const recorder = (this.#recorder = new Recorder(this.options.logger, this.options.slowCallMs));
    this.#untraced = { recorder, trace: null };
    const { spreadQueries, discoverNodes } = this.options;
    const turn = spreadQueries ? queryNodesOf(this.options) : null;
    this.#registry = new NodeRegistry(this.options.endpoints, QUARANTINE, {
      onRoute: (device, e) => recorder.redirected(device, endpointKey(e)),
      learnt: () => (discoverNodes && turn !== null ? turn.endpoints : []),
      redirects: redirectsOf(this.options), // shared with the session's pool, kept across USE and close
    });
    this.#nodes = new NodeSessions(
      this.options,
      this.#registry,
      () => this.#context,
      () => this.#lifetime.signal,
      recorder,
    );
    this.#targets = this.#writeTargets();
    this.#router = new QueryRouter(
      turn,
      this.#nodes,
      this.#registry,
      recorder,
      spreadQueries && discoverNodes ? () => this.#discoverNodes() : null,
      this.options.enableRedirection,
    );
  }

  /** Opened and not closed (a lost connection is re-established by the next call). */
  get isOpen(): boolean {
    return this.#open;
  }

  /** The default node's connection works right now (a broken one is re-established by the next call). */
  get isConnected(): boolean {
    return this.#nodes.current !== null;
  }

  /** The server's timestamp precision (`timestamp_precision`), known once open. */
  get timestampPrecision(): TimestampPrecision {
    return this.#nodes.precision ?? 'ms';
  }

  /** The database statements run in (table model: the `database` option, then `USE`). */
  protected get currentDatabase(): string | undefined {
    return this.#context.database;
  }

  /** The SQL dialect the session speaks now (`SET SQL_DIALECT` changes it). */
  get sqlDialect(): SqlDialect {
    return this.#context.dialect;
  }

  /** A call changed the session's database, dialect or time zone since it was made (a pool does not hand such a session on). */
  get contextChanged(): boolean {
    const now = this.#context;
    const first = this.#initial;
    return now.dialect !== first.dialect || now.database !== first.database || now.timeZone !== first.timeZone;
  }

  /** The zone the server reads and renders times in, as given (`'Asia/Tokyo'`, `'+05:30'`). */
  getTimeZone(): string {
    return this.#context.timeZone;
  }

  /**
   * Sets the zone the server reads and renders times in; later server sessions start in it. A zone Java's ZoneId does
   * not take is refused before anything is sent, as the `timeZone` option is.
   */
  async setTimeZone(zone: string, opts: CallOptions = {}): Promise<void> {
    checkTimeZone('zone', zone);
    checkCallOptions(opts, CALL_OPTION_KEYS);
    await this.#run({
      kind: 'statement',
      what: `setTimeZone ${zone}`,
      opts,
      fn: async (ns, signal) => {
        const status = await ns.connection.call('setTimeZone', { sessionId: ns.sessionId, timeZone: zone }, { signal });
        verifySuccess(status, `setTimeZone ${JSON.stringify(zone)}`);
      },
    });
    this.#context = { ...this.#context, timeZone: zone };
    await this.#nodes.closeOthers(this.#reading); // the other nodes' sessions reopen in the new zone
  }

  /**
   * The node this session sends `device`'s writes and one-device queries to, 'host:port', when known: a reply named
   * it, or it acknowledged the device's write or fast last query naming no other. Else undefined: writes go to the
   * default node, queries take turns. `device`: a tree path (a table's device: TableSession.nodeOfDevice).
   */
  nodeOf(device: string): string | undefined {
    const e = this.options.enableRedirection ? this.#registry.routeOf(device) : undefined;
    return e === undefined ? undefined : endpointKey(e);
  }

  /** The node the session talks to by default, 'host:port'. */
  get currentEndpoint(): string | undefined {
    return this.#nodes.defaultKey;
  }

  /**
   * The nodes queries take turns on, 'host:port' (spreadQueries): `nodeUrls`, or the cluster's DataNodes once
   * learnt (discoverNodes); the default node alone without spreadQueries.
   */
  get queryEndpoints(): string[] {
    return this.#router.keys;
  }

  /** What this session did since it was made: calls, errors, retries, failovers, bytes (a copy). */
  stats(): SessionStats {
    return { ...this.#recorder.stats };
  }

  /**
   * Connects to the first reachable node of `nodeUrls` and logs in; each node is tried once. Rejects
   * with IoTDBServerError (e.g. 801) or IoTDBConnectionError; close() or `signal` abort it.
   */
  async open(opts: CallOptions = {}): Promise<void> {
    checkCallOptions(opts, CALL_OPTION_KEYS);
    if (this.#open && this.isConnected) return;
    if (this.#lifetime.signal.aborted) this.#lifetime = new AbortController();
    const signal = this.#signal(opts.signal);
    await this.#guard('open', opts.signal, null, () => this.#nodes.defaultSession(signal));
    this.#open = true;
  }

  /**
   * Closes the writers made on it that are still open (their rows sent first, as their close() sends them), then
   * open data sets, logs out and closes every connection. Aborts what is in progress: an open(), a retry wait.
   * Rejects, once closed, with the failures of those writers that no onError took. Safe to call twice.
   */
  async close(): Promise<void> {
    const failures = await this.writers.closeAll();
    this.#open = false;
    this.#lifetime.abort(new IoTDBSessionClosedError('session', 'it was closed while the call was in progress'));
    await this.closeDataSets();
    await this.#nodes.closeAll();
    if (failures.length > 0) throw writersFailed(failures, 'session');
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /**
   * Closes every data set of this session that is still open (their server-side queries too). Their
   * readers get the rows already received, then IoTDBSessionClosedError if more were on the server.
   */
  async closeDataSets(): Promise<void> {
    await Promise.all([...this.#dataSets.keys()].map((ds) => ds[closeByOwner]().catch(() => undefined)));
  }

  /** Runs a statement that returns no rows (DDL, INSERT, DELETE, ...), never twice. Server failures throw IoTDBServerError. */
  async executeNonQueryStatement(sql: string, opts: StatementOptions = {}): Promise<void> {
    checkSql(sql);
    checkCallOptions(opts, STATEMENT_OPTION_KEYS);
    checkedIfGiven('timeoutMs', opts.timeoutMs, timerMs, true);
    const operation = `executeNonQueryStatement ${sqlContext(sql)}`;
    const resp = await this.#run({
      kind: 'statement',
      what: operation,
      opts,
      fn: async (ns, signal) => {
        // IoTDB holds the statement's id in the session as a query's, refused or not: released with its statement
        const st = ns.statements.take();
        try {
          const resp = await ns.connection.call(
            'executeUpdateStatementV2',
            { sessionId: ns.sessionId, statement: sql, statementId: st.id },
            { timeoutMs: opts.timeoutMs, operation, signal },
          );
          verifySuccess(resp.status, sqlContext(sql)); // inside: the trace reports a refused statement as an error
          return resp;
        } finally {
          ns.statements.settle(st, true);
        }
      },
      statement: sql,
    });
    await this.#learnContext(sql, resp.database);
  }

  /** Runs a query; read the rows with `for await`, or all at once with `toColumnar()`. Close it if you stop early. */
  async executeQueryStatement(sql: string, opts: QueryOptions = {}): Promise<SessionDataSet> {
    checkSql(sql);
    checkCallOptions(opts, QUERY_OPTION_KEYS);
    return this.query(
      `executeQueryStatement ${sqlContext(sql)}`,
      sql,
      opts,
      (ns, q) => ns.querySql(sql, q),
      this.#deviceOf(sql),
    );
  }

  /**
   * The device a SELECT reads, if one; looked for only when it may change where the query goes: some device's
   * node is known and either a reply named it or queries take turns on several nodes.
   */
  #deviceOf(sql: string): DeviceQuery | undefined {
    if (this.#registry.routeCount === 0 || !this.#nodesDiffer || !this.options.enableRedirection) return undefined;
    const device = this.#context.dialect === 'tree' ? deviceOfSelect(sql) : this.deviceOfTableSelect(sql);
    return device === undefined ? undefined : { device, named: false };
  }

  /** The key of the device a table-model SELECT reads, when the session can tell (a TableSession: of a table written). */
  protected deviceOfTableSelect(_sql: string): string | undefined {
    return undefined;
  }

  /**
   * Runs a query RPC on the node whose turn it is (spreadQueries; sent again only when it reads: the retry policy's
   * 'read'), and wraps its reply in a data set that fetches from that node. `statement` is what later fetches name (the SQL, or '' for the
   * structured queries, as Java). `device`: the one device the query reads, if known: the query goes to that
   * device's node when the session knows it (QueryRouter), and its reply may name that node.
   */
  protected async query(
    operation: string,
    statement: string,
    opts: QueryOptions,
    send: (ns: NodeSession, q: QueryFields) => Promise<TSExecuteStatementResp>,
    device?: DeviceQuery,
  ): Promise<SessionDataSet> {
    const settings = this.#querySettings(opts);
    const { fetchSize, timeoutMs, timeoutOption } = settings;
    const timeout = serverQueryTimeout(settings.queryTimeoutMs);
    let sentAt = 0;
    const { ns, resp, st } = await this.#run({
      kind: statement === '' || isReadOnlySql(statement) ? 'read' : 'query', // '': a structured query, a read
      what: operation,
      opts,
      fn: async (ns, signal) => {
        const st = ns.statements.take(); // taken and sent in one go: a trace counts the calls started synchronously
        sentAt = performance.now(); // the last attempt's: the server's timeout for the query runs from about then
        try {
          const call = { timeoutMs, timeoutOption, operation, signal };
          const resp = await send(ns, { statementId: st.id, fetchSize, timeout, call });
          verifySuccess(resp.status, operation);
          if (device !== undefined) this.#router.learn(resp.status, ns, device);
          return { ns, resp, st };
        } catch (e) {
          ns.statements.settle(st, false);
          if (e instanceof IoTDBConnectionError) this.#router.failed(ns);
          throw e;
        }
      },
      statement: statement === '' ? undefined : statement,
      node: (signal) => this.#router.node(signal, device),
    });
    return this.#openDataSet(ns, st, resp, settings, { sql: statement, sentAt, signal: opts.signal });
  }

  /** A query's settings: those `opts` give (checked), else the session's. */
  #querySettings(opts: QueryOptions): QuerySettings {
    const timeoutMs = checkedIfGiven('timeoutMs', opts.timeoutMs, timerMs, true) ?? this.options.requestTimeoutMs;
    return {
      fetchSize: checkedIfGiven('fetchSize', opts.fetchSize, int32Count) ?? this.options.fetchSize,
      readAhead: checkedIfGiven('readAhead', opts.readAhead, positiveInt, true) ?? this.options.readAhead,
      timeoutMs,
      timeoutOption: opts.timeoutMs === undefined ? 'requestTimeoutMs' : 'timeoutMs',
      queryTimeoutMs:
        checkedIfGiven('queryTimeoutMs', opts.queryTimeoutMs, positiveInt, true) ??
        this.options.queryTimeoutMs ??
        timeoutMs,
    };
  }

  /** The data set of the query `ns` answered with `resp`, kept until it closes (so that close() closes it). */
  #openDataSet(
    ns: NodeSession,
    st: Statement,
    resp: TSExecuteStatementResp,
    s: QuerySettings,
    q: SentQuery,
  ): SessionDataSet {
    const { connection } = ns;
    const ctx = dataSetContext(ns, st, s, q, this.options, this.#context.timeZone, (d) => {
      this.#dataSets.delete(d);
      this.#nodes.resultClosed(connection, this.#reading);
    });
    const ds = this.#dataSet(ctx, resp);
    if (!ds.isClosed) this.#dataSets.set(ds, connection);
    return ds;
  }

  /** The cluster's DataNodes that take queries (discoverNodes), asked through the default node. */
  #discoverNodes(): Promise<Endpoint[]> {
    const at = this.#nodes.current?.endpoint ?? this.#registry.candidates()[0];
    return discoverDataNodes(at, this.options, this.#context.timeZone, this.#lifetime.signal);
  }

  /** A reply that does not describe a result the client can read closes the connection it came on. */
  #dataSet(ctx: QueryContext, resp: TSExecuteStatementResp): SessionDataSet {
    try {
      return new SessionDataSet(ctx, resp);
    } catch (e) {
      ctx.connection.close();
      ctx.settled(false);
      throw e;
    }
  }

  /** IoTDBSessionClosedError unless open: checked before anything is encoded or sent. */
  protected checkOpen(): void {
    if (!this.#open) throw new IoTDBSessionClosedError();
  }

  /**
   * Runs `fn` on the default node (or the one `node` gives for each attempt). A failure before the request left
   * the client (no connection) is retried, on the next node, as the policy says; once the bytes may have reached
   * the server, never. One `iotdb:query` trace when subscribed; `statement`: the SQL, for it.
   */
  async #run<T>({ kind, what, opts, fn, statement, node }: Call<T>): Promise<T> {
    this.checkOpen();
    const signal = this.#signal(opts.signal);
    let at: string | undefined; // the node of the last attempt, for the slow-call log
    const run = (trace: TraceContext | null) =>
      this.#guard(
        what,
        opts.signal,
        trace,
        () =>
          withRetry(
            kind,
            this.options.retry,
            signal,
            async () => {
              const ns = await (node === undefined ? this.#nodes.defaultSession(signal) : node(signal));
              at = ns.key;
              return trace === null ? fn(ns, signal) : ns.connection.withTrace(trace, () => fn(ns, signal));
            },
            { recorder: this.#recorder, operation: what, trace },
          ),
        () => at,
      );
    if (!queryChannel.hasSubscribers) return run(null);
    return traced(queryChannel, queryContext(operationOf(what), statement, this.#takePoolWait()), run);
  }

  /**
   * Sends a write through the router (redirects, node splits, retries, per-item outcomes). `items`:
   * what the trace counts rows and points of (read only while the channels are subscribed).
   */
  protected write(plan: WritePlan<NodeSession>, opts: CallOptions, items?: readonly WriteItem[]): Promise<void> {
    this.checkOpen();
    checkCallOptions(opts, CALL_OPTION_KEYS);
    const signal = this.#signal(opts.signal);
    const retry = this.options.retry;
    if (!insertChannel.hasSubscribers) {
      return this.#guard(plan.what, opts.signal, null, () =>
        routeWrite(plan, this.#targets, retry, signal, this.#untraced),
      );
    }
    const { rows, points } = sizeOf(items, plan.count);
    return traced(insertChannel, insertContext(operationOf(plan.what), rows, points, this.#takePoolWait()), (trace) =>
      this.#guard(plan.what, opts.signal, trace, () =>
        routeWrite(plan, this.#targets, retry, signal, { recorder: this.#recorder, trace }),
      ),
    );
  }

  /**
   * A request's argument encoded now with session id 0, to be sent later on any node with its session id in place
   * (`withSessionId`: a write plan's `encode`, for a call split over nodes). Throws what sending it would throw.
   */
  protected encodeArgs<M extends ClientMethod>(
    method: M,
    args: (sessionId: bigint) => ArgsOf<M> | ArgsWriter,
  ): ByteWriter {
    const w = new ByteWriter(4096, this.options.bufferPool);
    try {
      writeArgs(w, method, args(0n), this.options.rpcCompression);
      return w;
    } catch (e) {
      w.release();
      throw e;
    }
  }

  /** `method(args)` on `ns`: `args` for its session id, or `encoded`, its argument encodeArgs made, with that id. */
  protected sendArgs<M extends ClientMethod>(
    ns: NodeSession,
    method: M,
    args: (sessionId: bigint) => ArgsOf<M> | ArgsWriter,
    encoded: ByteWriter | undefined,
  ): Promise<ResultOf<M>> {
    return ns.connection.call(
      method,
      encoded !== undefined ? withSessionId(encoded, ns.sessionId) : args(ns.sessionId),
    );
  }

  /** One tablet (or part of one) to one node, fast path or plain path (enableFastSerialization); `encoded` as sendArgs. */
  protected sendTablet(
    ns: NodeSession,
    p: PreparedTablet,
    method: 'insertTablet' | 'testInsertTablet' = 'insertTablet',
    encoded?: ByteWriter,
  ): Promise<TSStatus> {
    return this.sendArgs(ns, method, this.tabletArgs(p), encoded);
  }

  /** The insertTablet argument of `p` on a session: written straight to the buffer, or a plain struct. */
  protected tabletArgs(p: PreparedTablet): (sessionId: bigint) => ArgsOf<'insertTablet'> | ArgsWriter {
    return this.options.enableFastSerialization
      ? (sessionId) => (w, compact) => (compact ? writeInsertTabletReqCompact : writeInsertTabletReq)(w, sessionId, p)
      : (sessionId) => plainInsertTabletReq(sessionId, p);
  }

  #writeTargets(): WriteTargets<NodeSession> {
    const redirect = this.options.enableRedirection;
    return {
      // the nodes that acknowledged devices without a redirect are the default one, or ones a redirect named
      routing: () => redirect && this.#registry.redirectCount > 0,
      route: (device) => this.#registry.routeOf(device),
      defaultKey: () => this.#nodes.defaultKey,
      node: (target: Endpoint | undefined, signal) => this.#nodes.sessionAt(target, signal),
      unreachable: (target) => this.#registry.markFailed(target),
      failed: (ns) => this.#nodes.failed(ns),
      answered: (ns) => this.#registry.markHealthy(ns.endpoint),
      learn: (ns, status, deviceOf, count) => {
        if (redirect) this.#registry.learn(status, deviceOf, count, this.#answeredAt(ns, status));
      },
      traced: (ns, trace, send) => ns.connection.withTrace(trace, send),
    };
  }

  /**
   * The node to take for the leader of the devices a write of it acknowledged without a redirect: the session's
   * queries of those devices then go there, when that can change where they go (some reply, this write's
   * `status` too, named another node, or queries take turns on several); undefined otherwise (one node: nothing to
   * learn, and no key per item to read).
   */
  #answeredAt(ns: NodeSession, status: TSStatus): Endpoint | undefined {
    return this.#nodesDiffer || namesNode(status) ? ns.endpoint : undefined;
  }

  /**
   * Whether a device's node may differ from where its query would go anyway: a reply named another node, or
   * queries take turns on several.
   */
  get #nodesDiffer(): boolean {
    return this.#registry.redirectCount > 0 || this.#router.spreads;
  }

  /** A data set not closed yet reads from `ns`. */
  readonly #reading = (ns: NodeSession): boolean => {
    for (const connection of this.#dataSets.values()) if (connection === ns.connection) return true;
    return false;
  };

  /** The wait a pool noted before handing this session over, once: the first traced call reports it. */
  #takePoolWait(): number {
    const ms = this[POOL_WAIT];
    this[POOL_WAIT] = 0;
    return ms;
  }

  /** The lifetime signal, joined with the caller's. */
  #signal(caller: AbortSignal | undefined): AbortSignal {
    return caller === undefined ? this.#lifetime.signal : AbortSignal.any([caller, this.#lifetime.signal]);
  }

  /**
   * Runs `fn`; when the caller's signal ended it, throws IoTDBAbortError (close() ends it with
   * IoTDBSessionClosedError). Every error leaves with the caller's call site in its stack. `node`: where the
   * call went, for the slow-call log (the default node unless the caller knows better).
   */
  async #guard<T>(
    what: string,
    caller: AbortSignal | undefined,
    trace: TraceContext | null,
    fn: () => Promise<T>,
    node?: () => string | undefined,
  ): Promise<T> {
    if (caller?.aborted) throw new IoTDBAbortError(what, caller.reason);
    const recorder = this.#recorder;
    recorder.stats.calls++;
    // timed only when a trace or a logger (slow calls) hears of it
    const started = recorder.slowCallMs > 0 || trace !== null ? performance.now() : 0;
    try {
      return await fn();
    } catch (e) {
      recorder.stats.errors++;
      // errors made in socket events and timers get the caller's frames (this Error's async stack)
      throw withCallerStack(caller?.aborted && e === caller.reason ? new IoTDBAbortError(what, e) : e, new Error());
    } finally {
      if (started > 0) {
        const ms = performance.now() - started;
        if (trace !== null) trace.durationMs = ms;
        if (recorder.slowCallMs > 0 && ms > recorder.slowCallMs)
          recorder.slowCall(what, ms, node === undefined ? this.currentEndpoint : node());
      }
    }
  }

  /** `USE db` and `SET SQL_DIALECT`: new server sessions start in the new context; redirect targets reopen lazily. */
  async #learnContext(sql: string, database: string | undefined): Promise<void> {
    const dialect = SET_DIALECT.exec(sql)?.[1]?.toLowerCase() as SqlDialect | undefined;
    const next = {
      ...this.#context,
      dialect: dialect ?? this.#context.dialect,
      database: database ?? this.#context.database,
    };
    if (next.dialect === this.#context.dialect && next.database === this.#context.database) return;
    this.#context = next;
    await this.#nodes.closeOthers(this.#reading);
  }
}

/** A write's item as a trace counts it: a tablet (`rows` of them) or a record (one row). */
export interface WriteItem {
  readonly measurements: readonly unknown[];
  readonly rows?: number;
  /** table tablets: only FIELD columns hold points */
  readonly columnCategories?: readonly ColumnCategory[] | null;
}

/** Rows and points of a write's items (`count` rows when the caller gave none). */
function sizeOf(items: readonly WriteItem[] | undefined, count: number): { rows: number; points: number } {
  if (items === undefined) return { rows: count, points: 0 };
  let rows = 0;
  let points = 0;
  for (const item of items) {
    const n = item.rows ?? 1;
    const columns = item.columnCategories?.filter((c) => c === ColumnCategory.FIELD).length;
    rows += n;
    points += n * (columns ?? item.measurements.length);
  }
  return { rows, points };
}

/** The method in a call's description (`insertTablet`, `executeQueryStatement "SELECT ..."`, `insert t1`). */
function operationOf(what: string): string {
  const space = what.indexOf(' ');
  return space < 0 ? what : what.slice(0, space);
}

function checkSql(sql: unknown): asserts sql is string {
  if (typeof sql !== 'string' || sql.trim().length === 0) {
    throw new IoTDBValidationError(
      'sql',
      `needs a non-empty string, got ${sql === null ? 'null' : typeof sql === 'string' ? 'an empty string' : typeof sql}`,
    );
  }
}
