package crossarch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"go-spinbit.dev/tools/internal/apt"
)

func TestEmulator(t *testing.T) {
	for _, tt := range []struct {
		goarch, host, want string
	}{
		{"amd64", "amd64", ""},
		{"386", "amd64", ""},
		{"arm64", "amd64", "qemu-aarch64-static"},
		{"ppc64le", "amd64", "qemu-ppc64le-static"},
		{"ppc64", "amd64", "qemu-ppc64-static"},
		{"s390x", "amd64", "qemu-s390x-static"},
		{"arm64", "arm64", ""},
		{"386", "arm64", "qemu-i386-static"},
		{"amd64", "arm64", "qemu-x86_64-static"},
	} {
		got, err := Emulator(tt.goarch, tt.host)
		if err != nil || got != tt.want {
			t.Errorf("Emulator(%q, %q) = %q, %v; want %q, nil", tt.goarch, tt.host, got, err, tt.want)
		}
	}
	if got, err := Emulator("sparc64", "amd64"); err == nil {
		t.Errorf("Emulator(sparc64, amd64) = %q, nil; want an error", got)
	}
}

func TestBuildEnv(t *testing.T) {
	in := []string{
		"HOME=/root",
		"GOROOT=/usr/local/go",
		"GOFLAGS=-buildvcs=false",
		"GOTOOLCHAIN=go1.26.0",
		"GOOS=windows",
		"GOARCH=amd64",
		"CGO_ENABLED=1",
		"GOEXPERIMENT=nocoverageredesign",
		"GOARM64=v9.0",
		"QEMU_CPU=max",
		"PATH=/bin",
	}
	got := buildEnv(in, "ppc64", []string{"GOEXPERIMENT=spinbitmutex"})
	want := []string{
		"HOME=/root",
		"PATH=/bin",
		"GOOS=linux",
		"GOARCH=ppc64",
		"CGO_ENABLED=0",
		"GOTOOLCHAIN=local",
		"GOFLAGS=",
		"GOEXPERIMENT=spinbitmutex",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("buildEnv:\ngot  %q\nwant %q", got, want)
	}
}

func TestTestArgs(t *testing.T) {
	got := testArgs("Xchg8", 10*time.Minute, []string{"-test.count=2"})
	want := []string{"-test.v", "-test.short", "-test.run", "Xchg8", "-test.timeout", "9m0s", "-test.count=2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("testArgs:\ngot  %q\nwant %q", got, want)
	}
	got = testArgs("", time.Minute, nil)
	want = []string{"-test.v", "-test.short", "-test.timeout", "54s"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("testArgs without -run:\ngot  %q\nwant %q", got, want)
	}
}

func TestCommand(t *testing.T) {
	args := []string{"-test.v"}
	if got, want := command("", "/tmp/x.test", args), []string{"/tmp/x.test", "-test.v"}; !reflect.DeepEqual(got, want) {
		t.Errorf("native command = %q, want %q", got, want)
	}
	if got, want := command("/usr/bin/qemu-s390x-static", "/tmp/x.test", args), []string{"/usr/bin/qemu-s390x-static", "/tmp/x.test", "-test.v"}; !reflect.DeepEqual(got, want) {
		t.Errorf("emulated command = %q, want %q", got, want)
	}
	if got, want := testBinaryName("internal/runtime/atomic", "s390x"), "internal_runtime_atomic.s390x.test"; got != want {
		t.Errorf("testBinaryName = %q, want %q", got, want)
	}
}

// fakeHost is a host whose PATH holds the names in path (until installed is
// set, when it also holds those in afterInstall).
type fakeHost struct {
	path, afterInstall []string
	euid               int
	installErr         error
	installs           int
}

func (f *fakeHost) host() host {
	return host{
		arch: "amd64",
		apt: apt.Host{
			LookPath: func(name string) (string, error) {
				list := f.path
				if f.installs > 0 {
					list = append(append([]string(nil), f.path...), f.afterInstall...)
				}
				for _, p := range list {
					if p == name {
						return "/usr/bin/" + name, nil
					}
				}
				return "", exec.ErrNotFound
			},
			Euid: func() int { return f.euid },
			Install: func(context.Context, io.Writer, io.Writer, ...string) error {
				f.installs++
				return f.installErr
			},
		},
	}
}

