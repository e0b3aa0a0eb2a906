#!/usr/bin/env bash
# Obtain upstream go1.23.12, apply patches/ in goroot/, build goroot/bin/go
# (bootstrapped with the go on PATH). -distpack also writes every platform's
# archives, module files and SHA256SUMS to dist/.
set -euo pipefail
cd "$(dirname "$0")"
command -v go >/dev/null || { echo "make.bash: no go command on PATH: install Go 1.21 or later and put it on PATH" >&2; exit 1; }
# The tools in tools/ need Go 1.21 (toolchain switching); older go commands cannot even run them.
case "$(GOTOOLCHAIN=local go env GOVERSION 2>/dev/null)" in
go1.[0-9] | go1.[0-9][.a-z]* | go1.1[0-9] | go1.1[0-9][.a-z]* | go1.20 | go1.20[.a-z]*)
	echo "make.bash: $(command -v go) is $(go env GOVERSION): install Go 1.21 or later (https://go.dev/dl) and put it first on PATH" >&2; exit 1 ;;
esac
exec go -C tools run ./cmd/fork make "$@"
