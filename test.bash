#!/usr/bin/env bash
# Run the fork's checks on every base (or the one -base names), building
# each first when a selected step needs it; the last line is "N passed, N
# failed". -list lists the steps without building; -long adds the long
# steps and every step of the older bases. doc/testing.md describes every
# step.
set -euo pipefail
cd "$(dirname "$0")"
source tools/require-go.bash
require_go test.bash
source tools/refuse-goexperiment.bash
refuse_goexperiment test.bash
exec go -C tools run ./cmd/fork test "$@"
