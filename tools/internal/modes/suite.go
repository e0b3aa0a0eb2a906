package modes

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"go-spinbit.dev/tools/internal/toolchain"
)

// RunLimit bounds one run of the contend program. The program panics, with
// every goroutine's stack, after 3 minutes; past this limit it gets
// SIGQUIT, and SIGKILL a little later.
const RunLimit = 4 * time.Minute

// Status is the outcome of one run.
type Status string

const (
	Pass Status = "PASS"
	Fail Status = "FAIL"
	Skip Status = "SKIP"
)

// A Result is the outcome of one mode of one build with one toolchain.
type Result struct {
	Build, Mode, Toolchain string
	Status                 Status
	Why                    string // for Fail and Skip
	Took                   time.Duration
}

// Options says what Run runs.
type Options struct {
	Build Build
	// Toolchains are the fork's go command once per setting of the
	// experiment.
	Toolchains []Toolchain
	// Upstream, if set, returns the base release's toolchain. A mode that
	// fails with the fork is run with it the same way; if it fails there
	// too, the mode is a Skip that says so, since the fault is upstream's.
	Upstream func(ctx context.Context) (Toolchain, error)
	// Prepare, if set, is called before anything is built: an error it
	// returns that Skipped recognizes skips every mode, with its reason.
	Prepare func(ctx context.Context) error
	// Out receives the commands, the results and the output of failed runs.
	Out io.Writer
}

// SkipError says why a build cannot run here.
type SkipError struct{ Reason string }

func (e *SkipError) Error() string { return e.Reason }

// Skipped reports whether err says the modes cannot run here, and why.
func Skipped(err error) (string, bool) {
	var s *SkipError
	if errors.As(err, &s) {
		return s.Reason, true
	}
	return "", false
}

// Run builds o.Build with each toolchain and runs each of its modes,
// printing a line per run, and returns the results. The error is for
// what stops the whole run (a temporary folder that cannot be made, ctx
// ending); failed builds and runs are results.
func Run(ctx context.Context, o Options) ([]Result, error) {
	if err := o.Build.check(); err != nil {
		return nil, err
	}
	out := o.Out
	if out == nil {
		out = os.Stdout
	}
	var results []Result
	skipAll := func(tc Toolchain, why string) {
		for _, m := range o.Build.Modes {
			r := Result{Build: o.Build.Name, Mode: m.Name, Toolchain: tc.Name, Status: Skip, Why: why}
			results = append(results, r)
			printResult(out, r)
		}
	}
	if o.Prepare != nil {
		if err := o.Prepare(ctx); err != nil {
			if why, ok := Skipped(err); ok {
				for _, tc := range o.Toolchains {
					skipAll(tc, why)
				}
				return results, nil
			}
			return nil, err
		}
	}
	up := &upstream{get: o.Upstream, build: o.Build, out: out}
	defer up.cleanup()
	for _, tc := range o.Toolchains {
		dir, err := os.MkdirTemp("", "modes-"+o.Build.Name)
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		fmt.Fprintf(out, "build %s with %s (%s)\n", o.Build.Name, tc.Name, tc.Go)
		exe, err := o.Build.make(ctx, tc, dir, out)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			why := fmt.Sprintf("the build failed: %v", err)
			if upWhy, ok := up.buildFails(ctx); ok {
				skipAll(tc, fmt.Sprintf("%s; and it fails on %s too: %s", why, up.name, upWhy))
				continue
			}
			for _, m := range o.Build.Modes {
				r := Result{Build: o.Build.Name, Mode: m.Name, Toolchain: tc.Name, Status: Fail, Why: why}
				results = append(results, r)
				printResult(out, r)
			}
			continue
		}
		for _, m := range o.Build.Modes {
			start := time.Now()
			runOut, err := runMode(ctx, exe, m, tc.Env)
			if err == nil {
				err = Check(runOut, o.Build.want())
			}
			r := Result{Build: o.Build.Name, Mode: m.Name, Toolchain: tc.Name, Status: Pass, Took: time.Since(start)}
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				fmt.Fprintf(out, "%s\n", tail(runOut, 60))
				r.Status, r.Why = Fail, err.Error()
				if upWhy, ok := up.modeFails(ctx, m); ok {
					r.Status, r.Why = Skip, fmt.Sprintf("fails with the fork (%v) and on %s too (%s)", err, up.name, upWhy)
				}
			}
			results = append(results, r)
			printResult(out, r)
		}
	}
	return results, nil
}

