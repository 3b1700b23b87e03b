import java.util.List;
import org.apache.iotdb.session.Session;
import org.apache.iotdb.session.TableSessionBuilder;

/**
 * How the Java client connects, as ours does: to host= and port= (default 127.0.0.1:6667), as the user of IOTDB_USER
 * and IOTDB_PASSWORD (unset or blank: root / root); with the option compression=true Thrift's compact protocol (--rpc-compression); with trustStore=FILE TLS,
 * trusting that JKS trust store, its password in JAVA_TRUST_STORE_PASSWORD (--tls); with queryTimeout=MS each query's
 * life on the server (--query-timeout-ms; 0: no limit, sent as Long.MAX_VALUE since IoTDB reads 0 as its own 60 s);
 * with autoFetch=false its queries stay on its node (enableAutoFetch: on by default, they take turns on the DataNodes
 * SHOW DATANODES lists; --spread-queries false, --discover-nodes false); with redirection=false its writes and its
 * one-device last queries too (enableRedirection: on by default, they go to the node leading the device; --redirection
 * false); with replyTimeout=MS the longest it waits for a reply (its socket timeout, as ours waits; 0 or not given:
 * without end, the Java Session's default).
 */
final class Connect {
  private Connect() {}

  private static String host = "127.0.0.1";
  private static int port = 6667;
  private static boolean compression = false;
  private static String trustStore = null;
  /** the query timeout sent with every query, ms; null: the client's default */
  private static Long queryTimeoutMs = null;
  private static boolean autoFetch = true;
  private static boolean redirection = true;
  /** the socket's read (and connect) timeout, ms; 0: none */
  private static int replyTimeoutMs = 0;

  /** One of the options above (`kv`: the key=value split of `option`); any other is unknown to every program. */
  static void option(String[] kv, String option) {
    String value = kv.length > 1 ? kv[1] : "";
    switch (kv[0]) {
      case "host": host = value; break;
      case "port": port = Integer.parseInt(value); break;
      case "compression": compression = Boolean.parseBoolean(value); break;
      case "trustStore": trustStore = value; break;
      case "queryTimeout": queryTimeoutMs = noLimitAsMax(Long.parseLong(value)); break;
      case "autoFetch": autoFetch = Boolean.parseBoolean(value); break;
      case "redirection": redirection = Boolean.parseBoolean(value); break;
      case "replyTimeout": replyTimeoutMs = Integer.parseInt(value); break;
      default: throw new IllegalArgumentException("unknown option " + option);
    }
  }

  /** A tree-model session's builder: the node, the user, TLS when asked (open it with `open`). */
  static Session.Builder tree() {
    Session.Builder b = new Session.Builder().host(host).port(port).username(user()).password(password())
        .enableAutoFetch(autoFetch).enableRedirection(redirection);
    if (queryTimeoutMs != null) b.timeOut(queryTimeoutMs);
    return trustStore == null ? b : b.useSSL(true).trustStore(trustStore).trustStorePwd(trustStorePassword());
  }

  /** The session `tree` (and the caller's settings) built, opened in the protocol asked. */
  static Session open(Session.Builder tree) throws Exception {
    Session s = tree.build();
    s.open(compression, replyTimeoutMs);
    return s;
  }

  /** A table-model session's builder: the node, the user, the protocol, TLS when asked. */
  static TableSessionBuilder table() {
    TableSessionBuilder b = new TableSessionBuilder().nodeUrls(List.of(host + ":" + port))
        .username(user()).password(password()).enableCompression(compression).enableAutoFetch(autoFetch)
        .enableRedirection(redirection).connectionTimeoutInMs(replyTimeoutMs);
    if (queryTimeoutMs != null) b.queryTimeoutInMs(queryTimeoutMs);
    return trustStore == null ? b : b.useSSL(true).trustStore(trustStore).trustStorePwd(trustStorePassword());
  }

  private static long noLimitAsMax(long ms) {
    return ms == 0 ? Long.MAX_VALUE : ms;
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
