package main

import (
	"context"
	"regexp"

	"go-spinbit.dev/tools/internal/fork"
	"go-spinbit.dev/tools/internal/torture"
)

var (
	// crashDumpTest is TestRuntimeMutexCrashDump, which crashes a program
	// whose paniclk and debuglock are left claimed by an heir that never
	// runs. One run suffices: its child's first crash handler locks both.
	crashDumpTest = catchingTest{name: "TestRuntimeMutexCrashDump", summary: crashDumpSummary, runs: 1}
	// crashDumpSummary is its log line of the child's Ms and claims.
	crashDumpSummary = regexp.MustCompile(`mutex crash dump: \d+ Ms, claim seen: [^\n]*`)
	// crashDumpHung is its report of a dump that did not complete.
	crashDumpHung = regexp.MustCompile(`the crash dump did not complete within [^\n]*`)
)

// crashDumpBreaks are the breaks TestRuntimeMutexCrashDump must catch: a
// mutex with no crash path, whose crash handlers wait as any other M
// does, for a claim's heir too.
var crashDumpBreaks = []caughtBreak{{torture.Break{
	Name: "no-crash-path",
	What: "a lock in a crash handler, or of paniclk or debuglock, waits as any other, for an heir that never runs too",
	Edits: []torture.Edit{{
		Old: "\treturn mp.dying != 0 || gp == mp.gsignal || mp.mWaitList.inWait ||\n\t\tl == &paniclk || l == &debuglock || l == &deadlock\n",
		New: "\treturn false\n",
	}},
}, crashDumpHung}}

// crashDumpCatchesWaiting shows that TestRuntimeMutexCrashDump fails on
// crashDumpBreaks (testCatches).
func crashDumpCatchesWaiting(ctx context.Context, r fork.Repo) error {
	return testCatches(ctx, r, crashDumpTest, crashDumpBreaks)
}
