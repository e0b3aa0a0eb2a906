//go:build unix

package wine

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"go-spinbit.dev/tools/internal/apt"
)

func TestEnv(t *testing.T) {
	p := &Prefix{Dir: "/c/wine", Tools: Tools{Loader: "/l/wine64", Server: "/l/wineserver64"}}
	got := p.Env([]string{"HOME=/root", "WINEDEBUG=+all", "WINEPREFIX=/elsewhere", "DISPLAY=:0", "PATH=/bin"})
	want := []string{
		"HOME=/root", "PATH=/bin",
		"WINEPREFIX=/c/wine", "WINEARCH=win64", "WINELOADER=/l/wine64", "WINESERVER=/l/wineserver64",
		"WINEDEBUG=-all", "WINEDLLOVERRIDES=bcryptprimitives=n;mscoree,mshtml=;winemenubuilder.exe=",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Env =\n%q\nwant\n%q", got, want)
	}
}

func TestBuildEnv(t *testing.T) {
	got := BuildEnv([]string{"HOME=/root", "GOOS=linux", "GOARCH=arm64", "GOEXPERIMENT=x", "GOFLAGS=-race", "CGO_ENABLED=1"}, "GOEXPERIMENT=nospinbitmutex")
	want := []string{"HOME=/root", "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0", "GOTOOLCHAIN=local", "GOFLAGS=", "GOEXPERIMENT=nospinbitmutex"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("BuildEnv =\n%q\nwant\n%q", got, want)
	}
}

func TestDLLArgs(t *testing.T) {
	got := dllArgs("/t/b.c", "/t/bcryptprimitives.dll")
	want := []string{"-shared", "-O2", "-s", "-Wl,--no-insert-timestamp,--disable-auto-image-base", "-o", "/t/bcryptprimitives.dll", "/t/b.c", "-ladvapi32"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("dllArgs = %q; want %q", got, want)
	}
}

func TestArgs(t *testing.T) {
	got := testArgs("^(TestA)$")
	want := []string{"-test.v", "-test.short", "-test.count", "1", "-test.run", "^(TestA)$", "-test.timeout", "2m0s"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("testArgs = %q; want %q", got, want)
	}
	// The program's watchdog fires before the run's limit.
	args := strings.Join(contendedArgs(), " ")
	if !strings.Contains(args, "-watchdog "+contendedWatchdog.String()) || contendedWatchdog >= contendedLimit {
		t.Errorf("contended %s: the watchdog must be set, and shorter than the limit %v", args, contendedLimit)
	}
}

func TestDefaultDir(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "/cache")
	dir, err := DefaultDir()
	if err != nil || dir != "/cache/go-spinbit/wine" {
		t.Errorf("DefaultDir() = %q, %v; want /cache/go-spinbit/wine", dir, err)
	}
}

const lockTests = `package runtime_test

import "testing"

func TestRuntimeMutexStress(t *testing.T) {
	exe, _ := os.Executable()
	exec.Command(exe)
}

func TestRuntimeMutexSbrk(t *testing.T) {
	exe, err := buildTestProg(t, "testprog")
	_, _ = exe, err
}

func TestRuntimeMutexCgo(t *testing.T) {
	if true {
		testenv.MustHaveCGO(t)
	}
}

func TestRuntimeMutexHeir(t *testing.T) { t.Run("x", func(t *testing.T) {}) }

func TestRuntimeMutexInTemp(t *testing.T) { cmd.Dir = t.TempDir() }

func TestMain(m *testing.M) {}

func Testing(t *testing.T) {}

func BenchmarkMutex(b *testing.B) {}

func helper(t *testing.T) { buildTestProg(t, "x") }
`

func TestMutexTests(t *testing.T) {
	got, err := MutexTests(map[string][]byte{
		"lock_a_test.go": []byte(lockTests),
		"lock_b_test.go": []byte("package runtime_test\n\nfunc TestRuntimeLockProfile(t *testing.T) {}\n\nfunc Test_underscore(t *testing.T) {}\n\nfunc TestRuntimeLockProfileCountsEveryWait(t *testing.T) {}\n"),
	})
	want := []string{"TestRuntimeLockProfile", "TestRuntimeMutexHeir", "TestRuntimeMutexStress", "Test_underscore"}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("MutexTests = %q, %v; want %q", got, err, want)
	}
	if _, err := MutexTests(map[string][]byte{"lock_c_test.go": []byte("package runtime_test\n")}); err == nil {
		t.Error("MutexTests of a file without tests: no error")
	}
	if _, err := MutexTests(map[string][]byte{"lock_d_test.go": []byte("package runtime_test\nfunc (")}); err == nil {
		t.Error("MutexTests of a broken file: no error")
	}
}

