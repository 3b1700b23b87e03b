#!/usr/bin/env bash
# iotdb-local.sh - run a real Apache IoTDB (1 ConfigNode + N DataNodes) on 127.0.0.1
# from the Maven Central jars (no distribution zip, no Docker). It lives in @iotdb/bench, which ships it: the
# installed `iotdb-bench` starts its server with it (run with `bash`: a script in a tarball loses its execute bit).
# In the repository, scripts/iotdb-local.sh runs it for the integration tests (scripts/iotdb-global-setup.ts) and
# by hand: `pnpm iotdb start|stop|status`.
#
#   iotdb-local.sh install            resolve jars into $IOTDB_CACHE/<version>/lib (cached)
#   iotdb-local.sh start   [DIR]      fresh config+data under DIR, start CN then DNs, wait until writable
#   iotdb-local.sh restart [DIR]      stop every node and start them again, KEEPING the data
#   iotdb-local.sh stop    [DIR]      stop the processes this script started (recorded pids only)
#   iotdb-local.sh kill    [DIR]      SIGKILL them all at once: no flush, for data the next start wipes anyway
#                                     (a 1C1D stop is ~10 s of IoTDB's own shutdown, mostly the ConfigNode's; kill <1 s)
#   iotdb-local.sh stop-node  DIR NODE   stop one node (confignode, datanode, datanode1, ...), keep data
#   iotdb-local.sh start-node DIR NODE   start that node again on its existing data, wait until writable
#   iotdb-local.sh status  [DIR]      pids, ports, `show cluster`
#   iotdb-local.sh pids    [DIR]      the running nodes' pids, comma-separated (iotdb-bench read-compare --server-pid)
#
# DIR defaults to /tmp/iotdb-local.  Env knobs (defaults): IOTDB_VERSION=2.0.1-beta DATANODES=1
# IOTDB_CACHE=~/.cache/iotdb-local CN_HEAP=1g DN_HEAP=2g DN_DIRECT=3072M READY_TIMEOUT=180
# DN_DIRECT bounds the databases a DataNode holds at once: each region it creates reserves direct memory (a data
# region 64 MiB for its write-ahead log's two 32 MiB buffers) against 80 % of it, and a region that does not fit is
# refused ("There are no available DataRegionGroup RegionGroups currently" to the write that needed it, until
# databases are dropped). Measured on 2.0.1-beta, a new database written to one after another: 10 at 1024M, 51 at
# 3072M; the memory is taken only by the regions there are (the DataNode's RSS alike at both, write rates alike).
# Ports: CN 10710/10720; DataNode k (0-based) rpc RPC_PORT+k (6667, 6668, ...), internal 10730+100k,
# mpp 10740+100k, schema/data consensus 10750+100k/10760+100k; PORT_OFFSET=N (default 0) shifts the CN and
# internal ports by N, so a second cluster (with another RPC_PORT) can run beside the first.
# EXTRA_PROPS: extra "key=value" lines for every node's iotdb-system.properties, the ConfigNode's too (it decides
# cluster-wide settings such as timestamp_precision=us|ns); they come last, so they override the knobs below.
# TLS=1: `start` makes (once; kept in DIR/tls across starts) a self-signed RSA-2048 key for CN=127.0.0.1
#   (SAN ip:127.0.0.1, dns:localhost) in DIR/tls/keystore.jks (JKS, password iotdb-local) and sets on every
#   DataNode enable_thrift_ssl=true, key_store_path, key_store_pwd: the client RPC port then speaks TLS only
#   (TLSv1.3/1.2, no client certificates). Clients trust DIR/tls/ca.pem (the server certificate, PEM; Node:
#   tls.connect({ ca })); Java: Session.Builder().useSSL(true).trustStore(DIR/tls/truststore.jks).trustStorePwd(
#   "iotdb-local"). DIR/tls/wrong-ca.pem is an unrelated self-signed certificate, for negative tests.
# RPC_COMPRESSION=1: dn_rpc_thrift_compression_enable=true for the ConfigNode and every DataNode (the ConfigNode
#   needs it too: a DataNode with it talks compact to the ConfigNode): every Thrift port speaks the compact
#   protocol, binary clients are refused. Java: Session.open(true), TableSessionBuilder.enableCompression(true).
# The readiness check and `status` connect with TLS / compact accordingly (with SSL or compression set through
# EXTRA_PROPS alone they cannot connect and `start` fails after READY_TIMEOUT).
# DATANODES, RPC_PORT, PORT_OFFSET, TLS and RPC_COMPRESSION are remembered in DIR (TLS=0 turns it off again).
# IoTDB 2.0.1-beta's thrift servers bind the wildcard address whatever *_address says, so the JVMs run with a tiny
# LD_PRELOAD shim (bind_lo.so, built by `install` with gcc) that turns wildcard binds into 127.0.0.1.
# Client: host 127.0.0.1, port 6667, user root, password root.
set -euo pipefail

