import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import org.apache.iotdb.isession.SessionDataSet;
import org.apache.iotdb.isession.ITableSession;
import org.apache.iotdb.session.Session;
import org.apache.tsfile.enums.TSDataType;

/**
 * The Java client's read baseline (iotdb-session 2.0.1-beta): one statement, `reps` times, on one session,
 * every value of every row read through SessionDataSet.iterator()'s typed getters by position (Java's
 * fastest row access), as iotdb-bench read-compare reads ours.
 *
 * Options (key=value): host=127.0.0.1 port=6667 fetch=5000 reps=3 table=false database= (table model)
 *   (host, port, compression, trustStore, queryTimeout: Connect.java's)
 *   sql=SELECT * FROM root.bench.** ALIGN BY DEVICE, or file=PATH: one statement per line, each read in turn
 * Prints per rep and statement: QRESULT rep=N stmt=K rows=R points=P wall_s=.. points_per_s=.. client_cpu_s_per_Mpts=.. checksum=..
 * (or, for a statement the server refused: QFAIL rep=N stmt=K wall_s=.. error=MESSAGE, the message last)
 * where points are the non-null value cells (Time not counted) and checksum their count plus the rows, which
 * the reader on the other side must match.
 */
public class QueryBench {
  public static void main(String[] args) throws Exception {
    String database = "", sql = "SELECT * FROM root.bench.** ALIGN BY DEVICE", file = null;
    int fetch = 5000, reps = 3;
    boolean table = false;
    for (String a : args) {
      String[] kv = a.split("=", 2);
      switch (kv[0]) {
        case "fetch": fetch = Integer.parseInt(kv[1]); break;
        case "reps": reps = Integer.parseInt(kv[1]); break;
        case "table": table = Boolean.parseBoolean(kv[1]); break;
        case "database": database = kv[1]; break;
        case "sql": sql = kv[1]; break;
        case "file": file = kv[1]; break;
        default: Connect.option(kv, a);
      }
    }
    final List<String> statements = file == null ? List.of(sql) : Files.readAllLines(Paths.get(file));
    if (table) {
      try (ITableSession s = Connect.table().database(database).fetchSize(fetch).build()) {
        for (int rep = 1; rep <= reps; rep++)
          for (int k = 0; k < statements.size(); k++) {
            String q = statements.get(k);
            report(rep, k + 1, () -> s.executeQueryStatement(q));
          }
      }
    } else {
      Session s = Connect.open(Connect.tree().fetchSize(fetch));
      try {
        for (int rep = 1; rep <= reps; rep++)
          for (int k = 0; k < statements.size(); k++) {
            String q = statements.get(k);
            report(rep, k + 1, () -> s.executeQueryStatement(q));
          }
      } finally {
        s.close();
      }
    }
  }

  interface Query { SessionDataSet run() throws Exception; }

  /** Reads one statement and prints its QRESULT line; a statement the server refuses prints a QFAIL line instead. */
  static void report(int rep, int stmt, Query q) {
    long t0 = System.nanoTime();
    try {
      read(rep, stmt, q);
    } catch (Exception e) {
      String error = String.valueOf(e.getMessage()).replaceAll("\\s+", " ");
      System.out.printf("QFAIL rep=%d stmt=%d wall_s=%.6f error=%s%n", rep, stmt, (System.nanoTime() - t0) / 1e9, error);
    }
  }

  static void read(int rep, int stmt, Query q) throws Exception {
    long cpu0 = cpuNanos(), t0 = System.nanoTime();
    double[] sink = new double[1];
    long[] read;
    try (SessionDataSet ds = q.run()) {
      read = readAll(ds, sink);
    }
    long rows = read[0], points = read[1];
    double secs = (System.nanoTime() - t0) / 1e9, cpu = (cpuNanos() - cpu0) / 1e9;
    System.out.printf("QRESULT rep=%d stmt=%d rows=%d points=%d wall_s=%.6f points_per_s=%.0f client_cpu_s_per_Mpts=%.4f checksum=%d sink=%.0f%n",
        rep, stmt, rows, points, secs, points / secs, cpu / Math.max(1e-9, points / 1e6), rows + points, sink[0] % 7);
  }

  /**
   * Every row of `ds` to the end, every value through the iterator's typed getter of its type (added to sink[0]);
   * returns {rows, non-null values}. Bench.java's mixed runs read their queries with it too.
   */
  static long[] readAll(SessionDataSet ds, double[] sink) throws Exception {
    long rows = 0, points = 0;
    List<String> names = ds.getColumnTypes();
    int n = names.size();
    TSDataType[] t = new TSDataType[n + 1];
    for (int i = 0; i < n; i++) t[i + 1] = TSDataType.valueOf(names.get(i));
    // the table model has no separate time column: every column is a value
    int first = ds.getColumnNames().get(0).equals("Time") ? 2 : 1;
    SessionDataSet.DataIterator it = ds.iterator();
    while (it.next()) {
      rows++;
      if (first == 2) sink[0] += it.getLong(1) & 1;
      for (int c = first; c <= n; c++) {
        if (it.isNull(c)) continue;
        points++;
        switch (t[c]) {
          case FLOAT: sink[0] += it.getFloat(c); break;
          case DOUBLE: sink[0] += it.getDouble(c); break;
          case INT32: case DATE: sink[0] += it.getInt(c); break;
          case INT64: case TIMESTAMP: sink[0] += it.getLong(c) & 0xFFFF; break;
          case BOOLEAN: sink[0] += it.getBoolean(c) ? 1 : 0; break;
          default: sink[0] += it.getString(c).length(); break;
        }
      }
    }
    return new long[] {rows, points};
  }

  static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }
}
