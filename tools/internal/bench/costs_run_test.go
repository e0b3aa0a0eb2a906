package bench

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestCostsFlags(t *testing.T) {
	o, err := ParseFlags([]string{"-costs"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !o.Costs || o.Count != costsCount || o.Bench != costsBench || o.Benchtime != "" || joinInts(o.CPUs) != "1,2,4,8,16,32" || len(o.Toolchains) != 5 {
		t.Errorf("-costs defaults: %+v", o)
	}
	o, err = ParseFlags([]string{"-costs", "-benchtime", "5000x", "-count", "3", "-cpu", "2,8", "-toolchains", "upstream,spinbit,go1.27"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := costsIters(o, "BenchmarkSelect"); err != nil || n != 5000 {
		t.Errorf("-benchtime 5000x: iterations %d, %v; want 5000", n, err)
	}
	o, err = ParseFlags([]string{"-costs", "-runtime"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !o.Costs || !o.Runtime || o.Count != costsCount || o.Bench != upstreamRuntimeBench || joinInts(o.CPUs) != "1,2,4,8,16,32" || len(o.Toolchains) != 4 || o.Toolchains[0].Name != "spinbit" {
		t.Errorf("-costs -runtime defaults: %+v", o)
	}
	if s := o.suite("/r"); s.Name != "runtime" || s.OutPrefix != "costs-runtime-" || len(s.Comparisons) != 0 {
		t.Errorf("-costs -runtime suite: %+v, want the runtime's, output in costs-runtime-<time>", s)
	}
	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"-costs", "-benchtime", "1s"}, "-costs runs fixed iteration counts"},
		{[]string{"-costs", "-benchtime", "0x"}, "positive integer followed by x"},
		{[]string{"-costs", "-quick"}, "-costs and -quick"},
		{[]string{"-costs", "-instructions"}, "-costs"},
		{[]string{"-costs", "-check"}, "-costs and -check"},
	} {
		_, err := ParseFlags(bad.args, io.Discard)
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ParseFlags(%q) error = %v, want one mentioning %q", bad.args, err, bad.want)
		}
	}
}

// TestCostsWorks checks that every benchmark of bench/ has a default
// iteration count, so that -costs -bench . runs without -benchtime.
func TestCostsWorks(t *testing.T) {
	names, err := SourceBenchmarks("../../../bench", ".")
	if err != nil {
		t.Fatal(err)
	}
	var o Options
	for _, n := range names {
		if _, err := costsIters(o, n); err != nil {
			t.Error(err)
		}
	}
	_, err = costsIters(o, "BenchmarkNew")
	if err == nil || !strings.Contains(err.Error(), "give one with -benchtime Nx") {
		t.Fatalf("a benchmark without a default: error %v", err)
	}
	// The file the message names is the one that holds costsWorks.
	_, file, _ := strings.Cut(err.Error(), "add it to costsWorks in ")
	if src, err := os.ReadFile(filepath.Join("../../..", file)); err != nil || !strings.Contains(string(src), "var costsWorks =") {
		t.Errorf("the message names %q, which does not hold costsWorks (%v)", file, err)
	}
	for n, w := range costsWorks {
		if w.Iters < 1 || w.PerOp <= 0 {
			t.Errorf("%s: %+v, want a positive count and time per op", n, w)
		}
	}
}

// TestCostsWorksRuntime checks that -costs -runtime's benchmarks, their
// sub-benchmarks in their place, have default iteration counts.
func TestCostsWorksRuntime(t *testing.T) {
	names := []string{"BenchmarkMutexCapture", "BenchmarkMutexContention", "BenchmarkMutexHandoff"}
	for _, n := range names {
		if !regexp.MustCompile(upstreamRuntimeBench).MatchString(n) {
			t.Errorf("%s is not one of -costs -runtime's defaults %q", n, upstreamRuntimeBench)
		}
	}
	var o Options
	for _, n := range costsNames(names) {
		if _, err := costsIters(o, n); err != nil {
			t.Error(err)
		}
	}
}

// TestCostsSlots checks that a benchmark with sub-benchmarks is run as
// each of them, each only at the GOMAXPROCS at which it does not skip.
func TestCostsSlots(t *testing.T) {
	ss, err := costsSlots([]string{"BenchmarkMutexContention", "BenchmarkMutexHandoff"}, []int{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	want := []slot{
		{"BenchmarkMutexContention", 1}, {"BenchmarkMutexContention", 2},
		{"BenchmarkMutexHandoff/Solo", 1}, {"BenchmarkMutexHandoff/Solo", 2},
		{"BenchmarkMutexHandoff/FastPingPong", 2}, {"BenchmarkMutexHandoff/SlowPingPong", 2},
	}
	if !slices.Equal(ss, want) {
		t.Errorf("slots %v, want %v", ss, want)
	}
	_, err = costsSlots([]string{"BenchmarkMutexHandoff/FastPingPong"}, []int{1})
	if err == nil || !strings.Contains(err.Error(), "none of the benchmarks runs at so few Ps") {
		t.Errorf("slots of a benchmark that skips at every -cpu: error %v", err)
	}
}

// TestCostsRunArgs checks that a slot's -test.bench pattern anchors each
// level of its name, as go test matches them one by one: a sub-benchmark
// pattern anchored only at its ends would also run MutexHandoffX/FastPingPong
// and MutexHandoff/XFastPingPong.
func TestCostsRunArgs(t *testing.T) {
	o := Options{Benchtime: "1000x", Timeout: time.Minute}
	for _, c := range []struct {
		bench, want string
	}{
		{"BenchmarkSelect", "-test.bench=^BenchmarkSelect$"},
		{"BenchmarkMutexHandoff/FastPingPong", "-test.bench=^BenchmarkMutexHandoff$/^FastPingPong$"},
	} {
		args := costsRunArgs(o, slot{c.bench, 2})
		if !slices.Contains(args, c.want) || !slices.Contains(args, "-test.benchtime=1000x") {
			t.Errorf("%s: args %q, want %s", c.bench, args, c.want)
		}
	}
}

func TestCostsPlan(t *testing.T) {
	o, err := ParseFlags([]string{"-costs", "-cpu", "2,8", "-count", "3", "-toolchains", "upstream,spinbit,go1.27"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := costsPlan(o, []string{"BenchmarkSelect"})
	if err != nil {
		t.Fatal(err)
	}
	// 3 toolchains x 2 GOMAXPROCS x 3 repetitions x 2 kinds (without and
	// with uprobes) = 36 pairs, each 3 x 400000 ops of 1µs and 2 runs'
	// overhead of 100ms: 36 x 1.4s.
	for _, want := range []string{"plan: 72 runs under perf stat", "N: Select 400000", "about 50s"} {
		if !strings.Contains(plan, want) {
			t.Errorf("plan lacks %q:\n%s", want, plan)
		}
	}

	// At GOMAXPROCS 1 MutexHandoff's ping-pongs skip: no runs, no N.
	o, err = ParseFlags([]string{"-costs", "-runtime", "-cpu", "1", "-count", "1"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	plan, err = costsPlan(o, []string{"BenchmarkMutexHandoff"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plan, "plan: 16 runs under perf stat") || !strings.Contains(plan, "N: MutexHandoff/Solo 10000000)") {
		t.Errorf("plan of MutexHandoff at GOMAXPROCS 1, want 4 toolchains x Solo only:\n%s", plan)
	}
}

// TestCheckPerf runs checkPerf without perf on PATH, and with a perf that
// refuses as perf 6.1 does for a user who may not read the tracepoints.
func TestCheckPerf(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in perf is a shell script")
	}
	dir := t.TempDir()
	t.Setenv("PATH", dir)
	if err := checkPerf(context.Background()); err == nil || !strings.Contains(err.Error(), "apt-get install linux-perf") {
		t.Errorf("without perf: error %v, want one naming the package", err)
	}
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh for the stand-in perf")
	}
	stderr, err := filepath.Abs("testdata/perf/permission-denied.stderr")
	if err != nil {
		t.Fatal(err)
	}
	// Shell builtins only: PATH holds nothing but the stand-in.
	script := "#!/bin/sh\nwhile IFS= read -r l; do printf '%s\\n' \"$l\"; done < '" + stderr + "' >&2\nexit 129\n"
	if err := os.WriteFile(filepath.Join(dir, "perf"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	err = checkPerf(context.Background())
	if err == nil || !strings.Contains(err.Error(), "run ./bench.bash -costs as root") || !strings.Contains(err.Error(), "No permissions to read") {
		t.Errorf("perf without permission: error %v, want the fix and perf's own words", err)
	}
}
