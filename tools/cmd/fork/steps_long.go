package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"go-spinbit.dev/tools/internal/asmvet"
	"go-spinbit.dev/tools/internal/crossarch"
	"go-spinbit.dev/tools/internal/fork"
)

// longSteps are Go's own suites and the builds for every platform, each
// longer than the default run can afford: they run with -long.
var longSteps = []step{
	{name: "tools/go-test-full", shared: true, long: true, limit: 30 * time.Minute, run: toolsTestFull},
	{name: "runtime/test-full-spinbit", long: true, limit: 100 * time.Minute, run: goTest("spinbitmutex", "-timeout", "90m", "runtime")},
	{name: "runtime/test-full-nospinbit", long: true, limit: 100 * time.Minute, run: goTest("nospinbitmutex", "-timeout", "90m", "runtime")},
	{name: "std/test-short-spinbit", long: true, limit: 4 * time.Hour, run: goTest("spinbitmutex", "-short", "-timeout", "30m", "std")},
	{name: "std/test-short-nospinbit", long: true, limit: 4 * time.Hour, run: goTest("nospinbitmutex", "-short", "-timeout", "30m", "std")},
	{name: "build/other-os-std", long: true, limit: 90 * time.Minute, run: buildOtherOSes("std")},
	{name: "xchg8/vet-asm", long: true, appliesTo: seriesAddsXchg8, limit: 20 * time.Minute, run: vetXchg8},
	// The GOARCHes where the experiment is opt-in: std builds with it,
	// and the runtime mutex tests pass with it under qemu-user.
	{name: "spinbit/optin-arm", long: true, limit: 60 * time.Minute, run: optIn("arm")},
	{name: "spinbit/optin-riscv64", long: true, limit: 60 * time.Minute, run: optIn("riscv64")},
	{name: "spinbit/optin-loong64", long: true, limit: 60 * time.Minute, run: optIn("loong64")},
	{name: "spinbit/optin-mips64le", long: true, limit: 60 * time.Minute, run: optIn("mips64le")},
}

// toolsTestFull runs the tests of tools/ without -short: the default run's
// tools/go-test leaves out the end-to-end benchmark test, which bench/quick
// covers there.
func toolsTestFull(ctx context.Context, r fork.Repo) error {
	return toolsTestArgs(ctx, r)
}

// vetXchg8 runs go vet on internal/runtime/atomic for every GOARCH whose
// Xchg8 is in assembly, and shows for each that vet's asmdecl check looks
// at that assembly (asmvet.Vet).
func vetXchg8(ctx context.Context, r fork.Repo) error {
	g := asmvet.Go{Path: r.GoCommand(), Env: forkEnv(os.Environ())}
	found, err := asmvet.Find(ctx, g)
	if err != nil {
		return err
	}
	if len(found) == 0 {
		return fmt.Errorf("no GOARCH has %s in the assembly of %s: has it moved?", asmvet.Func, asmvet.Package)
	}
	var arches []string
	for _, a := range found {
		arches = append(arches, a.GOARCH)
	}
	fmt.Printf("%s in assembly for: %s\n", asmvet.Func, strings.Join(arches, " "))
	for _, a := range found {
		if err := asmvet.Vet(ctx, g, a, os.Stdout); err != nil {
			return err
		}
	}
	return nil
}

// optIn builds std for linux/goarch with the experiment on, then runs the
// runtime mutex tests with it under qemu-user, and checks that they ran
// with the experiment (the claim test skips without it).
func optIn(goarch string) func(context.Context, fork.Repo) error {
	return func(ctx context.Context, r fork.Repo) error {
		env := []string{"GOOS=linux", "GOARCH=" + goarch, "GOEXPERIMENT=spinbitmutex", "CGO_ENABLED=0"}
		fmt.Printf("go build std  %s\n", strings.Join(env, " "))
		if err := command(ctx, r.Root, env, r.GoCommand(), "build", "std"); err != nil {
			return err
		}
		var out bytes.Buffer
		err := crossarch.Run(ctx, crossarch.Options{
			Go:      r.GoCommand(),
			GOARCH:  goarch,
			Package: "runtime",
			Run:     "TestRuntimeMutexStressInProcess|TestRuntimeMutexHeir|TestRuntimeMutexKey",
			Env:     []string{"GOEXPERIMENT=spinbitmutex"},
			Stdout:  io.MultiWriter(os.Stdout, &out),
		})
		if reason, ok := crossarch.Skipped(err); ok {
			return skip("std builds; the tests could not run: %s", reason)
		}
		if err != nil {
			return err
		}
		if !strings.Contains(out.String(), "--- PASS: TestRuntimeMutexHeir") {
			return fmt.Errorf("TestRuntimeMutexHeir did not pass under qemu (was the experiment on?)")
		}
		return nil
	}
}
