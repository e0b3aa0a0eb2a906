package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"go-spinbit.dev/tools/internal/apt"
	contendedprog "go-spinbit.dev/tools/internal/contended"
	"go-spinbit.dev/tools/internal/fork"
	"go-spinbit.dev/tools/internal/torture"
	"go-spinbit.dev/tools/internal/wine"
)

// wineSteps run the base's runtime for windows/amd64 under Wine
// (tools/internal/wine): a contended program that must finish, with the
// same built with GOEXPERIMENT=nospinbitmutex as a control, and the
// runtime's mutex tests that a test binary can run there; then the
// contended program on a runtime broken by wineTwoWakeups, which must
// hang or stall. About three and a half minutes per base from cold on 2
// cores; a runtime that loses a wakeup hangs and fails at the runs'
// limits, in about five more.
var wineSteps = []step{
	{name: wineStep, slow: true, run: windowsWine},
}

const wineStep = "windows/wine"

// wineTwoWakeups is a protocol that needs an M's semaphore to keep two
// wakeups: a wake sends its M two, and the woken M sleeps twice. Where
// the semaphore counts (Linux's futex one) it runs; on Windows,
// whose auto-reset event keeps one, a second wakeup sent before the first
// sleep is lost, the M sleeps for ever, and the runtime hangs. The mutex
// never sends two, so it needs no more than Windows gives.
var wineTwoWakeups = torture.Break{
	Name: "two-wakeups",
	What: "a wake sends its M two wakeups, and the woken M sleeps twice",
	Edits: []torture.Edit{
		{Old: "\t\t\t\tsemawakeup(wakem)\n", New: "\t\t\t\tsemawakeup(wakem)\n\t\t\t\tsemawakeup(wakem)\n"},
		{Old: "\t\t\tsemasleep(-1)\n", New: "\t\t\tsemasleep(-1)\n\t\t\tsemasleep(-1)\n"},
	},
}

func windowsWine(ctx context.Context, r fork.Repo) error {
	err := wine.Check(ctx, wine.Options{Name: wineStep, Go: r.GoCommand(), Control: true, Host: apt.Machine})
	var s *wine.SkippedError
	if errors.As(err, &s) {
		return skip("%s", s.Reason)
	}
	if err != nil {
		return err
	}
	// A check that cannot fail proves nothing: the same run of a runtime
	// that needs two wakeups kept must hang.
	dir, err := os.MkdirTemp("", "wine-break")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	overlay, err := writeBreakOverlay(r, dir, wineTwoWakeups)
	if err != nil {
		return err
	}
	fmt.Printf("wine: break %s: %s: the contended program must hang, or its watchdog fire\n", wineTwoWakeups.Name, wineTwoWakeups.What)
	var out bytes.Buffer
	err = wine.Check(ctx, wine.Options{Name: wineStep + " with break " + wineTwoWakeups.Name, Go: r.GoCommand(),
		ContendedOnly: true, BuildFlags: []string{"-overlay=" + overlay}, Host: apt.Machine,
		Stdout: io.MultiWriter(os.Stdout, &out)})
	switch {
	case err == nil:
		return fmt.Errorf("with break %s (%s) the contended program still finished under Wine: this step would not see a runtime that needs two wakeups kept", wineTwoWakeups.Name, wineTwoWakeups.What)
	case !wine.Hung(err) && !contendedprog.Stalled(out.String()):
		return fmt.Errorf("with break %s the contended program failed, but neither hung nor stalled: %v", wineTwoWakeups.Name, err)
	}
	fmt.Printf("wine: break %s: caught: %v\n", wineTwoWakeups.Name, err)
	return nil
}
