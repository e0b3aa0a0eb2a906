package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"go-spinbit.dev/tools/internal/crossarch"
	"go-spinbit.dev/tools/internal/fork"
	"go-spinbit.dev/tools/internal/toolchain"
)

// A step is one named check of ./test.bash with its own pass or fail. A
// step runs once for each base it applies to, on that base's tree, and is
// named <release>/<name> there (go1.27.4/runtime/test-short); a shared
// step reads no base's tree and runs once under its own name.
type step struct {
	name   string
	shared bool // reads no base's tree: runs once, its name unprefixed
	// core marks a step of the default run on every base. The other
	// steps of the default run are the newest base's (the series users
	// should run); on an older base they run with -long, so that the
	// default run of every base stays within its time budget. A core step
	// needs only the base's tree (tree): building an older base as well
	// as the newest one does not fit the budget.
	core bool
	slow bool // left out by -short
	long bool // run only with -long (heavier than the default run's budget)
	// tree marks a step that needs its base's tree laid out with its
	// patches/ but not built: ./test.bash runs such steps alone without
	// building the fork.
	tree bool
	// appliesTo, if set, says whether the step applies to a base, from
	// the base's data (its series, its tree); nil means every base.
	appliesTo func(r fork.Repo) (bool, error)
	// limit bounds the step's run (defaultLimit if zero); see runIsolated.
	limit time.Duration
	run   func(ctx context.Context, r fork.Repo) error
}

// defaultLimit is the time limit of a step that sets none: several times
// what the slowest such step takes from cold on 2 loaded cores.
const defaultLimit = 20 * time.Minute

func (s step) timeLimit() time.Duration {
	if s.limit > 0 {
		return s.limit
	}
	return defaultLimit
}

// A job is a step as it runs for one base (base "" for a shared step).
type job struct {
	step
	base string
	long bool // the step's long, or a non-core step on an older base
}

// fullName is the job's name as ./test.bash prints and -run matches it.
func (j job) fullName() string {
	if j.base == "" {
		return j.name
	}
	return j.base + "/" + j.name
}

// errSkip marks a step that could not run here; its message says why.
type errSkip struct{ why string }

func (e errSkip) Error() string { return e.why }

func skip(format string, args ...any) error { return errSkip{fmt.Sprintf(format, args...)} }

// steps lists the checks in the order they run. Each group lives in a file
// of its own.
var steps = concat(baseSteps, seriesSteps, releaseSteps, xchg8Steps, spinbitSteps, machineCodeSteps, heirSteps, wakeSteps, modeSteps, tortureSteps, modelSteps, benchSteps, bundleSteps, longSteps, distSteps, wineSteps, wasmSteps)

var baseSteps = []step{
	{name: "patches/apply-fresh", core: true, tree: true, run: applyFresh},
	{name: "tools/go-test", shared: true, run: toolsTest},
	{name: "runtime/test-short", slow: true, limit: 40 * time.Minute, run: goTest("", "-short", "runtime", "sync", "internal/runtime/atomic")},
}

func concat(groups ...[]step) []step {
	var all []step
	for _, g := range groups {
		all = append(all, g...)
	}
	return all
}

// expand turns the steps into the jobs of the bases given, oldest first:
// the shared steps, then each base's steps, the newest base's first (if
// a run is cut short, the series users should run has been checked).
// newest is the newest of every base, which runs every step of the
// default run.
func expand(all []step, root string, bases []string, newest string) ([]job, error) {
	var jobs []job
	for _, s := range all {
		if s.shared {
			jobs = append(jobs, job{step: s, long: s.long})
		}
	}
	for i := len(bases) - 1; i >= 0; i-- {
		b := bases[i]
		r := fork.Repo{Root: root, Base: b}
		for _, s := range all {
			if s.shared {
				continue
			}
			if s.appliesTo != nil {
				ok, err := s.appliesTo(r)
				if err != nil {
					return nil, fmt.Errorf("does step %s apply to base %s? %v", s.name, b, err)
				}
				if !ok {
					continue
				}
			}
			jobs = append(jobs, job{step: s, base: b, long: s.long || (!s.core && b != newest)})
		}
	}
	return jobs, nil
}

