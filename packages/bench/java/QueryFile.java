import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import org.apache.iotdb.isession.SessionDataSet;
import org.apache.iotdb.isession.ITableSession;
import org.apache.iotdb.session.Session;

/**
 * The Java client on one statement of an iotdb-bench query file, run as ours runs it
 * (packages/bench/src/run/statement-sessions.ts): `threads` sessions at once, each its own Session (an
 * ITableSession with table=true) opened with its first read, each reading the statement `reps` times to the end,
 * every value through its typed getter (QueryBench.readAll). Paced as ours: rate=R reads per second over the
 * sessions, each on a fixed schedule staggered by its id, latency from the due time (and from each read's start,
 * UNCORRECTED); or pause=MS between a session's reads. maxms=MS: no read starts after that (--test-max-time).
 * warm=N untimed reads first (default 1), on a session of their own: the JVM's class loading and JIT would otherwise
 * be in the first timed reads (ours reads as many). query=false: a statement that changes something (INSERT,
 * CREATE, FLUSH), run by executeNonQueryStatement (executeQueryStatement cannot take it), warmed up by SHOW VERSION.
 * statements=FILE instead of sql= and threads=: a forEach entry's statements, a line each `<session> <base64 SQL>`;
 * a session per number, reading its statements in order `reps` times over (ours: config/for-each.ts).
 *
 * Options (key=value): host port fetch table database sql statements threads reps rate pause maxms query warm
 *   intervalMs (of the INTERVAL and SERVER lines, as --report-interval-ms) serverPids=pid1,pid2 (the server's
 *   processes: their CPU over the timed reads, and a SERVER at_s=.. cores=.. line per interval, as Bench's)
 *   (host, port, compression, trustStore, queryTimeout: Connect.java's)
 * Prints QSTMT ok=N failed=F rows=R points=P (non-null values) wall_s=.. client_cpu_s=.. server_cpu_s=.. slowest_s=..
 * peak_rss_mb=.. and the latency matrix of the
 * reads that succeeded (Bench.matrix); QSTMT_UNCORRECTED <matrix> and QSTMT_START_LAG <matrix> when paced;
 * an INTERVAL line per interval of the timed reads (Timeline: the reads that ended in it, ok and failed);
 * FAILED kind=statement <matrix> and QERROR kind=statement error=<the first failure's message, the rest of the line>
 * when some failed (Timeline.printFailures, as Bench's).
 */
public class QueryFile {
  static String database = "";
  /** each session's statements */
  static List<List<String>> shares = new ArrayList<>();
  /** the kind of this process's every read, in its Timeline */
  static final String STATEMENT = "statement";
  static int fetch = 5000, threads = 1, reps = 1, warm = 1;
  static boolean table = false, query = true;
  static double rate = 0;
  static long pauseMs = 0, maxMs = 0, intervalMs = 1000;

  /** What one session's reads came to. */
  static final class Done {
    final List<Long> ok = new ArrayList<>(), uncorrected = new ArrayList<>();
    /** paced: how late each read started after it was due */
    final List<Long> startLag = new ArrayList<>();
    /** the reads, by when they ended; the failed ones' latencies and first error */
    final Timeline timeline = new Timeline();
    long rows, points, spentNs;
  }

  interface Reader extends AutoCloseable {
    SessionDataSet query(String q) throws Exception;

    void execute(String q) throws Exception;
  }

