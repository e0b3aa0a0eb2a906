package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"go-spinbit.dev/tools/internal/fork"
	"go-spinbit.dev/tools/internal/toolchain"
)

// nospinbitExperiment is the GOEXPERIMENT that turns the fork's spinbit
// mutex off. Until the spinbit patches are in the fork, its go command
// does not know it.
const nospinbitExperiment = "nospinbitmutex"

// prepared is a toolchain ready to build with.
type prepared struct {
	Toolchain
	GOROOT  string
	GoCmd   string
	Version string // go env GOVERSION
	Env     []string
	PkgDir  string // the package it builds and runs: bench/, or its own runtime
	Binary  string // the compiled test binary
	Raw     string // the raw go test -bench output
}

func expNote(exp string) string {
	if exp == "" {
		return ""
	}
	return ", GOEXPERIMENT=" + exp
}

// forkGoroot is the tree of the fork on base, goroot/<base>.
func forkGoroot(root, base string) string {
	return fork.Repo{Root: root, Base: base}.Goroot()
}

// prepare finds a toolchain's GOROOT (for the fork, that of its base) and
// asks its go command who it is.
func prepare(ctx context.Context, root, base string, t Toolchain) (*prepared, error) {
	p := &prepared{Toolchain: t}
	if t.Fork() {
		p.GOROOT = forkGoroot(root, base)
		p.GoCmd = toolchain.Bin(p.GOROOT)
		if !isFile(p.GoCmd) {
			return nil, fmt.Errorf("toolchain %s: the fork on base %s is not built (%s is missing): run ./make.bash -base %s in %s first, or leave the fork out with -toolchains upstream,go1.24", t.Name, base, p.GoCmd, base, root)
		}
	} else {
		var err error
		if p.GOROOT, err = toolchain.GOROOT(ctx, t.Release); err != nil {
			return nil, fmt.Errorf("toolchain %s: %v", t.Name, err)
		}
		p.GoCmd = toolchain.Bin(p.GOROOT)
	}
	p.Env = buildEnv(os.Environ(), p.GOROOT, t.Experiment)
	out, err := goEnv(ctx, p.GoCmd, p.Env, "GOVERSION", "GOROOT")
	if err != nil {
		if t.Experiment != "" && strings.Contains(err.Error(), "unknown GOEXPERIMENT") {
			return nil, fmt.Errorf("toolchain %s: %s rejects GOEXPERIMENT=%s (%v).\n"+
				"The fork does not have the spinbit patches yet (or its tree was built before they landed): apply them and rebuild with ./make.bash,\n"+
				"or leave %s out, for example -toolchains upstream,spinbit,go1.24",
				t.Name, p.GoCmd, t.Experiment, err, t.Name)
		}
		return nil, fmt.Errorf("toolchain %s: %v", t.Name, err)
	}
	p.Version = out[0]
	if !sameDir(out[1], p.GOROOT) {
		return nil, fmt.Errorf("toolchain %s: %s reports GOROOT %s, want %s: is the toolchain installed where it was built?", t.Name, p.GoCmd, out[1], p.GOROOT)
	}
	return p, nil
}

// goEnv runs go env for the variables and returns their values in order.
func goEnv(ctx context.Context, gocmd string, env []string, vars ...string) ([]string, error) {
	cmd := exec.CommandContext(ctx, gocmd, append([]string{"env"}, vars...)...)
	cmd.Env = env
	cmd.Dir = os.TempDir()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("%s env failed: %s", gocmd, msg)
	}
	lines := strings.Split(strings.TrimRight(stdout.String(), "\n"), "\n")
	if len(lines) != len(vars) {
		return nil, fmt.Errorf("%s env %s printed %d lines, want %d", gocmd, strings.Join(vars, " "), len(lines), len(vars))
	}
	return lines, nil
}

func sameDir(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return ra == rb
}

// spinbitWarning says when the fork's default build is unlikely to be the
// spinbit mutex: its go command does not know the experiment that turns
// spinbit off, so the patches are not in.
func spinbitWarning(ctx context.Context, tcs []*prepared) string {
	for _, p := range tcs {
		if p.Name != "spinbit" {
			continue
		}
		env := buildEnv(os.Environ(), p.GOROOT, nospinbitExperiment)
		if _, err := goEnv(ctx, p.GoCmd, env, "GOVERSION"); err != nil && strings.Contains(err.Error(), "unknown GOEXPERIMENT") {
			return "the fork does not know GOEXPERIMENT=" + nospinbitExperiment + ", so the spinbit patches are not in it yet: " +
				"'spinbit' is measuring the fork's current runtime.lock2, not the spinbit protocol"
		}
	}
	return ""
}

// compile builds the test binary of p.PkgDir with one toolchain.
func compile(ctx context.Context, binDir string, p *prepared) error {
	p.Binary = filepath.Join(binDir, p.Name+".test")
	return compileTo(ctx, p, p.Binary)
}

// compileTo builds the test binary of p.PkgDir with p's environment into
// bin.
func compileTo(ctx context.Context, p *prepared, bin string) error {
	cmd := exec.CommandContext(ctx, p.GoCmd, "test", "-c", "-o", bin, ".")
	cmd.Dir = p.PkgDir
	cmd.Env = p.Env
	out, err := cmd.CombinedOutput()
	if err != nil {
		msg := strings.TrimSpace(string(out))
		if p.Experiment != "" && strings.Contains(msg, "unknown GOEXPERIMENT") {
			return fmt.Errorf("toolchain %s: the fork rejects GOEXPERIMENT=%s:\n%s\napply the spinbit patches and rebuild with ./make.bash, or leave %s out of -toolchains", p.Name, p.Experiment, msg, p.Name)
		}
		return fmt.Errorf("toolchain %s: go test -c in %s failed: %v\n%s", p.Name, p.PkgDir, err, msg)
	}
	return nil
}

