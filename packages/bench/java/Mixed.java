import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Bench.java's plan=FILE: the Java client on the operations the harness's clients ran (its `--vs-java` with
 * `--operation-proportion`, or paced by `--target-rate`, `--rate-limit`, `--batch-interval-ms`). The file has a
 * line per operation (see Bench.java's options), read as it is run (Plan.java); each thread runs its own lines in
 * order on one session: the warm-up's writes and queries untimed, then, once every thread is ready, the timed writes
 * and queries, each timed alone and paced as the harness paces them (Pacer). Writes are Bench's tablets (rows 1 +
 * round x rows of each device of the line), so both clients store the same points; a query is read to the end, every
 * value through the iterator's typed getters. An operation that fails is counted (Timeline), as ours counts it, and
 * the run goes on.
 */
final class Mixed {
  /**
   * One line of the plan: a write of devices for a round ("write", untimed "warmup"), or a query of a kind ("query",
   * untimed "warmup-query").
   */
  static final class Op {
    final boolean warmup;
    /** a query's kind (PRECISE_POINT, ...) and statement; null for a write */
    final String kind, sql;
    final int round;
    final List<Integer> devices;

    Op(boolean warmup, String kind, int round, List<Integer> devices, String sql) {
      this.warmup = warmup;
      this.kind = kind;
      this.round = round;
      this.devices = devices;
      this.sql = sql;
    }

    static Op parse(String[] f) {
      boolean warmup = f[1].startsWith("warmup");
      if (f[1].endsWith("query")) return new Op(warmup, f[2], 0, null, f[3]);
      List<Integer> ds = Arrays.stream(f[3].split(",")).map(Integer::valueOf).collect(Collectors.toList());
      return new Op(warmup, null, Integer.parseInt(f[2]), ds, null);
    }

    boolean isWrite() { return sql == null; }
  }

  /** What one thread did in the timed phase (and the points of its warm-up, for the count check). */
  static final class Done {
    final List<Long> writes = new ArrayList<>();
    final Map<String, List<Long>> queries = new TreeMap<>();
    final Map<String, Long> rows = new TreeMap<>(), values = new TreeMap<>();
    /** paced by targetRate: each operation's latency from its actual start, by kind (writes: insertTablet) */
    final Map<String, List<Long>> uncorrected = new TreeMap<>();
    /** paced by targetRate: how late each operation started after it was due */
    final List<Long> startLag = new ArrayList<>();
    /** the operations, by when they ended */
    final Timeline timeline = new Timeline();
    long points, warmupPoints, endNs;
    /** stopped by the time limit before its last write: the round of its first write not made (those before it are whole) */
    int fullRounds = -1;
  }

  /**
   * One thread's pacing of its timed operations, as the harness's (pacing.ts): the open loop (targetRate, the
   * thread at its share of the operations, staggered by its id), the rate limit (rateLimit, at its share of the
   * points written) and the pause after each operation (batchIntervalMs). No wait outlasts the deadline.
   */
  static final class Pacer {
    final long intervalNs, staggerNs;
    final double pointsPerNs;
    long due, nextAt = Long.MIN_VALUE, lastEnd = -1;

    Pacer(double opsShare, double pointsShare, int id, int threads) {
      intervalNs = Bench.targetRate > 0 && opsShare > 0 ? (long) (1e9 / (opsShare * Bench.targetRate)) : 0;
      staggerNs = intervalNs * id / threads;
      pointsPerNs = Bench.rateLimit * pointsShare / 1e9;
    }

    /** The timed phase starts: the first operation is due after the thread's stagger. */
    void begin(long startNs) {
      due = startNs + staggerNs;
    }

    /** Waits for the turn of an operation writing `points`; returns when it was due on the open loop, or -1. */
    long turn(long points) {
      long myDue = -1;
      if (intervalNs > 0) {
        myDue = due;
        due += intervalNs;
        sleepUntil(myDue);
      }
      if (pointsPerNs > 0 && points > 0) {
        long at = Math.max(System.nanoTime(), nextAt);
        nextAt = at + (long) (points / pointsPerNs);
        sleepUntil(at);
      }
      if (Bench.batchIntervalMs > 0 && lastEnd >= 0) sleepUntil(lastEnd + Bench.batchIntervalMs * 1_000_000L);
      return myDue;
    }

    static void sleepUntil(long at) {
      for (long now = System.nanoTime(); now < at && now < Bench.deadline; now = System.nanoTime())
        LockSupport.parkNanos(Math.min(at - now, 50_000_000L));
    }
  }

  static volatile long timedStartNs, cpuStartNs, serverStartTicks;
  static volatile ServerSampler sampler;

