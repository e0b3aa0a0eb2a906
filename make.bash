#!/usr/bin/env bash
# Obtain upstream go1.23.12, apply patches/ in goroot/, build goroot/bin/go.
set -euo pipefail
cd "$(dirname "$0")"
command -v go >/dev/null || { echo "make.bash: no go command on PATH: install Go 1.21 or later and put it on PATH" >&2; exit 1; }
exec go -C tools run ./cmd/fork make "$@"
