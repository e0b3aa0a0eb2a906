#!/usr/bin/env bash
# Build the fork if needed, then run its checks; the last line is "N passed, N failed".
# -long adds the dist/ checks (./make.bash -distpack: a full build per platform).
set -euo pipefail
cd "$(dirname "$0")"
source tools/require-go.bash
require_go test.bash
source tools/refuse-goexperiment.bash
refuse_goexperiment test.bash
./make.bash
exec go -C tools run ./cmd/fork test "$@"
