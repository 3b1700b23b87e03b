import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.apache.iotdb.common.rpc.thrift.TAggregationType;
import org.apache.iotdb.isession.ITableSession;
import org.apache.iotdb.isession.SessionDataSet;
import org.apache.iotdb.session.Session;
import org.apache.tsfile.read.common.Field;
import org.apache.tsfile.read.common.RowRecord;

/**
 * The Java client's answer to each statement of a file, printed exactly, for comparison with ours
 * (src/e2e/read-parity.integration.test.ts). Options: Connect's, database= (the table session's), statements=FILE,
 * a line each: `tree|SQL`, `table|SQL`, or a tree session's structured query, its arguments split by `|` and lists by
 * `,`: `raw|PATHS|START|END`, `last|PATHS|LAST_TIME`, `lastdevice|DATABASE|DEVICE|MEASUREMENTS`,
 * `agg|PATHS|AGGREGATIONS|START|END|INTERVAL` (interval 0: none). Prints for each statement `### <line>`, then `names ...` and
 * `types ...` and a line per row (a tree result's time first, then each field by its column's declared type: FLOAT
 * and DOUBLE as their bits in hex, text JSON-quoted, BLOB as 0x hex, DATE yyyy-MM-dd, null as null) and its text
 * (`text`, RowRecord.toString), or `ERROR <code>: <message>`; then the statement read again through its iterator,
 * a line of each row's getString of every column (`strings`), or its `ERROR`.
 */
public final class ReadDump {
  private ReadDump() {}

  public static void main(String[] args) throws Exception {
    String database = null;
    String statements = null;
    for (String a : args) {
      String[] kv = a.split("=", 2);
      if (kv[0].equals("database")) database = kv[1];
      else if (kv[0].equals("statements")) statements = kv[1];
      else Connect.option(kv, a);
    }
    Session tree = Connect.open(Connect.tree());
    try (ITableSession table = Connect.table().database(database).build()) {
      for (String line : Files.readAllLines(Paths.get(statements))) {
        String[] p = line.split("\\|");
        System.out.println("### " + line);
        try (SessionDataSet ds = query(p, line, tree, table)) {
          dump(ds, !p[0].equals("table"));
        } catch (Exception e) {
          System.out.println("ERROR " + e.getMessage());
        }
        try (SessionDataSet ds = query(p, line, tree, table)) {
          strings(ds);
        } catch (Exception e) {
          System.out.println("ERROR " + e.getMessage());
        }
      }
    } finally {
      tree.close();
    }
  }

  private static SessionDataSet query(String[] p, String line, Session tree, ITableSession table) throws Exception {
    switch (p[0]) {
      case "tree": return tree.executeQueryStatement(line.substring(5));
      case "table": return table.executeQueryStatement(line.substring(6));
      case "raw": return tree.executeRawDataQuery(list(p[1]), Long.parseLong(p[2]), Long.parseLong(p[3]));
      case "last": return tree.executeLastDataQuery(list(p[1]), Long.parseLong(p[2]));
      case "lastdevice": return tree.executeLastDataQueryForOneDevice(p[1], p[2], list(p[3]), false);
      case "agg": {
        List<TAggregationType> aggregations = new ArrayList<>();
        for (String a : p[2].split(",")) aggregations.add(TAggregationType.valueOf(a));
        long start = Long.parseLong(p[3]), end = Long.parseLong(p[4]), interval = Long.parseLong(p[5]);
        return interval == 0
            ? tree.executeAggregationQuery(list(p[1]), aggregations, start, end)
            : tree.executeAggregationQuery(list(p[1]), aggregations, start, end, interval);
      }
      default: throw new IllegalArgumentException("unknown kind of statement: " + line);
    }
  }

  private static List<String> list(String commaSeparated) {
    return List.of(commaSeparated.split(","));
  }

  private static void dump(SessionDataSet ds, boolean tree) throws Exception {
    List<String> names = ds.getColumnNames();
    List<String> types = ds.getColumnTypes();
    System.out.println("names " + String.join(",", names));
    System.out.println("types " + String.join(",", types));
    boolean hasTime = tree && !names.isEmpty() && names.get(0).equals("Time");
    int first = hasTime ? 1 : 0;
    while (ds.hasNext()) {
      RowRecord r = ds.next();
      List<String> out = new ArrayList<>();
      if (hasTime) out.add(String.valueOf(r.getTimestamp()));
      List<Field> fields = r.getFields();
      for (int i = 0; i < fields.size(); i++) out.add(value(types.get(i + first), fields.get(i)));
      System.out.println(String.join(" | ", out));
      System.out.println("text " + quoted(r.toString())); // each value as getString gives it (a DATE as yyyyMMdd)
    }
  }

  /** The statement read again through its iterator: each row's getString of every column, tab-separated, quoted. */
  private static void strings(SessionDataSet ds) throws Exception {
    SessionDataSet.DataIterator it = ds.iterator();
    int columns = ds.getColumnNames().size();
    while (it.next()) {
      List<String> cells = new ArrayList<>();
      for (int i = 1; i <= columns; i++) cells.add(String.valueOf(it.getString(i)));
      System.out.println("strings " + quoted(String.join("\t", cells)));
    }
  }

  /** A field by its column's declared type; a field of another type is marked so, `[TYPE]` before it. */
  private static String value(String type, Field f) {
    if (f == null || f.getDataType() == null) return "null";
    String mark = f.getDataType().name().equals(type) ? "" : "[" + f.getDataType() + "]";
    switch (type) {
      case "FLOAT": return mark + "f" + Integer.toHexString(Float.floatToRawIntBits(f.getFloatV()));
      case "DOUBLE": return mark + "d" + Long.toHexString(Double.doubleToRawLongBits(f.getDoubleV()));
      case "TEXT": case "STRING": return mark + quoted(f.getBinaryV().getStringValue(StandardCharsets.UTF_8));
      case "BLOB": return mark + "0x" + hex(f.getBinaryV().getValues());
      case "DATE": return mark + f.getDateV();
      case "BOOLEAN": return mark + f.getBoolV();
      case "INT32": return mark + f.getIntV();
      default: return mark + f.getLongV(); // INT64, TIMESTAMP
    }
  }

  private static String hex(byte[] bytes) {
    StringBuilder s = new StringBuilder();
    for (byte b : bytes) s.append(String.format("%02x", b));
    return s.toString();
  }

  /** As JSON.stringify quotes a string. */
  private static String quoted(String s) {
    StringBuilder o = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"': o.append("\\\""); break;
        case '\\': o.append("\\\\"); break;
        case '\n': o.append("\\n"); break;
        case '\t': o.append("\\t"); break;
        case '\r': o.append("\\r"); break;
        case '\b': o.append("\\b"); break;
        case '\f': o.append("\\f"); break;
        default: o.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
      }
    }
    return o.append('"').toString();
  }
}
