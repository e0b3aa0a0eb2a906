package fork

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"go-spinbit.dev/tools/internal/toolchain"
)

// builtFile, inside goroot/<Base>/.git, records what the last successful
// src/make.bash built: the tree of the HEAD commit, so that rewording or
// reordering commits without changing the result costs no rebuild. (The
// stamp ends "GOEXPERIMENT=" as stamps did when a build could bake one in;
// CheckBuildEnv now refuses that, so it is always empty.)
func (r Repo) builtFile() string { return filepath.Join(gitDir(r.Goroot()), "spinbit-built") }

// GoCommand is the fork's go command.
func (r Repo) GoCommand() string { return toolchain.Bin(r.Goroot()) }

func (r Repo) buildStamp() (string, error) {
	out, err := git(r.Goroot(), nil, "rev-parse", "-q", "--verify", "HEAD^{tree}")
	if err != nil {
		return "", err
	}
	tree := strings.TrimSpace(out)
	return "tree " + tree + " GOEXPERIMENT=\n", nil
}

// CheckBuildEnv refuses an environment in which src/make.bash would build
// something other than the fork as users run it: with GOEXPERIMENT set, the
// experiments named would become the toolchain's defaults, and nothing in
// its version would show it. getenv is os.Getenv outside tests.
func CheckBuildEnv(getenv func(string) string) error {
	if exp := getenv("GOEXPERIMENT"); exp != "" {
		return fmt.Errorf("GOEXPERIMENT=%s is set in the environment: Go's src/make.bash would make it the default of the toolchain it builds. "+
			"Unset it to build the fork (env -u GOEXPERIMENT ./make.bash); to build a program with it, set it when you run goroot/<release>/bin/go instead", exp)
	}
	return nil
}

// UpToDate reports whether the base's bin/go was built from its tree at HEAD.
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

// StaleBuild reports whether bin/go is there but was not built from the
// tree at HEAD, while the tree holds no uncommitted change: then
// src/make.bash would build what HEAD holds. A tree with changes may be
// work in progress, which ./make.bash refuses to lay out again.
func (r Repo) StaleBuild() (bool, error) {
	if _, err := os.Stat(r.GoCommand()); err != nil || r.UpToDate() {
		return false, nil
	}
	dirty, err := r.dirty()
	return err == nil && len(dirty) == 0, err
}

// Make does what ./make.bash -base r.Base does: it refuses an environment
// that would build something else (CheckBuildEnv), lays out and patches
// goroot/<Base> (Prepare), and builds it (Build) unless it is up to date.
func (r Repo) Make(ctx context.Context, force bool, logf func(string, ...any)) error {
	return MakeBases(ctx, r.Root, []string{r.Base}, force, logf)
}

// MakeBases makes each of the bases named, one after another, as Make
// does, but lays out and patches them all and checks that the Go that
// bootstraps the builds can build each (Bootstrap) before it builds any:
// a bootstrap Go too old for the last base fails before the first build.
func MakeBases(ctx context.Context, root string, bases []string, force bool, logf func(string, ...any)) error {
	if err := CheckBuildEnv(os.Getenv); err != nil {
		return err
	}
	var repos []Repo
	for _, b := range bases {
		r := Repo{Root: root, Base: b}
		if err := r.Prepare(ctx, false, logf); err != nil {
			return err
		}
		repos = append(repos, r)
	}
	var errs []error
	for _, r := range repos {
		if !force && r.UpToDate() {
			continue
		}
		if _, err := r.Bootstrap(ctx); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for _, r := range repos {
		if err := r.Build(ctx, force, logf); err != nil {
			return err
		}
	}
	return nil
}

// Build runs the tree's src/make.bash, bootstrapped with the go command on
// PATH (see Bootstrap), unless the base's bin/go is already built from the
// tree at HEAD.
func (r Repo) Build(ctx context.Context, force bool, logf func(string, ...any)) error {
	if err := CheckBuildEnv(os.Getenv); err != nil {
		return err
	}
	if !force && r.UpToDate() {
		logf("%sbin/go is up to date", r.rel(r.Goroot()))
		return nil
	}
	stamp, err := r.buildStamp()
	if err != nil {
		return err
	}
	os.Remove(r.builtFile())
	if err := r.makeBash(ctx, r.Goroot(), Platform{}, false, logf); err != nil {
		return err
	}
	return os.WriteFile(r.builtFile(), []byte(stamp), 0o644)
}

// makeBash runs src/make.bash of the Go tree in dir (goroot/<Base>, or a copy
// of it) for the host, or cross-makes for target (bin/GOOS_GOARCH,
// pkg/tool/GOOS_GOARCH) when it is set, adding -distpack when distpack
// is set. Either way the tree's bin/go is rebuilt for the host.
func (r Repo) makeBash(ctx context.Context, dir string, target Platform, distpack bool, logf func(string, ...any)) error {
	bootstrap, err := r.Bootstrap(ctx)
	if err != nil {
		return err
	}
	args := []string{"make.bash"}
	if distpack {
		args = append(args, "-distpack")
	}
	env := append(buildEnv(os.Environ()), "GOROOT_BOOTSTRAP="+bootstrap, "GOTOOLCHAIN=local")
	what := "the host"
	if target != (Platform{}) {
		env = append(env, "GOOS="+target.GOOS, "GOARCH="+target.GOARCH)
		what = target.String()
	}
	logf("building %s for %s with src/%s (GOROOT_BOOTSTRAP=%s)", dir, what, strings.Join(args, " "), bootstrap)
	cmd := exec.CommandContext(ctx, "bash", args...)
	cmd.Dir = filepath.Join(dir, "src")
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s/src/make.bash for %s failed (%v): see its output above", dir, what, err)
	}
	return nil
}