VERSION=${IOTDB_VERSION:-2.0.1-beta}
CACHE=${IOTDB_CACHE:-$HOME/.cache/iotdb-local}/$VERSION
LIB=$CACHE/lib
CN_HEAP=${CN_HEAP:-1g}
DN_HEAP=${DN_HEAP:-2g}
DN_DIRECT=${DN_DIRECT:-3072M}
READY_TIMEOUT=${READY_TIMEOUT:-180}
CMD=${1:-}
DIR=$(realpath -m "${2:-/tmp/iotdb-local}")
NODE_ARG=${3:-}
DATANODES=${DATANODES:-$(cat "$DIR/run/datanodes" 2>/dev/null || echo 1)}
RPC_PORT=${RPC_PORT:-$(cat "$DIR/run/rpc_port" 2>/dev/null || echo 6667)}
PORT_OFFSET=${PORT_OFFSET:-$(cat "$DIR/run/port_offset" 2>/dev/null || echo 0)}
EXTRA_PROPS=${EXTRA_PROPS:-}
TLS=${TLS:-$(cat "$DIR/run/tls" 2>/dev/null || echo 0)}
RPC_COMPRESSION=${RPC_COMPRESSION:-$(cat "$DIR/run/rpc_compression" 2>/dev/null || echo 0)}
TLS_PWD=iotdb-local   # password of DIR/tls/keystore.jks and truststore.jks (test material, not a secret)
CN_PORT=$((10710 + PORT_OFFSET))
dn_name() { if [ "$1" = 0 ]; then echo datanode; else echo "datanode$1"; fi; }
dn_base() { echo $((10730 + PORT_OFFSET + 100 * $1)); }
MARK=".iotdb-local"   # a DIR carrying this file was created by this script

