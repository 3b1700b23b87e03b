import { describe, expect, it } from 'vitest';
import { QueryNodes } from './query-nodes.js';

const A = { host: '10.0.0.1', port: 6667 };
const B = { host: '10.0.0.2', port: 6667 };
const C = { host: '10.0.0.3', port: 6667 };
const all = () => true;

describe('QueryNodes', () => {
  it('gives the nodes in turn from where it starts, skipping the unavailable ones', () => {
    const q = new QueryNodes([A, B, C], 60_000, 1);
    expect([q.next(all), q.next(all), q.next(all), q.next(all)]).toEqual([B, C, A, B]);
    const notB = (e: typeof A) => e !== B;
    expect([q.next(notB), q.next(notB), q.next(notB)]).toEqual([C, A, C]);
    expect(q.next(() => false)).toBeUndefined();
  });

  it('turns made together start at different nodes (a random start), so processes started together spread too', () => {
    const firsts = new Set(Array.from({ length: 50 }, () => new QueryNodes([A, B, C], 60_000).next(all)));
    expect(firsts.size).toBe(3);
  });

  it('asks for the list at first and then once every refreshMs, one asking at a time', () => {
    const q = new QueryNodes([A], 60_000, 0);
    expect(q.startLearning(1_000)).toBe(true);
    expect(q.startLearning(1_001)).toBe(false); // asking already
    q.learnt([A, B]);
    expect(q.startLearning(60_999)).toBe(false);
    expect(q.startLearning(61_000)).toBe(true);
  });

  it('a learning cut short (its session closed) may start again at once; a failed one waits refreshMs', () => {
    const q = new QueryNodes([A], 60_000, 0);
    expect(q.startLearning(0)).toBe(true);
    q.abandoned();
    expect(q.startLearning(1)).toBe(true);
    q.learnt(undefined);
    expect(q.startLearning(2)).toBe(false);
    expect(q.startLearning(60_001)).toBe(true);
  });

  it('takes the list learnt, and keeps the one in use when asking failed or the cluster listed no node', () => {
    const q = new QueryNodes([A], 60_000, 0);
    q.startLearning(0);
    expect(q.learnt([B, C])).toBe(true);
    expect(q.keys).toEqual(['10.0.0.2:6667', '10.0.0.3:6667']);
    expect(q.learnt([B, C])).toBe(false); // the same list: nothing to tell
    expect(q.learnt([])).toBe(false);
    expect(q.learnt(undefined)).toBe(false);
    expect(q.keys).toEqual(['10.0.0.2:6667', '10.0.0.3:6667']);
  });
});
