#!/usr/bin/env bash
# The Java client's read benchmark (QueryBench.java) against the server given by its key=value arguments, e.g.
#   packages/bench/java/query.sh host=127.0.0.1 port=6667 reps=3 "sql=SELECT * FROM root.bench.** ALIGN BY DEVICE"
# Prints QueryBench's QRESULT and QFAIL lines. Used by `iotdb-bench read-compare`.
set -euo pipefail
source "$(dirname "$0")/classpath.sh" QueryBench.java Connect.java
java -cp "$CLS:$LIB/*" QueryBench "$@" 2>&1 | grep -E '^QRESULT|^QFAIL|Exception|Error'
