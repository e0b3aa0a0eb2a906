package wasm

import (
	"context"
	"strings"
	"testing"

	"go-spinbit.dev/tools/internal/tail"
)

func TestCheckNeedsOptions(t *testing.T) {
	if err := Check(context.Background(), Options{Name: "x", Go: "go"}); err == nil || !strings.Contains(err.Error(), "Goroot and Tools are required") {
		t.Errorf("Check without Goroot and Tools = %v; want an error naming them", err)
	}
}

// A throw's first line names why the program died; later lines of the
// same death must not hide it.
func TestFirstDeath(t *testing.T) {
	out := "fatal error: lock2 broken\n\ngoroutine 1 gp=0x1:\n" + strings.Repeat("runtime.f()\n", 30) + "fatal error: unlock of unlocked lock\n"
	if got := firstDeath(out); got != ", first: fatal error: lock2 broken" {
		t.Errorf("firstDeath = %q", got)
	}
	if strings.Contains(tail.Lines(out, runTailLines), "lock2 broken") {
		t.Errorf("tail kept the first line; the test no longer shows why firstDeath is needed")
	}
	if got := firstDeath("contended: ok: 1 goroutine\n"); got != "" {
		t.Errorf("firstDeath of a healthy run = %q, want \"\"", got)
	}
}
