import { tracingChannel } from 'node:diagnostics_channel';

/**
 * The `node:diagnostics_channel` tracing channels the client publishes on. Each user-visible call is one
 * trace (`start`, `end`, then `asyncStart`/`asyncEnd`, or `error` first when it fails), with one context
 * object that the client fills in as the call goes on; read it at `asyncEnd`. Nothing is built or
 * published while nobody subscribes.
 *
 * ```ts
 * import { tracingChannel } from 'node:diagnostics_channel';
 * import { CHANNELS, type InsertTraceContext } from '@iotdb/client';
 * tracingChannel(CHANNELS.insert).subscribe({
 *   start() {}, end() {}, asyncStart() {}, error() {},
 *   asyncEnd(message) {
 *     const ctx = message as InsertTraceContext;
 *     console.log(ctx.operation, ctx.endpoint, ctx.rows, ctx.bytesOut, ctx.durationMs);
 *   },
 * });
 * ```
 */
export const CHANNELS = Object.freeze({
  /** a connection to one DataNode opened and logged in (also reconnects, redirect targets, pooled sessions) */
  connect: 'iotdb:connect',
  /** a query or a statement: its first request and reply (later fetches are counted in `stats()` only) */
  query: 'iotdb:query',
  /** a write call (insertTablet, insertRecords, a table insert, a writer's batch), retries included */
  insert: 'iotdb:insert',
} as const);

/** What every trace's context holds. The client fills the fields in; `error` and `result` are set by Node. */
export interface TraceContext {
  /** the RPC or method: `openSession`, `executeQueryStatement`, `insertTablet`, ... */
  readonly operation: string;
  /** 'host:port' of the node the last request went to; undefined until one was sent */
  endpoint: string | undefined;
  /** request bytes sent (frames, retries included) */
  bytesOut: number;
  /** reply bytes received (frames) */
  bytesIn: number;
  /** rounds of requests: 1, plus one per retry */
  attempts: number;
  /** wall time of the call, ms (set before `asyncEnd` and `error`) */
  durationMs: number;
  /**
   * Where the time went, ms, every attempt added up: waiting for a pooled session before the call (0 outside
   * a pool), building request bytes, from the request's write to its reply's last byte (network + server),
   * and reading the replies. The rest of durationMs is the client's own work around them (validation,
   * routing, retry back-off). A query's later fetches and the decoding of its rows happen while the caller
   * reads the data set, after the trace.
   */
  poolWaitMs: number;
  serializeMs: number;
  networkMs: number;
  decodeMs: number;
  /** why the call failed (set by Node before the `error` event); undefined while it has not */
  error: unknown;
  /** what the call resolved with (set by Node before `asyncStart`) */
  result: unknown;
}

/** `iotdb:connect`: one connection. `operation` is 'openSession'. */
export type ConnectTraceContext = TraceContext;

/** `iotdb:query`: a query or a statement. */
export interface QueryTraceContext extends TraceContext {
  /** the SQL, as given; undefined for the structured queries (executeRawDataQuery, ...) */
  readonly statement: string | undefined;
}

/** `iotdb:insert`: one write call. */
export interface InsertTraceContext extends TraceContext {
  /** rows given (a record is one row) */
  readonly rows: number;
  /** values given: rows × measurements (table model: × FIELD columns), nulls included */
  readonly points: number;
}

/**
 * What the client uses of a Node TracingChannel, typed here rather than as that generic type: @types/node 20
 * and 26 order that type's parameters differently, and a declaration naming them fails to compile under one.
 */
export interface TraceChannel<C extends TraceContext> {
  readonly hasSubscribers: boolean;
  /** Node's tracePromise(fn, context, thisArg, ...args): the client passes the context as fn's one argument */
  tracePromise<T>(fn: (context: C) => Promise<T>, context: C, thisArg: undefined, arg: C): Promise<T>;
}

export const connectChannel: TraceChannel<ConnectTraceContext> = tracingChannel(CHANNELS.connect);
export const queryChannel: TraceChannel<QueryTraceContext> = tracingChannel(CHANNELS.query);
export const insertChannel: TraceChannel<InsertTraceContext> = tracingChannel(CHANNELS.insert);

// Contexts are written as whole literals, every field present from the start: one hidden class per
// channel, never changed by the client or by Node setting `result`/`error`. (Built by spreading objects
// they made a traced insert twice as slow.)

export function connectContext(endpoint: string): ConnectTraceContext {
  const operation = 'openSession';
  return {
    operation,
    endpoint,
    bytesOut: 0,
    bytesIn: 0,
    attempts: 1,
    durationMs: 0,
    poolWaitMs: 0,
    serializeMs: 0,
    networkMs: 0,
    decodeMs: 0,
    error: undefined,
    result: undefined,
  };
}

export function queryContext(operation: string, statement: string | undefined, poolWaitMs: number): QueryTraceContext {
  return {
    operation,
    statement,
    endpoint: undefined,
    bytesOut: 0,
    bytesIn: 0,
    attempts: 1,
    durationMs: 0,
    poolWaitMs,
    serializeMs: 0,
    networkMs: 0,
    decodeMs: 0,
    error: undefined,
    result: undefined,
  };
}

export function insertContext(operation: string, rows: number, points: number, poolWaitMs: number): InsertTraceContext {
  return {
    operation,
    rows,
    points,
    endpoint: undefined,
    bytesOut: 0,
    bytesIn: 0,
    attempts: 1,
    durationMs: 0,
    poolWaitMs,
    serializeMs: 0,
    networkMs: 0,
    decodeMs: 0,
    error: undefined,
    result: undefined,
  };
}

/**
 * Runs `fn(context)` as one trace on `channel` (Node's tracePromise: `start`, `end`, then `asyncStart` and
 * `asyncEnd`, `error` first if it rejects). `fn` sets `context.durationMs` before it settles. Only call
 * it when `channel.hasSubscribers`: callers build the context only then.
 */
export function traced<C extends TraceContext, T>(
  channel: TraceChannel<C>,
  context: C,
  fn: (context: C) => Promise<T>,
): Promise<T> {
  return channel.tracePromise(fn, context, undefined, context);
}
