// Package crossarch builds a package's tests with the fork's go command for
// another GOARCH and runs them: natively where the host can execute that
// GOARCH, and otherwise under QEMU's user-mode emulator (qemu-user-static).
//
// All targets are GOOS=linux with cgo off, so the test binaries are static
// and need no target C library under the emulator.
package crossarch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"go-spinbit.dev/tools/internal/apt"
	"go-spinbit.dev/tools/internal/toolchain"
)

// Options says what to build and run.
type Options struct {
	// Go is the path of the fork's go command. Required.
	Go string
	// GOARCH is the target architecture. Required.
	GOARCH string
	// Package is the import path whose tests run, such as
	// "internal/runtime/atomic". Required.
	Package string
	// Run is the -test.run pattern; empty runs every test.
	Run string
	// Env is added to the environment of both the build and the test
	// binary, after the settings Run makes itself, so it can add variables
	// such as GOEXPERIMENT or GOARM64.
	Env []string
	// Flags are extra flags for the test binary, such as "-test.count=2".
	Flags []string
	// BuildFlags are extra flags for go list and go test -c, such as
	// "-tags=spinbittorture".
	BuildFlags []string
	// CPU, if set, is the CPU model the emulator presents (QEMU_CPU), for
	// example "cortex-a57" for an arm64 without the LSE atomics. It is an
	// error to set it for a GOARCH that runs natively.
	CPU string
	// Timeout bounds the run of the test binary (not the build). Zero means
	// DefaultTimeout.
	Timeout time.Duration
	// Dir is the working directory of the go command; empty means the
	// current one. It matters when Package is a relative or module path.
	Dir string
	// Stdout and Stderr receive the output of the build and of the test
	// binary; nil means os.Stdout and os.Stderr.
	Stdout, Stderr io.Writer
}

// DefaultTimeout is the time a test binary may run when Options.Timeout is
// zero. Emulation is slow, so it is generous.
const DefaultTimeout = 15 * time.Minute

// SkippedError reports that the tests could not run on this host, and why.
// It is never returned for tests that ran, whatever their outcome.
type SkippedError struct {
	GOARCH string
	Reason string
}

func (e *SkippedError) Error() string {
	return fmt.Sprintf("GOARCH=%s tests not run: %s", e.GOARCH, e.Reason)
}

// Skipped reports whether err says the tests were not run, and if so why.
func Skipped(err error) (reason string, ok bool) {
	var s *SkippedError
	if errors.As(err, &s) {
		return s.Reason, true
	}
	return "", false
}

// emulators maps each GOARCH that we run under emulation to the name of the
// qemu-user-static binary for it, as Debian's qemu-user-static installs it.
var emulators = map[string]string{
	"386":      "qemu-i386-static",
	"amd64":    "qemu-x86_64-static",
	"arm":      "qemu-arm-static",
	"arm64":    "qemu-aarch64-static",
	"loong64":  "qemu-loongarch64-static",
	"mips":     "qemu-mips-static",
	"mipsle":   "qemu-mipsel-static",
	"mips64":   "qemu-mips64-static",
	"mips64le": "qemu-mips64el-static",
	"ppc64":    "qemu-ppc64-static",
	"ppc64le":  "qemu-ppc64le-static",
	"riscv64":  "qemu-riscv64-static",
	"s390x":    "qemu-s390x-static",
}

// runsNatively reports whether a linux/goarch binary runs directly on a
// linux/hostArch machine.
func runsNatively(goarch, hostArch string) bool {
	if goarch == hostArch {
		return true
	}
	// x86-64 Linux kernels run 386 binaries (IA32 emulation), and so do
	// arm64 kernels with 32-bit support run arm, but the latter is rare
	// enough in practice that arm goes through QEMU.
	return goarch == "386" && hostArch == "amd64"
}

// Emulator returns the name of the qemu-user-static binary that runs
// linux/goarch programs on a linux/hostArch host, or "" if they run natively.
func Emulator(goarch, hostArch string) (string, error) {
	if runsNatively(goarch, hostArch) {
		return "", nil
	}
	if q, ok := emulators[goarch]; ok {
		return q, nil
	}
	return "", fmt.Errorf("crossarch: no way known to run GOARCH=%s on %s", goarch, hostArch)
}

