package main

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go-spinbit.dev/tools/internal/fork"
)

// testSteps are steps that only the tests run: runIsolated starts this
// test binary as "step -result FILE NAME", which TestMain hands to
// runOneStep as the fork command's main does.
var testSteps = []step{
	{name: "test/hang", shared: true, run: func(ctx context.Context, r fork.Repo) error {
		time.Sleep(10 * time.Minute)
		return nil
	}},
	// test/hang-in-temp leaves a temporary folder with a read-only
	// folder in it, as a module cache has, and hangs.
	{name: "test/hang-in-temp", shared: true, run: func(ctx context.Context, r fork.Repo) error {
		dir, err := os.MkdirTemp("", "hang-")
		if err != nil {
			return err
		}
		ro := filepath.Join(dir, "read-only")
		if err := os.Mkdir(ro, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(ro, "file"), nil, 0o444); err != nil {
			return err
		}
		if err := os.Chmod(ro, 0o555); err != nil {
			return err
		}
		time.Sleep(10 * time.Minute)
		return nil
	}},
	{name: "test/skip", shared: true, run: func(ctx context.Context, r fork.Repo) error { return skip("nothing to do here") }},
}

func TestMain(m *testing.M) {
	steps = append(steps, testSteps...)
	if len(os.Args) > 1 && os.Args[1] == "step" {
		fs := flag.NewFlagSet("step", flag.ExitOnError)
		result := fs.String("result", "", "")
		base := fs.String("base", "", "")
		fs.Parse(os.Args[2:])
		os.Exit(runOneStep(context.Background(), fork.Repo{Base: *base}, fs.Arg(0), *result))
	}
	os.Exit(m.Run())
}

// runCaptured runs j as runIsolated does, and returns what the step
// printed, which goes straight to our output and is caught here in a
// file, and runIsolated's error.
func runCaptured(t *testing.T, j job) ([]byte, error) {
	t.Helper()
	log, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = log, log
	err = runIsolated(context.Background(), j)
	os.Stdout, os.Stderr = stdout, stderr
	out, _ := os.ReadFile(log.Name())
	return out, err
}

// A step that hangs is stopped at its limit: it gets SIGQUIT, prints its
// goroutines, and the failure names the step and the limit.
func TestStepTimeoutNamed(t *testing.T) {
	start := time.Now()
	out, err := runCaptured(t, job{step: step{name: "test/hang", shared: true, limit: time.Second}})
	if err == nil {
		t.Fatal("the hung step passed")
	}
	if want := "step test/hang timed out after 1s"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not say %q", err, want)
	}
	if d := time.Since(start); d > time.Minute {
		t.Errorf("stopping the step took %v", d)
	}
	if !strings.Contains(string(out), "SIGQUIT") || !strings.Contains(string(out), "goroutine ") {
		t.Errorf("the step printed no goroutines on SIGQUIT; its output:\n%s", out)
	}
}

// A step stopped at its limit runs none of its clean-ups; the temporary
// folders it made go all the same.
func TestStepTimeoutLeavesNoTemp(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	out, err := runCaptured(t, job{step: step{name: "test/hang-in-temp", shared: true, limit: 2 * time.Second}})
	if err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("err = %v, want the step timed out", err)
	}
	left, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range left {
		names = append(names, e.Name())
	}
	if len(names) > 0 {
		t.Errorf("the timed-out step left %v in TMPDIR; its output:\n%s", names, out)
	}
}

func TestStepSkipReason(t *testing.T) {
	err := runIsolated(context.Background(), job{step: step{name: "test/skip", shared: true, limit: time.Minute}})
	var sk errSkip
	if !errors.As(err, &sk) || sk.why != "nothing to do here" {
		t.Errorf("err = %v, want the skip with its reason", err)
	}
}