// The trees of the bases, where they are laid out: each runs its own
// tests, and never one that builds a program.
func TestMutexTestsOfTrees(t *testing.T) {
	for _, base := range []string{"go1.27.4", "go1.23.12"} {
		matches, _ := filepath.Glob(filepath.Join("..", "..", "..", "goroot", base, "src", "runtime", "lock_*_test.go"))
		if len(matches) == 0 {
			t.Logf("goroot/%s not laid out", base)
			continue
		}
		files := map[string][]byte{}
		for _, m := range matches {
			b, err := os.ReadFile(m)
			if err != nil {
				t.Fatal(err)
			}
			files[filepath.Base(m)] = b
		}
		names, err := MutexTests(files)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(names, "TestRuntimeMutexStressInProcess") || slices.Contains(names, "TestRuntimeMutexSbrk") || slices.Contains(names, "TestRuntimeMutexStress") {
			t.Errorf("%s: MutexTests = %q; want TestRuntimeMutexStressInProcess, and neither TestRuntimeMutexSbrk (it builds a program) nor TestRuntimeMutexStress (its t.TempDir)", base, names)
		}
		if slices.Contains(names, "TestRuntimeLockProfileCountsEveryWait") {
			t.Errorf("%s: TestRuntimeLockProfileCountsEveryWait selected, though %s", base, leftOut["TestRuntimeLockProfileCountsEveryWait"])
		}
	}
}

func TestRunPattern(t *testing.T) {
	names := []string{"TestA", "TestB"}
	pat := RunPattern(names)
	if pat != "^(TestA|TestB)$" {
		t.Errorf("RunPattern = %q", pat)
	}
	re := regexp.MustCompile(pat)
	for _, s := range []string{"TestAB", "XTestA", "TestC"} {
		if re.MatchString(s) {
			t.Errorf("%s matches %s", pat, s)
		}
	}
}

func TestParseTestOutput(t *testing.T) {
	out := "=== RUN   TestA\r\n--- PASS: TestA (0.01s)\r\n=== RUN   TestB\n=== RUN   TestB/sub\n    --- PASS: TestB/sub (0.00s)\n--- SKIP: TestB (0.00s)\n    x_test.go:1: skipped\n" +
		"=== RUN   TestC\n--- FAIL: TestC (1.00s)\n=== RUN   TestD\n=== RUN   TestD/sub\n    x_test.go:2: key=0x403\n"
	parsed := ParseTestOutput(out)
	if parsed.Unfinished != "TestD" {
		t.Errorf("Unfinished = %q; want TestD", parsed.Unfinished)
	}
	got, err := parsed.Check([]string{"TestA", "TestB", "TestC"})
	want := []TestResult{{"TestA", "PASS"}, {"TestB", "SKIP"}, {"TestC", "FAIL"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Check = %v, %v; want %v", got, err, want)
	}
	// A subtest's result is not its parent's.
	got, err = parsed.Check([]string{"TestA", "TestB/sub", "TestD"})
	if err == nil || !strings.Contains(err.Error(), "no result for TestB/sub, TestD") {
		t.Errorf("Check with tests missing = %v, %v; want an error naming TestB/sub and TestD", got, err)
	}
	if u := ParseTestOutput(out + "--- FAIL: TestD (9.00s)\n").Unfinished; u != "" {
		t.Errorf("Unfinished after every test ended = %q", u)
	}
}

// Run stops a program past its limit and says it hung; here the
// "loader" is a shell.
func TestRunHung(t *testing.T) {
	p := &Prefix{Dir: t.TempDir(), Tools: Tools{Loader: "/bin/sh", Server: "/bin/true"}}
	start := time.Now()
	err := p.Run(context.Background(), "", nil, 300*time.Millisecond, io.Discard, "-c", "exec sleep 60")
	if !Hung(err) || !strings.Contains(err.Error(), "hung: not done within 300ms under Wine") {
		t.Fatalf("Run of a program that sleeps past its limit = %v; want a HungError", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("Run took %v", d)
	}
	var out bytes.Buffer
	err = p.Run(context.Background(), "", []string{"X=from-env"}, time.Minute, &out, "-c", "echo $X $WINEDEBUG; exit 3")
	if err == nil || Hung(err) || out.String() != "from-env -all\n" {
		t.Errorf("Run of a program that fails = %v with output %q; want its exit status and output %q", err, out.String(), "from-env -all\n")
	}
}

func TestNotReady(t *testing.T) {
	p := &Prefix{Dir: t.TempDir()}
	if p.ready() {
		t.Error("an empty prefix is ready")
	}
	os.MkdirAll(p.System32(), 0o755)
	os.WriteFile(filepath.Join(p.System32(), "kernel32.dll"), nil, 0o644)
	if p.ready() {
		t.Error("a prefix without its ready file is ready")
	}
	os.WriteFile(filepath.Join(p.Dir, readyFile), nil, 0o644)
	if !p.ready() {
		t.Error("a made prefix is not ready")
	}
}

// Without Wine and no way to install it, Check is a skip that says how
// to get it.
func TestCheckSkipsWithoutWine(t *testing.T) {
	h := apt.Host{
		LookPath: func(string) (string, error) { return "", exec.ErrNotFound },
		Euid:     func() int { return 1000 },
		Install:  func(context.Context, io.Writer, io.Writer, ...string) error { panic("no install without root") },
	}
	err := Check(context.Background(), Options{Name: "windows/wine", Go: "go", Host: h, Stdout: io.Discard})
	var s *SkippedError
	if !errors.As(err, &s) || !strings.Contains(s.Reason, "apt-get install wine64 gcc-mingw-w64-x86-64") {
		t.Errorf("Check without Wine = %v; want a SkippedError naming the packages", err)
	}
}
