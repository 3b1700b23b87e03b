#!/usr/bin/env bash
# The Java client's end-to-end write benchmark (a copy of the Java anchor's Bench.java) against the
# server given by its key=value arguments, e.g.
#   packages/bench/java/bench.sh host=127.0.0.1 port=6667 threads=1 points=10000000 mode=tree noop=false
# Prints Bench's RESULT, MATRIX, INTERVAL, SERVER (with serverPids) and VERIFY lines, FAILED and QERROR for a kind
# of operation that failed (with plan=FILE: also QTYPE, UNCORRECTED, START_LAG and WERROR), ROUNDS for a run its time
# limit stopped, and the exception lines of a failure that ends the run.
# Used by `pnpm bench:e2e --vs-java`.
set -euo pipefail
source "$(dirname "$0")/classpath.sh" Bench.java Mixed.java Plan.java QueryBench.java Connect.java Timeline.java
PASSED='setup|RESULT|MATRIX|INTERVAL|SERVER|QTYPE|FAILED|QERROR|WERROR|UNCORRECTED|START_LAG|ROUNDS|VERIFY|FLUSH'
java -cp "$CLS:$LIB/*" Bench "$@" 2>&1 | grep -E "^($PASSED)|Exception|Error"
