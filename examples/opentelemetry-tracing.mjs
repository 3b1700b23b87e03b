// Turns the client's diagnostics channels (iotdb:connect, iotdb:query, iotdb:insert) into OpenTelemetry spans.
// The client publishes on node:diagnostics_channel and knows nothing of OpenTelemetry; this file is the whole
// bridge: a span starts on a trace's `start` event and ends on its `asyncEnd`, with the context's fields as
// attributes. Here spans go to an in-memory exporter and are printed; in an application, register your usual
// exporter (OTLP, Jaeger, ...) on the provider instead. Nothing is built while nobody subscribes.
//
//   node examples/opentelemetry-tracing.mjs    (IOTDB_HOST, IOTDB_PORT, IOTDB_USER, IOTDB_PASSWORD; default 127.0.0.1:6667)
import { tracingChannel } from 'node:diagnostics_channel';
import { SpanKind, SpanStatusCode, context } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { CHANNELS, Session } from '@iotdb/client';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('iotdb-client-example');

/** The span of each trace in flight, keyed by the trace's context object (the same object in all its events). */
const spans = new WeakMap();

function bridge(channelName) {
  const handlers = {
    start(ctx) {
      spans.set(ctx, tracer.startSpan(`iotdb ${ctx.operation}`, { kind: SpanKind.CLIENT }, context.active()));
    },
    end() {},
    asyncStart() {},
    error(ctx) {
      const span = spans.get(ctx);
      if (span === undefined) return;
      if (ctx.error instanceof Error) span.recordException(ctx.error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: String(ctx.error?.message ?? ctx.error) });
    },
    asyncEnd(ctx) {
      const span = spans.get(ctx);
      if (span === undefined) return;
      spans.delete(ctx);
      const [address, port] = (ctx.endpoint ?? ':').split(/:(?=\d+$)/);
      span.setAttributes({
        'db.system.name': 'iotdb',
        'db.operation.name': ctx.operation,
        'server.address': address,
        'server.port': Number(port),
        'iotdb.bytes_out': ctx.bytesOut,
        'iotdb.bytes_in': ctx.bytesIn,
        'iotdb.attempts': ctx.attempts,
        'iotdb.duration_ms': ctx.durationMs,
        ...(ctx.statement !== undefined ? { 'db.query.text': ctx.statement } : {}),
        ...(ctx.rows !== undefined ? { 'iotdb.rows': ctx.rows, 'iotdb.points': ctx.points } : {}),
      });
      span.end();
    },
  };
  tracingChannel(channelName).subscribe(handlers);
  return () => tracingChannel(channelName).unsubscribe(handlers);
}
const unsubscribe = Object.values(CHANNELS).map(bridge);

// ordinary client code: nothing here knows about tracing
const database = 'root.example_otel';
const session = new Session(); // host, port and credentials from the IOTDB_* environment variables
await session.open();
try {
  await session.executeNonQueryStatement(`CREATE DATABASE ${database}`).catch(() => undefined); // may exist
  const n = 500;
  const t0 = Date.now() - n * 1000;
  await session.insertTablet({
    deviceId: `${database}.pump1`,
    measurements: ['pressure', 'running'],
    dataTypes: ['DOUBLE', 'BOOLEAN'],
    timestamps: Float64Array.from({ length: n }, (_, i) => t0 + i * 1000),
    columns: [Float64Array.from({ length: n }, (_, i) => 2 + Math.sin(i / 20)), Array.from({ length: n }, () => true)],
  });
  const ds = await session.executeQueryStatement(`SELECT avg(pressure) FROM ${database}.pump1`);
  for await (const row of ds) console.log('avg pressure:', row.values[0]);
  await session.executeNonQueryStatement('SELEKT oops').catch((e) => console.log('refused as expected:', e.code));
} finally {
  await session.executeNonQueryStatement(`DELETE DATABASE ${database}`).catch(() => undefined);
  await session.close();
  unsubscribe.forEach((off) => off());
}

await provider.forceFlush();
console.log(`\n${exporter.getFinishedSpans().length} spans:`);
for (const span of exporter.getFinishedSpans()) {
  const ms = span.duration[0] * 1e3 + span.duration[1] / 1e6;
  const a = span.attributes;
  const status = span.status.code === SpanStatusCode.ERROR ? ` ERROR (${span.status.message?.slice(0, 60)}...)` : '';
  const size = a['iotdb.rows'] !== undefined ? ` rows=${a['iotdb.rows']} points=${a['iotdb.points']}` : '';
  const sql = a['db.query.text'] !== undefined ? ` "${a['db.query.text']}"` : '';
  console.log(
    `  ${span.name.padEnd(32)} ${ms.toFixed(1).padStart(7)} ms  ${a['server.address']}:${a['server.port']}` +
      `  out=${a['iotdb.bytes_out']}B in=${a['iotdb.bytes_in']}B${size}${sql}${status}`,
  );
}
await provider.shutdown();
