import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IoTDBValidationError, type TSStatus } from '@iotdb/fast-serializer';
import { Recorder } from '../diagnostics/recorder.js';
import { IoTDBBatchError, IoTDBServerError } from '../errors.js';
import { resolveRetryOptions } from '../retry/retry-policy.js';
import { routeWrite, type WritePlan, type WriteTargets } from './write-router.js';

// The router alone, over scripted nodes: what it sends, and what it says of each item.

const NODES = ['a', 'b', 'c'];
const RETRY = resolveRetryOptions({ initialDelayMs: 0, maxDelayMs: 0, maxElapsedMs: 10_000 });

/** One item's fate on the server: refused transiently (600) `transient` times, then stored or refused (507). */
interface Fate {
  device: number;
  transient: number;
  refused: boolean;
}

/** Targets routing device d to NODES[route[d]] (or the default node, 'a', for -1); every node up. */
function targets(route: readonly number[]): WriteTargets<string> {
  const endpoint = (d: number) => (route[d] >= 0 ? { host: NODES[route[d]], port: 1 } : undefined);
  return {
    routing: () => route.some((r) => r >= 0),
    route: (device) => endpoint(Number(device)),
    node: (target) => Promise.resolve(target?.host ?? 'a'),
    unreachable: () => undefined,
    failed: () => undefined,
    answered: () => undefined,
    learn: () => undefined,
    traced: (_node, _trace, send) => send(),
  };
}

/** A plan over `fates` whose node replies follow them; `sent` logs [node, item] per item sent. */
function plan(fates: readonly Fate[], checkFails: boolean, sent: [string, number][]): WritePlan<string> {
  const sends = fates.map(() => 0);
  const codeOf = (k: number) => (sends[k]++ < fates[k].transient ? 600 : fates[k].refused ? 507 : 200);
  return {
    what: 'write',
    count: fates.length,
    deviceOf: (k) => String(fates[k].device),
    labelOf: (k) => `d${fates[k].device}`,
    indexesOf: (k) => [k],
    send: (node, ks) => {
      for (const k of ks) sent.push([node, k]);
      const codes = ks.map(codeOf);
      const status: TSStatus = codes.every((c) => c === 200)
        ? { code: 200 }
        : { code: 302, subStatus: codes.map((code) => ({ code, message: `m${code}` })) };
      return Promise.resolve(status);
    },
    check: () => {
      if (checkFails) throw new IoTDBValidationError('items[0]', 'refused');
    },
  };
}

const fates: fc.Arbitrary<Fate[]> = fc.array(
  fc.record({ device: fc.nat(4), transient: fc.nat(2), refused: fc.boolean() }),
  { minLength: 1, maxLength: 12 },
);
const routes = fc.array(fc.integer({ min: -1, max: NODES.length - 1 }), { minLength: 5, maxLength: 5 });

describe('routeWrite', () => {
  it('sends nothing when its items go to several nodes and the check refuses them', async () => {
    await fc.assert(
      fc.asyncProperty(fates, routes, async (fs, route) => {
        const sent: [string, number][] = [];
        // a group per route named (the default node's items, no route, are a group of their own)
        const split = new Set(fs.map((f) => route[f.device])).size > 1;
        const outcome = await routeWrite(plan(fs, true, sent), targets(route), RETRY, undefined, {
          recorder: new Recorder(undefined, 0),
          trace: null,
        }).catch((e: unknown) => e);
        if (split) {
          expect(outcome).toBeInstanceOf(IoTDBValidationError);
          expect(sent).toEqual([]);
        } else {
          expect(outcome).not.toBeInstanceOf(IoTDBValidationError); // one request checks as it encodes
        }
      }),
    );
  });

  it('says of every item once whether it was stored, sends it to the node of its device, and never again once stored', async () => {
    await fc.assert(
      fc.asyncProperty(fates, routes, async (fs, route) => {
        const sent: [string, number][] = [];
        const outcome = await routeWrite(plan(fs, false, sent), targets(route), RETRY, undefined, {
          recorder: new Recorder(undefined, 0),
          trace: null,
        }).catch((e: unknown) => e);
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
          for (const [node] of mine) expect(node).toBe(route[f.device] >= 0 ? NODES[route[f.device]] : 'a');
        });
      }),
    );
  });
});
