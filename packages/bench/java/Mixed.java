import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import org.apache.tsfile.write.record.Tablet;

/**
 * Bench.java's plan=FILE: the Java client on a mixed run's operations, as the harness's clients ran them (its
 * `--vs-java` with `--operation-proportion`). The file has a line per operation (see Bench.java's options); each
 * thread runs its own lines in order on one session: the warm-up writes untimed, then, once every thread is ready,
 * the timed writes and queries, each timed alone. Writes are Bench's tablets (rows 1 + round x rows of each device
 * of the line), so both clients store the same points; a query is read to the end, every value through the
 * iterator's typed getters. A write that fails ends the run, as in Bench; a query that fails is counted, as ours.
 */
final class Mixed {
  /** One line of the plan: a warm-up or timed write (kind "warmup"/"write") of devices for a round, or a query. */
  static final class Op {
    final String kind, sql;
    final int round;
    final int[] devices;

    Op(String kind, int round, int[] devices, String sql) {
      this.kind = kind;
      this.round = round;
      this.devices = devices;
      this.sql = sql;
    }

    static Op parse(String[] f) {
      if (f[1].equals("query")) return new Op(f[2], 0, null, f[3]);
      int[] ds = Arrays.stream(f[3].split(",")).mapToInt(Integer::parseInt).toArray();
      return new Op(f[1], Integer.parseInt(f[2]), ds, null);
    }

    boolean isWrite() { return sql == null; }
  }

  /** What one thread did in the timed phase (and the points of its warm-up, for the count check). */
  static final class Done {
    final List<Long> writes = new ArrayList<>();
    final Map<String, List<Long>> queries = new TreeMap<>();
    final Map<String, Long> rows = new TreeMap<>();
    final Map<String, Integer> failed = new TreeMap<>();
    final Map<String, String> firstError = new TreeMap<>();
    long points, warmupPoints, endNs;
  }

  static volatile long timedStartNs, cpuStartNs, serverStartTicks;

  static void run(String file) throws Exception {
    List<List<Op>> plan = new ArrayList<>();
    for (String line : Files.readAllLines(Paths.get(file))) {
      if (line.isEmpty()) continue;
      String[] f = line.split(" ", 4);
      int id = Integer.parseInt(f[0]);
      while (plan.size() <= id) plan.add(new ArrayList<>());
      plan.get(id).add(Op.parse(f));
    }
    boolean writes = plan.stream().flatMap(List::stream).anyMatch(Op::isWrite);
    System.out.printf("mode=%s threads=%d plan=%d operations writes=%s%n", Bench.mode, plan.size(),
        plan.stream().mapToInt(List::size).sum(), writes);
    if (writes) Bench.setup(); // a queries-only plan reads what was stored before: nothing is made or written
    CyclicBarrier start = new CyclicBarrier(plan.size(), () -> {
      timedStartNs = System.nanoTime();
      cpuStartNs = Bench.processCpuNanos();
      serverStartTicks = Bench.serverCpuTicks();
      if (Bench.maxTimeMs > 0) Bench.deadline = timedStartNs + Bench.maxTimeMs * 1_000_000L;
    });
    Done[] done = new Done[plan.size()];
    Throwable[] err = new Throwable[1];
    List<Thread> ts = new ArrayList<>();
    for (int w = 0; w < plan.size(); w++) {
      final int id = w;
      Thread th = new Thread(() -> {
        try {
          done[id] = thread(plan.get(id), start);
        } catch (Throwable e) {
          synchronized (err) { if (err[0] == null) err[0] = e; }
        }
      }, "client-" + w);
      ts.add(th);
      th.start();
    }
    for (Thread th : ts) th.join();
    if (err[0] != null) { err[0].printStackTrace(); System.exit(1); }
    report(done);
  }

  /**
   * One thread's operations: warm-up, the start barrier, the timed ones. Every thread arrives at the barrier once,
   * failed or not, so that none waits for one that never comes; a failure before it is thrown after it.
   */
  static Done thread(List<Op> ops, CyclicBarrier start) throws Exception {
    Done d = new Done();
    Bench.Writer w = null;
    Exception early = null;
    Tablet t = Bench.newTablet(0);
    int i = 0;
    try {
      w = Bench.open();
      for (; i < ops.size() && ops.get(i).kind.equals("warmup"); i++) d.warmupPoints += write(w, t, ops.get(i));
    } catch (Exception e) {
      early = e;
    }
    start.await();
    try {
      if (early != null) throw early;
      for (; i < ops.size(); i++) {
        if (System.nanoTime() >= Bench.deadline) { Bench.stoppedEarly.set(true); break; }
        Op op = ops.get(i);
        long a = System.nanoTime();
        if (op.isWrite()) {
          d.points += write(w, t, op);
          d.writes.add(System.nanoTime() - a);
        } else query(w, op, a, d);
      }
      d.endNs = System.nanoTime();
    } finally {
      if (w != null) w.close();
    }
    return d;
  }

