package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"go-spinbit.dev/tools/internal/fork"
	"go-spinbit.dev/tools/internal/model"
	"go-spinbit.dev/tools/internal/objdump"
	"go-spinbit.dev/tools/internal/torture"
)

// machineCodeSteps look at the spinbit mutex's machine code: that an M's
// time on a wait stack cannot grow a goroutine's stack, and that the fast
// paths hold no full memory barrier.
var machineCodeSteps = []step{
	{name: "runtime/wait-nosplit", run: waitNoSplit},
	{name: "runtime/fast-path-barriers", run: fastPathBarriers},
}

// waitWindows are the functions of lock_spinbit.go that hold the whole of
// an M's time on a mutex's wait stack, and the crash path's wait, which
// may run inside it: nothing they reach may check the stack bound.
var waitWindows = []string{"runtime.mutexSleepOnStack", "runtime.mutexCrashWait"}

// windowTrusted are the functions that waitWindows may reach and that the
// check does not look into, with the reason for each. Any other call to
// systemstack, whose function the check cannot follow, is reported.
var windowTrusted = map[string]string{
	"runtime.nanotime1.abi0": "assembly without a bound check that calls the vDSO's clock on the system stack",
	"runtime.throw":          "the program dies there: a nested wait cannot matter (torture mode's lost-wakeup throw)",
	"runtime.futexwakeup":    "upstream's nosplit futex wakeup, which calls systemstack only to print an error before it crashes the program on purpose",
}

// waitNoSplitTargets are the GOOS/GOARCH pairs whose machine code
// waitNoSplit reads: the GOARCHes where the experiment is on by default.
var waitNoSplitTargets = [][2]string{
	{"linux", "amd64"}, {"linux", "arm64"}, {"linux", "ppc64le"}, {"linux", "ppc64"},
}

