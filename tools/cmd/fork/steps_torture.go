package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"go-spinbit.dev/tools/internal/crossarch"
	"go-spinbit.dev/tools/internal/fork"
	"go-spinbit.dev/tools/internal/inorder"
	"go-spinbit.dev/tools/internal/torture"
)

// tortureSteps run the spinbit mutex in torture mode (-tags spinbittorture,
// src/runtime/lock_torture.go of the base's tree): that the mode costs nothing when it
// is off, the mutex tests under it natively and under qemu with its counts
// printed (ppc64le by default, arm64 with -long), that it catches
// deliberately broken versions of the mutex, and, with -long, whether a
// normal build's stress test happens to catch them too, and upstream's
// runtime and sync tests under it.
var tortureSteps = []step{
	{name: "torture/free-when-off", run: tortureFreeWhenOff},
	{name: "torture/native", run: tortureNative},
	{name: "torture/catches-broken", slow: true, limit: 15 * time.Minute, run: tortureCatchesBroken},
	{name: "torture/cross-arm64", long: true, run: tortureCross("arm64")},
	{name: "torture/cross-ppc64le", slow: true, run: tortureCross("ppc64le")},
	{name: "torture/breaks-without-torture", long: true, limit: 15 * time.Minute, run: tortureBreaksWithoutTorture},
	{name: "torture/runtime-sync-short", long: true, limit: 30 * time.Minute, run: goTest("spinbitmutex", "-short", "-tags", torture.Tag, "runtime", "sync")},
}

// tortureFuncs are the functions of lock_spinbit.go that hold torture
// hooks, as go tool objdump -s matches them.
const tortureFuncs = `^runtime\.(lock2|lock2Slow|mutexPoll|mutexPassClaim|mutexSleepOnStack|mutexCrashWait|unlock2|unlock2Wake)$`

// tortureFreeWhenOff builds a program with and without the tag and looks
// at the machine code of the mutex: without it, nothing of torture mode
// may be left; with it, the hooks must show, or the check is blind.
func tortureFreeWhenOff(ctx context.Context, r fork.Repo) error {
	dir, err := os.MkdirTemp("", "torture")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	src := "package main\n\nimport \"sync\"\n\nfunc main() {\n\tvar mu sync.Mutex\n\tch := make(chan int, 1)\n\tmu.Lock()\n\tch <- 1\n\t<-ch\n\tmu.Unlock()\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		return err
	}
	hooks := regexp.MustCompile(`mutexTorture\w*`)
	env := []string{"GOEXPERIMENT=spinbitmutex"}
	for _, on := range []bool{false, true} {
		bin := filepath.Join(dir, fmt.Sprintf("prog-%v", on))
		args := []string{"build", "-o", bin}
		if on {
			args = append(args, "-tags", torture.Tag)
		}
		if err := command(ctx, dir, env, r.GoCommand(), append(args, "main.go")...); err != nil {
			return err
		}
		asm, err := output(ctx, dir, nil, r.GoCommand(), "tool", "objdump", "-s", tortureFuncs, bin)
		if err != nil {
			return err
		}
		if !strings.Contains(asm, "TEXT runtime.lock2Slow(SB)") {
			return fmt.Errorf("go tool objdump -s %s showed no lock2Slow: is the experiment on?", tortureFuncs)
		}
		found := hooks.FindAllString(asm, -1)
		switch {
		case !on && len(found) > 0:
			return fmt.Errorf("without -tags %s the mutex's machine code still refers to %s", torture.Tag, strings.Join(unique(found), ", "))
		case on && len(found) == 0:
			return fmt.Errorf("with -tags %s the mutex's machine code shows no torture hook: this check cannot see them", torture.Tag)
		}
		fmt.Printf("-tags %s=%v: %d references to torture hooks in the mutex's machine code\n", torture.Tag, on, len(found))
	}
	return nil
}

func unique(s []string) []string {
	seen := map[string]bool{}
	var u []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			u = append(u, x)
		}
	}
	return u
}