  public static void main(String[] args) throws Exception {
    String sql = null, statements = null;
    for (String a : args) {
      String[] kv = a.split("=", 2);
      if (kv[0].equals("sql")) sql = kv[1];
      else if (kv[0].equals("statements")) statements = kv[1];
      else option(kv);
    }
    if (statements != null) readShares(statements);
    else if (sql != null) for (int k = 0; k < threads; k++) shares.add(List.of(sql));
    else throw new IllegalArgumentException("sql= or statements= is required");
    threads = shares.size();
    warmUp(shares.get(0).get(0));
    long intervalNs = rate > 0 ? (long) (1e9 * threads / rate) : 0;
    long cpu0 = Bench.processCpuNanos(), srv0 = Bench.serverCpuTicks("start"), start = System.nanoTime();
    ServerSampler sampler = ServerSampler.start(start, srv0, intervalMs);
    long deadline = maxMs > 0 ? start + maxMs * 1_000_000L : Long.MAX_VALUE;
    Done[] done = new Done[threads];
    Thread[] ts = new Thread[threads];
    for (int id = 0; id < threads; id++) {
      final int k = id;
      done[k] = new Done();
      ts[k] = new Thread(() -> session(shares.get(k), done[k], start + intervalNs * k / threads, intervalNs, deadline));
      ts[k].start();
    }
    for (Thread t : ts) t.join();
    long end = System.nanoTime(), srvTicks = Bench.serverCpuTicksSince(srv0);
    sampler.stop(end, srvTicks);
    report(done, start, end, Bench.processCpuNanos() - cpu0, srvTicks, intervalNs > 0);
    sampler.print();
  }

  static void option(String[] kv) {
    switch (kv[0]) {
      case "fetch": fetch = Integer.parseInt(kv[1]); break;
      case "table": table = Boolean.parseBoolean(kv[1]); break;
      case "database": database = kv[1]; break;
      case "threads": threads = Integer.parseInt(kv[1]); break;
      case "reps": reps = Integer.parseInt(kv[1]); break;
      case "rate": rate = Double.parseDouble(kv[1]); break;
      case "pause": pauseMs = Long.parseLong(kv[1]); break;
      case "maxms": maxMs = Long.parseLong(kv[1]); break;
      case "query": query = Boolean.parseBoolean(kv[1]); break;
      case "warm": warm = Integer.parseInt(kv[1]); break;
      case "intervalMs": intervalMs = Long.parseLong(kv[1]); break;
      case "serverPids": Bench.serverPids = kv[1]; break;
      default: Connect.option(kv, String.join("=", kv));
    }
  }

  /** statements=FILE: each line `<session> <base64 SQL>`, the sessions numbered from 0. */
  static void readShares(String file) throws Exception {
    for (String line : Files.readAllLines(Paths.get(file), StandardCharsets.UTF_8)) {
      if (line.isEmpty()) continue;
      String[] parts = line.split(" ", 2);
      int k = Integer.parseInt(parts[0]);
      while (shares.size() <= k) shares.add(new ArrayList<>());
      shares.get(k).add(new String(Base64.getDecoder().decode(parts[1]), StandardCharsets.UTF_8));
    }
  }

  /** A session of the statement's model, opened. */
  static Reader open() throws Exception {
    if (table) {
      ITableSession s = Connect.table().database(database).fetchSize(fetch).build();
      return new Reader() {
        public SessionDataSet query(String q) throws Exception { return s.executeQueryStatement(q); }
        public void execute(String q) throws Exception { s.executeNonQueryStatement(q); }
        public void close() throws Exception { s.close(); }
      };
    }
    Session s = Connect.open(Connect.tree().fetchSize(fetch));
    return new Reader() {
      public SessionDataSet query(String q) throws Exception { return s.executeQueryStatement(q); }
      public void execute(String q) throws Exception { s.executeNonQueryStatement(q); }
      public void close() throws Exception { s.close(); }
    };
  }

  /** The statement read `warm` times, untimed (one that changes something is not run again: SHOW VERSION instead). */
  static void warmUp(String sql) {
    if (warm == 0) return;
    try (Reader r = open()) {
      for (int i = 0; i < warm; i++)
        try (SessionDataSet ds = r.query(query ? sql : "SHOW VERSION")) {
          QueryBench.readAll(ds, new double[1]);
        } catch (Exception e) {
          // a statement the server refuses fails in the timed reads too, where it is counted
        }
    } catch (Exception e) {
      // a session that does not open: the timed reads say why
    }
  }

