/**
 * How the Java client connects, as ours does: the user of IOTDB_USER and IOTDB_PASSWORD (unset or blank: root /
 * root), and with the option compression=true Thrift's compact protocol (--rpc-compression).
 */
final class Connect {
  private Connect() {}

  /** Session.open(compression), TableSessionBuilder.enableCompression(compression) */
  static boolean compression = false;

  static String user() {
    return env("IOTDB_USER", "root");
  }

  static String password() {
    return env("IOTDB_PASSWORD", "root");
  }

  private static String env(String name, String otherwise) {
    String v = System.getenv(name);
    return v == null || v.isBlank() ? otherwise : v;
  }
}