// tortureNative runs the runtime mutex tests built in torture mode, and
// checks and shows the counts of the torture test.
func tortureNative(ctx context.Context, r fork.Repo) error {
	out, err := teeCommand(ctx, r.Root, []string{"GOEXPERIMENT=spinbitmutex"}, r.GoCommand(),
		"test", "-tags", torture.Tag, "-run", "TestRuntimeMutex", "-count", "1", "-timeout", "10m", "-v", "runtime")
	if err != nil {
		return err
	}
	return checkTortureStats(out)
}

func checkTortureStats(out string) error {
	s, err := torture.ParseStats(out)
	if err != nil {
		return err
	}
	if n, _ := s.Errors(); n != 0 {
		return fmt.Errorf("torture run found %d errors: %s", n, s.Line)
	}
	fmt.Printf("counts: %s\n", s.Line)
	return nil
}

// tortureCatchesBroken builds the runtime with each of torture.Breaks in
// place of the file it breaks in the base's tree (go test -overlay, the
// tree untouched) and runs
// the torture test: it must fail, in the way the break is expected to
// show. The breaks run as many at once as there are CPUs: a caught
// link-after-push waits a minute for its throw, with the CPUs free for the
// builds of the others.
func tortureCatchesBroken(ctx context.Context, r fork.Repo) error {
	missed := make([]bool, len(torture.Breaks))
	err := eachBreak(r, 0, func(i int, b torture.Break, overlay string) (string, error) {
		// -short: 2000 acquisitions per M, a second or two in torture
		// mode (a Full break: 20000 and the crowded rounds, under ten
		// seconds); a hang ends at the stress's one-minute watchdog or at
		// go test's timeout. -vet=off: vet reads the files on disk, not
		// the overlay, and with a cold cache it doubled a break's build
		// and run (28s against 14s); torture/native vets the real code.
		args := []string{"test", "-vet=off", "-overlay", overlay, "-tags", torture.Tag, "-run", "^" + torture.Test + "$", "-count", "1", "-timeout", "100s"}
		if !b.Full {
			args = append(args, "-short")
		}
		run := func() (string, error) {
			return captureCommand(ctx, r.Root, tortureEnv, r.GoCommand(), append(args, "runtime")...)
		}
		out, err := run()
		// A break of the bound alone shows only when an M takes the
		// mutex in a window a few instructions wide, which the delays
		// widen but do not promise: one -short run has caught
		// slow-ignores-heir with as few as 2 bypasses. Such a break gets
		// up to boundOnlyRuns runs, and passes at the first that catches
		// it, so that the step does not fail by luck.
		for i := 1; b.BoundOnly && err == nil && i < boundOnlyRuns; i++ {
			out, err = run()
		}
		switch {
		case err == nil:
			missed[i] = true
			return "\tin torture mode: passed: NOT CAUGHT\n", nil
		case b.Caught.MatchString(out):
			return fmt.Sprintf("\tin torture mode: caught: %s\n", b.Caught.FindString(out)), nil
		default:
			return out + "\n", fmt.Errorf("break %s: the torture run failed, but not in a way the break explains (want a match for %s)", b.Name, b.Caught)
		}
	})
	if err != nil {
		return err
	}
	var names []string
	for i, m := range missed {
		if m {
			names = append(names, torture.Breaks[i].Name)
		}
	}
	if len(names) > 0 {
		return fmt.Errorf("torture mode did not catch: %s", strings.Join(names, ", "))
	}
	return nil
}

// boundOnlyRuns is how many torture runs tortureCatchesBroken makes at
// most of a break of the bound alone before it calls it not caught.
const boundOnlyRuns = 3

// tortureBreaksWithoutTorture runs TestRuntimeMutexStressInProcess, built
// without torture mode, on each of torture.Breaks that breaks more than the
// bound, for the record only: whether a normal build catches a break is
// luck, so the step fails only if a break no longer applies. (A break of
// the bound alone, BoundOnly, is left out: the normal build's stress
// checks exclusion, which such a break keeps.) It is a -long step: each
// break is one more build of the runtime and everything its tests import.
func tortureBreaksWithoutTorture(ctx context.Context, r fork.Repo) error {
	return eachBreak(r, 1, func(_ int, b torture.Break, overlay string) (string, error) {
		if b.BoundOnly {
			return "\tnot run: it breaks only the bound\n", nil
		}
		out, err := captureCommand(ctx, r.Root, tortureEnv, r.GoCommand(), "test", "-vet=off", "-overlay", overlay,
			"-run", "^TestRuntimeMutexStressInProcess$", "-short", "-count", "1", "-timeout", "100s", "runtime")
		if err == nil {
			return "\twithout torture mode, TestRuntimeMutexStressInProcess: passed\n", nil
		}
		return fmt.Sprintf("\twithout torture mode, TestRuntimeMutexStressInProcess: failed: %s\n", firstMatch(b.Caught, out)), nil
	})
}

