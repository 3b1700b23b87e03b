import { tracingChannel } from 'node:diagnostics_channel';
import { CHANNELS, type InsertTraceContext } from '@iotdb/client';
import { describe, expect, it } from 'vitest';
import { queryLatencies, traceClient, tracedLatencies } from './trace.js';

describe('--trace', () => {
  it("hands over each traced write's context, and unsubscribes from all three channels", async () => {
    const seen: [string, number][] = [];
    const untrace = traceClient((ctx) => seen.push([ctx.operation, ctx.durationMs]));
    const names = [CHANNELS.connect, CHANNELS.query, CHANNELS.insert];
    expect(names.map((n) => tracingChannel(n).hasSubscribers)).toEqual([true, true, true]);

    const context = { operation: 'insertTablet', durationMs: 0 };
    await tracingChannel(CHANNELS.insert).tracePromise(() => {
      context.durationMs = 12.5;
      return Promise.resolve();
    }, context);
    expect(seen).toEqual([['insertTablet', 12.5]]);

    untrace();
    expect(names.map((n) => tracingChannel(n).hasSubscribers)).toEqual([false, false, false]);
  });

  it('breaks a write into its phases, the rest of the call as other client work', () => {
    const ctx = {
      operation: 'insertTablet',
      durationMs: 10,
      poolWaitMs: 3,
      serializeMs: 1,
      networkMs: 7.5,
      decodeMs: 0.5,
    };
    expect(tracedLatencies(ctx as InsertTraceContext)).toEqual([
      ['insertTablet', 10],
      ['insertTablet: pool wait', 3],
      ['insertTablet: serialize', 1],
      ['insertTablet: network + server', 7.5],
      ['insertTablet: decode', 0.5],
      ['insertTablet: other client work', 1],
    ]);
  });

  it('breaks a query into its first reply, decoding, waiting for fetches and the rest: the parts add up', () => {
    const stats = { blocks: 3, fetches: 2, decodeMs: 1.5, fetchWaitMs: 0.25 };
    expect(queryLatencies('TIME_RANGE', 4, 7, stats)).toEqual([
      ['TIME_RANGE: first reply', 4],
      ['TIME_RANGE: decode', 1.5],
      ['TIME_RANGE: waiting for fetches', 0.25],
      ['TIME_RANGE: other client work', 1.25], // making the rows and handing them over
    ]);
  });
});