die() { echo "iotdb-local: $*" >&2; exit 1; }
on() { case "${1,,}" in 1 | true | yes | on) return 0 ;; *) return 1 ;; esac; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# a process not yet gone: a zombie counts as gone once its last thread has exited (its sockets closed with it), so
# that a PID 1 that does not reap (a container without an init) does not hold a stop for its 60 s
running() {
  [ -d "/proc/$1" ] || return 1
  grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null || return 0
  [ "$(ls "/proc/$1/task" 2>/dev/null | wc -l)" -gt 1 ]
}
# pid from DIR/run/<node>.pid, printed only if that process is alive AND is ours
our_pid() {
  local f=$DIR/run/$1.pid pid
  [ -f "$f" ] || return 1
  pid=$(cat "$f")
  [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "-Diotdb.local.dir=$DIR " \
    && echo "$pid"
}

# helpers are rebuilt when their source here changed, in a temp dir renamed into place (clusters of other DIRs
# may be using them right now)
helper_stale() { [ ! -f "$CACHE/tools/$2" ] || ! "$1" | cmp -s - "$CACHE/tools/$3"; }
install() {
  local t=$CACHE/tools tmp
  if [ -f "$LIB/.complete" ] && ! helper_stale write_checker IotdbLocalCheck.class IotdbLocalCheck.java \
    && ! helper_stale write_shim bind_lo.so bind_lo.c; then return 0; fi
  mkdir -p "$t"
  if [ ! -f "$LIB/.complete" ]; then
    command -v mvn >/dev/null || die "mvn not found"
    cat >"$CACHE/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local</groupId><artifactId>iotdb-local</artifactId><version>1</version><packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.iotdb</groupId><artifactId>iotdb-server</artifactId><version>$VERSION</version></dependency>
    <dependency><groupId>org.apache.iotdb</groupId><artifactId>iotdb-confignode</artifactId><version>$VERSION</version></dependency>
    <dependency><groupId>org.apache.iotdb</groupId><artifactId>iotdb-session</artifactId><version>$VERSION</version></dependency>
  </dependencies>
</project>
EOF
    echo "resolving org.apache.iotdb:iotdb-server,iotdb-confignode,iotdb-session:$VERSION via mvn ..."
    rm -rf "$LIB"
    mvn -q -B -f "$CACHE/pom.xml" dependency:copy-dependencies -DoutputDirectory="$LIB" \
      || die "mvn could not resolve IoTDB $VERSION"
    touch "$LIB/.complete"
  fi
  tmp=$(mktemp -d "$t/.build.XXXXXX")
  if helper_stale write_shim bind_lo.so bind_lo.c; then
    command -v gcc >/dev/null || { rm -rf "$tmp"; die "gcc not found (needed to build bind_lo.so)"; }
    write_shim >"$tmp/bind_lo.c"
    gcc -shared -fPIC -O2 -o "$tmp/bind_lo.so" "$tmp/bind_lo.c" -ldl || { rm -rf "$tmp"; die "gcc failed"; }
    mv -f "$tmp/bind_lo.so" "$t/bind_lo.so"; mv -f "$tmp/bind_lo.c" "$t/bind_lo.c"
  fi
  if helper_stale write_checker IotdbLocalCheck.class IotdbLocalCheck.java; then
    write_checker >"$tmp/IotdbLocalCheck.java"   # readiness/status client (Session API)
    javac -nowarn -d "$tmp" -cp "$LIB/*" "$tmp/IotdbLocalCheck.java" || { rm -rf "$tmp"; die "javac failed"; }
    mv -f "$tmp/IotdbLocalCheck.class" "$t/IotdbLocalCheck.class"; mv -f "$tmp/IotdbLocalCheck.java" "$t/IotdbLocalCheck.java"
  fi
  rm -rf "$tmp"
  echo "installed $(ls "$LIB" | wc -l) jars into $LIB, helpers into $t"
}

write_checker() { cat <<'EOF'
import java.util.List;
import org.apache.iotdb.isession.SessionDataSet;
import org.apache.iotdb.session.Session;
// usage: IotdbLocalCheck <port> wait <timeoutSec> <expectedNodes> | <port> cluster
// -Diotdb.local.truststore=PATH -Diotdb.local.truststorePwd=PWD: connect with TLS; -Diotdb.local.compression=true:
// Thrift compact protocol (RPC compression)
public class IotdbLocalCheck {
  public static void main(String[] a) throws Exception {
    int port = Integer.parseInt(a[0]);
    long deadline = System.currentTimeMillis() + 1000L * (a.length > 2 ? Long.parseLong(a[2]) : 0);
    String trustStore = System.getProperty("iotdb.local.truststore");
    boolean compression = Boolean.getBoolean("iotdb.local.compression");
    String last = "";
    do {
      Session.Builder b = new Session.Builder().host("127.0.0.1").port(port);
      if (trustStore != null) b.useSSL(true).trustStore(trustStore).trustStorePwd(System.getProperty("iotdb.local.truststorePwd", ""));
      try (Session s = b.build()) {
        s.open(compression);
        int nodes = 0, running = 0;
        try (SessionDataSet ds = s.executeQueryStatement("show cluster")) {
          List<String> cols = ds.getColumnNames();
          int st = cols.indexOf("Status") - (cols.get(0).equals("Time") ? 1 : 0);
          while (ds.hasNext()) {
            List<org.apache.tsfile.read.common.Field> f = ds.next().getFields();
            nodes++;
            if ("Running".equals(String.valueOf(f.get(st)))) running++;
            if (a[1].equals("cluster")) System.out.println("  " + f);
          }
        }
        if (a[1].equals("cluster")) return;
        int expected = a.length > 3 ? Integer.parseInt(a[3]) : 2;
        if (nodes < expected || running < nodes) throw new IllegalStateException(running + "/" + nodes + " nodes Running, want " + expected);
        // a real write + read-back, then clean up
        s.executeNonQueryStatement("insert into root.iotdb_local_ready.d(timestamp, v) values (1, 42)");
        try (SessionDataSet ds = s.executeQueryStatement("select v from root.iotdb_local_ready.d")) {
          if (!ds.hasNext() || Double.parseDouble(ds.next().getFields().get(0).getStringValue()) != 42)
            throw new IllegalStateException("read-back failed");
        }
        s.executeNonQueryStatement("delete database root.iotdb_local_ready");
        System.out.println("ready: " + nodes + " nodes Running, insert+select ok");
        return;
      } catch (Exception e) {
        if (!String.valueOf(e).equals(last)) System.err.println("  not ready yet: " + e);
        last = String.valueOf(e);
      }
      Thread.sleep(500);
    } while (System.currentTimeMillis() < deadline);
    System.exit(1);
  }
}
EOF
}

write_shim() { cat <<'EOF'
/* LD_PRELOAD: bind() to the wildcard address becomes bind() to loopback (IPv4 and IPv6). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
int bind(int fd, const struct sockaddr *a, socklen_t n) {
  static int (*real)(int, const struct sockaddr *, socklen_t);
  if (!real) real = (int (*)(int, const struct sockaddr *, socklen_t))dlsym(RTLD_NEXT, "bind");
  if (a && a->sa_family == AF_INET && n >= sizeof(struct sockaddr_in)) {
    struct sockaddr_in s; memcpy(&s, a, sizeof s);
    if (s.sin_addr.s_addr == htonl(INADDR_ANY)) {
      s.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      return real(fd, (struct sockaddr *)&s, sizeof s);
    }
  } else if (a && a->sa_family == AF_INET6 && n >= sizeof(struct sockaddr_in6)) {
    struct sockaddr_in6 s; memcpy(&s, a, sizeof s);
    if (IN6_IS_ADDR_UNSPECIFIED(&s.sin6_addr)) {   /* -> ::ffff:127.0.0.1, IPv4 clients still reach it */
      static const unsigned char v4lo[16] = {0,0,0,0,0,0,0,0,0,0,0xff,0xff,127,0,0,1};
      memcpy(&s.sin6_addr, v4lo, 16);
      return real(fd, (struct sockaddr *)&s, sizeof s);
    }
  }
  return real(fd, a, n);
}
EOF
}

