import { tracingChannel } from 'node:diagnostics_channel';
import { CHANNELS } from '@iotdb/client';
import { describe, expect, it } from 'vitest';
import { traceClient } from './trace.js';

describe('--trace', () => {
  it("reports each traced write's operation and duration, and unsubscribes from all three channels", async () => {
    const seen: [string, number][] = [];
    const untrace = traceClient((operation, ms) => seen.push([operation, ms]));
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
});
