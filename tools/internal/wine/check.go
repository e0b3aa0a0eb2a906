//go:build unix

package wine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"go-spinbit.dev/tools/internal/apt"
	"go-spinbit.dev/tools/internal/contended"
)

// Options say what Check runs.
type Options struct {
	// Name is the check's name, which its errors start with. Required.
	Name string
	// Go is the go command whose windows/amd64 runtime is checked.
	// Required.
	Go string
	// Control also runs the contended program built with
	// GOEXPERIMENT=nospinbitmutex, upstream's mutex, so that a failure
	// of the fork's shows against one of Wine's.
	Control bool
	// BuildFlags are added to the go commands that build, such as
	// "-overlay=FILE" to build a deliberately broken runtime.
	BuildFlags []string
	// ContendedOnly runs the contended program alone: neither the
	// control nor the runtime's tests.
	ContendedOnly bool
	// Prefix is the Wine prefix's directory; empty means DefaultDir.
	Prefix string
	// Host finds and installs Wine and mingw-w64.
	Host apt.Host
	// Stdout receives the builds' and the programs' output; nil means
	// os.Stdout.
	Stdout io.Writer
}

// The time limits of Check's runs under Wine. A healthy run takes a few
// seconds to a minute; each limit is several times that, and a run
// past it has hung.
//
// A runtime that lost a wakeup usually stops whole: its watchdogs (the
// contended program's, go test's -test.timeout) never run, and only the
// limit ends the run.
const (
	probeLimit = 2 * time.Minute // the first start of a prefix updates it
	// contendedLimit is for the contended program
	// (tools/internal/contended), about 8 seconds on 2 cores, whose
	// watchdog fires at contendedWatchdog if the hung runtime still runs
	// it.
	contendedLimit    = 90 * time.Second
	contendedWatchdog = 60 * time.Second
	// testsLimit is for the runtime's mutex tests, about 20 seconds,
	// whose -test.timeout is a minute shorter so that a test binary that
	// still can panics with its goroutines first.
	testsLimit = 3 * time.Minute
)

// contendedArgs are the contended program's arguments: 8 goroutines on each
// of 8 Ps, 20000 rounds each, about 2 seconds natively on 2 cores: enough
// that a runtime whose M semaphore holds one wakeup hangs under Wine
// every time, where a tenth of the work sometimes finishes.
func contendedArgs() []string {
	return []string{"-procs", "8", "-per-p", "8", "-iters", "20000", "-watchdog", contendedWatchdog.String()}
}

// testArgs are the runtime test binary's arguments that run the tests
// that pattern selects.
func testArgs(pattern string) []string {
	return []string{"-test.v", "-test.short", "-test.count", "1", "-test.run", pattern, "-test.timeout", (testsLimit - time.Minute).String()}
}

// controlExp builds the control: upstream's runtime mutex.
const controlExp = "GOEXPERIMENT=nospinbitmutex"

// SkippedError says that Check could not run here, and why.
type SkippedError struct{ Reason string }

func (e *SkippedError) Error() string { return e.Reason }

// Check builds the contended program (tools/internal/contended) and the
// runtime's tests for windows/amd64 with o.Go and runs, under Wine, the
// program and then the runtime mutex tests that a test binary can run
// there (MutexTests). It returns a *SkippedError if Wine or mingw-w64
// cannot be had, and otherwise an error for each run that failed or hung.
func Check(ctx context.Context, o Options) error {
	if o.Name == "" || o.Go == "" {
		return fmt.Errorf("wine.Check: Options.Name and Go are required")
	}
	out := o.Stdout
	if out == nil {
		out = os.Stdout
	}
	tools, err := Find(ctx, o.Host, out, out)
	var missing *apt.MissingError
	if errors.As(err, &missing) {
		return &SkippedError{missing.Reason}
	}
	if err != nil {
		return err
	}
	dir := o.Prefix
	if dir == "" {
		if dir, err = DefaultDir(); err != nil {
			return err
		}
	}
	tmp, err := os.MkdirTemp("", "wine-check")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	env := BuildEnv(os.Environ())
	prog := filepath.Join(tmp, "contended.exe")
	if err := contended.Build(ctx, o.Go, tmp, prog, env, o.BuildFlags, out); err != nil {
		return err
	}
	var pkgDir, tests string
	var names []string
	if !o.ContendedOnly {
		var files map[string][]byte
		pkgDir, files, err = RuntimeTestSources(ctx, o.Go, env, o.BuildFlags)
		if err != nil {
			return err
		}
		names, err = MutexTests(files)
		if err != nil {
			return fmt.Errorf("the runtime's lock_*_test.go for windows: %v", err)
		}
		var out1 []string
		for name, why := range leftOut {
			out1 = append(out1, fmt.Sprintf("wine: leaving %s out: %s\n", name, why))
		}
		sort.Strings(out1)
		fmt.Fprint(out, strings.Join(out1, ""))
		tests, err = BuildRuntimeTests(ctx, o.Go, tmp, env, o.BuildFlags, out)
		if err != nil {
			return err
		}
	}
	var control string
	if o.Control && !o.ContendedOnly {
		dir := filepath.Join(tmp, "control")
		if err := os.Mkdir(dir, 0o755); err != nil {
			return err
		}
		control = filepath.Join(dir, "contended.exe")
		if err := contended.Build(ctx, o.Go, dir, control, BuildEnv(os.Environ(), controlExp), o.BuildFlags, out); err != nil {
			return err
		}
	}

	p, err := Open(ctx, dir, tools, out)
	if err != nil {
		return err
	}
	defer p.Close()
	if err := probe(ctx, p, tmp, prog, out); err != nil {
		return fmt.Errorf("%s: %v", o.Name, err)
	}

	var errs []error
	if err := runContended(ctx, p, tmp, prog, "", out); err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", o.Name, err))
	}
	if control != "" {
		if err := runContended(ctx, p, tmp, control, controlExp, out); err != nil {
			errs = append(errs, fmt.Errorf("%s: the control, upstream's mutex: %v (Wine itself fails?)", o.Name, err))
		}
	}
	if !o.ContendedOnly {
		if err := runTests(ctx, p, pkgDir, tests, names, out); err != nil {
			errs = append(errs, fmt.Errorf("%s: %v", o.Name, err))
		}
	}
	return errors.Join(errs...)
}