  /** The tablets of the op's devices for its round, one after another; returns the points written. */
  static long write(Bench.Writer w, Tablet t, Op op) throws Exception {
    for (int dev : op.devices) {
      Bench.fill(t, dev, 1 + (long) op.round * Bench.rows, Bench.rows); // row 0 is the schema warm-up row
      w.write(t);
    }
    return (long) op.devices.length * Bench.rows * Bench.sensors;
  }

  static void query(Bench.Writer w, Op op, long startNs, Done d) {
    try (org.apache.iotdb.isession.SessionDataSet ds = w.query(op.sql)) {
      long rows = QueryBench.readAll(ds, new double[1])[0];
      d.queries.computeIfAbsent(op.kind, k -> new ArrayList<>()).add(System.nanoTime() - startNs);
      d.rows.merge(op.kind, rows, Long::sum);
    } catch (Exception e) {
      d.failed.merge(op.kind, 1, Integer::sum);
      d.firstError.putIfAbsent(op.kind, String.valueOf(e.getMessage()).replaceAll("\\s+", " "));
    }
  }

  /** RESULT and MATRIX as Bench prints them (the writes), a QTYPE line per query kind, QERROR per kind failed. */
  static void report(Done[] done) throws Exception {
    long end = Arrays.stream(done).mapToLong(d -> d.endNs).max().orElse(timedStartNs);
    long cpuNs = Bench.processCpuNanos() - cpuStartNs, srvTicks = Bench.serverCpuTicks() - serverStartTicks;
    double secs = Math.max(1e-9, (end - timedStartNs) / 1e9);
    long n = Arrays.stream(done).mapToLong(d -> d.points).sum();
    long[] all = Arrays.stream(done).flatMap(d -> d.writes.stream()).mapToLong(Long::longValue).sorted().toArray();
    System.out.printf("RESULT mode=%s%s values=%s threads=%d points=%d wall_s=%.2f points_per_s=%.0f "
            + "client_cpu_s=%.2f client_cpu_s_per_Mpts=%.3f server_cpu_s=%s insert_ms_p50=%.1f p99=%.1f max=%.1f stopped=%s%n",
        Bench.mode, Bench.noop ? "-noop" : "", Bench.random ? "random" : "pattern", done.length, n, secs, n / secs,
        cpuNs / 1e9, n == 0 ? 0 : cpuNs / 1e9 / (n / 1e6), // per point: none written, 0 (as the harness says)
        Bench.serverPids.isEmpty() ? "n/a" : String.format("%.2f", srvTicks / 100.0),
        Bench.pct(all, 0.5), Bench.pct(all, 0.99), all.length == 0 ? 0 : all[all.length - 1] / 1e6,
        Bench.stoppedEarly.get() ? "test-max-time" : "no");
    System.out.printf("MATRIX %s peak_rss_mb=%s%n", Bench.matrix(all), Bench.peakRssMb());
    Map<String, Boolean> kinds = new TreeMap<>();
    for (Done d : done) {
      for (String k : d.queries.keySet()) kinds.put(k, true);
      for (String k : d.failed.keySet()) kinds.put(k, true);
    }
    for (String k : kinds.keySet()) {
      long[] lat = Arrays.stream(done).flatMap(d -> d.queries.getOrDefault(k, List.of()).stream())
          .mapToLong(Long::longValue).sorted().toArray();
      long rows = Arrays.stream(done).mapToLong(d -> d.rows.getOrDefault(k, 0L)).sum();
      int failed = Arrays.stream(done).mapToInt(d -> d.failed.getOrDefault(k, 0)).sum();
      System.out.printf("QTYPE kind=%s failed=%d rows=%d %s%n", k, failed, rows, Bench.matrix(lat));
      Arrays.stream(done).map(d -> d.firstError.get(k)).filter(e -> e != null).findFirst()
          .ifPresent(e -> System.out.printf("QERROR kind=%s error=%s%n", k, e));
    }
    long written = n + Arrays.stream(done).mapToLong(d -> d.warmupPoints).sum();
    if (written > 0 && !Bench.noop && Bench.verify) Bench.verifyCount(written);
    if (written > 0) Bench.flush();
  }
}
