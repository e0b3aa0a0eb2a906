// Command bench compares the Go toolchains of the go-spinbit project on
// the lock-bound benchmarks in bench/. Run it through ./bench.bash at the
// repository root; -help lists the flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"

	"go-spinbit.dev/tools/internal/bench"
	"go-spinbit.dev/tools/internal/fork"
)

func main() {
	opts, err := bench.ParseFlags(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		os.Exit(2)
	}
	opts.MakeFork = makeFork
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := bench.Run(ctx, opts, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		os.Exit(1)
	}
}

// makeFork builds the fork on base, as ./make.bash -base does, if
// goroot/<base>/bin/go is missing, and builds it again if it was built
// from another commit of a tree that holds no uncommitted change (a run
// of it could not be kept). A tree with changes is used as it is, built
// or not: it may hold work in progress that ./make.bash would refuse to
// build over, and the run says it cannot be published.
func makeFork(ctx context.Context, root, base string) error {
	r := fork.Repo{Root: root, Base: base}
	logf := func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "fork: "+format+"\n", args...)
	}
	if _, err := os.Stat(r.GoCommand()); err == nil {
		stale, err := r.StaleBuild()
		if err != nil || !stale {
			return err
		}
		fmt.Fprintf(os.Stderr, "bench: goroot/%s/bin/go was built from another commit of its tree: building it again first, as ./make.bash -base %s does\n", base, base)
		return r.Build(ctx, false, logf)
	}
	fmt.Fprintf(os.Stderr, "bench: goroot/%s/bin/go is missing: building the fork first, as ./make.bash -base %s does\n", base, base)
	return r.Make(ctx, false, logf)
}