// probe runs contended -hello, which only starts: a failure is Wine's
// or the prefix's, not the mutex's. If it fails, probe makes the prefix
// again and tries once more.
func probe(ctx context.Context, p *Prefix, dir, exe string, out io.Writer) error {
	var buf bytes.Buffer
	err := p.Run(ctx, dir, nil, probeLimit, &buf, exe, "-hello")
	if err != nil {
		fmt.Fprintf(out, "wine: a Go program does not start in the prefix %s (%v):\n%s\nwine: making the prefix again\n", p.Dir, err, buf.Bytes())
		if err := p.Reset(ctx, out); err != nil {
			return err
		}
		buf.Reset()
		err = p.Run(ctx, dir, nil, probeLimit, &buf, exe, "-hello")
	}
	out.Write(buf.Bytes())
	if err != nil {
		return fmt.Errorf("Wine does not start a Go program (contended -hello), even in a new prefix: %v\n%s", err, buf.Bytes())
	}
	return nil
}

// runContended runs the contended program, built with the experiments
// named (the default ones if ""), and checks that it did its work.
func runContended(ctx context.Context, p *Prefix, dir, exe, exp string, out io.Writer) error {
	what := "the contended program"
	if exp != "" {
		what += " built with " + exp
	}
	args := contendedArgs()
	fmt.Fprintf(out, "wine: running %s: contended %s\n", what, strings.Join(args, " "))
	var buf bytes.Buffer
	start := time.Now()
	err := p.Run(ctx, dir, nil, contendedLimit, io.MultiWriter(out, &buf), exe, args...)
	if Hung(err) {
		return fmt.Errorf("%s %w", what, err)
	}
	if err != nil {
		return fmt.Errorf("%s failed: %v", what, err)
	}
	line, ok := contended.OK(buf.String())
	if !ok {
		return fmt.Errorf("%s exited without its ok line", what)
	}
	fmt.Fprintf(out, "wine: %s (%v under Wine)\n", line, time.Since(start).Round(100*time.Millisecond))
	return nil
}

// runTests runs the runtime's test binary for the tests named and checks
// that each passed or skipped.
func runTests(ctx context.Context, p *Prefix, pkgDir, exe string, names []string, out io.Writer) error {
	args := testArgs(RunPattern(names))
	fmt.Fprintf(out, "wine: running the runtime's mutex tests: runtime.test.exe %s\n", strings.Join(args, " "))
	var buf bytes.Buffer
	err := p.Run(ctx, pkgDir, nil, testsLimit, io.MultiWriter(out, &buf), exe, args...)
	parsed := ParseTestOutput(buf.String())
	results, cerr := parsed.Check(names)
	var summary, failed []string
	for _, r := range results {
		summary = append(summary, r.Result+" "+r.Name)
		if r.Result == "FAIL" {
			failed = append(failed, r.Name)
		}
	}
	if len(summary) > 0 {
		fmt.Fprintf(out, "wine: runtime tests: %s\n", strings.Join(summary, ", "))
	}
	if Hung(err) {
		msg := fmt.Sprintf("the runtime's mutex tests %v", err)
		if parsed.Unfinished != "" {
			msg += ", in " + parsed.Unfinished
		}
		if len(failed) > 0 {
			msg += "; failed before: " + strings.Join(failed, ", ")
		}
		return errors.New(msg)
	}
	if err != nil && len(failed) > 0 {
		return fmt.Errorf("the runtime's mutex tests failed: %s (%v)", strings.Join(failed, ", "), err)
	}
	if err != nil {
		return fmt.Errorf("the runtime's mutex tests failed: %v", err)
	}
	if cerr != nil {
		return fmt.Errorf("the runtime's mutex tests: %v", cerr)
	}
	return nil
}
