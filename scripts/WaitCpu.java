// scripts/wait-cpu.mjs's `compute` in Java: 20,000 Math.sqrt a round, the next at once (Thread.yield) or after
// Thread.sleep(2), 1,500 rounds, waits of 0, 2, 0, 2, 0, 2 ms; the thread's CPU a round (ThreadMXBean).
//   java scripts/WaitCpu.java
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

public class WaitCpu {
  static double work() {
    double x = 0;
    for (int i = 0; i < 20_000; i++) x += Math.sqrt(i);
    return x;
  }

  public static void main(String[] args) throws InterruptedException {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    int rounds = 1500;
    double sink = 0;
    for (int i = 0; i < 500; i++) sink += work();
    StringBuilder figures = new StringBuilder("compute (Java), the thread's CPU a round:");
    for (int waitMs : new int[] {0, 2, 0, 2, 0, 2}) {
      long cpu0 = threads.getCurrentThreadCpuTime();
      long t0 = System.nanoTime();
      for (int i = 0; i < rounds; i++) {
        sink += work();
        if (waitMs > 0) Thread.sleep(waitMs);
        else Thread.yield();
      }
      double cpuUs = (threads.getCurrentThreadCpuTime() - cpu0) / 1e3 / rounds;
      double wallMs = (System.nanoTime() - t0) / 1e6 / rounds;
      figures.append(String.format(" wait %d ms: %.0f us (%.2f ms a round),", waitMs, cpuUs, wallMs));
    }
    System.out.println(figures.substring(0, figures.length() - 1) + (sink > 0 ? "" : " "));
  }
}
