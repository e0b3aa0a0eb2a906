package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go-spinbit.dev/tools/internal/apt"
	"go-spinbit.dev/tools/internal/fork"
	"go-spinbit.dev/tools/internal/tail"
	"go-spinbit.dev/tools/internal/wasm"
)

// wasmSteps run the base's runtime on GOARCH=wasm (tools/internal/wasm),
// under wazero and Node.js, and show that the check fails for a runtime
// that dies there. Under a minute per base from cold, seconds with warm
// caches.
var wasmSteps = []step{
	{name: wasmStep, run: wasmRun},
}

const wasmStep = "wasm/run"

// wasmBrokenLock is what the check's own test inserts at the top of
// lock2 in the wasm builds' lock files: a runtime that dies at its
// first lock.
const wasmBrokenLock = "\tthrow(\"lock2 broken on purpose by " + wasmStep + "\")\n"

func wasmRun(ctx context.Context, r fork.Repo) error {
	o := wasm.Options{Name: wasmStep, Go: r.GoCommand(), Goroot: r.Goroot(), Tools: filepath.Join(r.Root, "tools"), Host: apt.Machine}
	err := wasm.Check(ctx, o)
	var skipped *wasm.SkippedError
	if err != nil && !errors.As(err, &skipped) {
		return err
	}

	// The same check of a runtime whose lock2 throws on wasm must fail.
	tmp, err := os.MkdirTemp("", "wasm-broken")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	replace := map[string]string{}
	for _, name := range []string{"lock_js.go", "lock_wasip1.go"} {
		src := filepath.Join(r.Goroot(), "src", "runtime", name)
		code, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		const top = "func lock2(l *mutex) {\n"
		if !bytes.Contains(code, []byte(top)) {
			return fmt.Errorf("%s: %s has no %q to break; the step must learn this tree", wasmStep, src, strings.TrimSpace(top))
		}
		broken := filepath.Join(tmp, name)
		if err := os.WriteFile(broken, bytes.Replace(code, []byte(top), []byte(top+wasmBrokenLock), 1), 0o644); err != nil {
			return err
		}
		replace[src] = broken
	}
	overlay := filepath.Join(tmp, "overlay.json")
	if err := writeOverlay(overlay, replace); err != nil {
		return err
	}
	var buf bytes.Buffer
	o.BuildFlags, o.Stdout = []string{"-overlay=" + overlay}, &buf
	err = wasm.Check(ctx, o)
	if err == nil || errors.As(err, new(*wasm.SkippedError)) {
		return fmt.Errorf("%s: a runtime whose lock2 throws on wasm passed the check, which therefore cannot catch a broken runtime:\n%s", wasmStep, buf.Bytes())
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	for _, e := range unjoin(err) {
		if !strings.Contains(e.Error(), "lock2 broken on purpose") {
			return fmt.Errorf("%s: a runtime whose lock2 throws on wasm failed the check, but not for its throw: %v\n%s", wasmStep, e, tail.Lines(buf.String(), 40))
		}
	}
	fmt.Printf("%s: a runtime whose lock2 throws on wasm fails every run of the check, as it must\n", wasmStep)
	if skipped != nil {
		return skip("%s", skipped.Reason)
	}
	return nil
}

// unjoin returns the errors that errors.Join joined into err, or err.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
