package main

import (
	"context"
	"path/filepath"
	"regexp"

	"go-spinbit.dev/tools/internal/fork"
	"go-spinbit.dev/tools/internal/model"
	"go-spinbit.dev/tools/internal/torture"
)

// wakeSteps show that the tests of the bound on the wakes a sleeper waits
// for fail on a broken mutexWakee: TestRuntimeMutexWakeOrder on one that
// never takes the bottom of the stack while another M is above it, and
// TestRuntimeMutexWakeHeir on one that passes over a sleeping heir; and
// that the check of the M semaphore, TestRuntimeMutexSemaphore, fails on a
// futex semaphore that loses a wakeup sent after a timed sleep gave up.
var wakeSteps = []step{
	{name: "runtime/wake-tests-catch-breaks", slow: true, run: wakeTestsCatchBreaks},
}

// wakeOrderTest is TestRuntimeMutexWakeOrder; its choices are
// deterministic, so one run decides.
var wakeOrderTest = catchingTest{
	name:    "TestRuntimeMutexWakeOrder",
	summary: regexp.MustCompile(`\d+ Ms: \d+ of \d+ wakes took the top`),
	runs:    1,
}

// wakeOrderBreak takes the top of the stack whenever the bottom is below
// it: Ms woken and pushed again on top keep the Ms below them asleep.
var wakeOrderBreak = caughtBreak{
	Break: torture.Break{
		Name:  "wakes-top-only",
		What:  "mutexWakee takes the top of the stack whenever the bottom is below it, however many such wakes the bottom has seen",
		Edits: []torture.Edit{{Old: "\tif bottom.mWaitList.topWakes < mutexTopWakes {\n", New: "\tif true {\n"}},
	},
	report: regexp.MustCompile(`still sleeps after \d+ wakes of others since its push[^\n]*`),
}

// wakeHeirTest is TestRuntimeMutexWakeHeir, deterministic too.
var wakeHeirTest = deterministicTest("TestRuntimeMutexWakeHeir")

// deterministicTest is the test name, whose outcome one run decides and
// whose summary is its PASS or FAIL line.
func deterministicTest(name string) catchingTest {
	return catchingTest{name: name, summary: regexp.MustCompile(`--- (PASS|FAIL): ` + name), runs: 1}
}

// wakeHeirBreak has a wake take the top or the bottom of the stack as if
// no claim were in force. (Torture mode does not list it: the heir it
// leaves asleep is woken in the bottom's turn, so a run slows down but
// neither hangs nor bypasses the bound.)
var wakeHeirBreak = caughtBreak{
	Break: torture.Break{
		Name:  "wake-skips-heir",
		What:  "a wake takes the top or the bottom of the stack off while the heir sleeps",
		Edits: []torture.Edit{{Old: "\tif v&mutexHeir != 0 {\n\t\tvar above *m\n", New: "\tif false {\n\t\tvar above *m\n"}},
	},
	report: regexp.MustCompile(`a wake took M \d+, not the heir`),
}

// semaTest is TestRuntimeMutexSemaphore, deterministic too.
var semaTest = deterministicTest("TestRuntimeMutexSemaphore")

// semaBreak is a futex semaphore whose timed sleep gives up without taking
// its -1 back out of the count, as go1.27's does: the next wakeup only
// cancels it, and the sleep after that waits for another. Its File is the
// base's file of the futex semasleep (model.SemasleepFile).
var semaBreak = caughtBreak{
	Break: torture.Break{
		Name:  "sleep-keeps-its-minus-one",
		What:  "a timed semasleep that gives up leaves its -1 in the M's count",
		Edits: []torture.Edit{{Old: "\t\t\t\tif atomic.Cas(&mp.waitsema, waitsemaAsleep, 0) {\n", New: "\t\t\t\tif true {\n"}},
	},
	report: regexp.MustCompile(`did not keep the wakeup sent before the sleep`),
}

// wakeTestsCatchBreaks builds the runtime's tests on wakeOrderBreak and
// runs TestRuntimeMutexWakeOrder, which must fail for a sleeper passed
// over too often, then on wakeHeirBreak and runs TestRuntimeMutexWakeHeir,
// which must fail for the heir left asleep, then on semaBreak and runs
// TestRuntimeMutexSemaphore, which must fail for the lost wakeup
// (testCatches). The semaphore's break needs a futex OS.
func wakeTestsCatchBreaks(ctx context.Context, r fork.Repo) error {
	sema, err := model.SemasleepFile(filepath.Join(r.Goroot(), "src", "runtime"))
	if err != nil {
		return err
	}
	semaBroken := semaBreak
	semaBroken.File = filepath.Base(sema)
	for _, c := range []struct {
		test catchingTest
		brk  caughtBreak
	}{{wakeOrderTest, wakeOrderBreak}, {wakeHeirTest, wakeHeirBreak}, {semaTest, semaBroken}} {
		if err := testCatches(ctx, r, c.test, []caughtBreak{c.brk}); err != nil {
			return err
		}
	}
	return nil
}