  static void run(String file) throws Exception {
    Plan plan = Plan.scan(file);
    int threads = plan.parts.size();
    long allTimed = plan.parts.stream().mapToLong(p -> p.timed).sum();
    long allWritten = plan.parts.stream().mapToLong(p -> p.written).sum();
    System.out.printf("mode=%s threads=%d plan=%d operations writes=%s%n", Bench.mode, threads,
        plan.parts.stream().mapToLong(p -> p.lines).sum(), plan.writes);
    if (plan.writes) Bench.setup(); // a queries-only plan reads what was stored before: nothing is made or written
    CyclicBarrier start = new CyclicBarrier(threads, () -> {
      timedStartNs = System.nanoTime();
      cpuStartNs = Bench.processCpuNanos();
      serverStartTicks = Bench.serverCpuTicks("start");
      sampler = ServerSampler.start(timedStartNs, serverStartTicks, Bench.intervalMs);
      if (Bench.maxTimeMs > 0) Bench.deadline = timedStartNs + Bench.maxTimeMs * 1_000_000L;
    });
    Done[] done = new Done[threads];
    Bench.runThreads(threads, "client", id -> {
      Plan.Part mine = plan.parts.get(id);
      Pacer pacer = new Pacer(allTimed == 0 ? 0 : (double) mine.timed / allTimed,
          allWritten == 0 ? 0 : (double) mine.written / allWritten, id, threads);
      try (Plan.Reader ops = plan.open(file, id)) {
        done[id] = thread(ops, start, pacer);
      }
    });
    report(done);
  }

  /**
   * One thread's operations: warm-up, the start barrier, the timed ones. Every thread arrives at the barrier once,
   * failed or not, so that none waits for one that never comes; a failure before it is thrown after it.
   */
  static Done thread(Plan.Reader ops, CyclicBarrier start, Pacer pacer) throws Exception {
    Done d = new Done();
    Bench.Writer w = null;
    Exception early = null;
    Bench.Tablets t = new Bench.Tablets();
    Op op = null; // the first timed operation, once the warm-up is done
    try {
      w = Bench.open();
      for (op = ops.next(); op != null && op.warmup; op = ops.next())
        if (op.isWrite()) d.warmupPoints += write(w, t, op);
        else warmupQuery(w, op);
    } catch (Exception e) {
      early = e;
    }
    start.await();
    try {
      if (early != null) throw early;
      pacer.begin(System.nanoTime());
      for (; op != null; op = ops.next()) {
        long due = pacer.turn(op.isWrite() ? points(op) : 0);
        if (System.nanoTime() >= Bench.deadline) {
          Bench.stoppedEarly.set(true);
          d.fullRounds = firstWriteRound(op, ops);
          break;
        }
        long a = System.nanoTime();
        if (due >= 0) d.startLag.add(Math.max(0, a - due));
        pacer.lastEnd = op.isWrite() ? timedWrite(w, t, op, a, due, d) : query(w, op, a, due, d);
      }
      d.endNs = System.nanoTime();
    } finally {
      Bench.closeAfterTimed(w);
    }
    return d;
  }

  /**
   * A query of the untimed warm-up, read to the end. One that fails does not stop the warm-up, as ours: its first
   * error a kind is printed (WERROR), the timed queries of its kind count their own failures.
   */
  static void warmupQuery(Bench.Writer w, Op op) {
    try (org.apache.iotdb.isession.SessionDataSet ds = w.query(op.sql)) {
      QueryBench.readAll(ds, new double[1]);
    } catch (Exception e) {
      warmupErrors.putIfAbsent(op.kind, Bench.oneLine(e));
    }
  }

  /** The first error of each query kind's warm-up queries that failed, over all threads: WERROR lines. */
  static final Map<String, String> warmupErrors = new java.util.concurrent.ConcurrentSkipListMap<>();

  /** The round of the first write from `op` on; -1: none left. A thread writes its rounds in order. */
  static int firstWriteRound(Op op, Plan.Reader rest) throws java.io.IOException {
    for (; op != null; op = rest.next()) if (op.isWrite()) return op.round;
    return -1;
  }

  static long points(Op op) { return (long) op.devices.size() * Bench.rows * Bench.sensors; }

  /**
   * The tablets of the op's devices for its round: one call for them all where the method takes several, as ours
   * (Bench.Writer); returns the points written.
   */
  static long write(Bench.Writer w, Bench.Tablets t, Op op) throws Exception {
    w.write(t.of(op.devices, 1 + (long) op.round * Bench.rows, Bench.rows)); // row 0 is the schema warm-up row
    return points(op);
  }

