#!/usr/bin/env bash
# The Java client's answer to each statement of a file, printed exactly (ReadDump.java), e.g.
#   packages/bench/java/read-dump.sh host=127.0.0.1 port=6667 database=db statements=FILE
# Used by src/e2e/read-parity.integration.test.ts, which compares it with ours.
set -euo pipefail
source "$(dirname "$0")/classpath.sh" ReadDump.java Connect.java
java -cp "$CLS:$LIB/*" ReadDump "$@"