// Version is the fork's Go version: the first line of the tree's VERSION.
func (r Repo) Version() (string, error) {
	data, err := os.ReadFile(filepath.Join(r.Goroot(), "VERSION"))
	if err != nil {
		return "", err
	}
	v, _, _ := strings.Cut(string(data), "\n")
	return strings.TrimSpace(v), nil
}

// Bootstrap returns the Go tree that builds goroot/<Base>: $GOROOT_BOOTSTRAP
// if it is set, as for Go's own make.bash, and otherwise the root of the go
// command on PATH. Its version must be at least the one the tree's
// src/make.bash asks for (its bootgo line: 1.20.6 for go1.23, 1.24.6 for
// go1.27), and any such Go is accepted.
func (r Repo) Bootstrap(ctx context.Context) (string, error) {
	min, err := bootgo(filepath.Join(r.Goroot(), "src", "make.bash"))
	if err != nil {
		return "", err
	}
	var gocmd, from string
	if root := os.Getenv("GOROOT_BOOTSTRAP"); root != "" {
		gocmd, from = toolchain.Bin(root), "$GOROOT_BOOTSTRAP"
	} else if gocmd, err = toolchain.GoCommand(); err != nil {
		return "", err
	} else {
		from = "the go command on PATH"
	}
	root, version, err := toolchain.Describe(ctx, gocmd)
	if err != nil {
		return "", fmt.Errorf("cannot run %s (%s) to bootstrap the build: %v", from, gocmd, err)
	}
	if !toolchain.AtLeast(version, min) {
		fork, _ := r.Version()
		return "", fmt.Errorf("%s (%s) is %s, too old to bootstrap %s (base %s): its src/make.bash needs Go %s or later; "+
			"install a newer Go (https://go.dev/dl) and put it first on PATH, or point GOROOT_BOOTSTRAP at one",
			from, gocmd, version, fork, r.Base, min)
	}
	return root, nil
}

var bootgoLine = regexp.MustCompile(`(?m)^bootgo=([0-9.]+)\s*$`)

// bootgo reads the oldest Go version that can bootstrap a tree from the
// bootgo= line of its src/make.bash.
func bootgo(makeBash string) (string, error) {
	data, err := os.ReadFile(makeBash)
	if err != nil {
		return "", err
	}
	m := bootgoLine.FindSubmatch(data)
	if m == nil {
		return "", fmt.Errorf("%s has no bootgo= line naming the oldest Go that can bootstrap it", makeBash)
	}
	return string(m[1]), nil
}

// buildEnv drops settings of the calling environment that would make
// make.bash build something other than the tree as it stands.
func buildEnv(env []string) []string {
	return toolchain.EnvWithout(env, "GOROOT", "GOFLAGS", "GOTOOLCHAIN", "GOROOT_BOOTSTRAP", "GOBIN", "GOOS", "GOARCH")
}
