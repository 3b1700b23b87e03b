import { describe, expect, it } from 'vitest';
import { IntervalLatency, failuresOverTime, latencyOverTime } from './interval-latency.js';

const MS = 1e6;

describe('latency over time', () => {
  it('counts each operation in the interval it ended in, and gives each interval its count, p50, p99 and max', () => {
    const w = new IntervalLatency(1000);
    for (let i = 0; i < 100; i++) w.record((i + 1) * MS, 10 * i); // 1..100 ms, all in the first second
    w.record(500 * MS, 2500); // a slow one in the third second; none in the second
    expect(latencyOverTime([w.data()], 1000)).toEqual([
      [1, 100, expect.closeTo(50, 0), expect.closeTo(99, 0), 100],
      [3, 1, 500, 500, 500],
    ]);
  });

  it("merges the workers' intervals exactly, interval by interval, in time order", () => {
    const [a, b] = [new IntervalLatency(500), new IntervalLatency(500)];
    b.record(40 * MS, 700);
    for (let i = 0; i < 99; i++) a.record(1 * MS, 100);
    b.record(90 * MS, 400); // the first interval's slowest is another worker's
    const samples = latencyOverTime([a.data(), b.data()], 500);
    expect(samples.map(([atS, count, , p99, max]) => [atS, count, p99, max])).toEqual([
      [0.5, 100, expect.closeTo(1, 1), 90], // a bucket's middle: within 0.8 % of the value
      [1, 1, 40, 40],
    ]);
  });

  it("counts failures apart, in the interval each ended in, the workers' added: none in the latency", () => {
    const [a, b] = [new IntervalLatency(1000), new IntervalLatency(1000)];
    a.record(2 * MS, 100);
    for (const ms of [2100, 2200, 2900]) a.fail(ms); // a node down in the third second
    b.fail(2500);
    b.fail(4000); // the fifth second's first instant
    expect(failuresOverTime([a.failures(), b.failures()], 1000)).toEqual([
      [3, 4],
      [5, 1],
    ]);
    // an interval with failures alone has no latency sample
    expect(latencyOverTime([a.data(), b.data()], 1000)).toEqual([[1, 1, 2, 2, 2]]);
    expect(failuresOverTime([new IntervalLatency(1000).failures()], 1000)).toEqual([]);
  });

  it('keeps a few operations of a wide range in a few numbers (only the buckets it has)', () => {
    const w = new IntervalLatency(1000);
    w.record(0.5 * MS, 0);
    w.record(60_000 * MS, 0);
    const [[, data]] = w.data();
    expect(data.buckets).toHaveLength(2);
    expect(data.counts).toEqual([1, 1]);
  });
});
