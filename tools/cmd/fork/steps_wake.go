package main

import (
	"context"
	"regexp"

	"go-spinbit.dev/tools/internal/fork"
	"go-spinbit.dev/tools/internal/torture"
)

// wakeSteps show that the test of the bound on the wakes a sleeper waits
// for, TestRuntimeMutexWakeOrder, fails on a mutexWakee that never takes
// the bottom of the stack while another M is above it.
var wakeSteps = []step{
	{name: "runtime/wake-order-catches-top-only", slow: true, run: wakeOrderCatchesTopOnly},
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
		Edits: []torture.Edit{{Old: "\tif bottom != top && bottom.mWaitList.topWakes < mutexTopWakes {\n", New: "\tif bottom != top {\n"}},
	},
	report: regexp.MustCompile(`still sleeps after \d+ wakes of others since its push[^\n]*`),
}

// wakeOrderCatchesTopOnly builds the runtime's tests on wakeOrderBreak and
// runs TestRuntimeMutexWakeOrder, which must fail for a sleeper passed
// over too often (testCatches).
func wakeOrderCatchesTopOnly(ctx context.Context, r fork.Repo) error {
	return testCatches(ctx, r, wakeOrderTest, []caughtBreak{wakeOrderBreak})
}
