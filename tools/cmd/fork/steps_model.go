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
var modelSteps = []step{
	{name: "model/spin", core: true, tree: true, run: modelSpin},
}

// modelSpin checks the model against the base's tree: its quotes of the Go
// code are of that tree.
func modelSpin(ctx context.Context, r fork.Repo) error {
	opts, err := model.DefaultOptions(r.Root, r.Goroot())
	if err != nil {
		return err
	}
	err = model.RunSuite(ctx, opts)
	if reason, ok := model.Skipped(err); ok {
		return skip("%s", reason)
	}
	return err
}
