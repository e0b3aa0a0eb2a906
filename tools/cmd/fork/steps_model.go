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
	{name: "model/spin", tree: true, run: modelSpin},
}

func modelSpin(ctx context.Context, r fork.Repo) error {
	err := model.RunSuite(ctx, model.DefaultOptions(r.Root))
	if reason, ok := model.Skipped(err); ok {
		return skip("%s", reason)
	}
	return err
}
