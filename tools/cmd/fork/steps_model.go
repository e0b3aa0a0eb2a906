package main

import (
	"context"

	"go-spinbit.dev/tools/internal/fork"
	"go-spinbit.dev/tools/internal/model"
)

// modelSteps check the Promela model of lock_spinbit.go with Spin: the
// model's quotes of the Go code, the model itself and the mutants the
// checker must reject (model/README.md). Spin needs only the source the
// model quotes, so the step runs without a built fork.
//
// The model is one for every base, and Spin's runs take minutes, so they
// run on the newest base by default (on the others with -long); every
// base checks the quotes, which takes no time.
var modelSteps = []step{
	{name: "model/quotes", core: true, tree: true, run: modelQuotes},
	{name: "model/spin", tree: true, run: modelSpin},
	{name: "model/spin-long", long: true, tree: true, run: modelSpinLong},
}

// modelQuotes checks the model's quotes of the Go code against the base's
// tree.
func modelQuotes(ctx context.Context, r fork.Repo) error {
	opts, err := model.DefaultOptions(r.Root, r.Goroot())
	if err != nil {
		return err
	}
	return model.CheckQuotesOf(opts)
}

// modelSpin checks the model against the base's tree: its quotes of the Go
// code are of that tree.
func modelSpin(ctx context.Context, r fork.Repo) error {
	return runModelSuite(ctx, r, false)
}

// modelSpinLong is modelSpin with the checks marked Long as well, which
// take more time than the default run's budget allows.
func modelSpinLong(ctx context.Context, r fork.Repo) error {
	return runModelSuite(ctx, r, true)
}

func runModelSuite(ctx context.Context, r fork.Repo, long bool) error {
	opts, err := model.DefaultOptions(r.Root, r.Goroot())
	if err != nil {
		return err
	}
	opts.Long = long
	err = model.RunSuite(ctx, opts)
	if reason, ok := model.Skipped(err); ok {
		return skip("%s", reason)
	}
	return err
}