write_config() {   # one conf dir per node: conf/confignode, conf/datanode, conf/datanode1, ...
  local k n base common
  mkdir -p "$DIR/logs" "$DIR/run"
  echo "$DATANODES" >"$DIR/run/datanodes"
  echo "$RPC_PORT" >"$DIR/run/rpc_port"
  echo "$PORT_OFFSET" >"$DIR/run/port_offset"
  if on "$TLS"; then echo 1; else echo 0; fi >"$DIR/run/tls"
  if on "$RPC_COMPRESSION"; then echo 1; else echo 0; fi >"$DIR/run/rpc_compression"
  local tls_props="" comp_props=""
  if on "$TLS"; then tls_props="enable_thrift_ssl=true
key_store_path=$DIR/tls/keystore.jks
key_store_pwd=$TLS_PWD"; fi
  if on "$RPC_COMPRESSION"; then comp_props="dn_rpc_thrift_compression_enable=true"; fi
  common="cn_seed_config_node=127.0.0.1:$CN_PORT
dn_seed_config_node=127.0.0.1:$CN_PORT
cn_internal_address=127.0.0.1
cn_internal_port=$CN_PORT
cn_consensus_port=$((CN_PORT + 10))
dn_join_cluster_retry_interval_ms=1000
schema_replication_factor=1
data_replication_factor=1"
  mkdir -p "$DIR/conf/confignode" "$DIR/confignode"
  printf '%s\n' "$common" "$comp_props" "$EXTRA_PROPS" >"$DIR/conf/confignode/iotdb-system.properties"
  for ((k = 0; k < DATANODES; k++)); do
    n=$(dn_name $k); base=$(dn_base $k)
    mkdir -p "$DIR/conf/$n" "$DIR/$n"
    printf '%s\n' "$common" "dn_rpc_address=127.0.0.1" "dn_rpc_port=$((RPC_PORT + k))" \
      "dn_internal_address=127.0.0.1" "dn_internal_port=$base" "dn_mpp_data_exchange_port=$((base + 10))" \
      "dn_schema_region_consensus_port=$((base + 20))" "dn_data_region_consensus_port=$((base + 30))" \
      "$tls_props" "$comp_props" "$EXTRA_PROPS" >"$DIR/conf/$n/iotdb-system.properties"
  done
  for n in $(all_nodes); do
    cat >"$DIR/conf/$n/logback-$n.xml" <<EOF
<configuration>
  <appender name="F" class="ch.qos.logback.core.FileAppender">
    <file>$DIR/logs/$n.log</file>
    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{0} - %msg%n</pattern></encoder>
  </appender>
  <root level="INFO"><appender-ref ref="F"/></root>
</configuration>
EOF
  done
}

