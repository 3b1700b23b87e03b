#!/usr/bin/env bash
# The Java client's small writes (SmallWrites.java) at 127.0.0.1:6667: n insertRecord calls in a row, e.g.
#   packages/bench/java/small-writes.sh 20000
# Used by scripts/small-write-cost.mjs --java.
set -euo pipefail
source "$(dirname "$0")/classpath.sh" SmallWrites.java
java -cp "$CLS:$LIB/*" SmallWrites "$@" 2>&1 | grep -E '^java:|Exception|Error'
