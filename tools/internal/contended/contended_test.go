package contended

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"go-spinbit.dev/tools/internal/toolchain"
)

func TestOK(t *testing.T) {
	if line, ok := OK("x\r\ncontended: ok: 64 goroutines\r\n"); !ok || line != "contended: ok: 64 goroutines" {
		t.Errorf("OK = %q, %v", line, ok)
	}
	for _, out := range []string{"", "contended: FAIL: 3 rounds\n", "panic: contended: not done after 1m30s (hung?)\n"} {
		if _, ok := OK(out); ok {
			t.Errorf("OK(%q) = true", out)
		}
	}
}

// The contended program, built for this machine, does its work and says
// so.
func TestNative(t *testing.T) {
	gocmd, err := toolchain.GoCommand()
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	env := append(toolchain.EnvWithout(os.Environ(), "GOOS", "GOARCH", "GOFLAGS", "GOEXPERIMENT"), "CGO_ENABLED=0")
	exe := filepath.Join(dir, "contended")
	if err := Build(context.Background(), gocmd, dir, exe, env, nil, io.Discard); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(exe, "-procs", "2", "-per-p", "4", "-iters", "200").CombinedOutput()
	if _, ok := OK(string(out)); err != nil || !ok {
		t.Errorf("contended: %v\n%s", err, out)
	}
	out, err = exec.Command(exe, "-iters", "0").CombinedOutput()
	if err == nil {
		t.Errorf("contended -iters 0 succeeded:\n%s", out)
	}
}

func TestStalled(t *testing.T) {
	if !Stalled("goroutine 6 [running]:\npanic: contended: not done after 1m0s (hung?)\n") {
		t.Error("Stalled misses the watchdog's panic")
	}
	for _, out := range []string{"", "contended: ok: 64 goroutines on GOMAXPROCS=8, 20000 rounds each, in 2s\n", "contended: FAIL: 3 rounds\n"} {
		if Stalled(out) {
			t.Errorf("Stalled(%q) = true", out)
		}
	}
}
