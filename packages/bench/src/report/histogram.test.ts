import { describe, expect, it } from 'vitest';
import type { HistogramData } from '../types.js';
import { BUCKET_COUNT, bucketBoundsNs, bucketIndex, LatencyHistogram } from './histogram.js';

/** deterministic PRNG (mulberry32) so the distributions are the same on every run */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** the nearest-rank percentile the histogram approximates */
function exactPercentile(sorted: number[], q: number): number {
  const rank = Math.max(1, Math.ceil((q / 100) * sorted.length - 1e-9));
  return sorted[rank - 1];
}

function expectWithin2Pct(values: number[]): LatencyHistogram {
  const h = new LatencyHistogram();
  for (const v of values) h.record(v);
  const sorted = [...values].sort((a, b) => a - b);
  for (const q of [1, 10, 25, 50, 75, 90, 95, 99, 99.9]) {
    const exact = exactPercentile(sorted, q);
    expect(Math.abs(h.percentile(q) - exact) / exact, `p${q}: ${h.percentile(q)} vs ${exact}`).toBeLessThan(0.02);
  }
  return h;
}

describe('LatencyHistogram', () => {
  it('buckets are narrower than 1/64 of their lower bound from 1 µs to beyond 10 min', () => {
    for (let i = 1; i < BUCKET_COUNT; i++) {
      const [lo, hi] = bucketBoundsNs(i);
      expect((hi - lo) / lo).toBeLessThanOrEqual(1 / 64 + 1e-12);
      expect(bucketIndex(lo)).toBe(i);
      expect(bucketIndex((lo + hi) / 2)).toBe(i);
    }
    expect(bucketBoundsNs(BUCKET_COUNT - 1)[1]).toBeGreaterThanOrEqual(10 * 60 * 1e9);
    expect(bucketIndex(999)).toBe(0);
    expect(bucketIndex(1e15)).toBe(BUCKET_COUNT - 1);
  });

  it('percentiles of a uniform distribution (1 µs .. 100 ms) are within 2 %', () => {
    const values = Array.from({ length: 100_000 }, (_, i) => 1_000 + i * 1_000);
    expectWithin2Pct(values);
  });

  it('percentiles of a log-normal distribution (median 2 ms, long tail) are within 2 %', () => {
    const r = rng(7);
    const values = Array.from({ length: 200_000 }, () => {
      const z = Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r()); // Box-Muller
      return Math.round(2e6 * Math.exp(0.8 * z));
    });
    expectWithin2Pct(values);
  });

  it('percentiles of a bimodal distribution (fast path and slow path) are within 2 %', () => {
    const r = rng(11);
    const values = Array.from({ length: 50_000 }, (_, i) =>
      Math.round((i % 10 === 0 ? 250e6 : 3e6) * (0.9 + 0.2 * r())),
    );
    expectWithin2Pct(values);
  });

  it('merging two histograms equals recording all values into one, also after a JSON round trip', () => {
    const r = rng(3);
    const a = new LatencyHistogram();
    const b = new LatencyHistogram();
    const all = new LatencyHistogram();
    for (let i = 0; i < 20_000; i++) {
      const v = Math.round(1e3 + r() * 5e8);
      (i % 3 === 0 ? a : b).record(v);
      all.record(v);
    }
    const merged = LatencyHistogram.from(JSON.parse(JSON.stringify(a.toData())) as HistogramData);
    merged.merge(JSON.parse(JSON.stringify(b.toData())) as HistogramData);
    expect(merged.toData()).toEqual(all.toData());
    expect(merged.summaryMs()).toEqual(all.summaryMs());
  });

  it('merging an empty histogram changes nothing, merging into an empty one copies', () => {
    const h = new LatencyHistogram();
    h.record(5_000);
    h.record(7_000_000);
    const before = h.toData();
    h.merge(new LatencyHistogram().toData());
    expect(h.toData()).toEqual(before);
    const copy = new LatencyHistogram();
    copy.merge(before);
    expect(copy.toData()).toEqual(before);
  });

  it('min, max and avg are exact; percentiles stay inside [min, max]', () => {
    const h = new LatencyHistogram();
    for (const v of [1_234, 5_678_901, 40_000, 123_457]) h.record(v);
    const s = h.summaryMs();
    expect(s.count).toBe(4);
    expect(s.min).toBe(1_234 / 1e6);
    expect(s.max).toBe(5_678_901 / 1e6);
    expect(s.avg).toBe((1_234 + 5_678_901 + 40_000 + 123_457) / 4 / 1e6);
    expect(h.percentile(0)).toBe(1_234);
    expect(h.percentile(100)).toBe(5_678_901);
    for (const q of [0.1, 50, 99, 99.9]) {
      expect(h.percentile(q)).toBeGreaterThanOrEqual(1_234);
      expect(h.percentile(q)).toBeLessThanOrEqual(5_678_901);
    }

    const one = new LatencyHistogram();
    one.record(1_500);
    expect(Object.values(one.summaryMs()).slice(1)).toEqual(Array(11).fill(1_500 / 1e6));
  });

  it('values outside 1 µs .. 10 min are counted, with exact min and max', () => {
    const h = new LatencyHistogram();
    h.record(10); // 10 ns
    h.record(20 * 60 * 1e9); // 20 min
    const s = h.summaryMs();
    expect(s.min).toBe(10 / 1e6);
    expect(s.max).toBe(20 * 60 * 1e3);
    expect(s.p50).toBeGreaterThanOrEqual(s.min);
    expect(s.p999).toBeLessThanOrEqual(s.max);
  });

  it('an empty histogram summarises as zeros and serialises as plain JSON', () => {
    const h = new LatencyHistogram();
    expect(Object.entries(h.summaryMs()).filter(([, v]) => v !== 0)).toEqual([]); // count, min, avg, p10 ... max
    expect(h.percentile(50)).toBe(0);
    const data = h.toData();
    expect(data).toEqual({ counts: [], count: 0, min: 0, max: 0, sum: 0 });
    expect(JSON.parse(JSON.stringify(data))).toEqual(data);
  });

  it('toData is plain arrays of numbers, trimmed after the last non-empty bucket', () => {
    const h = new LatencyHistogram();
    h.record(2_000);
    const data = h.toData();
    expect(Array.isArray(data.counts)).toBe(true);
    expect(data.counts.length).toBe(bucketIndex(2_000) + 1);
    expect(data.counts.at(-1)).toBe(1);
  });

  it('rejects negative and non-finite latencies and foreign bucket layouts', () => {
    const h = new LatencyHistogram();
    expect(() => h.record(-1)).toThrow(RangeError);
    expect(() => h.record(Number.NaN)).toThrow(RangeError);
    expect(() => h.record(Infinity)).toThrow(RangeError);
    expect(() =>
      h.merge({ counts: new Array<number>(BUCKET_COUNT + 1).fill(0), count: 0, min: 0, max: 0, sum: 0 }),
    ).toThrow(RangeError);
  });
});
