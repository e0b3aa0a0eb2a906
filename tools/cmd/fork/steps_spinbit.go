package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go-spinbit.dev/tools/internal/crossarch"
	"go-spinbit.dev/tools/internal/fork"
	"go-spinbit.dev/tools/internal/inorder"
	"go-spinbit.dev/tools/internal/torture"
)

// spinbitSteps check the spinbit mutex: upstream's tests with the experiment
// on and off and with lock ranking (only with -long), the fork's own mutex
// tests, and that the runtime builds for every OS with threads. The default
// run of every base together must stay within 45 minutes on 2 cold cores,
// so the checks that repeat another's coverage at more cost are -long: lock
// ranking, the unoptimized link (runtime/wait-nosplit disassembles an
// unoptimized build too), the stress on 386 and s390x (the fallback
// Xchg8, which the go1.27 series does not add; ppc64 is the big-endian
// run of the default), and on ppc64le (torture/cross-ppc64le runs the
// same tests there, in torture mode).
var spinbitSteps = []step{
	{name: "toolchain/version", run: versionChecks},
	{name: "runtime/test-short-nospinbit", slow: true, limit: 40 * time.Minute, run: goTest("nospinbitmutex", "-short", "runtime", "sync", "internal/runtime/atomic")},
	{name: "runtime/lockrank-spinbit", long: true, limit: 30 * time.Minute, run: goTest("staticlockranking,spinbitmutex", "runtime", "-run", "Lock|Mutex|Metrics|Sema")},
	// With the experiment off, lock ranking checks the tristate lock2 and
	// unlock2 that the series brings back, which runtime/test-short-nospinbit
	// runs without it: a -long step, to keep the default run in budget.
	{name: "runtime/lockrank-nospinbit", long: true, limit: 30 * time.Minute, run: goTest("staticlockranking,nospinbitmutex", "runtime", "-run", "Lock|Mutex|Metrics|Sema")},
	// The mutex tests, and each RuntimeMutex benchmark for a few
	// iterations, so that one that breaks fails here and not in the
	// middle of ./bench.bash -runtime.
	{name: "runtime/mutex-stress-spinbit", run: goTest("spinbitmutex", "runtime", "-run", "RuntimeMutex", "-bench", "RuntimeMutex", "-benchtime", "100x", "-count", "1", "-v")},
	{name: "runtime/mutex-stress-nospinbit", run: goTest("nospinbitmutex", "runtime", "-run", "RuntimeMutex", "-bench", "RuntimeMutex", "-benchtime", "100x", "-count", "1")},
	{name: "build/other-os", slow: true, limit: 20 * time.Minute, run: buildOtherOSes("runtime")},
	{name: "build/nosplit-unoptimized", long: true, limit: 20 * time.Minute, run: linkUnoptimized},
	// The stress test on other architectures, experiment on: 386 runs the
	// fallback Xchg8 natively (a skip where the kernel cannot); arm64,
	// ppc64le, ppc64 (big-endian) and s390x (big-endian, fallback) run
	// under qemu-user.
	{name: "spinbit/cross-386", long: true, run: crossStress("386")},
	{name: "spinbit/cross-arm64", slow: true, run: crossStress("arm64")},
	{name: "spinbit/cross-ppc64le", long: true, run: crossStress("ppc64le")},
	{name: "spinbit/cross-ppc64", slow: true, run: crossStress("ppc64")},
	{name: "spinbit/cross-s390x", long: true, run: crossStress("s390x")},
}

// crossStress runs the runtime mutex tests for linux/goarch with the
// experiment on. The in-process stress test stands in for the one with the
// main thread, whose child process qemu-user cannot start. The key tests
// check the bytes the fast paths swap and the M pointer, which differ by
// byte order and pointer size.
func crossStress(goarch string) func(context.Context, fork.Repo) error {
	return crossTest(crossarch.Options{
		GOARCH:  goarch,
		Package: "runtime",
		Run:     "TestRuntimeMutexStressInProcess|TestRuntimeMutexHeir|TestRuntimeMutexKey",
		Env:     []string{"GOEXPERIMENT=spinbitmutex"},
		Flags:   []string{"-test.v"},
	})
}

// threadOSes are the GOOS values with threads, each with a GOARCH to build
// it for; lock_spinbit.go serves all of them.
var threadOSes = [][2]string{
	{"darwin", "arm64"}, {"windows", "amd64"}, {"freebsd", "amd64"}, {"openbsd", "amd64"},
	{"netbsd", "amd64"}, {"dragonfly", "amd64"}, {"solaris", "amd64"}, {"illumos", "amd64"},
	{"aix", "ppc64"}, {"plan9", "amd64"},
}

// buildOtherOSes builds pkg (runtime in the default run, std with -long)
// for every OS with threads, with the experiment on and off, and on in
// torture mode (-tags spinbittorture), so no OS is left uncompiled. Then,
// so that the torture builds cannot pass by leaving the tag out, the
// runtime for the first of those OSes, built as they are, must fail with
// a file that only torture mode compiles and that does not compile.
func buildOtherOSes(pkg string) func(context.Context, fork.Repo) error {
	return func(ctx context.Context, r fork.Repo) error {
		var targets []osBuild
		for _, mode := range []struct{ exp, tags string }{{"spinbitmutex", ""}, {"nospinbitmutex", ""}, {"spinbitmutex", torture.Tag}} {
			for _, t := range threadOSes {
				targets = append(targets, osBuild{t[0], t[1], mode.exp, mode.tags})
			}
		}
		// Each build is mostly one chain of packages, one compile at a
		// time: run as many as there are CPUs at once.
		errs := inorder.Run(os.Stdout, len(targets), 0, func(i int) (string, error) {
			return targets[i].build(ctx, r, pkg)
		})
		var failed []string
		for i, err := range errs {
			if err != nil {
				failed = append(failed, targets[i].String())
			}
		}
		if len(failed) > 0 {
			return fmt.Errorf("%s does not build for %s", pkg, strings.Join(failed, " "))
		}
		return tortureTagReachesBuild(ctx, r, osBuild{threadOSes[0][0], threadOSes[0][1], "spinbitmutex", torture.Tag})
	}
}