// testBases returns the bases ./test.bash runs: the one named or every
// base with patches/, and the newest base with patches/.
func testBases(root, base string) (bases []string, newest string, err error) {
	if bases, err = selectBases(root, base); err != nil {
		return nil, "", err
	}
	newest, err = fork.Newest(root)
	return bases, newest, err
}

func runSteps(ctx context.Context, root, base, run string, list, short, long bool) int {
	bases, newest, err := testBases(root, base)
	if err != nil {
		fatal(err)
	}
	all, err := expand(steps, root, bases, newest)
	if err != nil {
		fatal(err)
	}
	selected, err := selectJobs(all, run, short, long)
	if err != nil {
		fatal(err)
	}
	if list {
		for _, j := range selected {
			fmt.Println(j.fullName())
		}
		return 0
	}
	if len(selected) == 0 {
		fatal(fmt.Errorf("no step matches -run %q; see -list", run))
	}
	var passed, failed, skipped int
	var failures []string
	made := map[string]error{}
	for _, j := range selected {
		name := j.fullName()
		if err, done := made[j.base]; j.base != "" && !done {
			// What ./make.bash does, or only its first half when no
			// step of the base needs the built toolchain.
			r := fork.Repo{Root: root, Base: j.base}
			if needsBuild(selected, j.base) {
				err = r.Make(ctx, false, logf)
			} else {
				err = r.Prepare(ctx, false, logf)
			}
			made[j.base] = err
			if err != nil {
				failed++
				failures = append(failures, j.base+"/make.bash")
				fmt.Printf("--- FAIL %s/make.bash: %v (the base's steps do not run)\n", j.base, err)
			}
		}
		if made[j.base] != nil {
			continue
		}
		fmt.Printf("=== STEP %s\n", name)
		start := time.Now()
		err := runIsolated(ctx, j)
		d := time.Since(start).Round(100 * time.Millisecond)
		var sk errSkip
		switch {
		case err == nil:
			passed++
			fmt.Printf("--- PASS %s (%v)\n", name, d)
		case errors.As(err, &sk):
			skipped++
			fmt.Printf("--- SKIP %s (%v): %s\n", name, d, sk.why)
		default:
			failed++
			failures = append(failures, name)
			fmt.Printf("--- FAIL %s (%v): %v\n", name, d, err)
		}
	}
	if len(failures) > 0 {
		fmt.Printf("failed steps: %s\n", strings.Join(failures, " "))
	}
	line := fmt.Sprintf("%d passed, %d failed", passed, failed)
	if skipped > 0 {
		line += fmt.Sprintf(", %d skipped", skipped)
	}
	fmt.Println(line)
	if failed > 0 {
		return 1
	}
	return 0
}

// selectJobs returns the jobs of all whose full names match the regexp
// run, leaving out the slow ones if short and the long ones unless long.
func selectJobs(all []job, run string, short, long bool) ([]job, error) {
	re, err := regexp.Compile(run)
	if err != nil {
		return nil, fmt.Errorf("-run: %v", err)
	}
	var selected []job
	for _, j := range all {
		if re.MatchString(j.fullName()) && !(short && j.slow) && (long || !j.long) {
			selected = append(selected, j)
		}
	}
	return selected, nil
}

// needsBuild reports whether any of the jobs of base needs its bin/go.
func needsBuild(selected []job, base string) bool {
	for _, j := range selected {
		if j.base == base && !j.tree {
			return true
		}
	}
	return false
}

// applyFresh applies patches/ onto a new checkout of the named tag, so a
// series that only applies on top of local state is caught.
func applyFresh(ctx context.Context, r fork.Repo) error {
	s, err := fork.ReadSeries(r.Patches())
	if err != nil {
		return err
	}
	_, _, remove, err := seriesWorktree(ctx, r, "fresh", s)
	if err != nil {
		return err
	}
	remove()
	fmt.Printf("%d patches of bases/%s/patches/ apply to a fresh %s\n", len(s), r.Base, fork.NamedTag)
	return nil
}

