import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One thread's timed operations, by when they ended: the harness's latency and failures over time and points/s over
 * the run (its interval-latency.ts and throughput samples) for the Java client. An INTERVAL line per interval of the
 * timed phase in which an operation ended: where it ends (at_s, seconds since the start) and where its part inside
 * the phase ends (to_s: the last one's at the phase's end), its operations that succeeded and those that failed,
 * the points written and their rate over that part, and, when one succeeded, their latencies' p50, p99 and max (ms,
 * as the MATRIX line's percentiles). The failed operations' latencies and first error are kept by kind (the
 * harness's "failed <kind>" rows and errors): FAILED and QERROR lines (printFailures).
 */
final class Timeline {
  private long[] ends = new long[256], latencies = new long[256], points = new long[256], failedEnds = new long[16];
  private int n, failed;
  private final Map<String, List<Long>> failedLatencies = new TreeMap<>();
  private final Map<String, String> firstError = new TreeMap<>();

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

  /** An operation of `kind` that failed with `e` at `endNs`, having taken `latencyNs`. */
  void fail(String kind, long endNs, long latencyNs, Exception e) {
    if (failed == failedEnds.length) failedEnds = Arrays.copyOf(failedEnds, failed * 2);
    failedEnds[failed++] = endNs;
    failedLatencies.computeIfAbsent(kind, k -> new ArrayList<>()).add(latencyNs);
    firstError.putIfAbsent(kind, Bench.oneLine(e));
  }

  /** Every thread's failed operations of `kind`: their latencies (ns), sorted. */
  static long[] failed(Timeline[] threads, String kind) {
    return Arrays.stream(threads).filter(t -> t != null)
        .flatMap(t -> t.failedLatencies.getOrDefault(kind, List.of()).stream())
        .mapToLong(Long::longValue).sorted().toArray();
  }

  /** The first error of a failed operation of `kind` (one line), or null when none failed. */
  private static String firstError(Timeline[] threads, String kind) {
    return Arrays.stream(threads).filter(t -> t != null).map(t -> t.firstError.get(kind)).filter(e -> e != null)
        .findFirst().orElse(null);
  }

  /** The kinds of operation that failed in any thread. */
  static TreeSet<String> failedKinds(Timeline[] threads) {
    TreeSet<String> kinds = new TreeSet<>();
    for (Timeline t : threads) if (t != null) kinds.addAll(t.failedLatencies.keySet());
    return kinds;
  }

  /** A FAILED line (the failures' latency matrix) and a QERROR line (the first error) per kind that failed. */
  static void printFailures(Timeline[] threads) {
    for (String k : failedKinds(threads)) {
      System.out.printf("FAILED kind=%s %s%n", k, Bench.matrix(failed(threads, k)));
      System.out.printf("QERROR kind=%s error=%s%n", k, firstError(threads, k));
    }
  }

  /** The INTERVAL lines of every thread's operations over the timed phase [startNs, endNs]. */
  static void print(Timeline[] threads, long startNs, long endNs, long intervalMs) {
    long intervalNs = Math.max(1, intervalMs) * 1_000_000L;
    int buckets = (int) Math.max(1, (endNs - startNs + intervalNs - 1) / intervalNs);
    long[][] byBucket = new long[buckets][];
    int[] count = new int[buckets], failedIn = new int[buckets];
    long[] written = new long[buckets];
    for (Timeline t : threads) {
      if (t == null) continue;
      for (int i = 0; i < t.n; i++) {
        int b = bucket(t.ends[i], startNs, intervalNs, buckets);
        if (byBucket[b] == null) byBucket[b] = new long[16];
        if (count[b] == byBucket[b].length) byBucket[b] = Arrays.copyOf(byBucket[b], count[b] * 2);
        byBucket[b][count[b]++] = t.latencies[i];
        written[b] += t.points[i];
      }
      for (int i = 0; i < t.failed; i++) failedIn[bucket(t.failedEnds[i], startNs, intervalNs, buckets)]++;
    }
    for (int b = 0; b < buckets; b++) {
      if (count[b] == 0 && failedIn[b] == 0) continue;
      long inPhaseNs = Math.min(intervalNs, endNs - startNs - b * intervalNs);
      StringBuilder line = new StringBuilder(String.format(
          "INTERVAL at_s=%.3f to_s=%.3f ops=%d failed=%d points=%d points_per_s=%.0f",
          (b + 1) * intervalNs / 1e9, (b * intervalNs + inPhaseNs) / 1e9, count[b], failedIn[b], written[b],
          written[b] / Math.max(1e-9, inPhaseNs / 1e9)));
      if (count[b] > 0) {
        long[] sorted = Arrays.copyOf(byBucket[b], count[b]);
        Arrays.sort(sorted);
        line.append(String.format(" p50=%.3f p99=%.3f max=%.3f", Bench.pct(sorted, 0.5), Bench.pct(sorted, 0.99),
            sorted[sorted.length - 1] / 1e6));
      }
      System.out.println(line);
    }
  }

  static int bucket(long endNs, long startNs, long intervalNs, int buckets) {
    return (int) Math.min(buckets - 1, Math.max(0, (endNs - startNs) / intervalNs));
  }
}