// An osBuild is a build of buildOtherOSes: for GOOS and GOARCH, with
// GOEXPERIMENT exp, and the build tags tags.
type osBuild struct{ goos, goarch, exp, tags string }

func (b osBuild) String() string {
	s := b.goos + "/" + b.goarch + "/" + b.exp
	if b.tags != "" {
		s += "/" + b.tags
	}
	return s
}

// build runs go build of pkg as b says, with the flags extra before pkg,
// and returns the command and its output.
func (b osBuild) build(ctx context.Context, r fork.Repo, pkg string, extra ...string) (string, error) {
	env := []string{"GOOS=" + b.goos, "GOARCH=" + b.goarch, "GOEXPERIMENT=" + b.exp, "CGO_ENABLED=0"}
	args := append([]string{"build", "-tags=" + b.tags}, extra...)
	out, err := captureCommand(ctx, r.Root, env, r.GoCommand(), append(args, pkg)...)
	return fmt.Sprintf("go %s  GOOS=%s GOARCH=%s GOEXPERIMENT=%s\n%s", strings.Join(append(args, pkg), " "), b.goos, b.goarch, b.exp, out), err
}

// tortureTagReachesBuild runs b, a torture-mode build of the runtime, with
// a file added by go build -overlay that only torture mode compiles and
// that refers to a name nobody declares: the build must fail, on that
// name.
func tortureTagReachesBuild(ctx context.Context, r fork.Repo, b osBuild) error {
	dir, err := os.MkdirTemp("", "torture-tag")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	const undeclared = "mutexTortureTagCheckUndeclared"
	src := "//go:build " + torture.Tag + "\n\npackage runtime\n\nvar _ = " + undeclared + "\n"
	file, overlay := filepath.Join(dir, "lock_torture_tagcheck.go"), filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		return err
	}
	target := filepath.Join(r.Goroot(), "src", "runtime", "lock_torture_tagcheck.go")
	if err := writeOverlay(overlay, map[string]string{target: file}); err != nil {
		return err
	}
	out, err := b.build(ctx, r, "runtime", "-overlay", overlay)
	switch {
	case err == nil:
		return fmt.Errorf("the runtime built as %s with a file that only torture mode compiles and that cannot compile: the torture builds do not compile torture mode", b)
	case !strings.Contains(out, undeclared):
		return fmt.Errorf("the runtime built as %s with a file that cannot compile failed, but not on that file:\n%s", b, out)
	}
	fmt.Printf("%s: a file that only torture mode compiles is compiled (its error: undefined %s)\n", b, undeclared)
	return nil
}

// versionNames checks that the fork names itself, <release>-spinbit, and
// the experiment when it is turned off, as Go does: in go version, in
// runtime.Version, in what go version says of a binary, and in the build
// settings go version -m lists.
func versionNames(ctx context.Context, r fork.Repo) error {
	out, err := output(ctx, r.Root, nil, r.GoCommand(), "version")
	if err != nil {
		return err
	}
	name := r.Base + "-spinbit"
	if !strings.HasPrefix(out, "go version "+name+" ") {
		return fmt.Errorf("go version printed %q, want %s", out, name)
	}
	dir, err := os.MkdirTemp("", "version")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	src := "package main\n\nimport \"runtime\"\n\nfunc main() { println(runtime.Version()) }\n"
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		return err
	}
	for _, c := range []struct{ exp, want string }{
		{"", name},
		{"nospinbitmutex", name + " X:nospinbitmutex"},
	} {
		bin := filepath.Join(dir, "v"+c.exp)
		env := []string{"GOEXPERIMENT=" + c.exp}
		if err := command(ctx, dir, env, r.GoCommand(), "build", "-o", bin, "main.go"); err != nil {
			return err
		}
		got, err := output(ctx, dir, nil, bin)
		if err != nil {
			return err
		}
		if got != c.want {
			return fmt.Errorf("GOEXPERIMENT=%q: runtime.Version() = %q, want %q", c.exp, got, c.want)
		}
		got, err = output(ctx, dir, nil, r.GoCommand(), "version", bin)
		if err != nil {
			return err
		}
		if want := bin + ": " + c.want; got != want {
			return fmt.Errorf("GOEXPERIMENT=%q: go version BINARY = %q, want %q", c.exp, got, want)
		}
		fmt.Printf("GOEXPERIMENT=%q: %s\n", c.exp, got)
		if c.exp == "" {
			continue
		}
		// go version -m lists the build settings, the experiment among
		// them.
		got, err = output(ctx, dir, nil, r.GoCommand(), "version", "-m", bin)
		if err != nil {
			return err
		}
		if want := "\tbuild\tGOEXPERIMENT=" + c.exp + "\n"; !strings.Contains(got+"\n", want) {
			return fmt.Errorf("GOEXPERIMENT=%q: go version -m BINARY lists no build setting %q:\n%s", c.exp, strings.TrimSpace(want), got)
		}
	}
	return nil
}
