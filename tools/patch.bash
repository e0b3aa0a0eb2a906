#!/usr/bin/env bash
# Work on the patch series: apply, extract, check. See README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v go >/dev/null || { echo "tools/patch.bash: no go command on PATH: install Go 1.21 or later and put it on PATH" >&2; exit 1; }
exec go -C tools run ./cmd/fork "$@"
