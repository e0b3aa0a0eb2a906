# Sourced by the scripts at the top and by tools/patch.bash: stop with a
# clear message unless a go command of at least the tools module's go line
# (tools/go.mod: go 1.22.0) is on PATH. Older ones cannot run the tools. The
# Go that bootstraps a base's build must also be at least what that base's
# src/make.bash asks for (bootgo=: 1.20.6 for go1.23, 1.24.6 for go1.27);
# the tools check that for every selected base before they build any
# (fork.MakeBases), and accept any Go that base accepts.
require_go() { # $1: the script's name, for the message
	local want="Go 1.22 or later"
	command -v go >/dev/null || { echo "$1: no go command on PATH: install $want (https://go.dev/dl) and put it on PATH" >&2; exit 1; }
	case "$(GOTOOLCHAIN=local go env GOVERSION 2>/dev/null)" in
	go1.[0-9] | go1.[0-9][.a-z]* | go1.1[0-9] | go1.1[0-9][.a-z]* | go1.2[01] | go1.2[01][.a-z]*)
		echo "$1: $(command -v go) is $(GOTOOLCHAIN=local go env GOVERSION): install $want (https://go.dev/dl) and put it first on PATH" >&2; exit 1 ;;
	esac
}