// listBenchmarks asks a test binary which benchmarks match the pattern.
func listBenchmarks(ctx context.Context, p *prepared, pattern string) ([]string, error) {
	cmd := exec.CommandContext(ctx, p.Binary, "-test.list", pattern)
	cmd.Dir = p.PkgDir
	cmd.Env = runEnv(os.Environ())
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("toolchain %s: %s -test.list failed: %v", p.Name, p.Binary, err)
	}
	var names []string
	for _, l := range strings.Split(string(out), "\n") {
		if isBenchmarkName(strings.TrimSpace(l)) {
			names = append(names, strings.TrimSpace(l))
		}
	}
	sort.Strings(names)
	return names, nil
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// buildBenchstat builds benchstat from the tools module's pinned
// dependency into binDir and returns its path.
func buildBenchstat(ctx context.Context, root, binDir string) (string, error) {
	gocmd, err := toolchain.GoCommand()
	if err != nil {
		return "", err
	}
	benchstat := filepath.Join(binDir, "benchstat")
	if runtime.GOOS == "windows" {
		benchstat += ".exe"
	}
	cmd := exec.CommandContext(ctx, gocmd, "build", "-o", benchstat, "golang.org/x/perf/cmd/benchstat")
	cmd.Dir = filepath.Join(root, "tools")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building benchstat (golang.org/x/perf/cmd/benchstat, required by tools/go.mod) failed: %v\n%s\n"+
			"check that the module proxy is reachable, or run go mod download in tools/", err, strings.TrimSpace(string(out)))
	}
	return benchstat, nil
}

// tempBenchstat builds benchstat into a new temporary folder, named after
// pattern, which remove takes away.
func tempBenchstat(ctx context.Context, root, pattern string) (benchstat string, remove func(), err error) {
	binDir, err := os.MkdirTemp("", pattern)
	if err != nil {
		return "", nil, err
	}
	remove = func() { os.RemoveAll(binDir) }
	if benchstat, err = buildBenchstat(ctx, root, binDir); err != nil {
		remove()
		return "", nil, err
	}
	return benchstat, remove, nil
}

// prepareAll prepares the toolchains o names for suite s. Where each
// toolchain brings its own benchmarks (-runtime), one without the planned
// ones is left out with a note (suite.leftOut), and one with other ones is
// an error.
func prepareAll(ctx context.Context, root string, s suite, o Options, names []string, stdout io.Writer) ([]*prepared, error) {
	var tcs []*prepared
	for _, t := range o.Toolchains {
		p, err := prepare(ctx, root, o.Base, t)
		if err != nil {
			return nil, err
		}
		p.PkgDir = s.pkgDir(p.GOROOT)
		if why, err := s.leftOut(p, o.Bench, names); err != nil {
			return nil, err
		} else if why != "" {
			fmt.Fprintf(stdout, "toolchain %-9s %s: left out, %s\n", p.Name, p.Version, why)
			continue
		}
		fmt.Fprintf(stdout, "toolchain %-9s %s (GOROOT %s%s)\n", p.Name, p.Version, p.GOROOT, expNote(p.Experiment))
		tcs = append(tcs, p)
	}
	if len(tcs) == 0 {
		return nil, fmt.Errorf("no toolchain is left to run")
	}
	if warn := spinbitWarning(ctx, tcs); warn != "" {
		fmt.Fprintf(stdout, "warning: %s\n", warn)
	}
	return tcs, nil
}

// hasBenchmarks reports whether the source of p.PkgDir declares the
// benchmarks named (those matching pattern), and fails if it declares
// others.
func hasBenchmarks(p *prepared, pattern string, names []string) (bool, error) {
	own, err := SourceBenchmarks(p.PkgDir, pattern)
	if err != nil {
		return false, fmt.Errorf("toolchain %s: %v", p.Name, err)
	}
	if len(own) > 0 && !equalStrings(own, names) {
		return false, fmt.Errorf("toolchain %s: %s declares benchmarks %v matching %q, but the fork's declares %v; give -bench a pattern that selects the same benchmarks in both, such as an anchored one", p.Name, p.PkgDir, own, pattern, names)
	}
	return len(own) > 0, nil
}

func withFork(tcs []*prepared) bool {
	for _, p := range tcs {
		if p.Fork() {
			return true
		}
	}
	return false
}

// buildAll compiles every toolchain's test binary into binDir, checks that
// each lists the planned benchmarks, and builds benchstat, whose path it
// returns. Benchstat is built before benchmarking too, so that a run does
// not benchmark for minutes only to find it cannot make its tables.
func buildAll(ctx context.Context, root, binDir string, tcs []*prepared, pattern string, names []string, stdout io.Writer) (string, error) {
	for _, p := range tcs {
		fmt.Fprintf(stdout, "building the benchmarks with %s...\n", p.Name)
		if err := compile(ctx, binDir, p); err != nil {
			return "", err
		}
		listed, err := listBenchmarks(ctx, p, pattern)
		if err != nil {
			return "", err
		}
		if !equalStrings(listed, names) {
			return "", fmt.Errorf("%s's test binary lists benchmarks %v, but the source of %s declares %v: is a benchmark behind a build tag?", p.Name, listed, p.PkgDir, names)
		}
	}
	fmt.Fprintf(stdout, "building benchstat...\n")
	return buildBenchstat(ctx, root, binDir)
}
