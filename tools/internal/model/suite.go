package model

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"go-spinbit.dev/tools/internal/inorder"
)

// Options say where the model and the Go code are and where reports go.
type Options struct {
	// Dir is the path of model/, which holds the models.
	Dir string
	// GoFiles are the Go files whose statements the models quote.
	GoFiles []string
	// BoundDocs are the documents that quote the header's bound under
	// the heading "## The bound" (model/README.md, doc/design.md).
	BoundDocs []string
	// Out receives one line per check; Err the progress of installs.
	Out, Err io.Writer
	// Long runs the checks marked Long as well: they take more time than
	// the default run's budget allows.
	Long bool
}

// DefaultOptions returns the options for the repository at root and the
// Go tree goroot (one base's goroot/<release>): the models quote
// lock_spinbit.go and the file of the futex semasleep and semawakeup
// (SemasleepFile), which a series may add or upstream may hold.
func DefaultOptions(root, goroot string) (Options, error) {
	rt := filepath.Join(goroot, "src", "runtime")
	sema, err := SemasleepFile(rt)
	if err != nil {
		return Options{}, err
	}
	return Options{
		Dir:       filepath.Join(root, "model"),
		BoundDocs: []string{filepath.Join(root, "model", "README.md"), filepath.Join(root, "doc", "design.md")},
		GoFiles: []string{
			filepath.Join(rt, "lock_spinbit.go"),
			sema,
		},
		Out: os.Stdout,
		Err: os.Stderr,
	}, nil
}

// SemasleepFile returns the one lock_futex*.go file of the runtime source
// in dir that declares semasleep: the futex-based sleep and wakeup that
// the spinbit mutex uses on linux.
func SemasleepFile(dir string) (string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "lock_futex*.go"))
	if err != nil {
		return "", err
	}
	var found []string
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		if strings.Contains(string(src), "\nfunc semasleep(") {
			found = append(found, f)
		}
	}
	if len(found) != 1 {
		return "", fmt.Errorf("%s: %d lock_futex*.go files declare semasleep (%s), want 1 (run ./make.bash first to lay out the tree)", dir, len(found), strings.Join(baseNames(found), ", "))
	}
	return found[0], nil
}

// CheckQuotesOf checks that the models still quote the Go code of
// opts.GoFiles correctly, without running Spin.
func CheckQuotesOf(opts Options) error {
	_, err := checkModelQuotes(opts)
	return err
}

// RunSuite checks that the model still quotes the Go code correctly, then
// runs every check of Suite for the features the Go code has (those marked
// Long only if opts.Long), several at once, but those that may need more
// memory than the default (Check.MemLimitMB) one at a time after the
// others, and reports each in that order. It returns an error naming the
// checks whose outcome differs from what they expect, and keeps the files
// of each such run for a replay.
func RunSuite(ctx context.Context, opts Options) error {
	on, err := checkModelQuotes(opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.Out, "model: the models' quotes of %s match the Go code\n", strings.Join(baseNames(opts.GoFiles), ", "))
	if len(on) > 0 {
		fmt.Fprintf(opts.Out, "model: the Go code has the features %s: every check defines them\n", strings.Join(on, " "))
	}
	tools, err := FindTools(ctx, opts.Out, opts.Err)
	if err != nil {
		return err
	}
	checks := selectChecks(Suite(on...), opts.Long)
	// Each check is one single-threaded verifier: run as many at once as
	// there are CPUs, but a check that may take more memory than the
	// default alone, after the others, and report them in that order.
	small, big := splitBig(checks)
	checks = append(small, big...)
	workers := runtime.NumCPU()
	start := time.Now()
	run := func(i int) (string, error) {
		c := checks[i]
		o := runCheck(ctx, tools, filepath.Join(opts.Dir, c.ModelFile()), c)
		if o.err == nil {
			return fmt.Sprintf("ok   %-28s %-8s %s\n", c.Name, outcome(o.r), stats(o.r, o.took)), nil
		}
		line := fmt.Sprintf("FAIL %-28s (%s) %v\n", c.Name, c.About, o.err)
		if o.kept != "" {
			line += fmt.Sprintf("     replay: cd %s && spin -t -p %s %s\n", o.kept, defineFlags(c), c.ModelFile())
		}
		return line, o.err
	}
	errs := inorder.Run(opts.Out, len(small), workers, run)
	errs = append(errs, inorder.Run(opts.Out, len(big), 1, func(i int) (string, error) { return run(len(small) + i) })...)
	var failed []string
	for i, err := range errs {
		if err != nil {
			failed = append(failed, checks[i].Name)
		}
	}
	alone := ""
	if len(big) > 0 {
		alone = fmt.Sprintf(" (%d of them alone, for their memory)", len(big))
	}
	fmt.Fprintf(opts.Out, "model: %d checks in %v, %d at a time%s\n", len(checks), time.Since(start).Round(time.Second), workers, alone)
	if len(failed) > 0 {
		return fmt.Errorf("model checks failed: %s", strings.Join(failed, " "))
	}
	return nil
}

// selectChecks returns the checks to run: all of them if long, else those
// not marked Long.
func selectChecks(all []Check, long bool) []Check {
	var run []Check
	for _, c := range all {
		if long || !c.Long {
			run = append(run, c)
		}
	}
	return run
}

// splitBig returns the checks with the default memory bound and those
// with a larger one, each in the order of checks.
func splitBig(checks []Check) (small, big []Check) {
	for _, c := range checks {
		if c.memLimitMB() > defaultMemLimitMB {
			big = append(big, c)
		} else {
			small = append(small, c)
		}
	}
	return small, big
}

// checkOutcome is what runCheck found: the verifier's result, how long the
// check took, whether its outcome is the expected one (err), and the
// directory kept for a replay of an unexpected error's trail.
type checkOutcome struct {
	r    Result
	took time.Duration
	err  error
	kept string
}

// runCheck runs one check in a directory of its own, and judges its result.
func runCheck(ctx context.Context, tools Tools, model string, c Check) checkOutcome {
	if err := ctx.Err(); err != nil {
		return checkOutcome{err: err}
	}
	dir, err := os.MkdirTemp("", "spinbit-model-")
	if err != nil {
		return checkOutcome{err: err}
	}
	r, took, err := tools.Run(ctx, dir, model, c)
	if err == nil {
		err = c.Judge(r)
	}
	// Keep the files of a run that found an unexpected error, for the
	// replay of its trail.
	o := checkOutcome{r: r, took: took, err: err}
	if err != nil && r.Errors > 0 {
		o.kept = dir
	} else {
		os.RemoveAll(dir)
	}
	return o
}

// outcome says in a word what a check found, given that it agrees with
// what the check expects.
func outcome(r Result) string {
	if r.Errors == 0 {
		return "holds"
	}
	return "rejected"
}

func stats(r Result, took time.Duration) string {
	s := fmt.Sprintf("%10d states  depth %7d  %6.1fs  %5.0f MB", r.States, r.Depth, took.Seconds(), r.MemoryMB)
	if r.Errors > 0 {
		s += "  " + shorten(r.Violation, 60)
	}
	return s
}

func defineFlags(c Check) string {
	var fl []string
	for _, d := range c.Defines {
		fl = append(fl, "-D"+d)
	}
	return strings.Join(fl, " ")
}

func baseNames(paths []string) []string {
	var names []string
	for _, p := range paths {
		names = append(names, filepath.Base(p))
	}
	return names
}

// shorten cuts s to n bytes, marking the cut.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
