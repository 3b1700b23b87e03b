import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iotdb.isession.SessionDataSet;
import org.apache.iotdb.session.Session;

/**
 * The Java client's reads while a DataNode dies: four Sessions (NODES, comma-separated) each run SQL in a loop for s
 * seconds; prints each failure and each call over 1.5 s, and at the end each thread still waiting for a reply (the
 * Session has no reply timeout: such a thread would wait on), then exits. scripts/reads-under-kill.mjs runs it
 * (`--java`).
 */
public final class ReadsUnderKill {
  private ReadsUnderKill() {}

  public static void main(String[] args) throws Exception {
    long t0 = System.currentTimeMillis();
    long until = t0 + (args.length > 0 ? Long.parseLong(args[0]) : 72) * 1000;
    List<String> nodes = Arrays.asList(env("NODES", "127.0.0.1:13667,127.0.0.1:13668,127.0.0.1:13669").split(","));
    String sql = env("SQL", "SELECT last s4 FROM root.qf65.**");
    AtomicInteger ok = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      Session session = new Session.Builder().nodeUrls(nodes).build();
      session.open(false);
      int id = i;
      Thread t = new Thread(() -> loop(session, id, sql, t0, until, ok, failed), "reader-" + i);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) t.join(until - System.currentTimeMillis() + 10_000);
    System.out.printf("java: %d ok, %d failed%n", ok.get(), failed.get());
    for (Thread t : threads)
      if (t.isAlive()) System.out.printf("  %s still waiting at %.2f s%n", t.getName(), seconds(t0));
    System.exit(0);
  }

  private static void loop(
      Session session, int id, String sql, long t0, long until, AtomicInteger ok, AtomicInteger failed) {
    while (System.currentTimeMillis() < until) {
      long start = System.currentTimeMillis();
      try (SessionDataSet rows = session.executeQueryStatement(sql)) {
        while (rows.hasNext()) rows.next();
        ok.incrementAndGet();
      } catch (Exception e) {
        failed.incrementAndGet();
        System.out.printf("  %.2f t%d FAILED after %d ms: %s%n", seconds(t0), id, System.currentTimeMillis() - start, e);
      }
      long took = System.currentTimeMillis() - start;
      if (took > 1500) System.out.printf("  %.2f t%d took %d ms%n", seconds(t0), id, took);
    }
  }

  private static String env(String name, String fallback) {
    String v = System.getenv(name);
    return v == null || v.isEmpty() ? fallback : v;
  }

  private static double seconds(long t0) {
    return (System.currentTimeMillis() - t0) / 1000.0;
  }
}
