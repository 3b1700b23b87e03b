import java.util.Arrays;

/**
 * One thread's timed operations that succeeded, by when they ended: the harness's latency over time and points/s
 * over the run (its interval-latency.ts and throughput samples) for the Java client. An INTERVAL line per interval
 * of the timed phase in which an operation ended: where it ends (at_s, seconds since the start) and where its part
 * inside the phase ends (to_s: the last one's at the phase's end), its operations, the points written and their
 * rate over that part, and its latencies' p50, p99 and max (ms, as the MATRIX line's percentiles).
 */
final class Timeline {
  private long[] ends = new long[256], latencies = new long[256], points = new long[256];
  private int n;

  /** An operation that ended at `endNs` (System.nanoTime), took `latencyNs` and wrote `written` points. */
  void add(long endNs, long latencyNs, long written) {
    if (n == ends.length) {
      ends = Arrays.copyOf(ends, n * 2);
      latencies = Arrays.copyOf(latencies, n * 2);
      points = Arrays.copyOf(points, n * 2);
    }
    ends[n] = endNs;
    latencies[n] = latencyNs;
    points[n++] = written;
  }

  /** The INTERVAL lines of every thread's operations over the timed phase [startNs, endNs]. */
  static void print(Timeline[] threads, long startNs, long endNs, long intervalMs) {
    long intervalNs = Math.max(1, intervalMs) * 1_000_000L;
    int buckets = (int) Math.max(1, (endNs - startNs + intervalNs - 1) / intervalNs);
    long[][] byBucket = new long[buckets][];
    int[] count = new int[buckets];
    long[] written = new long[buckets];
    for (Timeline t : threads) {
      if (t == null) continue;
      for (int i = 0; i < t.n; i++) {
        int b = (int) Math.min(buckets - 1, Math.max(0, (t.ends[i] - startNs) / intervalNs));
        if (byBucket[b] == null) byBucket[b] = new long[16];
        if (count[b] == byBucket[b].length) byBucket[b] = Arrays.copyOf(byBucket[b], count[b] * 2);
        byBucket[b][count[b]++] = t.latencies[i];
        written[b] += t.points[i];
      }
    }
    for (int b = 0; b < buckets; b++) {
      if (count[b] == 0) continue;
      long[] sorted = Arrays.copyOf(byBucket[b], count[b]);
      Arrays.sort(sorted);
      long inPhaseNs = Math.min(intervalNs, endNs - startNs - b * intervalNs);
      System.out.printf("INTERVAL at_s=%.3f to_s=%.3f ops=%d points=%d points_per_s=%.0f p50=%.3f p99=%.3f max=%.3f%n",
          (b + 1) * intervalNs / 1e9, (b * intervalNs + inPhaseNs) / 1e9, count[b], written[b],
          written[b] / Math.max(1e-9, inPhaseNs / 1e9),
          Bench.pct(sorted, 0.5), Bench.pct(sorted, 0.99), sorted[sorted.length - 1] / 1e6);
    }
  }
}
