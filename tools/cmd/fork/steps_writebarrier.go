package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"go-spinbit.dev/tools/internal/fork"
)

// windowDirectives are the files of the base's src/runtime that declare
// waitWindows, by function name.
var windowDirectives = map[string]string{
	"mutexSleepOnStack": "lock_spinbit.go",
	"mutexCrashWait":    "lock_spinbit.go",
}

// noWriteBarrierRec is the directive with which the compiler rejects a
// write barrier in a function or anything it calls in the runtime.
const noWriteBarrierRec = "//go:nowritebarrierrec"

// barrierInjected names the function into whose body windowNoWriteBarrier
// writes a pointer: one that a window reaches (the push of
// mutexSleepOnStack), so the compiler must reject it as called by a
// window. The compiler inlines it, and then names the window it is
// inlined into as the caller.
const barrierInjected = "mutexPushed"

// barrierFile is the file of the base's src/runtime that declares
// barrierInjected.
const barrierFile = "lock_spinbit.go"

// writeBarrierProhibited is the compiler's error for a write barrier under
// //go:nowritebarrierrec.
var writeBarrierProhibited = regexp.MustCompile(`write barrier prohibited by caller; (` + barrierInjected + `|mutexSleepOnStack)\b`)

// windowNoWriteBarrier checks that the compiler keeps write barriers out
// of an M's wait window: each of waitWindows carries //go:nowritebarrierrec,
// and the runtime, built with a pointer write added to barrierInjected
// through an overlay, fails to compile with the compiler's error for it.
// A flushed write barrier buffer can lock a mutex of the GC's, and a lock
// inside the window would be a second wait.
func windowNoWriteBarrier(ctx context.Context, r fork.Repo, dir string) error {
	rt := filepath.Join(r.Goroot(), "src", "runtime")
	for fn, file := range windowDirectives {
		src, err := os.ReadFile(filepath.Join(rt, file))
		if err != nil {
			return err
		}
		if !hasDirective(string(src), fn, noWriteBarrierRec) {
			return fmt.Errorf("%s: func %s is not marked %s: a write barrier in an M's wait window could lock a mutex of the GC's", file, fn, noWriteBarrierRec)
		}
	}

	file := filepath.Join(rt, barrierFile)
	src, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	broken, err := addPointerWrite(string(src), barrierInjected)
	if err != nil {
		return fmt.Errorf("%s: %v: update this step's self-check to what the file holds now", filepath.Base(file), err)
	}
	replaced := filepath.Join(dir, barrierFile)
	if err := os.WriteFile(replaced, []byte(broken), 0o644); err != nil {
		return err
	}
	overlay := filepath.Join(dir, "overlay-write-barrier.json")
	if err := writeOverlay(overlay, map[string]string{file: replaced}); err != nil {
		return err
	}
	env := []string{"GOOS=linux", "GOARCH=amd64", "GOEXPERIMENT=spinbitmutex", "CGO_ENABLED=0"}
	out, err := captureCommand(ctx, r.Root, env, r.GoCommand(), "build", "-overlay", overlay, "runtime")
	if err == nil || !writeBarrierProhibited.MatchString(out) {
		return fmt.Errorf("with a pointer write added to %s, building the runtime did not fail with %q: the compiler does not guard the wait window against write barriers:\n%s", barrierInjected, writeBarrierProhibited, indent(out))
	}
	fmt.Printf("with a pointer write added to %s, the runtime does not build: %s\n", barrierInjected, writeBarrierProhibited.FindString(out))
	return nil
}

// hasDirective reports whether the declaration of func fn in src is
// preceded, among the comment lines right above it, by directive.
func hasDirective(src, fn, directive string) bool {
	lines := strings.Split(src, "\n")
	for i, line := range lines {
		if !strings.HasPrefix(line, "func "+fn+"(") {
			continue
		}
		for j := i - 1; j >= 0 && strings.HasPrefix(lines[j], "//"); j-- {
			if strings.TrimSpace(lines[j]) == directive {
				return true
			}
		}
		return false
	}
	return false
}

// addPointerWrite returns src with a store of a pointer field of the
// calling M (its waitunlockf, a func value, which takes a write barrier)
// as the first statement of func fn.
func addPointerWrite(src, fn string) (string, error) {
	head := "\nfunc " + fn + "("
	i := strings.Index(src, head)
	if i < 0 {
		return "", fmt.Errorf("no func %s", fn)
	}
	j := strings.Index(src[i:], "{\n")
	if j < 0 {
		return "", fmt.Errorf("func %s has no body", fn)
	}
	at := i + j + len("{\n")
	return src[:at] + "\tgetg().m.waitunlockf = nil\n" + src[at:], nil
}
