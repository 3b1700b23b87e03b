#!/usr/bin/env bash
# The local IoTDB server script lives in the bench package, which ships it; see its header for the commands.
exec bash "$(dirname "${BASH_SOURCE[0]}")/../packages/bench/scripts/iotdb-local.sh" "$@"