  /**
   * One session's reads, its statements in order `reps` times over: the first opens it; each waits for its turn (the
   * schedule, or the pause).
   */
  static void session(List<String> mine, Done d, long firstDueNs, long intervalNs, long deadline) {
    Reader reader = null;
    double[] sink = new double[1];
    long due = firstDueNs;
    for (int i = 0; i < reps * mine.size(); i++) {
      String sql = mine.get(i % mine.size());
      // no wait goes past the time limit (ours stops there too)
      if (intervalNs > 0) parkUntil(Math.min(due, deadline));
      else if (i > 0 && pauseMs > 0) parkUntil(Math.min(System.nanoTime() + pauseMs * 1_000_000L, deadline));
      long t0 = System.nanoTime();
      if (t0 >= deadline) break;
      if (intervalNs > 0) d.startLag.add(Math.max(0, t0 - due));
      try {
        if (reader == null) reader = open();
        if (query) {
          try (SessionDataSet ds = reader.query(sql)) {
            long[] read = QueryBench.readAll(ds, sink);
            d.rows += read[0];
            d.points += read[1];
          }
        } else reader.execute(sql);
        long end = System.nanoTime();
        d.ok.add(end - (intervalNs > 0 ? due : t0));
        d.timeline.add(end, end - (intervalNs > 0 ? due : t0), 0);
        if (intervalNs > 0) d.uncorrected.add(end - t0);
      } catch (Exception e) {
        long end = System.nanoTime();
        d.timeline.fail(STATEMENT, end, end - (intervalNs > 0 ? due : t0), e);
      }
      d.spentNs += System.nanoTime() - t0;
      due += intervalNs;
    }
    try {
      if (reader != null) reader.close();
    } catch (Exception e) {
      // the reads are counted; a failed close changes none of them
    }
  }

  static void parkUntil(long at) {
    for (long now = System.nanoTime(); now < at; now = System.nanoTime()) LockSupport.parkNanos(at - now);
  }

  static void report(Done[] done, long startNs, long endNs, long cpuNs, long srvTicks, boolean paced) {
    Timeline[] timelines = Arrays.stream(done).map(d -> d.timeline).toArray(Timeline[]::new);
    long[] failed = Timeline.failed(timelines, STATEMENT);
    long wallNs = endNs - startNs, ok = 0, rows = 0, points = 0, slowest = 0;
    for (Done d : done) {
      ok += d.ok.size();
      rows += d.rows;
      points += d.points;
      slowest = Math.max(slowest, d.spentNs);
    }
    System.out.printf("QSTMT ok=%d failed=%d rows=%d points=%d wall_s=%.6f client_cpu_s=%.4f server_cpu_s=%s slowest_s=%.6f peak_rss_mb=%s %s%n",
        ok, failed.length, rows, points, wallNs / 1e9, cpuNs / 1e9, Bench.serverCpuField(srvTicks), slowest / 1e9,
        Bench.peakRssMb(), Bench.matrix(sorted(done, d -> d.ok)));
    if (paced) System.out.printf("QSTMT_UNCORRECTED %s%n", Bench.matrix(sorted(done, d -> d.uncorrected)));
    if (paced) System.out.printf("QSTMT_START_LAG %s%n", Bench.matrix(sorted(done, d -> d.startLag)));
    Timeline.print(timelines, startNs, endNs, intervalMs);
    Timeline.printFailures(timelines);
  }

  /** Every session's latencies of one kind (`of`: its ok or uncorrected ones), sorted. */
  static long[] sorted(Done[] done, Function<Done, List<Long>> of) {
    List<Long> all = new ArrayList<>();
    for (Done d : done) all.addAll(of.apply(d));
    Collections.sort(all);
    return all.stream().mapToLong(Long::longValue).toArray();
  }
}
