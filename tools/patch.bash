#!/usr/bin/env bash
# Work on the patch series of a base: apply, extract, check, and port a
# series to a new base. See CONTRIBUTING.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/require-go.bash
require_go tools/patch.bash
exec go -C tools run ./cmd/fork "$@"
