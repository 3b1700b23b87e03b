import { describe, expect, it } from 'vitest';
import { sampleConfig } from '../report/test-fixture.js';
import type { BenchConfig } from '../types.js';
import { OPERATIONS, type OperationWeights } from '../workload/operations.js';
import { clientOperations, rowsAfterTheRun } from './client-operations.js';
import { everyClient } from './device-shares.js';

const MIX = Object.fromEntries(OPERATIONS.map((op) => [op, op === 'INGESTION' ? 3 : 1])) as OperationWeights;

/** Each operation's count over every client of a run (a machine's share), and the devices each device group wrote. */
function planned(c: BenchConfig): { counts: Map<string, number>; writes: Map<string, number> } {
  const counts = new Map<string, number>();
  const writes = new Map<string, number>();
  for (const { groups } of everyClient(c)) {
    for (const o of clientOperations(c, groups, ['s_0'])) {
      counts.set(o.op, (counts.get(o.op) ?? 0) + 1);
      if (o.op === 'INGESTION') writes.set(o.devices.join(','), (writes.get(o.devices.join(',')) ?? 0) + 1);
    }
  }
  return { counts, writes };
}

describe('the operations a mixed run draws', () => {
  const knobs = { devices: 20, loop: 30, warmupRounds: 0, operationProportion: MIX };

  it("are the same, share by share, as one run's over every device with as many clients: merge adds up to it", () => {
    const whole = planned(sampleConfig({ ...knobs, workers: 2, clients: 2, deviceOffset: 0, deviceCount: 20 }));
    const shares = [0, 10].map((deviceOffset) =>
      planned(sampleConfig({ ...knobs, workers: 1, clients: 2, deviceOffset, deviceCount: 10 })),
    );
    const summed = new Map<string, number>();
    for (const { counts } of shares) for (const [op, n] of counts) summed.set(op, (summed.get(op) ?? 0) + n);
    expect(summed).toEqual(whole.counts);
    expect(new Map([...shares[0].writes, ...shares[1].writes])).toEqual(whole.writes);
    expect(whole.counts.size).toBe(OPERATIONS.length); // a mix, every query type drawn
  });

  it('give a share the rows after the run that the same devices have in one run', () => {
    const whole = sampleConfig({ ...knobs, workers: 2, clients: 2, deviceOffset: 0, deviceCount: 20 });
    const share = sampleConfig({ ...knobs, workers: 1, clients: 2, deviceOffset: 10, deviceCount: 10 });
    const firstHalf = sampleConfig({ ...knobs, workers: 1, clients: 2, deviceOffset: 0, deviceCount: 10 });
    expect(Math.min(rowsAfterTheRun(share), rowsAfterTheRun(firstHalf))).toBe(rowsAfterTheRun(whole));
  });
});
