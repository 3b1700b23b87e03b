import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BufferPool, ByteWriter, IoTDBValidationError, type TSStatus } from '@iotdb/fast-serializer';
import { Recorder } from '../diagnostics/recorder.js';
import { IoTDBBatchError, IoTDBServerError } from '../errors.js';
import { resolveRetryOptions } from '../retry/retry-policy.js';
import type { WritePlan, WriteTargets } from './write-plan.js';
import { routeWrite } from './write-router.js';

// The router alone, over scripted nodes: what it sends, and what it says of each item.

const NODES = ['a', 'b', 'c'];
const RETRY = resolveRetryOptions({ initialDelayMs: 0, maxDelayMs: 0, maxElapsedMs: 10_000 });

/**
 * One item's fate: a bad cell (refused as its request is encoded), or on the server refused transiently (600)
 * `transient` times, then stored or refused (507).
 */
interface Fate {
  device: number;
  bad: boolean;
  transient: number;
  refused: boolean;
}

/**
 * Targets routing device d to NODES[route[d]] (or the default node, 'a', for -1); every node up. `reached`: the
 * nodes the router asked for, in order.
 */
function targets(route: readonly number[], reached: string[] = []): WriteTargets<string> {
  const endpoint = (d: number) => (route[d] >= 0 ? { host: NODES[route[d]], port: 1 } : undefined);
  return {
    routing: () => route.some((r) => r >= 0),
    route: (device) => endpoint(Number(device)),
    defaultKey: () => 'a:1',
    node: (target) => {
      reached.push(target?.host ?? 'a');
      return Promise.resolve(target?.host ?? 'a');
    },
    unreachable: () => undefined,
    failed: () => undefined,
    answered: () => undefined,
    learn: () => undefined,
    traced: (_node, _trace, send) => send(),
  };
}

/**
 * What a plan saw: [node, item] per item sent, requests sent with bytes made for other items, the items of each
 * request encoded ahead, their buffers' pool, the nodes the router reached.
 */
interface Log {
  sent: [string, number][];
  wrong: string[];
  encoded: number[][];
  pool: BufferPool;
  reached: string[];
}

/** A plan over `fates` whose node replies follow them, encoding requests ahead when the router asks. */
function plan(fates: readonly Fate[], log: Log): WritePlan<string> {
  const sends = fates.map(() => 0);
  const codeOf = (k: number) => (sends[k]++ < fates[k].transient ? 600 : fates[k].refused ? 507 : 200);
  /** the request of items `ks` as the session encodes it: a bad cell throws */
  const encodes = (ks: readonly number[]) => {
    const bad = ks.find((k) => fates[k].bad);
    if (bad !== undefined) throw new IoTDBValidationError(`items[${bad}]`, 'refused');
    return ks.join(',');
  };
  const ahead = new WeakMap<ByteWriter, string>();
  return {
    what: 'write',
    count: fates.length,
    deviceOf: (k) => String(fates[k].device),
    labelOf: (k) => `d${fates[k].device}`,
    indexesOf: (k) => [k],
    send: (node, ks, encoded) => {
      // as the connection encodes a request, before its bytes are written; or the bytes encoded for it
      const request = encoded === undefined ? encodes(ks) : ahead.get(encoded);
      if (request !== ks.join(',')) log.wrong.push(`${request} sent as ${ks.join(',')}`);
      for (const k of ks) log.sent.push([node, k]);
      const codes = ks.map(codeOf);
      const status: TSStatus = codes.every((c) => c === 200)
        ? { code: 200 }
        : { code: 302, subStatus: codes.map((code) => ({ code, message: `m${code}` })) };
      return Promise.resolve(status);
    },
    encode: (ks) => {
      const request = encodes(ks);
      log.encoded.push([...ks]);
      const w = new ByteWriter(16, log.pool);
      ahead.set(w, request);
      return w;
    },
  };
}

