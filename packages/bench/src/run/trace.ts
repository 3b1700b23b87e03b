import { tracingChannel } from 'node:diagnostics_channel';
import { CHANNELS, type InsertTraceContext, type TraceContext } from '@iotdb/client';

/**
 * `--trace`: subscribes to the client's three tracing channels for as long as the worker runs, as a tracing
 * library would, and hands each finished write's own duration to `onInsert` (its operation, ms). Connects and
 * queries are subscribed too (so their cost is paid) but not reported. Returns the unsubscribe.
 */
export function traceClient(onInsert: (operation: string, durationMs: number) => void): () => void {
  const ignore = () => undefined;
  const quiet = { start: ignore, end: ignore, asyncStart: ignore, error: ignore, asyncEnd: ignore };
  const inserts = {
    ...quiet,
    asyncEnd: (ctx: InsertTraceContext) => onInsert(ctx.operation, ctx.durationMs),
  };
  const others = [CHANNELS.connect, CHANNELS.query].map((name) => tracingChannel<unknown, TraceContext>(name));
  const insertChannel = tracingChannel<unknown, InsertTraceContext>(CHANNELS.insert);
  insertChannel.subscribe(inserts);
  for (const channel of others) channel.subscribe(quiet);
  return () => {
    insertChannel.unsubscribe(inserts);
    for (const channel of others) channel.unsubscribe(quiet);
  };
}