func printResult(w io.Writer, r Result) {
	line := fmt.Sprintf("    %s %s %s (%s)", r.Status, r.Build, r.Mode, r.Toolchain)
	if r.Took > 0 {
		line += fmt.Sprintf(" %v", r.Took.Round(10*time.Millisecond))
	}
	if r.Why != "" {
		line += ": " + r.Why
	}
	fmt.Fprintln(w, line)
}

// runEnv is the environment of a run: env less the settings that modes
// make, plus mode's, with every goroutine shown if the run crashes.
func runEnv(env []string, m Mode) []string {
	out := toolchain.EnvWithout(env, "GODEBUG", "GOGC", "GOMAXPROCS", "GOTRACEBACK", "GOMEMLIMIT")
	out = append(out, "GOTRACEBACK=all")
	return append(out, m.Env...)
}

// runMode runs exe in mode m, within RunLimit, and returns its output
// (both streams). A run that fails or does not finish in time is an error.
func runMode(ctx context.Context, exe Exe, m Mode, env []string) (string, error) {
	return runLimited(ctx, RunLimit, runEnv(env, m), exe.Path, append(append([]string(nil), exe.Args...), m.Options...)...)
}

// runLimited runs name with args, and if it has not finished within limit
// sends it SIGQUIT (a Go program prints its goroutines) and, 10 seconds
// later, SIGKILL.
func runLimited(ctx context.Context, limit time.Duration, env []string, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = env
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGQUIT) }
	cmd.WaitDelay = 10 * time.Second
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := cmd.Run()
	what := filepath.Base(name) + " " + strings.Join(args, " ")
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return buf.String(), fmt.Errorf("%s did not finish within %v: sent SIGQUIT (%v)", what, limit, err)
	}
	if err != nil {
		return buf.String(), fmt.Errorf("%s: %v", what, err)
	}
	return buf.String(), nil
}

// upstream builds and runs the same code with the base release, once a
// mode has failed with the fork, to tell the fork's faults from its base's.
type upstream struct {
	get   func(context.Context) (Toolchain, error)
	build Build
	out   io.Writer

	name     string
	tried    bool
	exe      Exe
	tcEnv    []string
	buildErr error
	dir      string
}

// ready builds the code with the base release, once; it reports false if
// there is no base release to compare with.
func (u *upstream) ready(ctx context.Context) bool {
	if u.get == nil {
		return false
	}
	if !u.tried {
		u.tried = true
		tc, err := u.get(ctx)
		if err != nil {
			fmt.Fprintf(u.out, "cannot compare with the base release: %v\n", err)
			u.get = nil
			return false
		}
		u.name = tc.Name
		u.dir, err = os.MkdirTemp("", "modes-upstream")
		if err != nil {
			u.buildErr = err
			return true
		}
		fmt.Fprintf(u.out, "build %s with %s, to compare (%s)\n", u.build.Name, tc.Name, tc.Go)
		u.exe, u.buildErr = u.build.make(ctx, tc, u.dir, u.out)
		u.tcEnv = tc.Env
	}
	return u.get != nil
}

func (u *upstream) cleanup() {
	if u.dir != "" {
		os.RemoveAll(u.dir)
	}
}

// buildFails reports whether the build fails with the base release too,
// and how.
func (u *upstream) buildFails(ctx context.Context) (string, bool) {
	if !u.ready(ctx) || u.buildErr == nil {
		return "", false
	}
	return u.buildErr.Error(), true
}

// modeFails reports whether mode m fails with the base release too, and
// how.
func (u *upstream) modeFails(ctx context.Context, m Mode) (string, bool) {
	if !u.ready(ctx) {
		return "", false
	}
	if u.buildErr != nil {
		return "the build failed: " + u.buildErr.Error(), true
	}
	out, err := runMode(ctx, u.exe, m, u.tcEnv)
	if err == nil {
		err = Check(out, u.build.want())
	}
	if err != nil {
		fmt.Fprintf(u.out, "with %s:\n%s\n", u.name, tail(out, 30))
		return err.Error(), true
	}
	fmt.Fprintf(u.out, "    (passes with %s)\n", u.name)
	return "", false
}
