#!/usr/bin/env bash
# Obtain upstream go1.23.12, apply patches/ in goroot/, build goroot/bin/go
# (bootstrapped with the go on PATH). -distpack also writes the archives,
# module files and SHA256SUMS of every platform to dist/; -distpack -host
# writes the host's only, with no cross build. doc/install.md has the
# details.
set -euo pipefail
cd "$(dirname "$0")"
source tools/require-go.bash
require_go make.bash
source tools/refuse-goexperiment.bash
refuse_goexperiment make.bash
exec go -C tools run ./cmd/fork make "$@"
