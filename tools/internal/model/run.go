package model

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
	"time"

	"go-spinbit.dev/tools/internal/apt"
	"go-spinbit.dev/tools/internal/tail"
)

// SkippedError reports that the checks could not run on this machine, and
// why. It is never returned for checks that ran, whatever their outcome.
type SkippedError struct{ Reason string }

func (e *SkippedError) Error() string { return "model checks not run: " + e.Reason }

// Skipped reports whether err says the checks were not run, and if so why.
func Skipped(err error) (reason string, ok bool) {
	var s *SkippedError
	if errors.As(err, &s) {
		return s.Reason, true
	}
	return "", false
}

// Tools are the programs a check needs: spin, a C compiler for the
// verifier it generates, and nice, to run the verifier at a low priority
// on a shared machine ("" to run it as it is).
type Tools struct {
	Spin, CC, Nice string
}

// needs are the programs the checks cannot do without, and their packages.
var needs = []apt.Need{
	{Program: "spin", Package: "spin"},
	{Program: "cc", Package: "gcc"},
}

// FindTools returns the programs the checks need, installing the Debian
// packages of the missing ones first when it can. It returns a
// *SkippedError if one stays missing.
func FindTools(ctx context.Context, stdout, stderr io.Writer) (Tools, error) {
	return findTools(ctx, apt.Machine, stdout, stderr)
}

func findTools(ctx context.Context, h apt.Host, stdout, stderr io.Writer) (Tools, error) {
	paths, err := h.Find(ctx, stdout, stderr, needs...)
	var missing *apt.MissingError
	if errors.As(err, &missing) {
		return Tools{}, &SkippedError{missing.Reason}
	}
	if err != nil {
		return Tools{}, err
	}
	t := Tools{Spin: paths[0], CC: paths[1]}
	t.Nice, _ = h.LookPath("nice") // optional
	return t, nil
}

// defaultMemLimitMB bounds the memory of one pan run (its -DMEMLIM) unless
// the check sets its own (Check.MemLimitMB): the checks of the default
// run need at most about half a gigabyte, and the machine is shared.
const defaultMemLimitMB = 3072

// memLimitMB returns the bound of c's pan run.
func (c Check) memLimitMB() int {
	if c.MemLimitMB > 0 {
		return c.MemLimitMB
	}
	return defaultMemLimitMB
}

// Run runs c on the model file model in dir, an empty directory for the
// files spin and pan write (pan.c, pan, and a trail on an error), and
// returns what pan reported and the time the whole run took, generation
// and compilation included.
func (t Tools) Run(ctx context.Context, dir, model string, c Check) (Result, time.Duration, error) {
	start := time.Now()
	src, err := os.ReadFile(model)
	if err != nil {
		return Result{}, 0, err
	}
	if err := c.checkDefines(string(src)); err != nil {
		return Result{}, 0, err
	}
	// spin names the trail after the model and looks for it beside it.
	if err := os.WriteFile(filepath.Join(dir, filepath.Base(model)), src, 0o644); err != nil {
		return Result{}, 0, err
	}
	if _, err := t.run(ctx, dir, t.Spin, c.spinArgs(filepath.Base(model))...); err != nil {
		return Result{}, 0, fmt.Errorf("%s: generating the verifier: %v", c.Name, err)
	}
	if _, err := t.run(ctx, dir, t.CC, c.ccArgs()...); err != nil {
		return Result{}, 0, fmt.Errorf("%s: compiling the verifier: %v", c.Name, err)
	}
	argv := append([]string{filepath.Join(dir, "pan")}, c.panArgs()...)
	if t.Nice != "" {
		argv = append([]string{t.Nice, "-n", "10"}, argv...)
	}
	out, err := t.run(ctx, dir, argv[0], argv[1:]...)
	if err != nil {
		return Result{}, 0, fmt.Errorf("%s: running the verifier: %v", c.Name, err)
	}
	r, err := Parse(out)
	if err != nil {
		return r, 0, fmt.Errorf("%s: %v", c.Name, err)
	}
	return r, time.Since(start), nil
}

func (c Check) spinArgs(model string) []string {
	var args []string
	for _, d := range c.Defines {
		args = append(args, "-D"+d)
	}
	return append(args, "-a", model)
}

func (c Check) ccArgs() []string {
	// Errors stop pan early, so a check that expects one gains nothing
	// from an optimized verifier and saves the compiler's time.
	opt := "-O1"
	if c.Want != "" {
		opt = "-O0"
	}
	args := []string{opt, "-w", "-DCOLLAPSE", fmt.Sprintf("-DMEMLIM=%d", c.memLimitMB())}
	if c.Mode == Safety {
		args = append(args, "-DSAFETY", "-DNOCLAIM")
	} else {
		// Weak fairness needs room for every process: the Ms, monitor,
		// final, init and the claim.
		args = append(args, "-DNFAIR=3")
	}
	return append(args, "-o", "pan", "pan.c")
}

func (c Check) panArgs() []string {
	args := []string{fmt.Sprintf("-m%d", c.Depth)}
	if c.Mode == Liveness {
		args = append(args, "-a", "-f", "-N", c.Claim)
	}
	return args
}

// run runs name with args in dir and returns its output, both streams.
func (t Tools) run(ctx context.Context, dir, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, tail.Lines(out.String(), 20))
	}
	return out.String(), nil
}
