package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"go-spinbit.dev/tools/internal/fork"
	"go-spinbit.dev/tools/internal/inorder"
	"go-spinbit.dev/tools/internal/torture"
)

// heirSteps show that the test of the bound, TestRuntimeMutexHeir, fails
// on mutexes that break it, and TestRuntimeMutexCrashDump on a crash path
// that waits for a claim.
var heirSteps = []step{
	{name: "runtime/heir-catches-barging", slow: true, run: heirCatchesBarging},
	{name: "runtime/crash-dump-catches-waiting", slow: true, run: crashDumpCatchesWaiting},
}

// caughtBreak is a broken mutex that a runtime test must fail on, and the
// report of the failure it must make.
type caughtBreak struct {
	torture.Break
	report *regexp.Regexp
}

// catchingTest is a runtime test that must fail on breaks: its name, the
// line of its log that sums up a run (for the step's report), and how
// many runs a break is given at most. A run that catches the break ends
// its runs, so that a check whose catch depends on the OS's scheduling
// does not fail by luck.
type catchingTest struct {
	name    string
	summary *regexp.Regexp
	runs    int
}

// heirTest is TestRuntimeMutexHeir.
var heirTest = catchingTest{name: "TestRuntimeMutexHeir", summary: heirSummary, runs: 5}

var (
	// heirBypass is TestRuntimeMutexHeir's report of an entry by the
	// barger after it saw the victim's claim.
	heirBypass = regexp.MustCompile(`the barger took the mutex \d+ more times after it saw the victim's claim[^\n]*`)
	// heirNoClaim is its report that no round showed a claim.
	heirNoClaim = regexp.MustCompile(`no round of \d+ showed a claim[^\n]*`)
	// heirSummary is its log line of the rounds.
	heirSummary = regexp.MustCompile(`\d+ rounds: [^\n]*`)
)

// heirBreaks are the breaks TestRuntimeMutexHeir must catch: the two
// places of torture.Breaks that keep Ms out of a claimed mutex, and a
// mutex that never claims (a waiter never counts as starving).
func heirBreaks() ([]caughtBreak, error) {
	var bs []caughtBreak
	for _, name := range []string{"fast-ignores-heir", "slow-ignores-heir"} {
		i := -1
		for j, b := range torture.Breaks {
			if b.Name == name {
				i = j
			}
		}
		if i < 0 {
			return nil, fmt.Errorf("tools/internal/torture has no break %s, which runtime/heir-catches-barging needs", name)
		}
		bs = append(bs, caughtBreak{torture.Breaks[i], heirBypass})
	}
	bs = append(bs, caughtBreak{torture.Break{
		Name:  "never-starves",
		What:  "no number of passes over or of looks makes a waiter starving, so nobody claims",
		Edits: []torture.Edit{{Old: "\tmutexStarvePasses = 2\n\tmutexStarveLooks  = 64\n", New: "\tmutexStarvePasses = 1 << 30\n\tmutexStarveLooks  = 1 << 30\n"}},
	}, heirNoClaim})
	return bs, nil
}

// heirCatchesBarging builds the runtime's tests, without torture mode, on
// each of heirBreaks and runs TestRuntimeMutexHeir on it (testCatches).
func heirCatchesBarging(ctx context.Context, r fork.Repo) error {
	bs, err := heirBreaks()
	if err != nil {
		return err
	}
	return testCatches(ctx, r, heirTest, bs)
}

// testCatches builds the runtime's tests, without torture mode, on each
// of bs (go test -overlay in place of the file it breaks) and runs test
// up to test.runs times: a run must fail with the break's report. A
// failure of another kind fails the step.
func testCatches(ctx context.Context, r fork.Repo, test catchingTest, bs []caughtBreak) error {
	dir, err := os.MkdirTemp("", "test-breaks")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	errs := inorder.Run(os.Stdout, len(bs), 1, func(i int) (string, error) {
		b := bs[i]
		text, err := testCatchesBreak(ctx, r, filepath.Join(dir, b.Name), test, b)
		return fmt.Sprintf("break %s: %s\n%s", b.Name, b.What, text), err
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// testCatchesBreak runs test on b's build in dir.
func testCatchesBreak(ctx context.Context, r fork.Repo, dir string, test catchingTest, b caughtBreak) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	overlay, err := writeBreakOverlay(r, dir, b.Break)
	if err != nil {
		return "", err
	}
	// vet is off: it reads the files on disk, not the overlay.
	bin := filepath.Join(dir, "runtime.test")
	if out, err := captureCommand(ctx, r.Root, tortureEnv, r.GoCommand(), "test", "-c", "-vet=off", "-overlay", overlay, "-o", bin, "runtime"); err != nil {
		return "", fmt.Errorf("building the runtime's tests with break %s: %v\n%s", b.Name, err, out)
	}
	var report strings.Builder
	for i := 1; i <= test.runs; i++ {
		out, err := captureCommand(ctx, dir, tortureEnv, bin, "-test.run", "^"+test.name+"$", "-test.count", "1", "-test.v", "-test.timeout", "120s")
		fmt.Fprintf(&report, "\trun %d: %s\n", i, firstMatch(test.summary, out))
		switch m := b.report.FindString(out); {
		case err == nil:
			fmt.Fprintf(&report, "\t\tpassed\n")
		case m != "":
			fmt.Fprintf(&report, "\t\tfailed: %s\n", m)
			return report.String(), nil
		default:
			return report.String(), fmt.Errorf("%s failed with break %s, but not with the report %s:\n%s", test.name, b.Name, b.report, indent(out))
		}
	}
	return report.String(), fmt.Errorf("%s passed %d runs with break %s (%s): it does not see that break", test.name, test.runs, b.Name, b.What)
}

// indent returns s with a tab before each line, to set a program's output
// apart from the step's own lines.
func indent(s string) string {
	return "\t" + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n\t")
}
