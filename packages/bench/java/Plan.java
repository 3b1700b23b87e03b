import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Mixed.java's plan file, read a line at a time: a long run's plan has millions of operations, more than a heap holds
 * as objects. The harness writes each thread's lines together, in the thread's order; `scan` reads the file once for
 * where each thread's lines start and what its timed operations do (the pacing's shares), and `open` gives a thread
 * its own operations from there.
 */
final class Plan {
  /** One thread's lines: from byte `offset`, `lines` of them; its timed operations and the points they write. */
  static final class Part {
    long offset = -1, lines, timed, written;
  }

  /** Each thread's part of the plan file, by thread id; whether any line writes. */
  final List<Part> parts = new ArrayList<>();
  boolean writes;

  static Plan scan(String file) throws IOException {
    Plan plan = new Plan();
    try (InputStream in = new BufferedInputStream(new FileInputStream(file), 1 << 16)) {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      long pos = 0, start = 0;
      for (int b; (b = in.read()) != -1; pos++) {
        if (b != '\n') {
          line.write(b);
          continue;
        }
        plan.count(start, line.toString(StandardCharsets.UTF_8));
        line.reset();
        start = pos + 1;
      }
    }
    return plan;
  }

  private void count(long start, String line) {
    if (line.isEmpty()) return;
    String[] f = line.split(" ", 4);
    int id = Integer.parseInt(f[0]);
    while (parts.size() <= id) parts.add(new Part());
    Part p = parts.get(id);
    if (p.offset < 0) p.offset = start;
    p.lines++;
    Mixed.Op op = Mixed.Op.parse(f);
    writes |= op.isWrite();
    if (op.warmup) return;
    p.timed++;
    if (op.isWrite()) p.written += Mixed.points(op);
  }

  /** Thread `id`'s operations in order, read as they are taken. */
  Reader open(String file, int id) throws IOException {
    return new Reader(file, parts.get(id));
  }

  static final class Reader implements AutoCloseable {
    private final BufferedReader in;
    private long left;

    Reader(String file, Part p) throws IOException {
      FileInputStream f = new FileInputStream(file);
      if (p.lines > 0) f.getChannel().position(p.offset);
      in = new BufferedReader(new InputStreamReader(f, StandardCharsets.UTF_8), 1 << 16);
      left = p.lines;
    }

    /** The next operation, or null after the last. */
    Mixed.Op next() throws IOException {
      if (left == 0) return null;
      left--;
      return Mixed.Op.parse(in.readLine().split(" ", 4));
    }

    public void close() throws IOException {
      in.close();
    }
  }
}