func TestFindEmulator(t *testing.T) {
	const q = "qemu-ppc64-static"
	for _, tt := range []struct {
		name         string
		fake         fakeHost
		wantPath     string
		wantSkip     string // substring of the skip reason; "" if no skip
		wantInstalls int
	}{
		{
			name:     "present",
			fake:     fakeHost{path: []string{q}, euid: 1000},
			wantPath: "/usr/bin/" + q,
		},
		{
			name:     "missing, not root",
			fake:     fakeHost{path: []string{"apt-get"}, euid: 1000, afterInstall: []string{q}},
			wantSkip: "needs root",
		},
		{
			name:     "missing, no apt-get",
			fake:     fakeHost{euid: 0, afterInstall: []string{q}},
			wantSkip: "no apt-get",
		},
		{
			name:         "installed",
			fake:         fakeHost{path: []string{"apt-get"}, euid: 0, afterInstall: []string{q}},
			wantPath:     "/usr/bin/" + q,
			wantInstalls: 1,
		},
		{
			name:         "install fails",
			fake:         fakeHost{path: []string{"apt-get"}, euid: 0, afterInstall: []string{q}, installErr: errors.New("apt-get update: exit status 100")},
			wantSkip:     "exit status 100",
			wantInstalls: 1,
		},
		{
			name:         "install does not provide it",
			fake:         fakeHost{path: []string{"apt-get"}, euid: 0},
			wantSkip:     "still not on PATH",
			wantInstalls: 1,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := tt.fake
			p, err := f.host().findEmulator(context.Background(), "ppc64", q, io.Discard, io.Discard)
			if f.installs != tt.wantInstalls {
				t.Errorf("installed %d times, want %d", f.installs, tt.wantInstalls)
			}
			if tt.wantSkip == "" {
				if err != nil || p != tt.wantPath {
					t.Errorf("findEmulator = %q, %v; want %q, nil", p, err, tt.wantPath)
				}
				return
			}
			reason, ok := Skipped(err)
			if !ok {
				t.Fatalf("findEmulator = %q, %v; want a skip", p, err)
			}
			if !strings.Contains(reason, tt.wantSkip) {
				t.Errorf("skip reason %q does not mention %q", reason, tt.wantSkip)
			}
		})
	}
}

func TestSkipped(t *testing.T) {
	err := fmt.Errorf("step: %w", &SkippedError{"s390x", "no emulator"})
	if reason, ok := Skipped(err); !ok || reason != "no emulator" {
		t.Errorf("Skipped(wrapped) = %q, %v; want %q, true", reason, ok, "no emulator")
	}
	if _, ok := Skipped(errors.New("tests failed")); ok {
		t.Errorf("Skipped(plain error) = true")
	}
	if _, ok := Skipped(nil); ok {
		t.Errorf("Skipped(nil) = true")
	}
}

// TestRunSkipsBeforeBuilding checks that a missing emulator is reported as a
// skip, and before the go command is used at all (it does not exist here).
func TestRunSkipsBeforeBuilding(t *testing.T) {
	f := fakeHost{euid: 1000}
	err := f.host().run(context.Background(), Options{
		Go:      filepath.Join(t.TempDir(), "no-such-go"),
		GOARCH:  "s390x",
		Package: "internal/runtime/atomic",
		Stdout:  io.Discard,
		Stderr:  io.Discard,
	})
	if _, ok := Skipped(err); !ok {
		t.Fatalf("run = %v; want a skip", err)
	}
}