tls_material() {   # DIR/tls: keystore.jks, ca.pem, truststore.jks, wrong-ca.pem; made once, kept across starts
  local d=$DIR/tls tmp
  [ -f "$d/.complete" ] && return 0
  command -v keytool >/dev/null || die "keytool not found (needed for TLS=1)"
  tmp=$(mktemp -d "$DIR/.tls.XXXXXX") && chmod 755 "$tmp"
  kt() { keytool "$@" >>"$tmp/keytool.log" 2>&1 || { cat "$tmp/keytool.log" >&2; rm -rf "$tmp"; die "keytool $1 failed"; }; }
  kt -genkeypair -alias iotdb -keyalg RSA -keysize 2048 -validity 3650 -startdate -1d -dname "CN=127.0.0.1" \
    -ext "SAN=ip:127.0.0.1,dns:localhost" -keystore "$tmp/keystore.jks" -storetype JKS -storepass "$TLS_PWD" -keypass "$TLS_PWD"
  kt -exportcert -rfc -alias iotdb -keystore "$tmp/keystore.jks" -storepass "$TLS_PWD" -file "$tmp/ca.pem"
  kt -importcert -noprompt -alias iotdb -file "$tmp/ca.pem" -keystore "$tmp/truststore.jks" -storetype JKS -storepass "$TLS_PWD"
  kt -genkeypair -alias wrong -keyalg RSA -keysize 2048 -validity 3650 -startdate -1d -dname "CN=127.0.0.1, O=not the server" \
    -ext "SAN=ip:127.0.0.1,dns:localhost" -keystore "$tmp/wrong.jks" -storetype JKS -storepass "$TLS_PWD" -keypass "$TLS_PWD"
  kt -exportcert -rfc -alias wrong -keystore "$tmp/wrong.jks" -storepass "$TLS_PWD" -file "$tmp/wrong-ca.pem"
  rm -f "$tmp/wrong.jks" "$tmp/keytool.log"
  rm -rf "$d"; mv "$tmp" "$d"; touch "$d/.complete"
}

modes() {   # what a client needs to know beyond host:port
  if on "$TLS"; then echo "TLS on the client RPC port: trust $DIR/tls/ca.pem (Java: trustStore $DIR/tls/truststore.jks, password $TLS_PWD); unrelated cert for negative tests: $DIR/tls/wrong-ca.pem"; fi
  if on "$RPC_COMPRESSION"; then echo "RPC compression on: Thrift compact protocol (Java: Session.open(true), TableSessionBuilder.enableCompression(true))"; fi
  return 0
}

checker() {   # IotdbLocalCheck, speaking TLS / compact like the servers of DIR
  local f=()
  if on "$TLS"; then f+=("-Diotdb.local.truststore=$DIR/tls/truststore.jks" "-Diotdb.local.truststorePwd=$TLS_PWD"); fi
  if on "$RPC_COMPRESSION"; then f+=("-Diotdb.local.compression=true"); fi
  java ${f[@]+"${f[@]}"} -cp "$CACHE/tools:$LIB/*" IotdbLocalCheck "$@"
}

