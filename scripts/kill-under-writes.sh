#!/usr/bin/env bash
# A DataNode killed under writes: does the server keep every point it acknowledged? Starts a 1C1D in DIR (RPC port
# 13667, internal ports +7000: beside a server on the defaults) with EXTRA_PROPS, writes 1,000,000 points with
# iotdb-bench at 25,000 points/s (--verify counts them afterwards), kills the DataNode (kill -9) 8 s in, starts it
# again 3 s later, and prints the benchmark's verdict and how many write-ahead log files the DataNode could not read
# back. docs/PERFORMANCE.md, "A DataNode killed under writes: the write-ahead log's mode", has the figures.
#   bash scripts/kill-under-writes.sh DIR ["key=value lines for every node"]     e.g. "wal_mode=SYNC"
set -euo pipefail
DIR=${1:?usage: kill-under-writes.sh DIR [EXTRA_PROPS]}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LOCAL=$ROOT/scripts/iotdb-local.sh
export RPC_PORT=13667 PORT_OFFSET=7000 EXTRA_PROPS=${2:-}
bash "$LOCAL" kill "$DIR" >/dev/null 2>&1 || true
bash "$LOCAL" start "$DIR" | tail -1
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT
node "$ROOT/packages/bench/dist/e2e/main.js" --host 127.0.0.1 --port "$RPC_PORT" --devices 10 --sensors 5 \
  --batch-size 100 --loop 200 --rate-limit 25000 --verify >"$LOG" 2>&1 &
BENCH=$!
sleep 8
kill -9 "$(cat "$DIR/run/datanode.pid")"
sleep 3
bash "$LOCAL" start-node "$DIR" datanode | tail -1
wait "$BENCH" || true
grep -E '^operations|^verify' "$LOG"
grep -o 'client_retries=[0-9]*' "$LOG"
echo "write-ahead log files not read back: $(grep -c 'skip broken WALEntries' "$DIR/logs/datanode.log" || true)"
bash "$LOCAL" kill "$DIR" >/dev/null
