import { describe, expect, it } from 'vitest';
import { TSDataType, type Tablet } from '@iotdb/client';
import { ByteWriter, prepareTablet, writeInsertTabletReq } from '@iotdb/fast-serializer';
import { TYPE_ORDER, proportions } from '../config/type-proportions.js';
import { sampleConfig } from '../report/test-fixture.js';
import type { BenchConfig } from '../types.js';
import { AnchorTabletBuilder } from './anchor.js';
import { BatchGenerator, FIRST_ROW } from './generator.js';
import { sensorTypes } from './schema.js';

/** sampleConfig with this file's baseline: one writer, 10 devices x 20 sensors of every type, 8 rounds of 50 rows */
function config(over: Partial<BenchConfig> = {}): BenchConfig {
  return sampleConfig({
    host: undefined,
    workers: 1,
    clients: 1,
    poolMaxSize: 1,
    devices: 10,
    sensors: 20,
    batchSize: 50,
    loop: 8,
    deviceCount: 10,
    tabletsPerRequest: 10,
    typeProportions: proportions(Object.fromEntries(TYPE_ORDER.map((t) => [t, 1]))),
    stringLength: 8,
    outOfOrderRange: 2,
    warmupRounds: 0,
    queries: [],
    queryLoops: 1,
    verify: false,
    out: undefined,
    ...over,
  });
}

const bytes = (t: Tablet): string => {
  const w = new ByteWriter(1024);
  writeInsertTabletReq(w, 1n, prepareTablet(t));
  return w.view().toString('hex');
};

describe('BatchGenerator', () => {
  it('spreads the sensors over the types by their proportions', () => {
    const types = sensorTypes(
      config({
        sensors: 10,
        typeProportions: {
          BOOLEAN: 0,
          INT32: 3,
          INT64: 0,
          FLOAT: 1,
          DOUBLE: 0,
          TEXT: 1,
          TIMESTAMP: 0,
          DATE: 0,
          BLOB: 0,
          STRING: 0,
        },
      }),
    );
    expect(types.filter((t) => t === TSDataType.INT32)).toHaveLength(6);
    expect(types.filter((t) => t === TSDataType.FLOAT)).toHaveLength(2);
    expect(types.filter((t) => t === TSDataType.TEXT)).toHaveLength(2);
  });

  it('writes every one of the ten types with values the encoder accepts', () => {
    const g = new BatchGenerator(config({ values: 'random', nullRatio: 0.1 }));
    const t = g.tree(3, 2);
    expect(new Set(t.dataTypes)).toEqual(new Set(Object.values(TSDataType)));
    expect(() => bytes(t)).not.toThrow();
  });

  it('gives the same data for the same seed, and other data for another seed', () => {
    const a = bytes(new BatchGenerator(config({ values: 'random', seed: 7 })).tree(1, 3));
    expect(bytes(new BatchGenerator(config({ values: 'random', seed: 7 })).tree(1, 3))).toBe(a);
    expect(bytes(new BatchGenerator(config({ values: 'random', seed: 8 })).tree(1, 3))).not.toBe(a);
  });

  it('counts points without the null cells', () => {
    const g = new BatchGenerator(config({ nullRatio: 0.25 }));
    const t = g.tree(0, 0);
    const nulls = t.columns!.reduce(
      (n, col) => n + Array.from(col as ArrayLike<unknown>).filter((v) => v === null).length,
      0,
    );
    expect(nulls).toBeGreaterThan(0);
    expect(g.points).toBe(50 * 20 - nulls);
  });

  it('writes every row exactly once across the rounds even out of order, and some rows arrive late', () => {
    const c = config({ outOfOrderRatio: 0.3, outOfOrderRange: 2, loop: 8 });
    const g = new BatchGenerator(c);
    const seen: number[] = [];
    let late = 0;
    for (let round = 0; round < c.loop; round++) {
      for (let i = 0; i < c.batchSize; i++) {
        const row = g.rowOf(4, round, i);
        if (row < FIRST_ROW + round * c.batchSize) late++;
        seen.push(row);
      }
    }
    expect(late).toBeGreaterThan(0);
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: c.loop * c.batchSize }, (_, k) => FIRST_ROW + k));
  });

  it('reproduces the Java anchor workload value for value', () => {
    const c = config({ workload: 'java-anchor', devices: 100, deviceCount: 100, sensors: 50, batchSize: 500 });
    const ours = new BatchGenerator(c).tree(7, 0);
    const anchor = new AnchorTabletBuilder({ sensors: 50, rows: 500 }).fill(7, FIRST_ROW);
    expect(bytes(ours)).toBe(bytes(anchor));
  });

  it('makes the one-row schema warm-up tablet at row 0', () => {
    const t = new BatchGenerator(config()).tree(2, -1);
    expect(t.timestamps).toHaveLength(1);
    expect(Number(t.timestamps[0])).toBe(1_700_000_000_000);
  });
});
