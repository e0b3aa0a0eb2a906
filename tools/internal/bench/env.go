package bench

import (
	"os"
	"path/filepath"
	"strings"

	"go-spinbit.dev/tools/internal/toolchain"
)

// buildEnv is the environment for a toolchain's go command: the caller's,
// minus everything that could make it build with another toolchain, other
// flags or another experiment, plus exactly this toolchain's settings.
// GOENV=off keeps the user's go env file (which here sets GOFLAGS) out,
// because an empty GOFLAGS variable does not override that file.
func buildEnv(base []string, goroot, experiment string) []string {
	env := toolchain.EnvWithout(base, "GOROOT", "GOFLAGS", "GOTOOLCHAIN", "GOEXPERIMENT", "GOENV", "GOWORK",
		"GOOS", "GOARCH", "GOAMD64", "GOARM64", "CGO_ENABLED", "GODEBUG")
	env = append(env,
		"GOROOT="+goroot,
		"GOTOOLCHAIN=local",
		"GOENV=off",
		"GOFLAGS=",
		"GOWORK=off",
	)
	if experiment != "" {
		env = append(env, "GOEXPERIMENT="+experiment)
	}
	return prependPath(env, filepath.Join(goroot, "bin"))
}

// runEnv is the environment for running a test binary: nothing that tunes
// the runtime may leak in from the caller, since it would apply to some
// toolchains' runs differently than to others (GODEBUG defaults differ by
// release) or override -test.cpu.
func runEnv(base []string) []string {
	return toolchain.EnvWithout(base, "GOMAXPROCS", "GODEBUG", "GOGC", "GOMEMLIMIT", "GOTRACEBACK", "GOEXPERIMENT")
}

// prependPath puts dir first on PATH.
func prependPath(env []string, dir string) []string {
	for i, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			env[i] = "PATH=" + dir + string(os.PathListSeparator) + v
			return env
		}
	}
	return append(env, "PATH="+dir)
}

// lookup returns the value of a variable in env, the last one winning as
// for exec.Cmd.
func lookup(env []string, name string) (string, bool) {
	val, found := "", false
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			val, found = v, true
		}
	}
	return val, found
}
