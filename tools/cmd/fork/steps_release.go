package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"go-spinbit.dev/tools/internal/fork"
	"go-spinbit.dev/tools/internal/toolchain"
)

// releaseSteps report whether upstream has released a newer point release
// of the newest base. The step passes whatever the answer, and when the
// module proxy cannot be asked: it is news for the maintainers, and
// neither a release upstream nor the network may fail a check.
var releaseSteps = []step{
	{name: "toolchain/newer-point-release", shared: true, limit: 2 * time.Minute, run: newerPointRelease},
}

// proxyWait bounds the wait for the module proxy's answer: well within the
// step's limit, and short enough not to hold up ./make.bash.
const proxyWait = time.Minute

// newerPointRelease prints the report of reportPointRelease and passes.
func newerPointRelease(ctx context.Context, r fork.Repo) error {
	reportPointRelease(ctx, r.Root, nil, func(format string, args ...any) {
		fmt.Printf(format+"\n", args...)
	})
	return nil
}

// reportPointRelease says through logf whether the module proxy serves a
// point release newer than the newest base's release, or why it could not
// tell. made, if not nil, are the bases just made: the newest base's
// releases are followed, an older base's not, so if made lacks the newest
// base it says that instead.
func reportPointRelease(ctx context.Context, root string, made []string, logf func(string, ...any)) {
	base, err := fork.Newest(root)
	if err != nil {
		logf("could not check for a newer point release: %v", err)
		return
	}
	if made != nil && !slices.Contains(made, base) {
		logf("not checking for a point release newer than %s: only the newest base, %s, follows upstream's point releases", strings.Join(made, ", "), base)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, proxyWait)
	defer cancel()
	versions, err := toolchain.ServedReleases(ctx)
	newest := base
	if err == nil {
		newest, err = toolchain.NewestPointRelease(base, versions)
	}
	logf("%s", pointReleaseNews(base, newest, err))
}

// pointReleaseNews is the line that says how base stands against newest,
// the newest point release of its minor that the module proxy serves, or
// that err kept it from asking (in proxyWait, if it timed out).
func pointReleaseNews(base, newest string, err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("the module proxy did not answer within %v", proxyWait)
	}
	if err != nil {
		return fmt.Sprintf("could not check for a point release newer than base %s: %s", base, strings.Join(strings.Fields(err.Error()), " "))
	}
	b, _ := toolchain.ParsePointRelease(base)
	n, _ := toolchain.ParsePointRelease(newest)
	behind := n[2] - b[2]
	if behind <= 0 {
		return fmt.Sprintf("the module proxy serves no go%d.%d point release newer than base %s", b[0], b[1], base)
	}
	releases := "one point release"
	if behind > 1 {
		releases = fmt.Sprintf("%d point releases", behind)
	}
	return fmt.Sprintf("%s is out; base %s is %s behind: tools/patch.bash port -to %s starts the port (CONTRIBUTING.md, Starting a base)", newest, base, releases, newest)
}
