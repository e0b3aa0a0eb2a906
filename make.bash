#!/usr/bin/env bash
# For each base in bases/ (or the one -base names): obtain its upstream
# release, apply its patches/ in goroot/<release>/, build
# goroot/<release>/bin/go (bootstrapped with the go on PATH). -distpack
# also writes the archives, module files and SHA256SUMS of every platform
# to dist/<release>/; -distpack -host writes the host's only, with no cross
# build. doc/install.md has the details.
set -euo pipefail
cd "$(dirname "$0")"
source tools/require-go.bash
require_go make.bash
source tools/refuse-goexperiment.bash
refuse_goexperiment make.bash
exec go -C tools run ./cmd/fork make "$@"
