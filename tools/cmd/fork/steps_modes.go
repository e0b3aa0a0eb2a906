package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"go-spinbit.dev/tools/internal/fork"
	"go-spinbit.dev/tools/internal/modes"
	"go-spinbit.dev/tools/internal/toolchain"
)

// modeSteps run a small contended program (tools/internal/modes) in the
// runtime modes Go documents, experiment on and off, one step per way of
// building it: each of its runs is a sub-check with its own PASS, FAIL or
// SKIP line. A run that fails with the fork is run with the base's
// upstream release too; if it fails there as well, it is a SKIP naming
// upstream's failure. A mode whose GODEBUG setting the base's runtime
// does not know is left out, saying so. The sanitizers' modes other
// than race (asan, msan) are -long: the default run of every base must
// stay within its time budget.
var modeSteps = []step{
	{name: "modes/program", limit: 20 * time.Minute, run: runModes("program", nil)},
	{name: "modes/cgo", limit: 10 * time.Minute, run: runModes("cgo", nil)},
	{name: "modes/c-archive", limit: 10 * time.Minute, run: runModes("c-archive", nil)},
	{name: "modes/c-shared", limit: 10 * time.Minute, run: runModes("c-shared", nil)},
	{name: "modes/race", slow: true, limit: 10 * time.Minute, run: runModes("race", nil)},
	{name: "modes/asan", long: true, limit: 10 * time.Minute, run: runModes("asan", nil)},
	// Installing clang takes a few minutes the first time.
	{name: "modes/msan", long: true, limit: 20 * time.Minute, run: runModes("msan", modes.NeedMSan)},
}

// modeExperiments are the settings of the experiment each mode runs with.
var modeExperiments = []string{"spinbitmutex", "nospinbitmutex"}

// runModes runs the modes of the named build with the fork, after need
// (if set) has made sure the machine can build it.
func runModes(build string, need func(ctx context.Context, stdout, stderr io.Writer) error) func(context.Context, fork.Repo) error {
	return func(ctx context.Context, r fork.Repo) error {
		b, ok := modes.Builds[build]
		if !ok {
			return fmt.Errorf("no build %q in modes.Builds", build)
		}
		b, dropped, err := modes.ForTree(b, r.Goroot())
		if err != nil {
			return err
		}
		for _, m := range dropped {
			fmt.Printf("    left out: %s %s (the runtime of %s does not know its GODEBUG setting)\n", b.Name, m, r.Base)
		}
		var tcs []modes.Toolchain
		for _, exp := range modeExperiments {
			tcs = append(tcs, modes.Toolchain{Name: exp, Go: r.GoCommand(), Env: append(forkEnv(os.Environ()), "GOEXPERIMENT="+exp)})
		}
		res, err := modes.Run(ctx, modes.Options{
			Build:      b,
			Toolchains: tcs,
			Upstream:   upstreamToolchain(r),
			Prepare: func(ctx context.Context) error {
				if err := modes.NeedCC(ctx, b, os.Stdout, os.Stderr); err != nil {
					return err
				}
				if need != nil {
					return need(ctx, os.Stdout, os.Stderr)
				}
				return nil
			},
		})
		if err != nil {
			return err
		}
		return modesOutcome(res)
	}
}

// upstreamToolchain returns the base release's go command, downloaded
// through the module proxy the way the go command gets toolchains.
func upstreamToolchain(r fork.Repo) func(context.Context) (modes.Toolchain, error) {
	return func(ctx context.Context) (modes.Toolchain, error) {
		u, err := r.ReadUpstream()
		if err != nil {
			return modes.Toolchain{}, err
		}
		root, err := toolchain.GOROOT(ctx, u.Version)
		if err != nil {
			return modes.Toolchain{}, err
		}
		return modes.Toolchain{Name: u.Version, Go: toolchain.Bin(root), Env: forkEnv(os.Environ())}, nil
	}
}

// modesOutcome is the step's result: a failure if any run failed, a skip
// if every run was skipped, and otherwise a pass (skipped runs are listed
// in the output).
func modesOutcome(res []modes.Result) error {
	var failed, skipped []string
	var why string
	for _, r := range res {
		name := r.Mode + " (" + r.Toolchain + ")"
		switch r.Status {
		case modes.Fail:
			failed = append(failed, name)
		case modes.Skip:
			skipped = append(skipped, name)
			why = r.Why
		}
	}
	switch {
	case len(res) == 0:
		return fmt.Errorf("no mode ran")
	case len(failed) > 0:
		return fmt.Errorf("%d of %d runs failed: %s", len(failed), len(res), strings.Join(failed, ", "))
	case len(skipped) == len(res):
		return skip("%s", why)
	}
	fmt.Printf("%d runs passed, %d skipped\n", len(res)-len(skipped), len(skipped))
	return nil
}