launch() {  # launch <node> <main-class> <jvm args...>; records the pid
  local node=$1 main=$2; shift 2
  # the JVM's temp files (lz4-java's native library, a .so and its .lck each start) go with the cluster's data,
  # not into /tmp for good
  mkdir -p "$DIR/tmp/$node"
  LD_PRELOAD="$CACHE/tools/bind_lo.so" setsid java -Djava.net.preferIPv4Stack=true --add-opens=java.base/java.util.concurrent=ALL-UNNAMED \
    --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED \
    --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED \
    --add-opens=java.base/java.net=ALL-UNNAMED -Dsun.jnu.encoding=UTF-8 -Dfile.encoding=UTF-8 \
    -Diotdb-foreground=yes -Dlogback.configurationFile="$DIR/conf/$node/logback-$node.xml" \
    "$@" -Diotdb.local.dir="$DIR" -Djava.io.tmpdir="$DIR/tmp/$node" -cp "$LIB/*" "$main" -s \
    >>"$DIR/logs/$node.out" 2>&1 </dev/null &
  echo $! >"$DIR/run/$node.pid"
}

wait_port() {  # wait_port <port> <node> <timeout>
  local i
  for ((i = 0; i < $3 * 10; i++)); do
    port_open "$1" && return 0
    # alive by pid: right after launch the process may not have exec'd java yet, so no cmdline match here
    [ -d "/proc/$(cat "$DIR/run/$2.pid" 2>/dev/null)" ] || die "$2 exited; see $DIR/logs/$2.log and $2.out"
    sleep 0.1
  done
  die "$2 port $1 not open after $3 s"
}

all_nodes() { local k; echo confignode; for ((k = 0; k < DATANODES; k++)); do dn_name $k; done; }
cluster_ports() {   # every port the cluster listens on
  local k; echo $CN_PORT $((CN_PORT + 10))
  for ((k = 0; k < DATANODES; k++)); do
    echo $((RPC_PORT + k)) $(dn_base $k) $(($(dn_base $k) + 10)) $(($(dn_base $k) + 20)) $(($(dn_base $k) + 30))
  done
}