// seriesWorktree checks out the base, the named tag of its tree, as a
// detached git worktree of the tree at dir/goroot, dir being a new
// temporary directory named after pattern (os.MkdirTemp) that is free for
// the caller's own files, and applies s to it, without touching the tree.
// remove takes the worktree and dir away, even after ctx is done; if s does
// not apply, seriesWorktree has done so already and returns Apply's error.
// A step killed at its time limit leaves them (git worktree prune, run here
// first, forgets such a worktree once its directory is gone).
func seriesWorktree(ctx context.Context, r fork.Repo, pattern string, s fork.Series) (dir, wt string, remove func(), err error) {
	dir, err = os.MkdirTemp("", pattern)
	if err != nil {
		return "", "", nil, err
	}
	wt = filepath.Join(dir, "goroot")
	if err := command(ctx, r.Goroot(), nil, "git", "worktree", "prune"); err != nil {
		os.RemoveAll(dir)
		return "", "", nil, err
	}
	if err := command(ctx, r.Goroot(), nil, "git", "worktree", "add", "-q", "--detach", wt, fork.NamedTag); err != nil {
		os.RemoveAll(dir)
		return "", "", nil, err
	}
	remove = func() {
		cleanup := context.WithoutCancel(ctx)
		if err := command(cleanup, r.Goroot(), nil, "git", "worktree", "remove", "--force", wt); err != nil {
			fmt.Fprintf(os.Stderr, "removing the worktree %s: %v\n", wt, err)
		}
		os.RemoveAll(dir)
		command(cleanup, r.Goroot(), nil, "git", "worktree", "prune")
	}
	if err := fork.Apply(wt, s); err != nil {
		remove()
		return "", "", nil, err
	}
	return dir, wt, remove, nil
}

// toolsTest runs the tests of tools/ with -short, which leaves out the
// end-to-end run of the benchmarks (bench/quick runs them with the fork;
// tools/go-test-full, with -long, runs that test too).
func toolsTest(ctx context.Context, r fork.Repo) error {
	return toolsTestArgs(ctx, r, "-short")
}

func toolsTestArgs(ctx context.Context, r fork.Repo, flags ...string) error {
	gocmd, err := toolchain.GoCommand()
	if err != nil {
		return err
	}
	args := append(append([]string{"test"}, flags...), "./...")
	return command(ctx, filepath.Join(r.Root, "tools"), nil, gocmd, args...)
}

// goTest runs the base's go test with GOEXPERIMENT set to exp (unset if empty).
func goTest(exp string, args ...string) func(context.Context, fork.Repo) error {
	return func(ctx context.Context, r fork.Repo) error {
		var env []string
		if exp != "" {
			env = append(env, "GOEXPERIMENT="+exp)
		}
		return command(ctx, r.Root, env, r.GoCommand(), append([]string{"test"}, args...)...)
	}
}

// command runs name with args in dir, its output going to ours, with the
// calling environment less what would pick another toolchain, plus env.
func command(ctx context.Context, dir string, env []string, name string, args ...string) error {
	return runTo(ctx, os.Stdout, dir, env, name, args...)
}

// runTo runs name like command, both output streams going to w.
func runTo(ctx context.Context, w io.Writer, dir string, env []string, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(forkEnv(os.Environ()), env...)
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %v", filepath.Base(name), strings.Join(args, " "), err)
	}
	return nil
}

// output runs name like command and returns what it printed, both streams,
// trimmed.
func output(ctx context.Context, dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(forkEnv(os.Environ()), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out)), nil
}

// forkEnv is env for running the fork's go command: its own GOROOT, no
// other toolchain, and the default target, flags and experiments.
func forkEnv(env []string) []string {
	return append(toolchain.EnvWithout(env, "GOROOT", "GOFLAGS", "GOTOOLCHAIN", "GOEXPERIMENT", "GOOS", "GOARCH"), "GOTOOLCHAIN=local")
}

// crossTest runs the tests that opts names for linux/opts.GOARCH with the
// fork's go command, once per emulated CPU model in cpus ("" for the
// emulator's default; no cpus means one run on the default). An arch that
// cannot run here is a skip with the reason.
func crossTest(opts crossarch.Options, cpus ...string) func(context.Context, fork.Repo) error {
	if len(cpus) == 0 {
		cpus = []string{""}
	}
	return func(ctx context.Context, r fork.Repo) error {
		for _, cpu := range cpus {
			o := opts
			o.Go, o.CPU = r.GoCommand(), cpu
			err := crossarch.Run(ctx, o)
			if reason, ok := crossarch.Skipped(err); ok {
				return skip("%s", reason)
			}
			if err != nil {
				if cpu != "" {
					return fmt.Errorf("QEMU_CPU=%s: %v", cpu, err)
				}
				return err
			}
		}
		return nil
	}
}