// buildEnv is the environment for the fork's go command: env less anything
// that could pick another toolchain, another target or extra flags, plus
// the target settings, plus extra.
func buildEnv(env []string, goarch string, extra []string) []string {
	out := toolchain.EnvWithout(env, "GOROOT", "GOFLAGS", "GOTOOLCHAIN", "GOOS", "GOARCH", "CGO_ENABLED", "GOEXPERIMENT",
		"GO386", "GOAMD64", "GOARM", "GOARM64", "GOMIPS", "GOMIPS64", "GOPPC64", "GORISCV64", "GOWASM",
		"QEMU_CPU", "QEMU_LD_PREFIX")
	out = append(out, "GOOS=linux", "GOARCH="+goarch, "CGO_ENABLED=0", "GOTOOLCHAIN=local", "GOFLAGS=")
	return append(out, extra...)
}

// testArgs are the test binary's flags. The binary's own -test.timeout is a
// little shorter than the run's limit so that, if it fires, the test binary
// prints its goroutines before it is killed.
func testArgs(run string, timeout time.Duration, flags []string) []string {
	args := []string{"-test.v", "-test.short"}
	if run != "" {
		args = append(args, "-test.run", run)
	}
	inner := timeout - timeout/10
	if inner <= 0 {
		inner = timeout
	}
	args = append(args, "-test.timeout", inner.String())
	return append(args, flags...)
}

// command returns the argv that runs bin with args, through emulator unless
// it is "".
func command(emulator, bin string, args []string) []string {
	argv := []string{bin}
	if emulator != "" {
		argv = []string{emulator, bin}
	}
	return append(argv, args...)
}

// testBinaryName is the file name for the test binary of pkg for goarch.
func testBinaryName(pkg, goarch string) string {
	return strings.ReplaceAll(pkg, "/", "_") + "." + goarch + ".test"
}

// host is what Run needs from the machine, so that tests can replace it.
type host struct {
	arch string
	apt  apt.Host // finds qemu-user-static's emulators, installing them if it can
}

var realHost = host{arch: runtime.GOARCH, apt: apt.Machine}

// findEmulator returns the path of the emulator binary name, installing
// qemu-user-static first if it is missing and can be installed. It returns
// a *SkippedError if the emulator stays unavailable.
func (h host) findEmulator(ctx context.Context, goarch, name string, stdout, stderr io.Writer) (string, error) {
	paths, err := h.apt.Find(ctx, stdout, stderr, apt.Need{Program: name, Package: "qemu-user-static"})
	var missing *apt.MissingError
	if errors.As(err, &missing) {
		return "", &SkippedError{goarch, missing.Reason}
	}
	if err != nil {
		return "", err
	}
	return paths[0], nil
}

// Run builds the tests of opts.Package for linux/opts.GOARCH with opts.Go
// and runs them. It returns nil if they passed, a *SkippedError if they
// could not be run here, and any other error if the build or the tests
// failed.
func Run(ctx context.Context, opts Options) error {
	return realHost.run(ctx, opts)
}

