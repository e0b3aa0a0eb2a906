package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"go-spinbit.dev/tools/internal/fork"
)

func TestPointReleaseNews(t *testing.T) {
	for _, c := range []struct {
		base, newest string
		err          error
		want         string
	}{
		{"go1.27.4", "go1.27.5", nil, "go1.27.5 is out; base go1.27.4 is one point release behind: tools/patch.bash port -to go1.27.5 starts the port (CONTRIBUTING.md, Starting a base)"},
		{"go1.27.3", "go1.27.5", nil, "go1.27.5 is out; base go1.27.3 is 2 point releases behind: tools/patch.bash port -to go1.27.5 starts"},
		{"go1.27", "go1.27.1", nil, "base go1.27 is one point release behind"},
		{"go1.27.4", "go1.27.4", nil, "the module proxy serves no go1.27 point release newer than base go1.27.4"},
		{"go1.27.4", "go1.27.4", errors.New("go list -m -versions golang.org/toolchain: go: module lookup disabled by GOPROXY=off\n\tmore"),
			"could not check for a point release newer than base go1.27.4: go list -m -versions golang.org/toolchain: go: module lookup disabled by GOPROXY=off more"},
		{"go1.27.4", "go1.27.4", fmt.Errorf("go list: %w", context.DeadlineExceeded),
			"could not check for a point release newer than base go1.27.4: the module proxy did not answer within 1m0s"},
	} {
		got := pointReleaseNews(c.base, c.newest, c.err)
		if !strings.Contains(got, c.want) || strings.Contains(got, "\n") {
			t.Errorf("pointReleaseNews(%s, %s, %v) = %q\nwant one line with %q", c.base, c.newest, c.err, got, c.want)
		}
	}
}

// The step passes however the proxy answers, and says why it could not
// ask when it cannot.
func TestNewerPointReleaseOffline(t *testing.T) {
	t.Setenv("GOPROXY", "off")
	root := newRepo(t, map[string][]string{"go1.23.12": {addsXchg8}, "go1.27.3": {"x"}})
	var lines []string
	report := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	reportPointRelease(context.Background(), root, nil, report)
	if len(lines) != 1 || !strings.Contains(lines[0], "could not check for a point release newer than base go1.27.3") || !strings.Contains(lines[0], "GOPROXY=off") {
		t.Errorf("with GOPROXY=off the report is %q, want one line saying it could not check go1.27.3 and why", lines)
	}
	lines = nil
	reportPointRelease(context.Background(), root, []string{"go1.23.12", "go1.27.3"}, report)
	if len(lines) != 1 || !strings.Contains(lines[0], "newer than base go1.27.3") {
		t.Errorf("after making both bases the report is %q, want one line on go1.27.3 alone", lines)
	}
	lines = nil
	reportPointRelease(context.Background(), root, []string{"go1.23.12"}, report)
	if len(lines) != 1 || !strings.Contains(lines[0], "only the newest base, go1.27.3,") {
		t.Errorf("after making go1.23.12 alone the report is %q, want one line saying only go1.27.3 is followed", lines)
	}
	if err := newerPointRelease(context.Background(), fork.Repo{Root: root}); err != nil {
		t.Errorf("the step failed with GOPROXY=off: %v", err)
	}
}
