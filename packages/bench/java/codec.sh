#!/usr/bin/env bash
# The Java client's own codec speed (no server): IoTDB's Session.genTSInsertTabletReq + Thrift
# serialization, TsBlockSerde.deserialize, and the same block read row by row through SessionDataSet, on the
# anchor tablet/block. Prints CODEC lines.
# A copy of the Java anchor (Codec.java) so that `pnpm bench` can run it beside ours in one run.
#   packages/bench/java/codec.sh [seconds=5]
set -euo pipefail
source "$(dirname "$0")/classpath.sh" Codec.java
java -cp "$CLS:$LIB/*" Codec "${1:-5}" 2>/dev/null | grep '^CODEC'
