package main

import (
	"context"

	"go-spinbit.dev/tools/internal/fork"
	"go-spinbit.dev/tools/internal/model"
)

// modelSteps check the Promela model of lock_spinbit.go with Spin: the
// model's quotes of the Go code, the model itself, the proposed fix, and
// the mutants the checker must reject (model/README.md).
var modelSteps = []step{
	{name: "model/spin", run: modelSpin},
}

func modelSpin(ctx context.Context, r fork.Repo) error {
	err := model.RunSuite(ctx, model.DefaultOptions(r.Root))
	if reason, ok := model.Skipped(err); ok {
		return skip("%s", reason)
	}
	return err
}
