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

// benchSteps check ./bench.bash: the helpers of the bench/ module, and,
// with -long (it takes minutes from cold), a quick run with every
// toolchain and workload followed by its completeness check. Nothing here
// looks at how fast anything was.
var benchSteps = []step{
	{name: "bench/helpers", run: benchHelpers},
	{name: "bench/quick", long: true, run: benchQuick},
	{name: "bench/instructions", slow: true, run: benchInstructions},
	{name: "bench/published-pool-current", shared: true, run: publishedPoolCurrent},
}

// publishedPoolCurrent says, for each base with patches/, whether the
// published pool that stands for it measured the mutex its patches hold
// now (bench.PoolCurrency), with a WARNING line naming the pool, the base
// and how to refresh it when not. It reports and passes whatever the
// answer, like toolchain/newer-point-release: an old pool is news for
// whoever publishes results, not a broken tree.
func publishedPoolCurrent(ctx context.Context, r fork.Repo) error {
	bases, err := fork.Bases(r.Root, nil)
	if err != nil {
		return err
	}
	for _, line := range poolCurrencyLines(r.Root, bases) {
		fmt.Println(line)
	}
	return nil
}

// poolCurrencyLines is publishedPoolCurrent's report: a line per base.
func poolCurrencyLines(root string, bases []string) []string {
	var lines []string
	for _, b := range bases {
		line, _, err := bench.PoolCurrency(root, b)
		if err != nil {
			line = fmt.Sprintf("WARNING: cannot tell whether base %s's published pool is current: %v", b, err)
		}
		lines = append(lines, line)
	}
	return lines
}

// benchHelpers runs the tests of bench/'s shared helpers (rusage metering,
// latency histograms, the runtime's pause histogram, work splitting) with
// the fork.
func benchHelpers(ctx context.Context, r fork.Repo) error {
	return command(ctx, filepath.Join(r.Root, "bench"), nil, r.GoCommand(), "test", "-count=1", ".")
}

// benchQuick runs ./bench.bash -quick -check.
func benchQuick(ctx context.Context, r fork.Repo) error {
	return runBenchInTemp(ctx, r, "quick", []string{"-quick", "-check"}, nil)
}

// benchInstructions runs ./bench.bash -instructions on one short workload
// with go1.23.12 and the fork on the base, installing valgrind if it is missing, and
// checks that the table names both. It looks at no count's value.
func benchInstructions(ctx context.Context, r fork.Repo) error {
	if _, err := apt.Machine.Find(ctx, os.Stdout, os.Stderr, apt.Need{Program: "valgrind", Package: "valgrind"}); err != nil {
		return err
	}
	args := []string{"-instructions", "-bench", "BenchmarkMutexParked$", "-toolchains", "upstream,spinbit", "-benchtime", "500x"}
	return runBenchInTemp(ctx, r, "instructions", args, func(out string) error {
		table, err := os.ReadFile(filepath.Join(out, "instructions.txt"))
		if err != nil {
			return err
		}
		for _, want := range []string{"upstream", "spinbit", "MutexParked"} {
			if !strings.Contains(string(table), want) {
				return fmt.Errorf("instructions.txt names no %s:\n%s", want, table)
			}
		}
		return nil
	})
}

// runBenchInTemp runs ./bench.bash with args into a new temporary folder,
// then check (if not nil) on the run's output folder. It removes the
// folder when both pass and keeps it for inspection, saying where, when
// not.
func runBenchInTemp(ctx context.Context, r fork.Repo, name string, args []string, check func(out string) error) error {
	dir, err := os.MkdirTemp("", "spinbit-bench-"+name+"-")
	if err != nil {
		return err
	}
	out := filepath.Join(dir, "results")
	o, err := bench.ParseFlags(append(args, "-root", r.Root, "-base", r.Base, "-out", out), os.Stderr)
	if err != nil {
		return err
	}
	err = bench.Run(ctx, o, os.Stdout)
	if err == nil && check != nil {
		err = check(out)
	}
	if err != nil {
		return fmt.Errorf("%v\n(the run's output is kept in %s)", err, out)
	}
	return os.RemoveAll(dir)
}
