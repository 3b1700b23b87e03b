import { AsyncLocalStorage } from 'node:async_hooks';
import { tracingChannel } from 'node:diagnostics_channel';
import {
  CHANNELS,
  type DataSetReadStats,
  type InsertTraceContext,
  type QueryTraceContext,
  type TraceContext,
} from '@iotdb/client';

/** Where a query's traced call leaves its pool wait for the read that made it (withPoolWait). */
const poolWaits = new AsyncLocalStorage<{ ms: number }>();
/**
 * The client's query channel: withPoolWait uses poolWaits only while it has a subscriber (traceClient's), as on Node
 * 20 an AsyncLocalStorage's first run turns on the async hooks every promise of the process pays for after.
 */
const queryChannel = tracingChannel<unknown, QueryTraceContext>(CHANNELS.query);

/**
 * `--trace`: subscribes to the client's three tracing channels for as long as the worker runs, as a tracing
 * library would, and hands each finished write's context to `onInsert`; each finished query's wait for its pooled
 * session goes to the read that made it (withPoolWait). Connects are subscribed too (so their cost is paid) but not
 * reported. Returns the unsubscribe.
 */
export function traceClient(onInsert: (context: InsertTraceContext) => void): () => void {
  const ignore = () => undefined;
  const quiet = { start: ignore, end: ignore, asyncStart: ignore, error: ignore, asyncEnd: ignore };
  const inserts = { ...quiet, asyncEnd: onInsert };
  const queries = { ...quiet, asyncEnd: notePoolWait };
  const connectChannel = tracingChannel<unknown, TraceContext>(CHANNELS.connect);
  const insertChannel = tracingChannel<unknown, InsertTraceContext>(CHANNELS.insert);
  insertChannel.subscribe(inserts);
  queryChannel.subscribe(queries);
  connectChannel.subscribe(quiet);
  return () => {
    insertChannel.unsubscribe(inserts);
    queryChannel.unsubscribe(queries);
    connectChannel.unsubscribe(quiet);
  };
}

/** A query's traced call ended: its pool wait goes to the read it is part of (the async context it ran in). */
function notePoolWait(context: QueryTraceContext): void {
  const read = poolWaits.getStore();
  if (read !== undefined) read.ms = context.poolWaitMs;
}

/**
 * Makes a pool's query call, and gives its result with the wait for a pooled session its traced call reported (0
 * without traceClient's subscription): clients reading at once each get their own, by the async context.
 */
export async function withPoolWait<T>(call: () => Promise<T>): Promise<[T, number]> {
  if (!queryChannel.hasSubscribers) return [await call(), 0];
  const read = { ms: 0 };
  const result = await poolWaits.run(read, call);
  return [result, read.ms];
}

/**
 * A traced write as latency rows, ms: its own duration, then the wait for a pooled session (before the call, not in
 * that duration), and where the duration went: request encoding, network + server, reply decoding, and the rest of
 * the call (validation, routing, retries' back-off).
 */
export function tracedLatencies(ctx: TraceContext): [kind: string, ms: number][] {
  const other = ctx.durationMs - ctx.serializeMs - ctx.networkMs - ctx.decodeMs;
  return [
    [ctx.operation, ctx.durationMs],
    [`${ctx.operation}: pool wait`, ctx.poolWaitMs],
    [`${ctx.operation}: serialize`, ctx.serializeMs],
    [`${ctx.operation}: network + server`, ctx.networkMs],
    [`${ctx.operation}: decode`, ctx.decodeMs],
    [`${ctx.operation}: other client work`, Math.max(0, other)],
  ];
}

/**
 * A query read to its end in `totalMs` as latency rows, ms (its own duration is the operation's row): the wait for a
 * pooled session, then for its first reply (the request, the server's first batch; `firstReplyMs` counts both waits
 * from the read's start), decoding its blocks, waiting for later fetches (what reading ahead did not hide), and the
 * rest: making the rows and handing them over.
 */
export function queryLatencies(
  kind: string,
  { poolWaitMs, firstReplyMs }: { poolWaitMs: number; firstReplyMs: number },
  totalMs: number,
  read: DataSetReadStats,
): [kind: string, ms: number][] {
  const other = totalMs - firstReplyMs - read.decodeMs - read.fetchWaitMs;
  return [
    [`${kind}: pool wait`, poolWaitMs],
    [`${kind}: first reply`, Math.max(0, firstReplyMs - poolWaitMs)],
    [`${kind}: decode`, read.decodeMs],
    [`${kind}: waiting for fetches`, read.fetchWaitMs],
    [`${kind}: other client work`, Math.max(0, other)],
  ];
}
