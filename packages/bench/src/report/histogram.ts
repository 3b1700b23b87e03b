/**
 * A mergeable latency histogram for nanosecond values, HDR-style: each power-of-two range ("major bucket")
 * from 1 µs up is split into 64 equal sub-buckets, so a bucket is at most 1/64 (1.6 %) of its lower bound
 * wide and its midpoint is within 0.8 % of any value in it. 30 majors reach 1 µs · 2^30 ≈ 17.9 min.
 * Values below 1 µs share one underflow bucket, values beyond the last major land in the last bucket;
 * min, max, sum and count are tracked exactly, and percentiles are clamped to [min, max].
 */
import type { HistogramData, LatencySummary, SparseHistogramData } from '../types.js';

const LOWEST_NS = 1_000;
const SUB_BUCKETS = 64;
const MAJORS = 30;
/** bucket 0 is the underflow bucket [0, 1 µs); bucket 1 + k·64 + s is sub-bucket s of major k */
export const BUCKET_COUNT = 1 + MAJORS * SUB_BUCKETS;

export function bucketIndex(ns: number): number {
  if (ns < LOWEST_NS) return 0;
  const r = ns / LOWEST_NS;
  let k = Math.floor(Math.log2(r));
  // log2 may be off by one ulp near powers of two; settle k so that 2^k <= r < 2^(k+1)
  if (2 ** k > r) k--;
  else if (2 ** (k + 1) <= r) k++;
  if (k >= MAJORS) return BUCKET_COUNT - 1;
  const s = Math.min(SUB_BUCKETS - 1, Math.floor((r / 2 ** k - 1) * SUB_BUCKETS));
  return 1 + k * SUB_BUCKETS + s;
}

/** [lower, upper) of a bucket, ns */
export function bucketBoundsNs(index: number): [number, number] {
  if (index <= 0) return [0, LOWEST_NS];
  const k = Math.floor((index - 1) / SUB_BUCKETS);
  const s = (index - 1) % SUB_BUCKETS;
  const base = LOWEST_NS * 2 ** k;
  return [base * (1 + s / SUB_BUCKETS), base * (1 + (s + 1) / SUB_BUCKETS)];
}

const PERCENTILES = { p10: 10, p25: 25, p50: 50, p75: 75, p90: 90, p95: 95, p99: 99, p999: 99.9 } as const;

export class LatencyHistogram {
  private readonly counts = new Float64Array(BUCKET_COUNT);
  private n = 0;
  private sum = 0;
  private min = Infinity;
  private max = -Infinity;

  static from(data: HistogramData): LatencyHistogram {
    const h = new LatencyHistogram();
    h.merge(data);
    return h;
  }

  get count(): number {
    return this.n;
  }

  record(ns: number): void {
    if (!(ns >= 0) || !Number.isFinite(ns)) throw new RangeError(`latency must be a finite number >= 0, got ${ns}`);
    this.counts[bucketIndex(ns)]++;
    this.n++;
    this.sum += ns;
    if (ns < this.min) this.min = ns;
    if (ns > this.max) this.max = ns;
  }

  merge(data: HistogramData): void {
    if (data.counts.length > BUCKET_COUNT) {
      throw new RangeError(`histogram has ${data.counts.length} buckets, this layout has ${BUCKET_COUNT}`);
    }
    if (data.count === 0) return;
    for (let i = 0; i < data.counts.length; i++) this.counts[i] += data.counts[i];
    this.n += data.count;
    this.sum += data.sum;
    if (data.min < this.min) this.min = data.min;
    if (data.max > this.max) this.max = data.max;
  }

  /** Plain JSON (structured-clone and JSON safe): trailing empty buckets are dropped, empty min/max are 0. */
  toData(): HistogramData {
    let end = this.counts.length;
    while (end > 0 && this.counts[end - 1] === 0) end--;
    const empty = this.n === 0;
    return {
      counts: Array.from(this.counts.subarray(0, end)),
      count: this.n,
      min: empty ? 0 : this.min,
      max: empty ? 0 : this.max,
      sum: this.sum,
    };
  }

  /** toData() with its non-empty buckets only. */
  toSparseData(): SparseHistogramData {
    const data = this.toData();
    const buckets: number[] = [];
    const counts: number[] = [];
    data.counts.forEach((n, i) => {
      if (n === 0) return;
      buckets.push(i);
      counts.push(n);
    });
    return { ...data, buckets, counts };
  }

  /** Adds a sparse histogram's counts (toSparseData()). */
  mergeSparse(data: SparseHistogramData): void {
    const counts = new Array<number>(data.buckets.length === 0 ? 0 : data.buckets[data.buckets.length - 1] + 1).fill(0);
    data.buckets.forEach((b, i) => (counts[b] = data.counts[i]));
    this.merge({ ...data, counts });
  }

  /** Nearest-rank percentile, ns; q in 0..100. 0 for an empty histogram. */
  percentile(q: number): number {
    if (this.n === 0) return 0;
    if (q <= 0) return this.min;
    if (q >= 100) return this.max;
    // the epsilon keeps e.g. 99.9 % of 1000 at rank 999 despite 99.9 * 1000 = 99900.00000000001
    const rank = Math.max(1, Math.ceil((q * this.n) / 100 - 1e-9));
    let seen = 0;
    for (let i = 0; i < this.counts.length; i++) {
      seen += this.counts[i];
      if (seen >= rank) {
        const [lo, hi] = bucketBoundsNs(i);
        return Math.min(this.max, Math.max(this.min, (lo + hi) / 2));
      }
    }
    return this.max;
  }

  /** The latency matrix in milliseconds: min, avg, p10 ... p999, max; all zeros when empty. */
  summaryMs(): LatencySummary {
    const ms = (ns: number): number => ns / 1e6;
    const empty = this.n === 0;
    return {
      count: this.n,
      min: empty ? 0 : ms(this.min),
      avg: empty ? 0 : ms(this.sum / this.n),
      p10: ms(this.percentile(PERCENTILES.p10)),
      p25: ms(this.percentile(PERCENTILES.p25)),
      p50: ms(this.percentile(PERCENTILES.p50)),
      p75: ms(this.percentile(PERCENTILES.p75)),
      p90: ms(this.percentile(PERCENTILES.p90)),
      p95: ms(this.percentile(PERCENTILES.p95)),
      p99: ms(this.percentile(PERCENTILES.p99)),
      p999: ms(this.percentile(PERCENTILES.p999)),
      max: empty ? 0 : ms(this.max),
    };
  }
}

/** Histograms of the same kinds from several sources (workers, machines) merged kind by kind: exact, never averaged. */
export function mergeHistograms(sources: readonly Record<string, HistogramData>[]): Record<string, HistogramData> {
  const merged = new Map<string, LatencyHistogram>();
  for (const source of sources) {
    for (const [kind, data] of Object.entries(source)) {
      let h = merged.get(kind);
      if (h === undefined) merged.set(kind, (h = new LatencyHistogram()));
      h.merge(data);
    }
  }
  return Object.fromEntries([...merged].map(([kind, h]) => [kind, h.toData()]));
}

/** Each kind's summary in ms. */
export function summarize(histograms: Record<string, HistogramData>): Record<string, LatencySummary> {
  return Object.fromEntries(Object.entries(histograms).map(([k, d]) => [k, LatencyHistogram.from(d).summaryMs()]));
}
