import { describe, expect, it } from 'vitest';
import { sampleConfig } from '../report/test-fixture.js';
import type { BenchConfig } from '../types.js';
import { OPERATIONS, QUERY_KINDS, type OperationWeights } from '../workload/operations.js';
import { javaPlan } from './java-plan.js';
import { SimulatedClock, workerTask } from './test-fixture.js';
import { WorkerRun, type Backend } from './worker-run.js';

const MIX = Object.fromEntries(OPERATIONS.map((op) => [op, op === 'INGESTION' ? 3 : 1])) as OperationWeights;
const READS = { ...MIX, INGESTION: 0 };

/** What one worker's clients did after the schema rows, in order, as plan lines (untimed and timed alike). */
async function ranBy(config: BenchConfig): Promise<string[]> {
  const did: string[] = [];
  const fake: Backend = {
    writer: (_size, send) => (devices, round) =>
      send('insertTablet', 1, () => {
        if (round >= 0) did.push(`0 write ${round} ${devices.join(',')}`);
        return 1;
      }),
    rowWriter: () => {
      throw new Error('not a --method writer run');
    },
    query: (sql, kind) => (did.push(`0 query ${kind} ${sql}`), Promise.resolve({ rows: 1, points: 1 })),
    activity: () => ({ retries: 0, connects: 0, connectFailures: 0, failovers: 0, redirects: 0 }),
  };
  const task = workerTask(config);
  const clock = new SimulatedClock();
  const result = await clock.drive(new WorkerRun(task, fake, clock).run());
  if (result.state !== 'done') throw new Error(result.error);
  return did;
}

/** A plan line as the operation it is, untimed or not. */
function untimed(line: string): string {
  return line.replace(' warmup-query ', ' query ').replace(' warmup ', ' write ');
}

describe("the Java client's plan of a mixed run (--vs-java with --operation-proportion)", () => {
  const one = { workers: 1, clients: 1, devices: 6, deviceCount: 6, loop: 5, warmupRounds: 1, queryDeviceNum: 2 };

  it('is the very writes and statements our client ran, in its order, the warm-up first', async () => {
    const config = sampleConfig({ ...one, operationProportion: MIX });
    const plan = [...javaPlan(config)];
    const ours = await ranBy(config);
    expect(plan.map(untimed)).toEqual(ours);
    expect(ours.filter((l) => l.includes(' query ')).length).toBeGreaterThan(3 + 10); // a mix, not writes alone
    // the warm-up round: a write of each device, then each query type once
    const warmup = plan.slice(0, 16);
    expect(warmup.slice(0, 6)).toEqual([0, 1, 2, 3, 4, 5].map((d) => `0 warmup 0 ${d}`));
    expect(warmup.slice(6).map((l) => l.split(' ').slice(0, 3).join(' '))).toEqual(
      QUERY_KINDS.map((k) => `0 warmup-query ${k}`),
    );
    expect(plan.slice(16).every((l) => !l.includes(' warmup'))).toBe(true);
  });

  it('gives each client (worker x clients + k) its share of the devices, loop x its groups operations', () => {
    const config = sampleConfig({ workers: 2, clients: 2, devices: 10, deviceCount: 10, loop: 4, warmupRounds: 0 });
    const plan = [...javaPlan({ ...config, operationProportion: MIX })];
    const written = (id: number) =>
      new Set(plan.filter((l) => l.startsWith(`${id} write `)).flatMap((l) => l.split(' ')[3].split(',')));
    // worker 0 has devices 0-4 (client 0: 0, 2, 4; client 1: 1, 3), worker 1 5-9
    expect([...written(0)].every((d) => ['0', '2', '4'].includes(d))).toBe(true);
    expect([...written(3)].every((d) => ['6', '8'].includes(d))).toBe(true);
    expect([0, 1, 2, 3].map((id) => plan.filter((l) => l.startsWith(`${id} `)).length)).toEqual([12, 8, 12, 8]);
  });

  it('reads only, writing nothing, when INGESTION weighs 0 (its warm-up: each query type once)', async () => {
    const config = sampleConfig({ ...one, operationProportion: READS });
    const plan = [...javaPlan(config)];
    expect(plan).toHaveLength(10 + 30);
    expect(plan.slice(0, 10).every((l) => l.startsWith('0 warmup-query '))).toBe(true);
    expect(plan.slice(10).every((l) => l.startsWith('0 query '))).toBe(true);
    expect(plan.map(untimed)).toEqual(await ranBy(config));
  });
});
