#!/usr/bin/env bash
# Compare the fork's runtime mutex with upstream Go on the lock-bound
# benchmarks in bench/ (tools/cmd/bench), building the fork first when a
# run needs it and goroot/<base>/bin/go is missing (-base, default the
# newest base). ./bench.bash -quick is a smoke
# run of seconds per toolchain; without flags it is the full run (-n prints
# its plan and estimate without building). ./bench.bash -runtime runs the
# runtime's own mutex benchmarks instead. ./bench.bash -help lists the
# flags; bench/README.md explains them.
set -euo pipefail
cd "$(dirname "$0")"
source tools/require-go.bash
require_go bench.bash
source tools/refuse-goexperiment.bash
refuse_goexperiment bench.bash
exec go -C tools run ./cmd/bench "$@"
