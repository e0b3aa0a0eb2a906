package main

import (
	"context"
	"errors"

	"go-spinbit.dev/tools/internal/apt"
	"go-spinbit.dev/tools/internal/fork"
	"go-spinbit.dev/tools/internal/wine"
)

// wineSteps run the base's runtime for windows/amd64 under Wine
// (tools/internal/wine): a contended program that must finish, with the
// same built with GOEXPERIMENT=nospinbitmutex as a control, and the
// runtime's mutex tests that a test binary can run there. About a minute
// and a half per base from cold on 2 cores; a runtime that loses a
// wakeup hangs and fails at the runs' limits, in about five.
var wineSteps = []step{
	{name: wineStep, slow: true, run: windowsWine},
}

const wineStep = "windows/wine"

func windowsWine(ctx context.Context, r fork.Repo) error {
	err := wine.Check(ctx, wine.Options{Name: wineStep, Go: r.GoCommand(), Control: true, Host: apt.Machine})
	var s *wine.SkippedError
	if errors.As(err, &s) {
		return skip("%s", s.Reason)
	}
	return err
}
