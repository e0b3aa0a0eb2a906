// Package toolchain obtains released Go toolchains the way the go command
// itself does: by running `go env GOROOT` with GOTOOLCHAIN naming the release,
// which downloads the golang.org/toolchain module through the module proxy and
// verifies it against the checksum database.
package toolchain

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// MinGo is the oldest Go that runs the tools: the go line of tools/go.mod.
// The scripts (tools/require-go.bash) and the docs name the same version.
const MinGo = "1.22"

// GoCommand returns the path of the go command on PATH, or an error that says
// how to get one.
func GoCommand() (string, error) {
	p, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("no go command on PATH: install Go %s or later (https://go.dev/dl) and put its bin directory on PATH", MinGo)
	}
	return p, nil
}

// GOROOT returns the root of the released toolchain named by version (such as
// "go1.23.12"), downloading it first if the module cache lacks it.
func GOROOT(ctx context.Context, version string) (string, error) {
	gocmd, err := GoCommand()
	if err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, gocmd, "env", "GOROOT")
	// Nothing may make `go env GOROOT` report anything but the release.
	cmd.Env = append(EnvWithout(os.Environ(), "GOTOOLCHAIN", "GOROOT", "GOFLAGS"), "GOTOOLCHAIN="+version)
	// Run outside any module so that no go.mod or go.work can pick another
	// toolchain.
	cmd.Dir = os.TempDir()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		return "", fmt.Errorf("downloading %s with GOTOOLCHAIN=%s go env GOROOT failed: %s\n"+
			"check that the module proxy is reachable (GOPROXY=%s) and that %s is a released Go version",
			version, version, firstNonEmpty(msg, err.Error()), goEnv("GOPROXY"), version)
	}
	root := strings.TrimSpace(stdout.String())
	if root == "" {
		return "", fmt.Errorf("GOTOOLCHAIN=%s go env GOROOT printed nothing", version)
	}
	if _, err := os.Stat(filepath.Join(root, "src", "runtime")); err != nil {
		return "", fmt.Errorf("%s: not a Go tree (no src/runtime): %v", root, err)
	}
	return root, nil
}

// Bin returns the go command inside a toolchain root.
func Bin(root string) string {
	exe := "go"
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	return filepath.Join(root, "bin", exe)
}

// EnvWithout returns env less the variables named. The tools use it to run
// a go command that must not pick up the caller's choice of toolchain,
// target, flags or experiments.
func EnvWithout(env []string, names ...string) []string {
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(names, k) {
			out = append(out, kv)
		}
	}
	return out
}

func goEnv(name string) string {
	gocmd, err := GoCommand()
	if err != nil {
		return ""
	}
	out, err := exec.Command(gocmd, "env", name).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
