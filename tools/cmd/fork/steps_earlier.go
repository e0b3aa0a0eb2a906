package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"go-spinbit.dev/tools/internal/earlier"
	"go-spinbit.dev/tools/internal/fork"
	"go-spinbit.dev/tools/internal/torture"
)

// earlierSteps run today's tests against an earlier design of the mutex,
// which they must catch.
var earlierSteps = []step{
	{name: "runtime/claim-catches-per-m-count", slow: true, appliesTo: perMCountSeriesOf, run: claimCatchesPerMCount},
	{name: "runtime/claim-catches-out-of-order", slow: true, run: claimCatchesOutOfOrder},
}

// perMCountSeriesOf reports whether the per-M count design was written on
// the base: whether the repository's commit earlier.PerMCount holds a
// series of it. The design was never ported to a later base, so the step
// cannot apply to one. A clone without that commit cannot tell, and lists
// the step for every base; it then skips, saying why.
func perMCountSeriesOf(r fork.Repo) (bool, error) {
	_, err := r.SeriesAt(earlier.PerMCount)
	switch {
	case err == nil || errors.Is(err, fork.ErrNoCommit):
		return true, nil
	case errors.Is(err, fork.ErrOtherBase):
		return false, nil
	}
	return false, err
}

// claimRuns is how many times claimCatchesPerMCount runs the test. One
// bypass among them is enough: in every run so far on that design the
// victim was overtaken, but whether the first M into the mutex is the
// victim is up to the OS's scheduling there, and a check must not fail by
// luck.
const claimRuns = 3

var (
	// claimBypass is TestRuntimeMutexClaim's report of an M that entered
	// the mutex before the victim.
	claimBypass = regexp.MustCompile(`M \d+ took the mutex before the victim[^\n]*`)
	// claimNone is its report that the key word showed no claim, which
	// every run on that design makes: the proof that the build is of it.
	claimNone = regexp.MustCompile(`the key word showed no claim`)
	// claimSummary is its log line of the victim's wait.
	claimSummary = regexp.MustCompile(`the victim waited [^\n]*`)
)

// claimCatchesPerMCount builds the runtime of patches/ at
// earlier.PerMCount, the per-M count of unlocks, which does not bound a
// wait when an M's unlocks alternate between two mutexes, with today's lock_bound_test.go (and
// earlier.PerMCountShim), and runs TestRuntimeMutexClaim on it claimRuns
// times. Every run must report that no claim showed, which that design
// never makes and today's always does (so the overlay took effect), and at
// least one must fail for the bypass itself: an M of the alternation
// entering the mutex before the victim, which had waited past its patience.
// The step is skipped in a clone without that commit.
func claimCatchesPerMCount(ctx context.Context, r fork.Repo) error {
	s, err := r.SeriesAt(earlier.PerMCount)
	if errors.Is(err, fork.ErrNoCommit) {
		return skip("%v", err)
	}
	if err != nil {
		return err
	}
	dir, wt, remove, err := seriesWorktree(ctx, r, "permcount", s)
	if applyErr := (*fork.ApplyError)(nil); errors.As(err, &applyErr) {
		return fmt.Errorf("the patches of %.12s, the per-M count design, do not apply to base %s, the release they were written for: %w", earlier.PerMCount, r.Base, err)
	}
	if err != nil {
		return err
	}
	defer remove()

	// The overlay covers the files of src/runtime itself; everything else
	// the two series build must be the same, but for src/runtime/testdata,
	// the programs other tests build, which TestRuntimeMutexClaim does not.
	// The worktree shares the tree's objects, so it can compare its HEAD
	// with the tree's.
	head, err := output(ctx, r.Goroot(), nil, "git", "rev-parse", "HEAD")
	if err != nil {
		return err
	}
	changed, err := output(ctx, wt, nil, "git", "diff", "--name-only", "HEAD", strings.TrimSpace(head), "--")
	if err != nil {
		return err
	}
	// The go command's own settings and messages do not change what it
	// builds: go.env's GOTOOLCHAIN (this step's go runs with
	// GOTOOLCHAIN=local either way), and the error for a go line that is
	// too new.
	changedFiles := slices.DeleteFunc(strings.Fields(changed), func(p string) bool {
		return p == "go.env" || p == "src/cmd/go/internal/gover/toolchain.go"
	})
	if outside := earlier.OutsideDir(changedFiles, "src/runtime", []string{"testdata"}); len(outside) > 0 {
		return fmt.Errorf("goroot/%s and the patches of %.12s differ outside the files of src/runtime, which the overlay does not cover: %s", r.Base, earlier.PerMCount, strings.Join(outside, ", "))
	}

	runtimeDir := filepath.Join(r.Goroot(), "src", "runtime")
	replace, err := earlier.Overlay(runtimeDir, filepath.Join(wt, "src", "runtime"), []string{"lock_bound_test.go"})
	if err != nil {
		return err
	}
	shim := filepath.Join(dir, earlier.PerMCountShimFile)
	if err := os.WriteFile(shim, []byte(earlier.PerMCountShim), 0o644); err != nil {
		return err
	}
	replace[filepath.Join(runtimeDir, earlier.PerMCountShimFile)] = shim
	overlay := filepath.Join(dir, "overlay.json")
	if err := writeOverlay(overlay, replace); err != nil {
		return err
	}
	fmt.Printf("the runtime of %.12s (%d patches) over goroot/%s: %d files of src/runtime replaced, added or removed\n", earlier.PerMCount, len(s), r.Base, len(replace))

	// vet is off: it reads the files on disk, not the overlay.
	bin := filepath.Join(dir, "runtime.test")
	if out, err := captureCommand(ctx, r.Root, tortureEnv, r.GoCommand(), "test", "-c", "-vet=off", "-overlay", overlay, "-o", bin, "runtime"); err != nil {
		return fmt.Errorf("building the runtime's tests on %.12s: %v\n%s", earlier.PerMCount, err, out)
	}
	bypassed := 0
	for i := 1; i <= claimRuns; i++ {
		out, err := captureCommand(ctx, dir, tortureEnv, bin, "-test.run", "^TestRuntimeMutexClaim$", "-test.count", "1", "-test.v", "-test.timeout", "60s")
		fmt.Printf("run %d: %s\n", i, firstMatch(claimSummary, out))
		if err == nil || !claimNone.MatchString(out) {
			return fmt.Errorf("TestRuntimeMutexClaim did not report the missing claim on %.12s: the build is not of that design (did the overlay apply?)\n%s", earlier.PerMCount, indent(out))
		}
		if m := claimBypass.FindString(out); m != "" {
			bypassed++
			fmt.Printf("\tfailed: %s\n", m)
		} else {
			fmt.Printf("\tfailed, with no bypass reported:\n%s\n", indent(out))
		}
	}
	if bypassed == 0 {
		return fmt.Errorf("TestRuntimeMutexClaim never reported a bypass of the victim in %d runs on %.12s: see the output above", claimRuns, earlier.PerMCount)
	}
	fmt.Printf("TestRuntimeMutexClaim caught the bypass in %d of %d runs on the per-M count\n", bypassed, claimRuns)
	return nil
}

