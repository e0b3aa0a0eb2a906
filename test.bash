#!/usr/bin/env bash
# Build the fork if needed, then run its checks; the last line is "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")"
./make.bash
exec go -C tools run ./cmd/fork test "$@"
