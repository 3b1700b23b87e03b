/**
 * The user the Java client logs in as: IOTDB_USER and IOTDB_PASSWORD, as our client reads them (unset or blank:
 * root / root), so that both sides of --vs-java log in alike.
 */
final class Login {
  private Login() {}

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