launch_node() {   # launch_node <node>: start one node on its existing config and data
  local node=$1 home=$DIR/$1 k
  if [ "$node" = confignode ]; then
    launch confignode org.apache.iotdb.confignode.service.ConfigNode -Xms256m -Xmx"$CN_HEAP" \
      -XX:MaxDirectMemorySize=256m -DCONFIGNODE_HOME="$home" -DCONFIGNODE_DATA_HOME="$home" \
      -DCONFIGNODE_CONF="$DIR/conf/$node" -DCONFIGNODE_LOGS="$DIR/logs" -DTSFILE_HOME="$home" \
      -DTSFILE_CONF="$DIR/conf/$node" -Dname=iotdb.ConfigNode
    wait_port $CN_PORT confignode "$READY_TIMEOUT"
  else
    k=${node#datanode}; k=${k:-0}
    launch "$node" org.apache.iotdb.db.service.DataNode -Xms"$DN_HEAP" -Xmx"$DN_HEAP" \
      -XX:MaxDirectMemorySize="$DN_DIRECT" -DOFF_HEAP_MEMORY="$DN_DIRECT" -DIOTDB_HOME="$home" \
      -DIOTDB_DATA_HOME="$home" -DIOTDB_CONF="$DIR/conf/$node" -DIOTDB_LOG_DIR="$DIR/logs" \
      -DTSFILE_HOME="$home" -DTSFILE_CONF="$DIR/conf/$node" -Dname=iotdb.IoTDB
    wait_port $((RPC_PORT + k)) "$node" "$READY_TIMEOUT"
  fi
  echo "$node pid $(cat "$DIR/run/$node.pid") listening"
}

wait_ready() {
  checker "$RPC_PORT" wait "$READY_TIMEOUT" $((DATANODES + 1)) \
    || die "cluster not ready after ${READY_TIMEOUT}s; logs in $DIR/logs"
}

start() {
  install
  local n p t0=$SECONDS
  for n in $(all_nodes); do if our_pid "$n" >/dev/null; then die "already running in $DIR (stop first)"; fi; done
  if [ -d "$DIR" ] && [ -n "$(ls -A "$DIR")" ] && [ ! -f "$DIR/$MARK" ]; then
    die "$DIR exists, is not empty and was not created by this script; refusing to wipe it"
  fi
  for p in $(cluster_ports); do if port_open "$p"; then die "port $p is already in use on 127.0.0.1"; fi; done
  rm -rf "$DIR/conf" "$DIR/confignode" "$DIR"/datanode* "$DIR/logs" "$DIR/run"   # fresh every start
  mkdir -p "$DIR" && touch "$DIR/$MARK"
  if on "$TLS"; then tls_material; fi
  write_config
  for n in $(all_nodes); do launch_node "$n"; done
  wait_ready
  echo "IoTDB $VERSION 1C${DATANODES}D ready on 127.0.0.1:$RPC_PORT in $((SECONDS - t0)) s (data+logs: $DIR)"
  modes
}

stop_node() {
  local node=$1 pid i
  if pid=$(our_pid "$node"); then
    kill -TERM "$pid"
    for ((i = 0; i < 600; i++)); do running "$pid" || break; sleep 0.1; done
    if running "$pid"; then echo "$node $pid still alive after 60 s, SIGKILL"; kill -KILL "$pid"; fi
    echo "stopped $node (pid $pid)"
  else
    echo "$node not running (for $DIR)"
  fi
  rm -f "$DIR/run/$node.pid"
}

stop() {   # DataNodes first: they flush on SIGTERM
  local n
  for n in $(all_nodes | tac); do stop_node "$n"; done
}

kill_nodes() {   # every node at once, SIGKILL; returns when they are gone (their sockets closed: see running)
  local n pid i killed=()
  for n in $(all_nodes); do
    if pid=$(our_pid "$n"); then kill -KILL "$pid"; killed+=("$pid"); echo "killed $n (pid $pid)"
    else echo "$n not running (for $DIR)"; fi
    rm -f "$DIR/run/$n.pid"
  done
  for pid in ${killed[@]+"${killed[@]}"}; do
    for ((i = 0; i < 200; i++)); do running "$pid" || break; sleep 0.05; done
    if running "$pid"; then die "pid $pid still there 10 s after SIGKILL"; fi
  done
}

restart() {
  [ -f "$DIR/$MARK" ] && [ -d "$DIR/conf" ] || die "$DIR holds no cluster of this script; use start"
  install
  stop
  local n t0=$SECONDS
  for n in $(all_nodes); do launch_node "$n"; done
  wait_ready
  echo "IoTDB $VERSION 1C${DATANODES}D restarted with its data in $((SECONDS - t0)) s"
  modes
}

check_node() { all_nodes | grep -qx -- "$1" || die "no node '$1' in $DIR (nodes: $(all_nodes | tr '\n' ' '))"; }

status() {
  local node pid rc=0
  for node in $(all_nodes); do
    if pid=$(our_pid $node); then
      echo "$node: running pid $pid rss $(awk '/VmRSS/{print $2, $3}' /proc/$pid/status)"
    else echo "$node: not running"; rc=1; fi
  done
  port_open "$RPC_PORT" && echo "port $RPC_PORT: open" || { echo "port $RPC_PORT: closed"; rc=1; }
  modes
  if [ $rc = 0 ]; then echo "show cluster:"; checker "$RPC_PORT" cluster || rc=1; fi
  echo "disk used: $(du -sh "$DIR" 2>/dev/null | cut -f1) in $DIR"
  return $rc
}

pids() {
  local node pid found=()
  for node in $(all_nodes); do if pid=$(our_pid "$node"); then found+=("$pid"); fi; done
  [ ${#found[@]} -gt 0 ] || die "no node running in $DIR"
  (IFS=,; echo "${found[*]}")
}

case "$CMD" in
  install) install; echo "lib: $LIB" ;;
  start) start ;;
  stop) stop ;;
  kill) kill_nodes ;;
  restart) restart ;;
  stop-node) check_node "$NODE_ARG"; stop_node "$NODE_ARG" ;;
  start-node) check_node "$NODE_ARG"; if our_pid "$NODE_ARG" >/dev/null; then die "$NODE_ARG already running"; fi
              launch_node "$NODE_ARG"; wait_ready ;;
  status) status ;;
  pids) pids ;;
  *) awk 'NR > 1 { if (!/^#/) exit; print }' "$0"; exit 2 ;;
esac