// orderBreaks are the breaks of torture.Breaks that TestRuntimeMutexClaim
// must catch: a hand-off to the newest M in the claim queue instead of the
// oldest. The breaks that remove a place that keeps Ms out of a claimed
// mutex (slow-ignores-claim, fast-ignores-claim) are not among them: with
// hand-offs, a claimed mutex is free only for the few instructions between
// an unlock's swap and unlock2Wake's swap that takes it back, while the
// staged claim's Ms are asleep, so the test cannot see them. Torture
// mode's ledger catches those (torture/catches-broken).
var orderBreaks = []string{"hand-off-to-newest"}

// claimOutOfOrder is TestRuntimeMutexClaim's report of the first Ms into
// the mutex in an order other than the claim's.
var claimOutOfOrder = regexp.MustCompile(`the first Ms into the mutex were [^\n]*`)

// orderRuns is how many times claimCatchesOutOfOrder runs the test on a
// break at most; it stops at the first run that catches it, so that a
// check whose catch depends on the OS's scheduling does not fail by luck.
const orderRuns = 10

// claimCatchesOutOfOrder runs TestRuntimeMutexClaim, built without
// torture mode, on each of orderBreaks (go test -overlay in place of the
// file it breaks), up to orderRuns times: a run must fail for the order of
// entries. A failure of another kind fails the step: it would mean the
// test no longer stages its claim.
func claimCatchesOutOfOrder(ctx context.Context, r fork.Repo) error {
	want := map[string]bool{}
	for _, name := range orderBreaks {
		want[name] = true
	}
	found := 0
	err := eachBreak(r, 1, func(_ int, b torture.Break, overlay string) (string, error) {
		if !want[b.Name] {
			return "\tnot run: TestRuntimeMutexClaim is not meant to see it\n", nil
		}
		found++
		dir, err := os.MkdirTemp("", "claim-order")
		if err != nil {
			return "", err
		}
		defer os.RemoveAll(dir)
		bin := filepath.Join(dir, "runtime.test")
		if out, err := captureCommand(ctx, r.Root, tortureEnv, r.GoCommand(), "test", "-c", "-vet=off", "-overlay", overlay, "-o", bin, "runtime"); err != nil {
			return "", fmt.Errorf("building the runtime's tests with break %s: %v\n%s", b.Name, err, out)
		}
		var report strings.Builder
		caught := 0
		for i := 1; i <= orderRuns && caught == 0; i++ {
			out, err := captureCommand(ctx, dir, tortureEnv, bin, "-test.run", "^TestRuntimeMutexClaim$", "-test.count", "1", "-test.v", "-test.timeout", "60s")
			fmt.Fprintf(&report, "\trun %d: %s\n", i, firstMatch(claimSummary, out))
			switch m := claimOutOfOrder.FindString(out); {
			case err == nil:
				fmt.Fprintf(&report, "\t\tpassed\n")
			case m != "":
				caught++
				fmt.Fprintf(&report, "\t\tfailed: %s\n", m)
			default:
				return report.String(), fmt.Errorf("TestRuntimeMutexClaim failed with break %s, but not for the order of entries:\n%s", b.Name, indent(out))
			}
		}
		if caught == 0 {
			return report.String(), fmt.Errorf("TestRuntimeMutexClaim passed %d runs with break %s (%s): it does not see that break", orderRuns, b.Name, b.What)
		}
		return report.String(), nil
	})
	if err != nil {
		return err
	}
	if found != len(orderBreaks) {
		return fmt.Errorf("tools/internal/torture has %d of the breaks %v: the step needs each", found, orderBreaks)
	}
	return nil
}

// indent returns s with a tab before each line, to set a program's output
// apart from the step's own lines.
func indent(s string) string {
	return "\t" + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n\t")
}
