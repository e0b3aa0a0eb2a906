package fork

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"go-spinbit.dev/tools/internal/toolchain"
)

// builtFile, inside goroot/.git, records what the last successful
// src/make.bash built: the tree of the HEAD commit (so that rewording or
// reordering commits without changing the result costs no rebuild) and the
// GOEXPERIMENT baked in.
func (r Repo) builtFile() string { return filepath.Join(r.Goroot(), ".git", "spinbit-built") }

// GoCommand is the fork's go command.
func (r Repo) GoCommand() string { return toolchain.Bin(r.Goroot()) }

func (r Repo) buildStamp() (string, error) {
	out, err := git(r.Goroot(), nil, "rev-parse", "-q", "--verify", "HEAD^{tree}")
	if err != nil {
		return "", err
	}
	tree := strings.TrimSpace(out)
	return "tree " + tree + " GOEXPERIMENT=" + os.Getenv("GOEXPERIMENT") + "\n", nil
}

// UpToDate reports whether goroot/bin/go was built from the tree at HEAD.
func (r Repo) UpToDate() bool {
	stamp, err := r.buildStamp()
	if err != nil {
		return false
	}
	old, err := os.ReadFile(r.builtFile())
	if err != nil || string(old) != stamp {
		return false
	}
	_, err = os.Stat(r.GoCommand())
	return err == nil
}

// Build runs the tree's src/make.bash with the pinned release as bootstrap
// toolchain, unless goroot/bin/go is already built from the tree at HEAD.
func (r Repo) Build(ctx context.Context, force bool, logf func(string, ...any)) error {
	if !force && r.UpToDate() {
		logf("goroot/bin/go is up to date")
		return nil
	}
	u, err := ReadUpstream(r.Root)
	if err != nil {
		return err
	}
	bootstrap, err := u.Fetch(ctx)
	if err != nil {
		return err
	}
	stamp, err := r.buildStamp()
	if err != nil {
		return err
	}
	os.Remove(r.builtFile())
	if exp := os.Getenv("GOEXPERIMENT"); exp != "" {
		logf("GOEXPERIMENT=%s is set: the toolchain will have it as its default", exp)
	}
	logf("building goroot/ with src/make.bash (GOROOT_BOOTSTRAP=%s)", bootstrap)
	cmd := exec.CommandContext(ctx, "bash", "make.bash")
	cmd.Dir = filepath.Join(r.Goroot(), "src")
	cmd.Env = append(buildEnv(os.Environ()), "GOROOT_BOOTSTRAP="+bootstrap, "GOTOOLCHAIN=local")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("goroot/src/make.bash failed (%v): see its output above", err)
	}
	return os.WriteFile(r.builtFile(), []byte(stamp), 0o644)
}

// buildEnv drops settings of the calling environment that would make
// make.bash build something other than goroot/ as it stands.
func buildEnv(env []string) []string {
	return toolchain.EnvWithout(env, "GOROOT", "GOFLAGS", "GOTOOLCHAIN", "GOROOT_BOOTSTRAP", "GOBIN", "GOOS", "GOARCH")
}
