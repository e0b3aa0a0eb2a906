package model

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Options say where the model and the Go code are and where reports go.
type Options struct {
	// Model is the path of model/spinbit.pml.
	Model string
	// GoFiles are the Go files whose statements the model quotes.
	GoFiles []string
	// Out receives one line per check; Err the progress of installs.
	Out, Err io.Writer
}

// DefaultOptions returns the options for the repository at root.
func DefaultOptions(root string) Options {
	rt := filepath.Join(root, "goroot", "src", "runtime")
	return Options{
		Model: filepath.Join(root, "model", "spinbit.pml"),
		GoFiles: []string{
			filepath.Join(rt, "lock_spinbit.go"),
			filepath.Join(rt, "lock_futexsema.go"),
		},
		Out: os.Stdout,
		Err: os.Stderr,
	}
}

// RunSuite checks that the model still quotes the Go code correctly, then
// runs every check of Suite and reports each. It returns an error naming
// the checks whose outcome differs from what they expect, and keeps the
// files of each such run for a replay.
func RunSuite(ctx context.Context, opts Options) error {
	if err := checkQuoteFiles(opts.Model, opts.GoFiles); err != nil {
		return err
	}
	fmt.Fprintf(opts.Out, "model: the model's quotes of %s match the Go code\n", strings.Join(baseNames(opts.GoFiles), ", "))
	tools, err := FindTools(ctx, opts.Out, opts.Err)
	if err != nil {
		return err
	}
	var failed []string
	start := time.Now()
	for _, c := range Suite() {
		if err := ctx.Err(); err != nil {
			return err
		}
		dir, err := os.MkdirTemp("", "spinbit-model-")
		if err != nil {
			return err
		}
		r, took, err := tools.Run(ctx, dir, opts.Model, c)
		if err == nil {
			err = c.Judge(r)
		}
		// Keep the files of a run that found an unexpected error, for
		// the replay of its trail.
		kept := ""
		if err != nil && r.Errors > 0 {
			kept = dir
		} else {
			os.RemoveAll(dir)
		}
		switch {
		case err != nil:
			failed = append(failed, c.Name)
			fmt.Fprintf(opts.Out, "FAIL %-28s (%s) %v\n", c.Name, c.About, err)
			if kept != "" {
				fmt.Fprintf(opts.Out, "     replay: cd %s && spin -t -p %s %s\n", kept, defineFlags(c), filepath.Base(opts.Model))
			}
		default:
			fmt.Fprintf(opts.Out, "ok   %-28s %-8s %s\n", c.Name, outcome(r), stats(r, took))
		}
	}
	fmt.Fprintf(opts.Out, "model: %d checks in %v\n", len(Suite()), time.Since(start).Round(time.Second))
	if len(failed) > 0 {
		return fmt.Errorf("model checks failed: %s", strings.Join(failed, " "))
	}
	return nil
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