func TestRunRejectsBadOptions(t *testing.T) {
	f := fakeHost{euid: 1000}
	h := f.host()
	for _, opts := range []Options{
		{GOARCH: "arm64", Package: "p"},
		{Go: "go", Package: "p"},
		{Go: "go", GOARCH: "arm64"},
		{Go: "go", GOARCH: "amd64", Package: "p", CPU: "cortex-a57"}, // native: no emulator to take a CPU
		{Go: "go", GOARCH: "sparc64", Package: "p"},
	} {
		opts.Stdout, opts.Stderr = io.Discard, io.Discard
		err := h.run(context.Background(), opts)
		if err == nil {
			t.Errorf("run(%+v) = nil, want an error", opts)
		} else if _, ok := Skipped(err); ok {
			t.Errorf("run(%+v) = skip %v, want an error", opts, err)
		}
	}
}

// sampleModule is a module whose tests check what Run passes them and fail
// on request.
var sampleModule = map[string]string{
	"go.mod": "module example.com/sample\n\ngo 1.21\n",
	"sample_test.go": `package sample

import (
	"os"
	"testing"
)

func TestFlagsAndEnv(t *testing.T) {
	if !testing.Short() {
		t.Error("-test.short was not passed")
	}
	if !testing.Verbose() {
		t.Error("-test.v was not passed")
	}
	if got := os.Getenv("CROSSARCH_SAMPLE"); got != "set" {
		t.Errorf("CROSSARCH_SAMPLE = %q, want \"set\"", got)
	}
	if _, err := os.Stat("testdata/marker"); err != nil {
		t.Errorf("not run in the package directory: %v", err)
	}
}

func TestFails(t *testing.T) {
	t.Fatal("failing as asked")
}
`,
	"testdata/marker": "",
}

// TestRunHost builds and runs a small module's tests for the host's GOARCH
// with the go command on PATH: a passing run is nil, a failing one an error
// that is not a skip, and the test output comes through.
func TestRunHost(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	dir := t.TempDir()
	for name, data := range sampleModule {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(pattern string) (string, error) {
		var out bytes.Buffer
		err := Run(context.Background(), Options{
			Go:      gocmd,
			GOARCH:  runtime.GOARCH,
			Package: "example.com/sample",
			Dir:     dir,
			Run:     pattern,
			Env:     []string{"CROSSARCH_SAMPLE=set"},
			Timeout: 2 * time.Minute,
			Stdout:  &out,
			Stderr:  &out,
		})
		return out.String(), err
	}

	out, err := run("TestFlagsAndEnv")
	if err != nil {
		t.Errorf("passing test: %v\n%s", err, out)
	}
	if !strings.Contains(out, "--- PASS: TestFlagsAndEnv") {
		t.Errorf("passing test's output does not show it passing:\n%s", out)
	}

	out, err = run("TestFails")
	if err == nil {
		t.Errorf("failing test: Run returned nil\n%s", out)
	} else if _, ok := Skipped(err); ok {
		t.Errorf("failing test reported as skipped: %v", err)
	}
	if !strings.Contains(out, "failing as asked") {
		t.Errorf("failing test's output did not come through:\n%s", out)
	}
}

// TestRunForkXchg8 runs the fork's Xchg8 tests on every architecture the
// xchg8 steps cover. It needs the fork's go command, named by
// CROSSARCH_FORK_GO, and takes minutes.
func TestRunForkXchg8(t *testing.T) {
	gocmd := os.Getenv("CROSSARCH_FORK_GO")
	if gocmd == "" {
		t.Skip("set CROSSARCH_FORK_GO to the fork's go command to run")
	}
	for _, arch := range []string{"386", "arm64", "ppc64le", "ppc64", "s390x"} {
		t.Run(arch, func(t *testing.T) {
			var out bytes.Buffer
			err := Run(context.Background(), Options{
				Go:      gocmd,
				GOARCH:  arch,
				Package: "internal/runtime/atomic",
				Run:     "Xchg8",
				Stdout:  &out,
				Stderr:  &out,
			})
			if reason, ok := Skipped(err); ok {
				t.Skip(reason)
			}
			if err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			if !strings.Contains(out.String(), "--- PASS: TestXchg8") {
				t.Errorf("no Xchg8 test passed:\n%s", out.String())
			}
			t.Logf("%s", out.String())
		})
	}
}
