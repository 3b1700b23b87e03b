import { tracingChannel } from 'node:diagnostics_channel';
import { CHANNELS, type DataSetReadStats, type InsertTraceContext, type TraceContext } from '@iotdb/client';

/**
 * `--trace`: subscribes to the client's three tracing channels for as long as the worker runs, as a tracing
 * library would, and hands each finished write's context to `onInsert`. Connects and queries are subscribed
 * too (so their cost is paid) but not reported. Returns the unsubscribe.
 */
export function traceClient(onInsert: (context: InsertTraceContext) => void): () => void {
  const ignore = () => undefined;
  const quiet = { start: ignore, end: ignore, asyncStart: ignore, error: ignore, asyncEnd: ignore };
  const inserts = { ...quiet, asyncEnd: onInsert };
  const others = [CHANNELS.connect, CHANNELS.query].map((name) => tracingChannel<unknown, TraceContext>(name));
  const insertChannel = tracingChannel<unknown, InsertTraceContext>(CHANNELS.insert);
  insertChannel.subscribe(inserts);
  for (const channel of others) channel.subscribe(quiet);
  return () => {
    insertChannel.unsubscribe(inserts);
    for (const channel of others) channel.unsubscribe(quiet);
  };
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
 * A query read to its end in `totalMs` as latency rows, ms (its own duration is the operation's row): the wait for
 * its first reply (a pooled session, the request, the server's first batch), decoding its blocks, waiting for later
 * fetches (what reading ahead did not hide), and the rest: making the rows and handing them over.
 */
export function queryLatencies(
  kind: string,
  firstReplyMs: number,
  totalMs: number,
  read: DataSetReadStats,
): [kind: string, ms: number][] {
  const other = totalMs - firstReplyMs - read.decodeMs - read.fetchWaitMs;
  return [
    [`${kind}: first reply`, firstReplyMs],
    [`${kind}: decode`, read.decodeMs],
    [`${kind}: waiting for fetches`, read.fetchWaitMs],
    [`${kind}: other client work`, Math.max(0, other)],
  ];
}