  /**
   * Writes the op's tablets, its latency from `due` on the open loop (else from its start); a failure is counted
   * and its first error kept. Returns when it ended.
   */
  static long timedWrite(Bench.Writer w, Bench.Tablets t, Op op, long startNs, long due, Done d) {
    long from = due >= 0 ? due : startNs;
    try {
      d.points += write(w, t, op);
    } catch (Exception e) {
      long end = System.nanoTime();
      d.timeline.fail(Bench.call, end, end - from, e);
      return end;
    }
    long end = System.nanoTime();
    d.writes.add(end - from);
    d.timeline.add(end, end - from, points(op));
    if (due >= 0) d.uncorrected.computeIfAbsent(Bench.call, k -> new ArrayList<>()).add(end - startNs);
    return end;
  }

  /**
   * Reads the op's statement to the end, its latency from `due` on the open loop (else from its start); a failure
   * is counted and its first error kept. Returns when it ended.
   */
  static long query(Bench.Writer w, Op op, long startNs, long due, Done d) {
    long from = due >= 0 ? due : startNs;
    try (org.apache.iotdb.isession.SessionDataSet ds = w.query(op.sql)) {
      long[] read = QueryBench.readAll(ds, new double[1]);
      long end = System.nanoTime();
      d.queries.computeIfAbsent(op.kind, k -> new ArrayList<>()).add(end - from);
      d.timeline.add(end, end - from, 0);
      if (due >= 0) d.uncorrected.computeIfAbsent(op.kind, k -> new ArrayList<>()).add(end - startNs);
      d.rows.merge(op.kind, read[0], Long::sum);
      d.values.merge(op.kind, read[1], Long::sum);
      return end;
    } catch (Exception e) {
      long end = System.nanoTime();
      d.timeline.fail(op.kind, end, end - from, e);
      return end;
    }
  }

  /**
   * RESULT, MATRIX, INTERVAL, FAILED and QERROR as Bench prints them (the writes; INTERVAL: every operation; FAILED
   * and QERROR: each kind that failed), WERROR per kind whose warm-up queries failed, a QTYPE line per query kind.
   */
  static void report(Done[] done) throws Exception {
    long end = Arrays.stream(done).mapToLong(d -> d.endNs).max().orElse(timedStartNs);
    long cpuNs = Bench.processCpuNanos() - cpuStartNs, srvTicks = Bench.serverCpuTicksSince(serverStartTicks);
    if (sampler != null) sampler.stop(end, srvTicks);
    long n = Arrays.stream(done).mapToLong(d -> d.points).sum();
    Bench.printResult(done.length, n, end - timedStartNs, cpuNs, srvTicks, sorted(done, d -> d.writes));
    Timeline[] timelines = Arrays.stream(done).map(d -> d.timeline).toArray(Timeline[]::new);
    Timeline.print(timelines, timedStartNs, end, Bench.intervalMs);
    if (sampler != null) sampler.print();
    Timeline.printFailures(timelines);
    warmupErrors.forEach((k, e) -> System.out.printf("WERROR kind=%s error=%s%n", k, e));
    Set<String> kinds = Timeline.failedKinds(timelines);
    kinds.remove(Bench.call); // the writes': the RESULT and MATRIX lines
    for (Done d : done) kinds.addAll(d.queries.keySet());
    for (String k : kinds) {
      long rows = Arrays.stream(done).mapToLong(d -> d.rows.getOrDefault(k, 0L)).sum();
      long points = Arrays.stream(done).mapToLong(d -> d.values.getOrDefault(k, 0L)).sum();
      int failed = Timeline.failed(timelines, k).length;
      long[] lat = sorted(done, d -> d.queries.getOrDefault(k, List.of()));
      System.out.printf("QTYPE kind=%s failed=%d rows=%d points=%d %s%n", k, failed, rows, points, Bench.matrix(lat));
    }
    Set<String> paced = new TreeSet<>();
    for (Done d : done) paced.addAll(d.uncorrected.keySet());
    for (String k : paced)
      System.out.printf("UNCORRECTED kind=%s %s%n", k, Bench.matrix(sorted(done, d -> d.uncorrected.getOrDefault(k, List.of()))));
    long[] lag = sorted(done, d -> d.startLag);
    if (lag.length > 0) System.out.printf("START_LAG %s%n", Bench.matrix(lag));
    Arrays.stream(done).filter(d -> d.fullRounds >= 0).mapToInt(d -> d.fullRounds).min().ifPresent(Bench::printRounds);
    long written = n + Arrays.stream(done).mapToLong(d -> d.warmupPoints).sum();
    if (written > 0 && !Bench.noop && Bench.verify) Bench.verifyCount(written);
    if (written > 0) Bench.flush();
  }

  /** Every thread's latencies of one list (ns), sorted, for a matrix. */
  static long[] sorted(Done[] done, Function<Done, List<Long>> of) {
    return Arrays.stream(done).flatMap(d -> of.apply(d).stream()).mapToLong(Long::longValue).sorted().toArray();
  }
}
