package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go-spinbit.dev/tools/internal/apt"
	"go-spinbit.dev/tools/internal/bench"
	"go-spinbit.dev/tools/internal/fork"
)

// benchSteps check ./bench.bash: the helpers of the bench/ module, and a
// quick run with every toolchain and workload followed by its completeness
// check. Nothing here looks at how fast anything was.
var benchSteps = []step{
	{name: "bench/helpers", run: benchHelpers},
	{name: "bench/quick", slow: true, run: benchQuick},
	{name: "bench/instructions", slow: true, run: benchInstructions},
}

// benchHelpers runs the tests of bench/'s shared helpers (rusage metering,
// latency histogram, work splitting) with the fork.
func benchHelpers(ctx context.Context, r fork.Repo) error {
	return command(ctx, filepath.Join(r.Root, "bench"), nil, r.GoCommand(), "test", "-count=1", ".")
}

// benchQuick runs ./bench.bash -quick -check into a temporary folder, which
// it removes when the check passes and keeps for inspection when not.
func benchQuick(ctx context.Context, r fork.Repo) error {
	dir, err := os.MkdirTemp("", "spinbit-bench-quick-")
	if err != nil {
		return err
	}
	out := filepath.Join(dir, "results")
	o, err := bench.ParseFlags([]string{"-quick", "-check", "-root", r.Root, "-out", out}, os.Stderr)
	if err != nil {
		return err
	}
	if err := bench.Run(ctx, o, os.Stdout); err != nil {
		return fmt.Errorf("%v\n(the run's output is kept in %s)", err, out)
	}
	return os.RemoveAll(dir)
}

// benchInstructions runs ./bench.bash -instructions on one short workload
// with go1.23.12 and the fork, installing valgrind if it is missing, and
// checks that the table names both. It looks at no count's value.
func benchInstructions(ctx context.Context, r fork.Repo) error {
	if _, err := apt.Machine.Find(ctx, os.Stdout, os.Stderr, apt.Need{Program: "valgrind", Package: "valgrind"}); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "spinbit-bench-instructions-")
	if err != nil {
		return err
	}
	out := filepath.Join(dir, "results")
	o, err := bench.ParseFlags([]string{"-instructions", "-bench", "BenchmarkMutexParked$", "-toolchains", "upstream,spinbit",
		"-benchtime", "500x", "-root", r.Root, "-out", out}, os.Stderr)
	if err != nil {
		return err
	}
	if err := bench.Run(ctx, o, os.Stdout); err != nil {
		return fmt.Errorf("%v\n(the run's output is kept in %s)", err, out)
	}
	table, err := os.ReadFile(filepath.Join(out, "instructions.txt"))
	if err != nil {
		return err
	}
	for _, want := range []string{"upstream", "spinbit", "MutexParked"} {
		if !strings.Contains(string(table), want) {
			return fmt.Errorf("instructions.txt names no %s:\n%s\n(the run's output is kept in %s)", want, table, out)
		}
	}
	return os.RemoveAll(dir)
}