// tortureEnv is the environment of the runs of the torture steps.
var tortureEnv = []string{"GOEXPERIMENT=spinbitmutex"}

// eachBreak writes, for each of torture.Breaks, the file it breaks with
// the break applied and a go build -overlay file that puts it in place of
// the real one. It then calls f for each break with its index in Breaks and
// its overlay's path, up to workers calls at once (inorder.Run; as many as
// there are CPUs if workers is 0), and prints each break's name and what f
// reported in the order of Breaks. It returns the errors f returned,
// joined.
func eachBreak(r fork.Repo, workers int, f func(i int, b torture.Break, overlay string) (string, error)) error {
	dir, err := os.MkdirTemp("", "torture-break")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	overlays := make([]string, len(torture.Breaks))
	for i, b := range torture.Breaks {
		if overlays[i], err = writeBreakOverlay(r, dir, b); err != nil {
			return err
		}
	}

	errs := inorder.Run(os.Stdout, len(torture.Breaks), workers, func(i int) (string, error) {
		b := torture.Breaks[i]
		text, err := f(i, b, overlays[i])
		return fmt.Sprintf("break %s: %s\n%s", b.Name, b.What, text), err
	})
	return errors.Join(errs...)
}

// writeBreakOverlay writes b's broken file of the base's src/runtime into
// dir, with a go build -overlay file that puts it in place of the real
// one, and returns the overlay file's path.
func writeBreakOverlay(r fork.Repo, dir string, b torture.Break) (string, error) {
	real := filepath.Join(r.Goroot(), "src", "runtime", b.RuntimeFile())
	src, err := os.ReadFile(real)
	if err != nil {
		return "", err
	}
	broken, err := b.Apply(string(src))
	if err != nil {
		return "", err
	}
	file := filepath.Join(dir, b.Name+".go")
	overlay := filepath.Join(dir, b.Name+".json")
	if err := os.WriteFile(file, []byte(broken), 0o644); err != nil {
		return "", err
	}
	return overlay, writeOverlay(overlay, map[string]string{real: file})
}

func firstMatch(re *regexp.Regexp, s string) string {
	if m := re.FindString(s); m != "" {
		return m
	}
	return "(see its output)"
}

// tortureCross runs the mutex stress tests in torture mode for
// linux/goarch under qemu-user, and checks the torture test's counts.
func tortureCross(goarch string) func(context.Context, fork.Repo) error {
	return func(ctx context.Context, r fork.Repo) error {
		var buf bytes.Buffer
		err := crossarch.Run(ctx, crossarch.Options{
			Go:         r.GoCommand(),
			GOARCH:     goarch,
			Package:    "runtime",
			Run:        "TestRuntimeMutexStressInProcess|TestRuntimeMutexHeir|" + torture.Test,
			Env:        []string{"GOEXPERIMENT=spinbitmutex"},
			BuildFlags: []string{"-tags=" + torture.Tag},
			Stdout:     io.MultiWriter(os.Stdout, &buf),
		})
		if reason, ok := crossarch.Skipped(err); ok {
			return skip("%s", reason)
		}
		if err != nil {
			return err
		}
		return checkTortureStats(buf.String())
	}
}

// captureCommand runs name like command and returns its output, both
// streams, whether or not it failed.
func captureCommand(ctx context.Context, dir string, env []string, name string, args ...string) (string, error) {
	var buf bytes.Buffer
	err := runTo(ctx, &buf, dir, env, name, args...)
	return buf.String(), err
}

// teeCommand runs name like command, its output going to ours, and also
// returns it.
func teeCommand(ctx context.Context, dir string, env []string, name string, args ...string) (string, error) {
	var buf bytes.Buffer
	err := runTo(ctx, io.MultiWriter(os.Stdout, &buf), dir, env, name, args...)
	return buf.String(), err
}
