package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"go-spinbit.dev/tools/internal/fork"
	"go-spinbit.dev/tools/internal/toolchain"
)

// versionChecks is the toolchain/version step: the fork's names
// (versionNames), and that it runs no other toolchain unless told to
// (versionStaysLocal).
func versionChecks(ctx context.Context, r fork.Repo) error {
	if err := versionNames(ctx, r); err != nil {
		return err
	}
	return versionStaysLocal(ctx, r)
}

// versionStaysLocal checks that the fork's go command, with no GOTOOLCHAIN
// in the environment and no go env file (GOENV=/dev/null), so that only
// the go.env of its own GOROOT speaks, refuses a module whose go line is
// newer than the fork with an error that names the fix, instead of
// downloading and running upstream Go. GOPROXY=off keeps a fork that
// would switch from reaching the network: it fails with its download
// error, which this check rejects.
func versionStaysLocal(ctx context.Context, r fork.Repo) error {
	dir, err := os.MkdirTemp("", "golocal")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	const newer = "1.999.0"
	files := map[string]string{
		"go.mod":  "module example.com/newer\n\ngo " + newer + "\n",
		"main.go": "package main\n\nfunc main() {}\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			return err
		}
	}
	env := append(toolchain.EnvWithout(os.Environ(), "GOROOT", "GOFLAGS", "GOTOOLCHAIN", "GOEXPERIMENT", "GOOS", "GOARCH", "GOENV", "GOPROXY"),
		"GOENV=/dev/null", "GOPROXY=off", "GOMODCACHE="+filepath.Join(dir, ".modcache"))
	goenv := exec.CommandContext(ctx, r.GoCommand(), "env", "GOTOOLCHAIN")
	goenv.Dir, goenv.Env = dir, env
	out, err := goenv.CombinedOutput()
	if got := strings.TrimSpace(string(out)); err != nil || got != "local" {
		return fmt.Errorf("GOENV=/dev/null go env GOTOOLCHAIN = %q (%v), want local: the fork's go.env must keep it from running another toolchain", got, err)
	}
	run := exec.CommandContext(ctx, r.GoCommand(), "run", ".")
	run.Dir, run.Env = dir, env
	out, err = run.CombinedOutput()
	msg := strings.TrimSpace(string(out))
	if err == nil {
		return fmt.Errorf("GOENV=/dev/null go run . in a module with go %s succeeded; want a refusal:\n%s", newer, msg)
	}
	if strings.Contains(msg, "download") || strings.Contains(msg, "switching") {
		return fmt.Errorf("GOENV=/dev/null go run . in a module with go %s tried to switch toolchains; want a refusal:\n%s", newer, msg)
	}
	for _, want := range []string{"requires go >= " + newer, "go mod edit -go=", "GOTOOLCHAIN="} {
		if !strings.Contains(msg, want) {
			return fmt.Errorf("GOENV=/dev/null go run . in a module with go %s: the error does not say %q, so it names no fix:\n%s", newer, want, msg)
		}
	}
	fmt.Printf("GOENV=/dev/null go run . with go %s: %s\n", newer, msg)
	return nil
}
