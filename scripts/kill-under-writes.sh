#!/usr/bin/env bash
# A DataNode killed under writes: does the server keep every point it acknowledged? Starts a cluster in DIR (RPC ports
# from 13667, internal ports +7000: beside a server on the defaults) with EXTRA_PROPS, writes 1,000,000 points with
# iotdb-bench at 25,000 points/s (--verify counts them afterwards), kills a DataNode (kill -9) 8 s in, starts it again
# 3 s later, and prints the benchmark's verdict and how many write-ahead log files that DataNode could not read back.
# DATANODES=3: a 1C3D keeping two replicas of the data (three of the schema), the node killed the one leading most of
# the written database's data regions. docs/PERFORMANCE.md, "A DataNode killed under writes", has the figures.
#   [DATANODES=3] bash scripts/kill-under-writes.sh DIR ["key=value lines for every node"]     e.g. "wal_mode=SYNC"
set -euo pipefail
DIR=${1:?usage: kill-under-writes.sh DIR [EXTRA_PROPS]}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LOCAL=$ROOT/scripts/iotdb-local.sh
export RPC_PORT=13667 PORT_OFFSET=7000 DATANODES=${DATANODES:-1} EXTRA_PROPS=${2:-}
URLS=127.0.0.1:$RPC_PORT
if ((DATANODES > 1)); then
  export DN_HEAP=${DN_HEAP:-1g}
  EXTRA_PROPS=$'schema_replication_factor=3\ndata_replication_factor=2\n'$EXTRA_PROPS
  for ((k = 1; k < DATANODES; k++)); do URLS=$URLS,127.0.0.1:$((RPC_PORT + k)); done
fi
bash "$LOCAL" kill "$DIR" >/dev/null 2>&1 || true
bash "$LOCAL" start "$DIR" | tail -1
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT
node "$ROOT/packages/bench/dist/e2e/main.js" --node-urls "$URLS" --devices 10 --sensors 5 \
  --batch-size 100 --loop 200 --rate-limit 25000 --verify >"$LOG" 2>&1 &
BENCH=$!
sleep 6
# the RPC port of the DataNode leading most data regions of root.bench (the only one with one DataNode)
PORT=$(node --input-type=module -e "
  const { Session } = await import('$ROOT/packages/client/dist/index.js');
  const s = new Session({ host: '127.0.0.1', port: $RPC_PORT });
  await s.open();
  const led = new Map();
  for await (const r of await s.executeQueryStatement('SHOW REGIONS OF DATABASE root.bench')) {
    const o = r.toObject();
    if (o.Type === 'DataRegion' && o.Role === 'Leader') led.set(o.RpcPort, (led.get(o.RpcPort) ?? 0) + 1);
  }
  await s.close();
  console.log([...led].sort((a, b) => b[1] - a[1])[0]?.[0] ?? $RPC_PORT);")
K=$((PORT - RPC_PORT))
NODE=datanode
((K > 0)) && NODE=datanode$K
sleep 2
echo "killing $NODE (port $PORT)"
kill -9 "$(cat "$DIR/run/$NODE.pid")"
sleep 3
bash "$LOCAL" start-node "$DIR" "$NODE" | tail -1
wait "$BENCH" || true
grep -E '^operations|^verify' "$LOG"
grep -o 'client_retries=[0-9]*' "$LOG"
echo "write-ahead log files not read back: $(grep -c 'skip broken WALEntries' "$DIR/logs/$NODE.log" || true)"
bash "$LOCAL" kill "$DIR" >/dev/null
