package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"go-spinbit.dev/tools/internal/earlier"
	"go-spinbit.dev/tools/internal/fork"
)

// earlierSteps run today's tests against an earlier design of the mutex,
// which they must catch.
var earlierSteps = []step{
	{name: "runtime/claim-catches-per-m-count", slow: true, run: claimCatchesPerMCount},
}

// claimRuns is how many times claimCatchesPerMCount runs the test.
const claimRuns = 3

var (
	// claimBypass is TestRuntimeMutexClaim's report of an M that entered
	// the mutex before the victim.
	claimBypass = regexp.MustCompile(`M \d+ took the mutex before the victim[^\n]*`)
	// claimSummary is its log line of the victim's wait.
	claimSummary = regexp.MustCompile(`the victim waited [^\n]*`)
)

// claimCatchesPerMCount builds the runtime of patches/ at
// earlier.PerMCount, the per-M count of unlocks that issue 13 found
// without a bound, with today's lock_bound_test.go (and a shim for the
// names it needs), and runs TestRuntimeMutexClaim on it claimRuns times.
// Every run must fail, and at least one must fail for the bypass itself:
// an M of the alternation entering the mutex before the victim, which had
// waited past its patience. That design makes no claim, so every run also
// reports that none showed; the bypass is what the bound is about.
func claimCatchesPerMCount(ctx context.Context, r fork.Repo) error {
	s, err := r.SeriesAt(earlier.PerMCount)
	if err != nil {
		return skip("%v", err)
	}
	wt, remove, err := upstreamWorktree(ctx, r, "permcount")
	if err != nil {
		return err
	}
	defer remove()
	dir := filepath.Dir(wt)
	if err := fork.Apply(wt, s); err != nil {
		return fmt.Errorf("the patches of %.12s: %w", earlier.PerMCount, err)
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
	js, err := json.Marshal(map[string]map[string]string{"Replace": replace})
	if err != nil {
		return err
	}
	overlay := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlay, js, 0o644); err != nil {
		return err
	}
	fmt.Printf("the runtime of %.12s (%d patches) over goroot/: %d files of src/runtime replaced, added or removed\n", earlier.PerMCount, len(s), len(replace))

	// vet is off: it reads the files on disk, not the overlay.
	bin := filepath.Join(dir, "runtime.test")
	if out, err := captureCommand(ctx, r.Root, tortureEnv, r.GoCommand(), "test", "-c", "-vet=off", "-overlay", overlay, "-o", bin, "runtime"); err != nil {
		return fmt.Errorf("building the runtime's tests on %.12s: %v\n%s", earlier.PerMCount, err, out)
	}
	bypassed := 0
	for i := 1; i <= claimRuns; i++ {
		out, err := captureCommand(ctx, dir, tortureEnv, bin, "-test.run", "^TestRuntimeMutexClaim$", "-test.count", "1", "-test.v", "-test.timeout", "60s")
		fmt.Printf("run %d: %s\n", i, firstMatch(claimSummary, out))
		if err == nil {
			return fmt.Errorf("TestRuntimeMutexClaim passed on the per-M count of %.12s: it no longer catches that design\n%s", earlier.PerMCount, out)
		}
		if m := claimBypass.FindString(out); m != "" {
			bypassed++
			fmt.Printf("\tfailed: %s\n", m)
		} else {
			fmt.Printf("\tfailed, with no bypass reported:\n%s\n", indent(out))
		}
	}
	if bypassed == 0 {
		return fmt.Errorf("TestRuntimeMutexClaim failed %d times on %.12s, never for a bypass of the victim: see the output above", claimRuns, earlier.PerMCount)
	}
	fmt.Printf("TestRuntimeMutexClaim caught the bypass in %d of %d runs on the per-M count\n", bypassed, claimRuns)
	return nil
}

func indent(s string) string {
	return "\t" + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n\t")
}