func (h host) run(ctx context.Context, opts Options) error {
	if opts.Go == "" || opts.GOARCH == "" || opts.Package == "" {
		return fmt.Errorf("crossarch: Options.Go, GOARCH and Package are required")
	}
	stdout, stderr := opts.Stdout, opts.Stderr
	if stdout == nil {
		stdout = os.Stdout
	}
	if stderr == nil {
		stderr = os.Stderr
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	emuName, err := Emulator(opts.GOARCH, h.arch)
	if err != nil {
		return err
	}
	if emuName == "" && opts.CPU != "" {
		return fmt.Errorf("crossarch: CPU %q given, but GOARCH=%s runs natively here", opts.CPU, opts.GOARCH)
	}
	// Look for the emulator before building, so that a host that cannot run
	// the tests finds out quickly.
	var emulator string
	if emuName != "" {
		emulator, err = h.findEmulator(ctx, opts.GOARCH, emuName, stdout, stderr)
		if err != nil {
			return err
		}
	}

	env := buildEnv(os.Environ(), opts.GOARCH, opts.Env)

	// The test binary runs in the package's directory, as go test would run
	// it, so that it finds its testdata.
	listArgs := append(append([]string{"list"}, opts.BuildFlags...), "-f", "{{.Dir}}", opts.Package)
	list := exec.CommandContext(ctx, opts.Go, listArgs...)
	list.Dir = opts.Dir
	list.Env = env
	list.Stderr = stderr
	out, err := list.Output()
	if err != nil {
		return fmt.Errorf("crossarch: go list %s (GOARCH=%s): %v", opts.Package, opts.GOARCH, err)
	}
	pkgDir := strings.TrimSpace(string(out))

	tmp, err := os.MkdirTemp("", "crossarch")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, testBinaryName(opts.Package, opts.GOARCH))
	buildArgs := append(append([]string{"test", "-c"}, opts.BuildFlags...), "-o", bin, opts.Package)
	build := exec.CommandContext(ctx, opts.Go, buildArgs...)
	build.Dir = opts.Dir
	build.Env = env
	build.Stdout, build.Stderr = stdout, stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("crossarch: go test -c %s (GOARCH=%s): %v", opts.Package, opts.GOARCH, err)
	}
	if _, err := os.Stat(bin); err != nil {
		// go test -c writes nothing for a package without tests.
		return fmt.Errorf("crossarch: go test -c %s (GOARCH=%s) wrote no test binary: %v", opts.Package, opts.GOARCH, err)
	}

	err = h.runTest(ctx, opts, emulator, bin, pkgDir, env, timeout, stdout, stderr)
	if emuName == "" && opts.GOARCH != h.arch && errors.Is(err, syscall.ENOEXEC) {
		// This kernel cannot run the "native" GOARCH after all (an x86-64
		// kernel without IA32 emulation, say): try the emulator.
		if opts.GOARCH == "386" {
			// qemu-user's i386 emulation cannot run Go programs: its
			// signal delivery breaks the runtime's g register (upstream
			// go1.23.12's own hello world dies with "bad g in signal
			// handler" or "morestack on gsignal" there), so a failure
			// would say nothing about the fork.
			return &SkippedError{opts.GOARCH, fmt.Sprintf("this kernel does not run 386 binaries (%v), and qemu-i386 does not run Go programs, upstream's included", err)}
		}
		fmt.Fprintf(stderr, "crossarch: this kernel does not run GOARCH=%s binaries (%v); trying QEMU\n", opts.GOARCH, err)
		name, ok := emulators[opts.GOARCH]
		if !ok {
			return &SkippedError{opts.GOARCH, fmt.Sprintf("the kernel cannot execute GOARCH=%s binaries and no emulator is known", opts.GOARCH)}
		}
		emulator, err = h.findEmulator(ctx, opts.GOARCH, name, stdout, stderr)
		if err != nil {
			return err
		}
		err = h.runTest(ctx, opts, emulator, bin, pkgDir, env, timeout, stdout, stderr)
	}
	return err
}

// runTest runs the test binary bin, through emulator unless it is "".
func (h host) runTest(ctx context.Context, opts Options, emulator, bin, pkgDir string, env []string, timeout time.Duration, stdout, stderr io.Writer) error {
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	argv := command(emulator, bin, testArgs(opts.Run, timeout, opts.Flags))
	cmd := exec.CommandContext(runCtx, argv[0], argv[1:]...)
	cmd.Dir = pkgDir
	cmd.Env = env
	if opts.CPU != "" {
		cmd.Env = append(cmd.Env, "QEMU_CPU="+opts.CPU)
	}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	how := "natively"
	if emulator != "" {
		how = "under " + filepath.Base(emulator)
		if opts.CPU != "" {
			how += " (QEMU_CPU=" + opts.CPU + ")"
		}
	}
	fmt.Fprintf(stderr, "crossarch: running %s tests for GOARCH=%s %s\n", opts.Package, opts.GOARCH, how)
	if err := cmd.Run(); err != nil {
		if runCtx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
			return fmt.Errorf("crossarch: %s tests for GOARCH=%s did not finish within %v", opts.Package, opts.GOARCH, timeout)
		}
		return fmt.Errorf("crossarch: %s tests for GOARCH=%s %s failed: %w", opts.Package, opts.GOARCH, how, err)
	}
	return nil
}
