#!/usr/bin/env bash
# The Java client on one statement of an iotdb-bench query file (QueryFile.java) against the server given by its
# key=value arguments, e.g.
#   packages/bench/java/query-file.sh host=127.0.0.1 port=6667 threads=2 reps=10 "sql=SELECT s0 FROM root.bench.d000"
# Prints QueryFile's QSTMT, QSTMT_UNCORRECTED, QSTMT_START_LAG, INTERVAL, SERVER, FAILED and QERROR lines, and the
# exception lines of a failure.
# Used by `iotdb-bench --query-file FILE --vs-java`.
set -euo pipefail
source "$(dirname "$0")/classpath.sh" QueryFile.java Bench.java Mixed.java Plan.java QueryBench.java Connect.java Timeline.java
java -cp "$CLS:$LIB/*" QueryFile "$@" 2>&1 | grep -E '^(QSTMT|INTERVAL|SERVER|FAILED|QERROR)|Exception|Error'
