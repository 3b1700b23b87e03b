#!/usr/bin/env bash
# The Java client's reads while a DataNode dies (ReadsUnderKill.java): four Sessions each run one query in a loop, e.g.
#   NODES=127.0.0.1:13667,127.0.0.1:13668 SQL='SELECT last s4 FROM root.qf65.**' packages/bench/java/reads-under-kill.sh 72
# Used by scripts/reads-under-kill.mjs --java.
set -euo pipefail
source "$(dirname "$0")/classpath.sh" ReadsUnderKill.java
java -cp "$CLS:$LIB/*" ReadsUnderKill "$@" 2>&1 | grep -E '^(java:|  )'
