import { TSDataType } from '@iotdb/client';
import { describe, expect, it } from 'vitest';
import { sampleConfig } from '../report/test-fixture.js';
import type { BenchConfig } from '../types.js';
import { OPERATIONS, QUERY_KINDS, WRITES_ONLY, type OperationWeights } from '../workload/operations.js';
import { clientOperations, rowsAfterTheRun, warmupOperations } from './client-operations.js';
import { everyClient } from './device-shares.js';
import type { QuerySensor } from '../workload/query-sql.js';

const SENSORS: QuerySensor[] = [{ name: 's_0', type: TSDataType.DOUBLE }];
const MIX = Object.fromEntries(OPERATIONS.map((op) => [op, op === 'INGESTION' ? 3 : 1])) as OperationWeights;

/** Each operation's count over every client of a run (a machine's share), and the devices each device group wrote. */
function planned(c: BenchConfig): { counts: Map<string, number>; writes: Map<string, number> } {
  const counts = new Map<string, number>();
  const writes = new Map<string, number>();
  for (const { groups } of everyClient(c)) {
    for (const o of clientOperations(c, groups, SENSORS)) {
      counts.set(o.op, (counts.get(o.op) ?? 0) + 1);
      if (o.op === 'INGESTION') writes.set(o.devices.join(','), (writes.get(o.devices.join(',')) ?? 0) + 1);
    }
  }
  return { counts, writes };
}

describe('the operations a mixed run draws', () => {
  const knobs = { devices: 20, loop: 30, warmupRounds: 0, operationProportion: MIX };

  it("are, share by share, one run's over every device however the run splits them: merge adds up to it", () => {
    const shares = [0, 10].map((deviceOffset) =>
      planned(sampleConfig({ ...knobs, workers: 1, clients: 2, deviceOffset, deviceCount: 10 })),
    );
    const summed = new Map<string, number>();
    for (const { counts } of shares) for (const [op, n] of counts) summed.set(op, (summed.get(op) ?? 0) + n);
    // one machine with the shares' workers and clients, or any other split (measured: one run of 1 worker x 4
    // clients wrote 108,500 points where two shares of 1 x 2 wrote 115,000, the same seed)
    for (const layout of [
      { workers: 2, clients: 2 },
      { workers: 1, clients: 4 },
      { workers: 1, clients: 1 },
      { workers: 3, clients: 2 },
    ]) {
      const whole = planned(sampleConfig({ ...knobs, ...layout, deviceOffset: 0, deviceCount: 20 }));
      expect(summed, JSON.stringify(layout)).toEqual(whole.counts);
      expect(new Map([...shares[0].writes, ...shares[1].writes]), JSON.stringify(layout)).toEqual(whole.writes);
      expect(whole.counts.size).toBe(OPERATIONS.length); // a mix, every query type drawn
    }
  });

  it("write each device's rounds in order, and say when a write completes a round of the client's devices", () => {
    const c = sampleConfig({ ...knobs, workers: 1, clients: 1, deviceOffset: 0, deviceCount: 4, warmupRounds: 2 });
    const groups = [[0], [1], [2], [3]];
    const next = new Map<number, number>();
    let completed = 1; // the warm-up's last round
    for (const o of clientOperations(c, groups, SENSORS)) {
      if (o.op !== 'INGESTION') continue;
      const device = o.devices[0];
      expect(o.round).toBe(next.get(device) ?? 2);
      next.set(device, o.round + 1);
      const fewest = groups.every((g) => next.has(g[0])) ? Math.min(...next.values()) - 1 : 1;
      expect(o.completesRound).toBe(fewest > completed);
      if (o.completesRound) expect(o.round).toBe(fewest);
      completed = fewest;
    }
    expect(completed).toBeGreaterThan(2);
  });

  it('give a share the rows after the run that the same devices have in one run', () => {
    const whole = sampleConfig({ ...knobs, workers: 2, clients: 2, deviceOffset: 0, deviceCount: 20 });
    const share = sampleConfig({ ...knobs, workers: 1, clients: 2, deviceOffset: 10, deviceCount: 10 });
    const firstHalf = sampleConfig({ ...knobs, workers: 1, clients: 2, deviceOffset: 0, deviceCount: 10 });
    expect(Math.min(rowsAfterTheRun(share), rowsAfterTheRun(firstHalf))).toBe(rowsAfterTheRun(whole));
    const split = sampleConfig({ ...knobs, workers: 1, clients: 3, deviceOffset: 0, deviceCount: 20 });
    expect(rowsAfterTheRun(split)).toBe(rowsAfterTheRun(whole));
  });
});

describe("a client's untimed warm-up", () => {
  const c = sampleConfig({ devices: 3, deviceCount: 3, loop: 5, warmupRounds: 2, workers: 1, clients: 1 });
  const groups = [[0], [1], [2]];
  /** The row a query's range starts at (the sample's rows are a second apart from 1,700,000,000,000 ms). */
  const startRow = (sql: string) => (Number(/time >= (\d+)/.exec(sql)?.[1]) - 1_700_000_000_000) / 1000;

  it('writes each group a round, then runs each query type of the mix once over the rows written so far', () => {
    const weights: OperationWeights = { ...WRITES_ONLY, INGESTION: 3, TIME_RANGE: 1, LATEST_POINT: 2 };
    const ops = [...warmupOperations({ ...c, operationProportion: weights }, groups, SENSORS)];
    const round = (r: number) => [
      ...groups.map((devices, g) => ({ op: 'INGESTION', devices, round: r, completesRound: g === 2 })),
      { op: 'TIME_RANGE', sql: expect.any(String) as unknown },
      { op: 'LATEST_POINT', sql: expect.any(String) as unknown },
    ];
    expect(ops).toEqual([...round(0), ...round(1)]);
    // a range within the rows of the rounds written: 100 rows after round 0, 200 after round 1 (ranges of 100)
    const ranges = ops.flatMap((o) => (o.op === 'TIME_RANGE' ? [startRow(o.sql)] : []));
    expect(ranges[0]).toBe(1);
    expect(ranges[1]).toBeGreaterThanOrEqual(1);
    expect(ranges[1]).toBeLessThanOrEqual(101);
  });

  it('of a client without devices is nothing: it has no timed operation to warm up for', () => {
    const weights: OperationWeights = { ...WRITES_ONLY, INGESTION: 3, TIME_RANGE: 1 };
    expect([...warmupOperations({ ...c, operationProportion: weights }, [], SENSORS)]).toEqual([]);
    expect([...clientOperations({ ...c, operationProportion: weights }, [], SENSORS)]).toEqual([]);
  });

  it('of a write run is its writes alone; of a run of queries only, its queries alone, over what was stored', () => {
    expect([...warmupOperations(c, groups, SENSORS)].map((o) => o.op)).toEqual(new Array(6).fill('INGESTION'));
    const reads = Object.fromEntries(OPERATIONS.map((op) => [op, op === 'INGESTION' ? 0 : 1])) as OperationWeights;
    const ops = [...warmupOperations({ ...c, operationProportion: reads }, groups, SENSORS)];
    expect(ops.map((o) => o.op)).toEqual([...QUERY_KINDS, ...QUERY_KINDS]);
    // (2 warm-up + 5 timed rounds) x 100 rows stored: ranges of 100 start anywhere in rows 1..601
    const starts = ops.flatMap((o) => (o.op === 'TIME_RANGE' || o.op === 'VALUE_RANGE' ? [startRow(o.sql)] : []));
    expect(Math.max(...starts)).toBeLessThanOrEqual(601);
    expect(Math.max(...starts)).toBeGreaterThan(1);
  });
});
