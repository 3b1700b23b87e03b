import java.util.List;
import org.apache.iotdb.session.Session;
import org.apache.iotdb.session.TableSessionBuilder;

/**
 * How the Java client connects, as ours does: the user of IOTDB_USER and IOTDB_PASSWORD (unset or blank: root /
 * root); with the option compression=true Thrift's compact protocol (--rpc-compression); with trustStore=FILE TLS,
 * trusting that JKS trust store, its password in JAVA_TRUST_STORE_PASSWORD (--tls).
 */
final class Connect {
  private Connect() {}

  static boolean compression = false;
  static String trustStore = null;

  /** Takes the options above (true), or leaves the option to the caller (false). */
  static boolean option(String key, String value) {
    switch (key) {
      case "compression": compression = Boolean.parseBoolean(value); return true;
      case "trustStore": trustStore = value; return true;
      default: return false;
    }
  }

  /** A tree-model session's builder: the node, the user, TLS when asked (open it with `compression`). */
  static Session.Builder tree(String host, int port) {
    Session.Builder b = new Session.Builder().host(host).port(port).username(user()).password(password());
    return trustStore == null ? b : b.useSSL(true).trustStore(trustStore).trustStorePwd(trustStorePassword());
  }

  /** A table-model session's builder: the node, the user, the protocol, TLS when asked. */
  static TableSessionBuilder table(String host, int port) {
    TableSessionBuilder b = new TableSessionBuilder().nodeUrls(List.of(host + ":" + port))
        .username(user()).password(password()).enableCompression(compression);
    return trustStore == null ? b : b.useSSL(true).trustStore(trustStore).trustStorePwd(trustStorePassword());
  }

  static String user() {
    return env("IOTDB_USER", "root");
  }

  static String password() {
    return env("IOTDB_PASSWORD", "root");
  }

  private static String trustStorePassword() {
    String pwd = env("JAVA_TRUST_STORE_PASSWORD", "");
    if (pwd.isEmpty())
      throw new IllegalArgumentException("trustStore=" + trustStore + " needs its password in JAVA_TRUST_STORE_PASSWORD");
    return pwd;
  }

  private static String env(String name, String otherwise) {
    String v = System.getenv(name);
    return v == null || v.isBlank() ? otherwise : v;
  }
}
