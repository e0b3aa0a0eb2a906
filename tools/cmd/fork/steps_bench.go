package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"go-spinbit.dev/tools/internal/bench"
	"go-spinbit.dev/tools/internal/fork"
)

// benchSteps check ./bench.bash: the helpers of the bench/ module, and a
// quick run with every toolchain and workload followed by its completeness
// check. Nothing here looks at how fast anything was.
var benchSteps = []step{
	{name: "bench/helpers", run: benchHelpers},
	{name: "bench/quick", slow: true, run: benchQuick},
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