// waitNoSplit disassembles an empty program built with the experiment on,
// for each of waitNoSplitTargets, and in torture mode and without
// optimization (-N -l) on amd64, and fails
// if any function that waitWindows reach checks the stack bound (calls
// morestack) or calls through a register, windowTrusted aside. It then builds the program once more with the
// //go:nosplit of the futex semasleep dropped (in the base's tree, the
// lock_futex*.go file that declares it), and fails unless
// the check reports semasleep, and unless TestRuntimeMutexWaitNoSplit,
// built the same way, throws in semasleep's bound check: a check that
// cannot fail proves nothing. Last, windowNoWriteBarrier checks that the
// compiler keeps write barriers out of the same functions.
func waitNoSplit(ctx context.Context, r fork.Repo) error {
	dir, err := os.MkdirTemp("", "wait-nosplit")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	type build struct {
		goos, goarch string
		flags        []string
		what         string
	}
	var builds []build
	for _, t := range waitNoSplitTargets {
		builds = append(builds, build{t[0], t[1], nil, ""})
	}
	builds = append(builds,
		build{"linux", "amd64", []string{"-tags=" + torture.Tag}, " in torture mode"},
		// Without inlining, every small helper the window calls is a
		// call of its own, with its own bound check unless nosplit.
		build{"linux", "amd64", []string{"-gcflags=all=-N -l"}, " unoptimized"})

	var failed []string
	for _, b := range builds {
		p, err := disassemble(ctx, r, dir, nil, b.goos, b.goarch, b.flags...)
		if err != nil {
			return err
		}
		name := b.goos + "/" + b.goarch + b.what
		for _, w := range waitWindows {
			if p[w] == nil {
				return fmt.Errorf("%s: %s is not in the disassembly (inlined or renamed?): the check would not look at it", name, w)
			}
		}
		findings := windowFindings(p)
		reached := p.Reached(waitWindows...)
		fmt.Printf("%s: %s reach %d functions: %s\n", name, strings.Join(waitWindows, " and "), len(reached), strings.Join(reached, " "))
		for _, f := range findings {
			fmt.Printf("\t%s\n", f)
		}
		if len(findings) > 0 {
			failed = append(failed, name)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("an M's time on a mutex's wait stack can grow its goroutine's stack (and so lock another mutex) on %s: make the functions named above //go:nosplit or run them on the system stack", strings.Join(failed, ", "))
	}

	// The same check on a build that drops one //go:nosplit must fail.
	real, err := model.SemasleepFile(filepath.Join(r.Goroot(), "src", "runtime"))
	if err != nil {
		return err
	}
	src, err := os.ReadFile(real)
	if err != nil {
		return err
	}
	const marked = "//go:nosplit\nfunc semasleep("
	if n := strings.Count(string(src), marked); n != 1 {
		return fmt.Errorf("%s has %d nosplit semasleep declarations, want 1: update this step's self-check to what the file holds now", filepath.Base(real), n)
	}
	dropped := filepath.Join(dir, filepath.Base(real))
	if err := os.WriteFile(dropped, []byte(strings.Replace(string(src), marked, "func semasleep(", 1)), 0o644); err != nil {
		return err
	}
	overlay := filepath.Join(dir, "overlay.json")
	if err := writeOverlay(overlay, map[string]string{real: dropped}); err != nil {
		return err
	}
	p, err := disassemble(ctx, r, dir, nil, "linux", "amd64", "-overlay", overlay)
	if err != nil {
		return err
	}
	reported := false
	for _, f := range windowFindings(p) {
		if f.Path[len(f.Path)-1] == "runtime.semasleep" {
			fmt.Printf("with semasleep's //go:nosplit dropped, the check reports: %s\n", f)
			reported = true
		}
	}
	if !reported {
		return fmt.Errorf("with semasleep's //go:nosplit dropped, the check did not report semasleep: it cannot see what it is meant to")
	}

	// And TestRuntimeMutexWaitNoSplit, which forces every bound check in
	// the window to fail, must throw there.
	out, err := captureCommand(ctx, r.Root, tortureEnv, r.GoCommand(), "test", "-vet=off", "-overlay", overlay,
		"-run", "^TestRuntimeMutexWaitNoSplit$", "-count", "1", "-timeout", "120s", "runtime")
	if err == nil || !splitAtBadTime.MatchString(out) {
		return fmt.Errorf("with semasleep's //go:nosplit dropped, TestRuntimeMutexWaitNoSplit did not throw %q:\n%s", splitAtBadTime, indent(out))
	}
	fmt.Printf("with semasleep's //go:nosplit dropped, TestRuntimeMutexWaitNoSplit failed: %s\n", splitAtBadTime.FindString(out))
	return windowNoWriteBarrier(ctx, r, dir)
}

// splitAtBadTime is the runtime's throw when a goroutine checks its stack
// bound while throwsplit is set.
var splitAtBadTime = regexp.MustCompile(`fatal error: runtime: stack split at bad time`)

// windowFindings returns what objdump.NoSplitFrom finds from waitWindows,
// not looking into windowTrusted.
func windowFindings(p objdump.Program) []objdump.Finding {
	trusted := map[string]bool{}
	for name := range windowTrusted {
		trusted[name] = true
	}
	return p.NoSplitFrom(trusted, waitWindows...)
}

// barrierTargets are the GOARCHes, and their variants, whose fast paths
// fastPathBarriers reads, with the mnemonics of a full barrier there.
var barrierTargets = []struct {
	goarch string
	env    []string
	full   []string
	light  []string // the barriers an acquire or release takes, for the report
}{
	{"ppc64le", nil, []string{"SYNC", "HWSYNC"}, []string{"LWSYNC", "ISYNC"}},
	{"ppc64", nil, []string{"SYNC", "HWSYNC"}, []string{"LWSYNC", "ISYNC"}},
	{"arm64", nil, []string{"DMB", "DSB"}, nil},
	{"arm64", []string{"GOARM64=v8.1"}, []string{"DMB", "DSB"}, nil},
}

// fastPathBarriers disassembles lock2 and unlock2, the uncontended paths
// of the mutex, for ppc64x and arm64 and fails if either holds a full
// memory barrier (or if no function of the runtime shows one, the proof
// that the step can see them): each needs only its one atomic swap, whose own
// acquire and release order the flag load after it (see lock2's comment).
// go1.24.13's lock2 and unlock2 take no full barrier on their uncontended
// paths either.
func fastPathBarriers(ctx context.Context, r fork.Repo) error {
	dir, err := os.MkdirTemp("", "fast-path-barriers")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var failed []string
	for _, t := range barrierTargets {
		p, err := disassemble(ctx, r, dir, t.env, "linux", t.goarch)
		if err != nil {
			return err
		}
		name := strings.TrimSpace("linux/" + t.goarch + " " + strings.Join(t.env, " "))
		// The runtime holds full barriers elsewhere (unlock2Wake's loads
		// on ppc64x, publicationBarrier on arm64): if none shows, objdump
		// spells them otherwise, and a count of zero below means nothing.
		elsewhere := 0
		for _, f := range p {
			elsewhere += f.Count(t.full...)
		}
		if elsewhere == 0 {
			return fmt.Errorf("%s: the runtime's disassembly shows no full barrier (%s) at all: this step cannot see them", name, strings.Join(t.full, ", "))
		}
		for _, fn := range []string{"runtime.lock2", "runtime.unlock2"} {
			f := p[fn]
			if f == nil {
				return fmt.Errorf("%s: %s is not in the disassembly", name, fn)
			}
			full := f.Count(t.full...)
			fmt.Printf("%s: %s: %d instructions, %d full barriers (%s)", name, fn, len(f.Insts), full, strings.Join(t.full, ", "))
			if len(t.light) > 0 {
				fmt.Printf(", %d light (%s)", f.Count(t.light...), strings.Join(t.light, ", "))
			}
			fmt.Println()
			if full > 0 {
				failed = append(failed, name+" "+fn)
			}
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("full memory barriers on the mutex's fast paths: %s", strings.Join(failed, ", "))
	}
	return nil
}

// disassemble builds an empty program for goos/goarch with the experiment
// on, the environment additions env and the go build flags given, and
// returns the runtime's functions in its machine code.
func disassemble(ctx context.Context, r fork.Repo, dir string, env []string, goos, goarch string, flags ...string) (objdump.Program, error) {
	main := filepath.Join(dir, "main.go")
	if err := os.WriteFile(main, []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		return nil, err
	}
	bin := filepath.Join(dir, "main-"+goos+"-"+goarch)
	env = append([]string{"GOOS=" + goos, "GOARCH=" + goarch, "GOEXPERIMENT=spinbitmutex", "CGO_ENABLED=0"}, env...)
	args := append(append([]string{"build"}, flags...), "-o", bin, "main.go")
	if out, err := captureCommand(ctx, dir, env, r.GoCommand(), args...); err != nil {
		return nil, fmt.Errorf("go %s for %s/%s: %v\n%s", strings.Join(args, " "), goos, goarch, err, out)
	}
	text, err := output(ctx, dir, nil, r.GoCommand(), "tool", "objdump", "-s", `^(runtime|internal/runtime/atomic)\.`, bin)
	if err != nil {
		return nil, fmt.Errorf("go tool objdump %s: %v", bin, err)
	}
	return objdump.Parse(strings.NewReader(text))
}
