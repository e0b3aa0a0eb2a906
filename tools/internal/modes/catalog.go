package modes

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"go-spinbit.dev/tools/internal/apt"
)

// godebug is a mode that sets GODEBUG to setting.
func godebug(setting string) Mode {
	return Mode{Name: "GODEBUG=" + setting, Env: []string{"GODEBUG=" + setting}}
}

func envMode(kv string) Mode { return Mode{Name: kv, Env: []string{kv}} }

// plain is the one mode of a build that has no settings of its own.
var plain = []Mode{{Name: "default"}}

// ProgramModes are the runs of the plain program: the runtime settings of
// go1.23's runtime/extern.go (and asynctimerchan, of its go1.23 release
// notes) that change how memory is allocated and collected, how
// goroutines are scheduled and preempted, how timers work, or what the
// runtime's locks record, and LockOSThread-heavy runs.
var ProgramModes = []Mode{
	{Name: "default"},
	godebug("sbrk=1"),
	godebug("efence=1"),
	godebug("gcstoptheworld=1"),
	godebug("gcstoptheworld=2"),
	godebug("asyncpreemptoff=1"),
	godebug("clobberfree=1"),
	godebug("gccheckmark=1"),
	godebug("gcshrinkstackoff=1"),
	godebug("harddecommit=1"),
	godebug("madvdontneed=0"),
	godebug("disablethp=1"),
	godebug("memprofilerate=1"),
	godebug("asynctimerchan=1"),
	godebug("schedtrace=100,scheddetail=1"),
	{Name: "profile", Options: []string{"profile"}},
	{Name: "profile GODEBUG=runtimecontentionstacks=1", Env: []string{"GODEBUG=runtimecontentionstacks=1"}, Options: []string{"profile"}},
	envMode("GOGC=1"),
	envMode("GOMAXPROCS=1"),
	envMode("GOMAXPROCS=16"),
	{Name: "locked", Options: []string{"locked"}},
	{Name: "locked GOMAXPROCS=1", Env: []string{"GOMAXPROCS=1"}, Options: []string{"locked"}},
	{Name: "locked GODEBUG=asyncpreemptoff=1", Env: []string{"GODEBUG=asyncpreemptoff=1"}, Options: []string{"locked"}},
}

// Builds are the ways the contend code is built, by name.
var Builds = map[string]Build{
	// Without cgo, in every mode of ProgramModes.
	"program": {Name: "program", Kind: Program, Modes: ProgramModes},
	// With cgo: every 8th step calls C, which calls back into Go; also
	// LockOSThread-heavy and with one P.
	"cgo": {Name: "cgo", Kind: Program, Tags: []string{"contendcgo"}, CC: "gcc", Modes: []Mode{
		{Name: "default"},
		{Name: "locked", Options: []string{"locked"}},
		envMode("GOMAXPROCS=1"),
	}},
	// C threads call into Go: waves of pthreads, so that the runtime
	// gives them Ms (needm, extra Ms) and takes them back when they exit.
	"c-archive": {Name: "c-archive", Kind: CArchive, CC: "gcc", Modes: []Mode{{Name: "default"}, envMode("GOMAXPROCS=1")}},
	"c-shared":  {Name: "c-shared", Kind: CShared, CC: "gcc", Modes: []Mode{{Name: "default"}, envMode("GOMAXPROCS=1")}},
	"race":      {Name: "race", Kind: Program, Flags: []string{"-race"}, CC: "gcc", Modes: plain},
	"asan":      {Name: "asan", Kind: Program, Flags: []string{"-asan"}, CC: "gcc", Modes: plain},
	// -msan needs clang and its sanitizer runtime (NeedMSan).
	"msan": {Name: "msan", Kind: Program, Flags: []string{"-msan"}, CC: "clang", Modes: plain},
}

// NeedCC makes sure the C compiler of b is on PATH, installing it with
// apt-get where it can, and otherwise returns a *SkipError saying why
// not. A build without C needs nothing.
func NeedCC(ctx context.Context, b Build, stdout, stderr io.Writer) error {
	if b.CC == "" {
		return nil
	}
	_, err := apt.Machine.Find(ctx, stdout, stderr, apt.Need{Program: b.CC, Package: b.CC})
	var m *apt.MissingError
	if errors.As(err, &m) {
		return &SkipError{m.Reason}
	}
	return err
}

// NeedMSan makes sure clang can build and link a program with
// -fsanitize=memory, installing clang and, if its sanitizer runtime is
// missing, Debian's libclang-rt-N-dev for clang's major version N. It
// returns a *SkipError saying why not when it cannot.
func NeedMSan(ctx context.Context, stdout, stderr io.Writer) error {
	if err := NeedCC(ctx, Build{CC: "clang"}, stdout, stderr); err != nil {
		return err
	}
	probeErr := msanProbe(ctx)
	if probeErr == nil {
		return nil
	}
	v, err := exec.CommandContext(ctx, "clang", "-dumpversion").Output()
	if err != nil {
		return fmt.Errorf("clang -dumpversion: %v", err)
	}
	major, _, _ := strings.Cut(strings.TrimSpace(string(v)), ".")
	pkg := "libclang-rt-" + major + "-dev"
	how := fmt.Sprintf("clang cannot link with -fsanitize=memory (%v): install its sanitizer runtime (apt-get install %s)", probeErr, pkg)
	if apt.Machine.Euid() != 0 {
		return &SkipError{how + "; installing needs root"}
	}
	fmt.Fprintf(stderr, "clang cannot link with -fsanitize=memory; installing %s\n", pkg)
	if err := apt.Machine.Install(ctx, stdout, stderr, pkg); err != nil {
		return &SkipError{fmt.Sprintf("%s; installing it failed: %v", how, err)}
	}
	if err := msanProbe(ctx); err != nil {
		return &SkipError{fmt.Sprintf("clang still cannot link with -fsanitize=memory after installing %s: %v", pkg, err)}
	}
	return nil
}

// msanProbe builds and runs an empty C program with -fsanitize=memory.
func msanProbe(ctx context.Context) error {
	dir, err := os.MkdirTemp("", "msan-probe")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	src := filepath.Join(dir, "probe.c")
	if err := os.WriteFile(src, []byte("int main(void) { return 0; }\n"), 0o644); err != nil {
		return err
	}
	bin := filepath.Join(dir, "probe")
	if out, err := exec.CommandContext(ctx, "clang", "-fsanitize=memory", "-o", bin, src).CombinedOutput(); err != nil {
		return fmt.Errorf("%v: %s", err, tail(string(out), 5))
	}
	if out, err := exec.CommandContext(ctx, bin).CombinedOutput(); err != nil {
		return fmt.Errorf("running it: %v: %s", err, tail(string(out), 5))
	}
	return nil
}
