import { tracingChannel } from 'node:diagnostics_channel';
import { CHANNELS, type InsertTraceContext, type QueryTraceContext } from '@iotdb/client';
import { describe, expect, it } from 'vitest';
import { queryLatencies, traceClient, tracedLatencies, withPoolWait } from './trace.js';

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

  it('breaks a query into its pool wait, first reply, decoding, waiting for fetches and the rest: the parts add up', () => {
    const stats = { blocks: 3, fetches: 2, decodeMs: 1.5, fetchWaitMs: 0.25 };
    expect(queryLatencies('TIME_RANGE', { poolWaitMs: 1, firstReplyMs: 4 }, 7, stats)).toEqual([
      ['TIME_RANGE: pool wait', 1],
      ['TIME_RANGE: first reply', 3], // the request and the server's first batch
      ['TIME_RANGE: decode', 1.5],
      ['TIME_RANGE: waiting for fetches', 0.25],
      ['TIME_RANGE: other client work', 1.25], // making the rows and handing them over
    ]);
  });

  it('gives each query the pool wait its own traced call reported, queries of several clients at once', async () => {
    const untrace = traceClient(() => undefined);
    // a pool's query: the traced call reports the wait for its session when the call ends
    const query = async (poolWaitMs: number, tookMs: number) => {
      const ctx = { operation: 'executeQueryStatement', poolWaitMs } as QueryTraceContext;
      return tracingChannel(CHANNELS.query).tracePromise(
        () => new Promise<string>((done) => setTimeout(() => done(`waited ${poolWaitMs}`), tookMs)),
        ctx,
      );
    };
    try {
      const reads = await Promise.all([withPoolWait(() => query(7, 20)), withPoolWait(() => query(2, 5))]);
      expect(reads).toEqual([
        ['waited 7', 7],
        ['waited 2', 2],
      ]);
    } finally {
      untrace();
    }
    // no subscription (no --trace): nothing reported, no wait
    expect(await withPoolWait(() => query(3, 1))).toEqual(['waited 3', 0]);
  });
});
