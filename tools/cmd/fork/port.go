package main

import (
	"context"
	"fmt"
	"os"

	"go-spinbit.dev/tools/internal/fork"
)

// port is "fork port": it starts the base to from the series of from (the
// newest base with patches/ if empty), prints the report and returns the
// exit status: 1 if any patch did not apply.
func port(ctx context.Context, root, from, to string) int {
	if to == "" {
		fatal(fmt.Errorf("port needs -to, the release of the new base, such as go1.28.1"))
	}
	if from == "" {
		newest, err := fork.Newest(root)
		if err != nil {
			fatal(err)
		}
		from = newest
	}
	rep, err := fork.Port(ctx, fork.PortOptions{Root: root, From: from, To: to, Fetch: fork.FetchRelease, Logf: logf})
	if err != nil {
		fatal(err)
	}
	rep.Print(os.Stdout)
	if len(rep.Failed) > 0 {
		return 1
	}
	return 0
}
