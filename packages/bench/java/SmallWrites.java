import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.Collections;
import java.util.List;
import org.apache.iotdb.session.Session;
import org.apache.tsfile.enums.TSDataType;

/**
 * What one small write costs the Java client: n insertRecord calls of one DOUBLE in a row on one Session (after 2,000
 * untimed), into a device of its own, at 127.0.0.1:6667; prints the wall time and the process's CPU time a call.
 * scripts/small-write-cost.mjs runs it beside ours (`--java`).
 */
public final class SmallWrites {
  private SmallWrites() {}

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 20000;
    Session session = new Session.Builder().host("127.0.0.1").port(6667).build();
    session.open(false);
    String device = "root.small_write_cost.java" + ProcessHandle.current().pid();
    List<String> measurements = Collections.singletonList("s");
    List<TSDataType> types = Collections.singletonList(TSDataType.DOUBLE);
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpu0 = 0;
    long t0 = 0;
    for (int t = 0; t < 2000 + n; t++) {
      if (t == 2000) {
        cpu0 = os.getProcessCpuTime();
        t0 = System.nanoTime();
      }
      session.insertRecord(device, t, measurements, types, Collections.singletonList((Object) (t * 0.5)));
    }
    double wallUs = (System.nanoTime() - t0) / 1000.0 / n;
    double cpuUs = (os.getProcessCpuTime() - cpu0) / 1000.0 / n;
    System.out.printf("java: %.1f us a call, client CPU %.1f us%n", wallUs, cpuUs);
    session.close();
  }
}
