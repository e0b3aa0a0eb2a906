package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"go-spinbit.dev/tools/internal/apt"
	"go-spinbit.dev/tools/internal/bench"
	"go-spinbit.dev/tools/internal/fork"
)

// bundleSteps check ./bench.bash -bundle and -report the way a user of
// another machine goes through them: build the archive, check and unpack
// it, run its run.sh, report the run folder. Nothing here looks at how
// fast anything was. They are -long, as is bench/quick, which builds and
// runs the benchmarks with every toolchain on this machine.
var bundleSteps = []step{
	{name: "bench/bundle-amd64", long: true, limit: 15 * time.Minute, run: bundleNative},
	{name: "bench/bundle-arm64-qemu", long: true, limit: 30 * time.Minute, run: bundleARM64},
}

// bundleNative runs the amd64 bundle here, every benchmark and toolchain
// at GOMAXPROCS 1 and 2 with a short benchtime, and reports it.
func bundleNative(ctx context.Context, r fork.Repo) error {
	return bundleEndToEnd(ctx, r, "amd64", "", "-cpu", "1,2", "-count", "1", "-benchtime", "10ms")
}

// bundleARM64 runs one benchmark of each suite of the arm64 bundle under
// qemu-aarch64.
func bundleARM64(ctx context.Context, r fork.Repo) error {
	qemu, err := findQemuARM64(ctx)
	if err != nil {
		return err
	}
	return bundleEndToEnd(ctx, r, "arm64", qemu, "-bench", "^Benchmark(ChanContended|RuntimeMutexContended)$", "-cpu", "1,2", "-count", "1", "-benchtime", "100x")
}

// bundleEndToEnd builds the bundle of goarch, checks the archive against
// its .sha256 file, unpacks it, runs its run.sh with args (through
// emulator unless it is ""), reports the run folder and checks the report.
func bundleEndToEnd(ctx context.Context, r fork.Repo, goarch, emulator string, args ...string) error {
	dir, err := os.MkdirTemp("", "spinbit-bundle-"+goarch+"-")
	if err != nil {
		return err
	}
	out := filepath.Join(dir, "bundles")
	if err := bench.BuildBundles(ctx, r.Root, r.Base, out, []string{goarch}, os.Stdout); err != nil {
		return err
	}
	name := "spinbit-bench-" + goarch
	if err := command(ctx, out, nil, "sha256sum", "-c", name+".tar.gz.sha256"); err != nil {
		return err
	}
	if err := command(ctx, dir, nil, "tar", "-xzf", filepath.Join(out, name+".tar.gz")); err != nil {
		return err
	}
	run := filepath.Join(dir, "run")
	var env []string
	if emulator != "" {
		env = append(env, "SPINBIT_BENCH_EMULATOR="+emulator)
	}
	start := time.Now()
	err = command(ctx, dir, env, "sh", append([]string{filepath.Join(dir, name, "run.sh"), "-out", run, "-name", "test-" + goarch}, args...)...)
	fmt.Printf("run.sh took %v\n", time.Since(start).Round(time.Second))
	if err == nil {
		err = bench.ReportRun(ctx, r.Root, run, os.Stdout)
	}
	if err == nil {
		err = bench.CheckRunReport(run)
	}
	if err != nil {
		return fmt.Errorf("%v\n(the bundle and the run folder are kept in %s)", err, dir)
	}
	fmt.Printf("%s: run.sh ran, and -report wrote every table and plot\n", name)
	return os.RemoveAll(dir)
}

// findQemuARM64 returns the path of qemu-aarch64-static, installing
// qemu-user-static if it is missing; it skips the step if it cannot.
func findQemuARM64(ctx context.Context) (string, error) {
	paths, err := apt.Machine.Find(ctx, os.Stdout, os.Stderr, apt.Need{Program: "qemu-aarch64-static", Package: "qemu-user-static"})
	var missing *apt.MissingError
	if errors.As(err, &missing) {
		return "", skip("%s", missing.Reason)
	} else if err != nil {
		return "", err
	}
	return paths[0], nil
}
