// Package contended builds testdata/main.go, a program that contends for
// the runtime's locks from many goroutines and exits after a fixed amount
// of work, for any GOOS and GOARCH, and reads its verdict. A run that does
// not end has hung.
package contended

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"go-spinbit.dev/tools/internal/tail"
)

//go:embed testdata/main.go
var source []byte

// Build writes the program's module into dir/contended-module and builds
// it with the go command gocmd, in env (which picks GOOS, GOARCH and
// GOEXPERIMENT) and with the build flags given, as exe. The go command's
// output goes to out, and its last lines into the error if it fails.
func Build(ctx context.Context, gocmd, dir, exe string, env, flags []string, out io.Writer) error {
	exe, err := filepath.Abs(exe) // the go command runs in the module
	if err != nil {
		return err
	}
	mod := filepath.Join(dir, "contended-module")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(mod, "main.go"), source, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module contended\n\ngo 1.22\n"), 0o644); err != nil {
		return err
	}
	args := append(append([]string{"build"}, flags...), "-o", exe, ".")
	cmd := exec.CommandContext(ctx, gocmd, args...)
	cmd.Dir, cmd.Env = mod, env
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.MultiWriter(out, &b), io.MultiWriter(out, &b)
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building the contended program: %s %s (%s): %v\n%s", gocmd, strings.Join(args, " "), targetOf(env), err, tail.Lines(b.String(), 20))
	}
	return nil
}

// targetOf names the GOOS, GOARCH and GOEXPERIMENT that env sets.
func targetOf(env []string) string {
	var t []string
	for _, kv := range env {
		for _, k := range []string{"GOOS=", "GOARCH=", "GOEXPERIMENT="} {
			if strings.HasPrefix(kv, k) {
				t = append(t, kv)
			}
		}
	}
	return strings.Join(t, " ")
}

// OK reports whether the program's output says it did its work, and
// returns its result line.
func OK(out string) (line string, ok bool) {
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimRight(l, "\r")
		if strings.HasPrefix(l, "contended: ok:") {
			return l, true
		}
	}
	return "", false
}

// watchdogFired is the start of the panic of a contended program whose
// work was not done within its -watchdog.
const watchdogFired = "contended: not done after "

// Stalled reports whether out, a contended program's output, shows that
// its watchdog fired: its work stalled, while the runtime still ran the
// watchdog's goroutine.
func Stalled(out string) bool {
	return strings.Contains(out, watchdogFired)
}
