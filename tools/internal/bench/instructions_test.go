package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// An excerpt of callgrind_annotate --tree=caller from a profile of the
// fork's BenchmarkSelect (valgrind 3.19), cut down: lock2 has an entry per
// recursion level and one for code inlined from lock_common.go, which has
// no callers; unlock2 has one entry.
const annotatedExcerpt = `--------------------------------------------------------------------------------
Ir                   file:function
--------------------------------------------------------------------------------
        21 ( 0.00%)  < /g/src/runtime/lockrank_off.go:runtime.chansend (1x)
     6,300 ( 0.00%)  < /g/src/runtime/lockrank_off.go:runtime.sellock (300x) [/t/x.test]
     6,321 ( 0.00%)  *  /g/src/runtime/lock_spinbit.go:runtime.lock2 [/t/x.test]

        42 ( 0.00%)  < /g/src/runtime/lockrank_off.go:runtime.acquireSudog (2x)
     2,100 ( 0.00%)  < /g/src/runtime/lockrank_off.go:runtime.sellock'2 (100x) [/t/x.test]
     2,142 ( 0.00%)  *  /g/src/runtime/lock_spinbit.go:runtime.lock2'2 [/t/x.test]

       403 ( 0.00%)  *  /g/src/runtime/lock_common.go:runtime.lock2

     1,830 ( 0.00%)  < /g/src/runtime/lockrank_off.go:runtime.selunlock (60x) [/t/x.test]
     1,830 ( 0.00%)  *  /g/src/runtime/lock_spinbit.go:runtime.unlock2 [/t/x.test]

     9,999 ( 0.00%)  < /g/src/runtime/proc.go:runtime.schedule (3x) [/t/x.test]
     9,999 ( 0.00%)  *  /g/src/runtime/proc.go:runtime.lock2x [/t/x.test]
`

func TestFunctionCost(t *testing.T) {
	lock := functionCost(annotatedExcerpt, "runtime.lock2")
	if want := (callCost{Instructions: 6321 + 2142 + 403, Calls: 1 + 300 + 2 + 100}); lock != want {
		t.Errorf("lock2: %+v, want %+v (every entry's instructions, the callers' calls once)", lock, want)
	}
	if got, want := lock.perCall(), 8866.0/403; got != want {
		t.Errorf("lock2 per call = %v, want %v", got, want)
	}
	unlock := functionCost(annotatedExcerpt, "runtime.unlock2")
	if want := (callCost{Instructions: 1830, Calls: 60}); unlock != want {
		t.Errorf("unlock2: %+v, want %+v", unlock, want)
	}
	if none := functionCost(annotatedExcerpt, "runtime.lock3"); none != (callCost{}) {
		t.Errorf("a function that is not there: %+v, want zero", none)
	}
}

func TestCallgrindTotal(t *testing.T) {
	for _, tc := range []struct {
		profile string
		want    int64
		err     bool
	}{
		{"version: 1\ncmd: ./x.test\nevents: Ir\nfn=(1) main\n3 5\nsummary: 155310023\ntotals: 1\n", 155310023, false},
		{"events: Ir\nfn=(1) main\n3 5\ntotals: 4242\n", 4242, false},
		{"events: Ir\nfn=(1) main\n3 5\n", 0, true},
	} {
		got, err := callgrindTotal(strings.NewReader(tc.profile))
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("callgrindTotal(%q) = %d, %v; want %d, error %v", tc.profile, got, err, tc.want, tc.err)
		}
	}
}

func TestWriteInstructions(t *testing.T) {
	var b strings.Builder
	writeInstructions(&b, []instrCount{
		{Toolchain: "upstream", Benchmark: "BenchmarkSelect", PerOp: 2000, Lock: callCost{19, 1}, Unlock: callCost{59, 2}},
		{Toolchain: "spinbit", Benchmark: "BenchmarkSelect", PerOp: 2050, Lock: callCost{21, 1}, Unlock: callCost{61, 2}},
		{Toolchain: "upstream", Benchmark: "BenchmarkChanContended", PerOp: 400, Lock: callCost{19, 1}, Unlock: callCost{31, 1}},
	}, 100)
	out := b.String()
	for _, want := range []string{"runs of 100 and 300 iterations", "+2.50%", "21.00", "30.50"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "base"); n != 3 { // the header and each benchmark's first row
		t.Errorf("table has %d cells saying base, want 3:\n%s", n, out)
	}
}

func TestInstructionsFlags(t *testing.T) {
	o, err := ParseFlags([]string{"-instructions"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(o.CPUs) != 1 || o.CPUs[0] != 1 || o.Count != 1 || o.Benchtime != instrBenchtime || o.Bench != instrBench || len(o.Toolchains) != 4 {
		t.Errorf("-instructions defaults: %+v", o)
	}
	if mustIterations(o.Benchtime) != 20000 {
		t.Errorf("iterations of %q = %d, want 20000", o.Benchtime, mustIterations(o.Benchtime))
	}
	if _, err := ParseFlags([]string{"-instructions", "-cpu", "1"}, io.Discard); err != nil {
		t.Errorf("-instructions -cpu 1: %v", err)
	}
	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"-instructions", "-cpu", "1,2"}, "GOMAXPROCS 1 only"},
		{[]string{"-instructions", "-benchtime", "1s"}, "fixed number of iterations"},
		{[]string{"-instructions", "-runtime"}, "-instructions and -runtime"},
		{[]string{"-instructions", "-quick"}, "-instructions and -quick"},
		{[]string{"-instructions", "-count", "3"}, "-instructions and -count"},
	} {
		_, err := ParseFlags(bad.args, io.Discard)
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ParseFlags(%q) error = %v, want one mentioning %q", bad.args, err, bad.want)
		}
	}
}

// -instructions names the host by a native run's cpu: line, as timed runs
// do, and refuses to guess when there is none.
func TestGoHostCPU(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) *prepared {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o777); err != nil {
			t.Fatal(err)
		}
		return &prepared{Toolchain: Toolchain{Name: "spinbit"}, Binary: path, PkgDir: dir}
	}
	o := Options{Timeout: time.Minute}
	named := script("named", "printf 'goos: linux\\ngoarch: amd64\\ncpu: Oxide Virtual Turin-like Processor\\nBenchmarkSelect \\t 1\\t 5 ns/op\\nPASS\\n'\n")
	host, err := goHostCPU(context.Background(), named, o, "BenchmarkSelect")
	if want := fmt.Sprintf("Oxide Virtual Turin-like Processor, %d logical CPUs", runtime.NumCPU()); err != nil || host != want {
		t.Errorf("goHostCPU = %q, %v; want %q", host, err, want)
	}
	unnamed := script("unnamed", "printf 'goos: linux\\nPASS\\n'\n")
	if _, err := goHostCPU(context.Background(), unnamed, o, "BenchmarkSelect"); err == nil || !strings.Contains(err.Error(), "printed no cpu: line") {
		t.Errorf("goHostCPU without a cpu: line = %v; want an error saying so", err)
	}
	failing := script("failing", "echo boom; exit 3\n")
	if _, err := goHostCPU(context.Background(), failing, o, "BenchmarkSelect"); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("goHostCPU of a failing binary = %v; want an error with its output", err)
	}
}