const fates: fc.Arbitrary<Fate[]> = fc.array(
  fc.record({
    device: fc.nat(4),
    bad: fc.nat(4).map((n) => n === 0),
    transient: fc.nat(2),
    refused: fc.boolean(),
  }),
  { minLength: 1, maxLength: 12 },
);
const routes = fc.array(fc.integer({ min: -1, max: NODES.length - 1 }), { minLength: 5, maxLength: 5 });
const write = (fs: readonly Fate[], route: readonly number[], log: Log) =>
  routeWrite(plan(fs, log), targets(route, log.reached), RETRY, undefined, {
    recorder: new Recorder(undefined, 0),
    trace: null,
  }).catch((e: unknown) => e);
/** The node an item's device is routed to ('a', the default node, without a route). */
const nodeOf = (route: readonly number[], f: Fate) => NODES[Math.max(route[f.device], 0)];
const newLog = (): Log => ({ sent: [], wrong: [], encoded: [], pool: new BufferPool(), reached: [] });
/** Whether the items go to more than one node (the default node's items, routed there or not, are one group). */
const splits = (fs: readonly Fate[], route: readonly number[]) =>
  fs.length > 1 && route.some((r) => r >= 0) && new Set(fs.map((f) => nodeOf(route, f))).size > 1;

describe('routeWrite', () => {
  it('sends nothing when a cell is refused, whether its items go to one node or several (then reaching none)', async () => {
    await fc.assert(
      fc.asyncProperty(fates, routes, async (fs, route) => {
        fc.pre(fs.some((f) => f.bad));
        const log = newLog();
        const outcome = await write(fs, route, log);
        expect(outcome).toBeInstanceOf(IoTDBValidationError);
        expect(log.sent).toEqual([]);
        expect(log.pool.getStats().outstanding).toBe(0); // the requests encoded before the refusal were given back
        if (splits(fs, route)) expect(log.reached).toEqual([]); // refused before any node was reached
      }),
    );
  });

  it('encodes a split call once, every group before any is sent, and gives every encoding back', async () => {
    await fc.assert(
      fc.asyncProperty(fates, routes, async (fs, route) => {
        fc.pre(!fs.some((f) => f.bad));
        const log = newLog();
        await write(fs, route, log);
        if (splits(fs, route)) expect(log.encoded.flat().sort((x, y) => x - y)).toEqual(fs.map((_, k) => k));
        else expect(log.encoded).toEqual([]);
        expect(log.wrong).toEqual([]);
        expect(log.pool.getStats().outstanding).toBe(0);
      }),
    );
  });

  it('says of every item once whether it was stored, sends it to the node of its device, and never again once stored', async () => {
    await fc.assert(
      fc.asyncProperty(fates, routes, async (fs, route) => {
        fc.pre(!fs.some((f) => f.bad));
        const log = newLog();
        const outcome = await write(fs, route, log);
        const sent = log.sent;
        const refused = fs.flatMap((f, k) => (f.refused ? [k] : []));
        const stored = fs.flatMap((f, k) => (f.refused ? [] : [k]));
        if (refused.length === 0) expect(outcome).toBeUndefined();
        else if (fs.length === 1) {
          // a single item's call: its error, with its status code
          expect((outcome as IoTDBServerError).statusCode).toBe(507);
        } else {
          const e = outcome as IoTDBBatchError;
          expect(e).toBeInstanceOf(IoTDBBatchError);
          expect(e.failures.map((f) => [f.index, f.statusCode, f.device])).toEqual(
            refused.map((k) => [k, 507, `d${fs[k].device}`]),
          );
          expect(e.succeeded).toEqual(stored);
        }
        // each item: sent once per transient refusal, then once more; always to its device's node
        fs.forEach((f, k) => {
          const mine = sent.filter(([, j]) => j === k);
          expect(mine).toHaveLength(f.transient + 1);
          for (const [node] of mine) expect(node).toBe(nodeOf(route, f));
        });
      }),
    );
  });
});
