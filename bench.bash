#!/usr/bin/env bash
# Compare the fork's runtime mutex with upstream Go on the lock-bound
# benchmarks in bench/: builds the fork first if needed, then runs
# tools/cmd/bench. ./bench.bash -quick is a smoke run of seconds per
# toolchain; without flags it is the full run (see -n for its estimate).
# ./bench.bash -runtime runs the runtime's own mutex benchmarks instead.
# Flags are passed through; ./bench.bash -help lists them.
set -euo pipefail
cd "$(dirname "$0")"
source tools/require-go.bash
require_go bench.bash
source tools/refuse-goexperiment.bash
refuse_goexperiment bench.bash
if [ ! -x goroot/bin/go ]; then
	if [ ! -x ./make.bash ]; then
		echo "bench.bash: the fork must be built first (goroot/bin/go is missing) and there is no ./make.bash to build it" >&2
		exit 1
	fi
	./make.bash
fi
exec go -C tools run ./cmd/bench "$@"
