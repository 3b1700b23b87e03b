import { describe, expect, it } from 'vitest';
import type { ServerCpuSpent } from '../types.js';
import { ServerCoresSampler } from './server-cores.js';

/** A server whose CPU since the start reads `seconds[k]` at its k-th reading (a string: that process gone). */
function server(...seconds: (number | string)[]): () => ServerCpuSpent {
  let k = 0;
  return () => {
    const s = seconds[k++];
    return typeof s === 'string' ? { pids: [7], error: s } : { pids: [7], seconds: s };
  };
}

describe('ServerCoresSampler', () => {
  it("samples the server's cores busy over each interval since the last, at its seconds from the start", () => {
    const sampler = new ServerCoresSampler(server(1.5, 2, 2.25), 1000);
    expect(sampler.sample(2000)).toEqual({ pids: [7], seconds: 1.5 }); // its CPU since the start, as read
    sampler.sample(3000);
    sampler.sample(3500); // a last, shorter interval
    expect(sampler.samples).toEqual([
      [1, 1.5],
      [2, 0.5],
      [2.5, 0.5],
    ]);
  });

  it('keeps the samples before a process was gone and takes none after it', () => {
    const sampler = new ServerCoresSampler(server(1, 'process 7 was gone at the end', 3), 0);
    sampler.sample(1000);
    expect(sampler.sample(2000)).toEqual({ pids: [7], error: 'process 7 was gone at the end' });
    sampler.sample(3000);
    expect(sampler.samples).toEqual([[1, 1]]);
  });

  it('reads the CPU since the start without a sample when asked to (a run that never reached its timed phase)', () => {
    const sampler = new ServerCoresSampler(server(0.5), 0);
    expect(sampler.spent()).toEqual({ pids: [7], seconds: 0.5 });
    expect(sampler.samples).toEqual([]);
  });
});
