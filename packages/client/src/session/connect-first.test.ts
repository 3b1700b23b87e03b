import { describe, expect, it } from 'vitest';
import type { Endpoint } from '../cluster/endpoint.js';
import { IoTDBConnectionError, IoTDBServerError } from '../errors.js';
import { connectFirst } from './connect-first.js';

const node = (n: number): Endpoint => ({ host: `10.0.0.${n}`, port: 6667 });
const refused = (e: Endpoint) => new IoTDBConnectionError('refused', `${e.host}:${e.port}`, 'refused', false);
const after = <T>(ms: number, f: () => T) => new Promise<T>((r) => setTimeout(() => r(f()), ms));
const never = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));

/** Races `count` nodes whose attempts `behave` decides; records what was started, failed and discarded. */
function race(count: number, behave: (n: number, signal: AbortSignal) => Promise<string>, staggerMs = 20) {
  const started: number[] = [];
  const failed: string[] = [];
  const discarded: string[] = [];
  const nodes = Array.from({ length: count }, (_, i) => node(i + 1));
  const result = connectFirst(
    nodes,
    (e, signal) => {
      const n = Number(e.host.split('.')[3]);
      started.push(n);
      return behave(n, signal);
    },
    {
      staggerMs,
      signal: new AbortController().signal,
      failed: (e) => failed.push(e.host),
      discard: (v) => discarded.push(v),
    },
  );
  return { result, started, failed, discarded };
}

describe('connectFirst', () => {
  it('takes the first node when it answers within the stagger, trying no other', async () => {
    const r = race(3, (n) => after(5, () => `s${n}`));
    expect(await r.result).toBe('s1');
    expect(r.started).toEqual([1]);
  });

  it('tries the next node at once when one fails, and marks the failed one', async () => {
    const r = race(3, (n) => (n < 3 ? Promise.reject(refused(node(n))) : Promise.resolve(`s${n}`)), 60_000);
    expect(await r.result).toBe('s3');
    expect(r.failed).toEqual(['10.0.0.1', '10.0.0.2']);
  });

  it('starts the next node beside one that does not answer, and gives up on it (not failed) once the other opens', async () => {
    let aborted = false;
    const r = race(2, (n, signal) => (n === 1 ? never(signal).finally(() => (aborted = true)) : Promise.resolve('s2')));
    expect(await r.result).toBe('s2');
    await after(0, () => undefined);
    expect(aborted).toBe(true);
    expect(r.failed).toEqual([]);
  });

  it('hands an attempt that opened after another won to discard', async () => {
    const r = race(2, (n) => (n === 1 ? after(60, () => 's1') : Promise.resolve('s2')));
    expect(await r.result).toBe('s2');
    await after(80, () => undefined);
    expect(r.discarded).toEqual(['s1']);
  });

  it('rejects with the last failure when every node failed', async () => {
    const r = race(3, (n) => after(n, () => Promise.reject(refused(node(n)))).then((p) => p));
    await expect(r.result).rejects.toMatchObject({ endpoint: '10.0.0.3:6667' });
    expect(r.started).toEqual([1, 2, 3]);
  });

  it('ends at once with a failure that is not a connection failure (a refused login)', async () => {
    const denied = new IoTDBServerError({ code: 801, message: 'wrong password' }, 'openSession');
    const r = race(3, () => Promise.reject(denied));
    await expect(r.result).rejects.toBe(denied);
    expect(r.started).toEqual([1]);
  });
});
