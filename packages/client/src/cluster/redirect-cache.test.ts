import { afterEach, describe, expect, it, vi } from 'vitest';
import { RouteTable } from './routes.js';

const ok = (ip: string, port: number) => ({ code: 200, redirectNode: { ip, port } });

describe('RouteTable', () => {
  afterEach(() => vi.useRealTimers());

  it('learns a single-device redirect and per-entry sub-status redirects', () => {
    const t = new RouteTable();
    t.learn(ok('10.0.0.2', 6667), 'root.sg.d1', () => null);
    t.learn({ code: 400, subStatus: [ok('10.0.0.3', 6667), { code: 200 }] }, null, (i) => `root.sg.m${i}`);
    expect(t.get('root.sg.d1')).toEqual({ host: '10.0.0.2', port: 6667 });
    expect(t.get('root.sg.m0')).toEqual({ host: '10.0.0.3', port: 6667 });
    expect(t.get('root.sg.m1')).toBeUndefined();
  });

  it('ignores redirects to 0.0.0.0', () => {
    const t = new RouteTable();
    t.learn(ok('0.0.0.0', 6667), 'root.sg.d1', () => null);
    expect(t.size).toBe(0);
  });

  it('forgets a failed node, ignores redirects to it for the quarantine, then learns them again', () => {
    vi.useFakeTimers();
    const t = new RouteTable(1000);
    t.learn(ok('10.0.0.2', 6667), 'root.sg.d1', () => null);
    t.forgetEndpoint({ host: '10.0.0.2', port: 6667 });
    expect(t.get('root.sg.d1')).toBeUndefined();
    t.learn(ok('10.0.0.2', 6667), 'root.sg.d1', () => null);
    expect(t.get('root.sg.d1')).toBeUndefined();
    vi.advanceTimersByTime(1001);
    t.learn(ok('10.0.0.2', 6667), 'root.sg.d1', () => null);
    expect(t.get('root.sg.d1')).toEqual({ host: '10.0.0.2', port: 6667 });
  });
});
