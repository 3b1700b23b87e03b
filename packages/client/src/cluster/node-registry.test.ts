import { describe, expect, it } from 'vitest';
import { NodeRegistry } from './node-registry.js';

const ok = (ip: string, port: number) => ({ code: 200, redirectNode: { ip, port } });
const A = { host: '10.0.0.1', port: 6667 };
const B = { host: '10.0.0.2', port: 6667 };
const C = { host: '10.0.0.3', port: 6667 };

function registry(seeds = [A, B, C], learnt: () => readonly (typeof A)[] = () => []) {
  let now = 1_000_000;
  const r = new NodeRegistry(seeds, { firstMs: 1_000, maxMs: 8_000 }, { now: () => now, learnt });
  return { r, advance: (ms: number) => (now += ms) };
}

describe('NodeRegistry: redirects', () => {
  it('learns a single-device redirect and per-entry sub-status redirects', () => {
    const { r } = registry();
    r.learn(ok('10.0.0.2', 6667), () => 'root.sg.d1', 1);
    r.learn({ code: 400, subStatus: [ok('10.0.0.3', 6667), { code: 200 }] }, (i) => `root.sg.m${i}`, 2);
    expect(r.routeOf('root.sg.d1')).toEqual(B);
    expect(r.routeOf('root.sg.m0')).toEqual(C);
    expect(r.routeOf('root.sg.m1')).toBeUndefined();
  });

  it('takes the node that answered for the leader of the devices it acknowledged without a redirect (not a redirect)', () => {
    let redirects = 0;
    const r = new NodeRegistry([A, B, C], { firstMs: 1_000, maxMs: 8_000 }, { onRoute: () => redirects++ });
    r.learn({ code: 200 }, () => 'root.sg.d1', 1, A);
    r.learn({ code: 200 }, (i) => `root.sg.all${i}`, 2, B);
    r.learn({ code: 400, subStatus: [{ code: 200 }, ok('10.0.0.3', 6667)] }, (i) => `root.sg.m${i}`, 2, A);
    r.learn({ code: 200 }, () => 'root.sg.nobody', 1); // no node given: nothing learnt
    expect(['root.sg.d1', 'root.sg.all0', 'root.sg.all1', 'root.sg.m0', 'root.sg.m1'].map((d) => r.routeOf(d))).toEqual(
      [A, B, B, A, C],
    );
    expect(r.routeOf('root.sg.nobody')).toBeUndefined();
    expect(redirects).toBe(1); // the one a reply named
    expect([r.routeCount, r.redirectCount]).toEqual([5, 1]); // writes route by the named ones alone
    r.lead('root.sg.q', undefined, C);
    r.lead('root.sg.q2', { ip: '10.0.0.2', port: 6667 }, C);
    expect([r.routeOf('root.sg.q'), r.routeOf('root.sg.q2')]).toEqual([C, B]);
  });

  it('ignores redirects to 0.0.0.0', () => {
    const { r } = registry();
    r.learn(ok('0.0.0.0', 6667), () => 'root.sg.d1', 1);
    expect(r.routeCount).toBe(0);
  });

  it('forgets a failed node’s devices, ignores redirects to it while quarantined, then learns them again', () => {
    const { r, advance } = registry();
    r.learn(ok('10.0.0.2', 6667), () => 'root.sg.d1', 1);
    r.markFailed(B);
    expect(r.routeOf('root.sg.d1')).toBeUndefined();
    r.learn(ok('10.0.0.2', 6667), () => 'root.sg.d1', 1);
    expect(r.routeOf('root.sg.d1')).toBeUndefined();
    advance(1_001);
    r.learn(ok('10.0.0.2', 6667), () => 'root.sg.d1', 1);
    expect(r.routeOf('root.sg.d1')).toEqual(B);
  });
});

describe('NodeRegistry: health', () => {
  it('doubles the quarantine with each failure in a row, up to the maximum, and ends it on success', () => {
    const { r, advance } = registry();
    const quarantineOf = () => {
      let ms = 0;
      while (!r.isAvailable(B)) {
        advance(100);
        ms += 100;
      }
      return ms;
    };
    const lengths = [1, 2, 3, 4, 5].map(() => (r.markFailed(B), quarantineOf()));
    expect(lengths).toEqual([1_000, 2_000, 4_000, 8_000, 8_000]);
    r.markHealthy(B);
    r.markFailed(B);
    expect(quarantineOf()).toBe(1_000);
  });

  it('orders candidates from the preferred node, available ones first, then the quarantined soonest released', () => {
    const { r, advance } = registry();
    expect(r.candidates('10.0.0.2:6667')).toEqual([B, C, A]);
    r.markFailed(B);
    advance(10);
    r.markFailed(A);
    expect(r.candidates('10.0.0.1:6667')).toEqual([C, B, A]);
  });

  it('offers the DataNodes learnt from the cluster after nodeUrls, each node once, from the preferred one', () => {
    const D = { host: '10.0.0.4', port: 6667 };
    let learnt = [B, C, D];
    const { r } = registry([A, B], () => learnt);
    expect(r.candidates()).toEqual([A, B, C, D]);
    expect(r.candidates('10.0.0.4:6667')).toEqual([D, A, B, C]);
    expect(r.candidates('10.0.0.9:6667')).toEqual([A, B, C, D]); // a node no longer known: from the first
    learnt = [D];
    r.markFailed(D);
    expect(r.candidates('10.0.0.4:6667')).toEqual([A, B, D]);
  });

  it('still offers every node when all are quarantined (a cluster that is all down is still tried)', () => {
    const { r } = registry([A]);
    r.markFailed(A);
    expect(r.candidates()).toEqual([A]);
  });
});
