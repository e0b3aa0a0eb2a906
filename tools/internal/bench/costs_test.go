package bench

import (
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// testdata/perf holds real output of perf 6.1 on the 2-CPU machine:
// select8.csv from perf stat -x, -o, with costsEventArgs, of the fork's
// BenchmarkSelect-8 with 20000 iterations, not-supported.csv from counting cycles in the KVM
// guest, which has no hardware counters, and the messages perf stat
// printed when run as an unprivileged user (permission-denied.stderr) and
// for a tracepoint the kernel lacks (unknown-tracepoint.stderr).
// select2-pair.txt is the go test output of one pair of runs of
// BenchmarkSelect-2 (20000 and 40000 iterations) and of the pair's
// second half in the next repetition.

func TestParsePerfStat(t *testing.T) {
	f, err := os.Open("testdata/perf/select8.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := parsePerfStat(f, toolchainProbes{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := (perfCounts{Futex: 257, FutexAtOnce: 3, Yield: 30, Switches: 290, Sleeps: -1, Claims: -1}); got != want {
		t.Errorf("parsePerfStat(select8.csv) = %+v, want %+v", got, want)
	}

	ns, err := os.ReadFile("testdata/perf/not-supported.csv")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct {
		name, input, want string
	}{
		{"an event perf could not count", strings.Replace(string(ns), "cycles", "syscalls:sys_enter_futex", 1), "could not count syscalls:sys_enter_futex (<not supported>)"},
		{"an event missing", "0,,context-switches,403198,100.00,,\n", "no count of syscalls:sys_enter_futex, syscalls:sys_enter_sched_yield"},
		{"a line that is not CSV", "Performance counter stats for 'true':\n", "not a CSV line"},
		{"a count that is not a number", "12k,,syscalls:sys_enter_futex,1,100.00,,\n", `count "12k" of syscalls:sys_enter_futex`},
	} {
		_, err := parsePerfStat(strings.NewReader(bad.input), toolchainProbes{}, false)
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: error %v, want one containing %q", bad.name, err, bad.want)
		}
	}
}

func TestPerfFix(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"testdata/perf/permission-denied.stderr", "as root, or lower kernel.perf_event_paranoid"},
		{"testdata/perf/unknown-tracepoint.stderr", "CONFIG_FTRACE_SYSCALLS"},
	} {
		stderr, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		if got := perfFix(string(stderr)); !strings.Contains(got, tc.want) {
			t.Errorf("perfFix(%s) = %q, want it to contain %q", tc.file, got, tc.want)
		}
	}
	debian := "WARNING: perf not found for kernel 6.1.0-99\n\n  You may need to install the following packages for this specific kernel:\n    linux-perf-6.1\n"
	if got := perfFix(debian); !strings.Contains(got, "apt-get install linux-perf") {
		t.Errorf("perfFix of Debian's wrapper message = %q, want the package to install", got)
	}
	if got := perfFix("something else"); !strings.Contains(got, "perf stat -e syscalls:sys_enter_futex") {
		t.Errorf("perfFix of an unknown message = %q, want the command to try", got)
	}
}

func TestPairSample(t *testing.T) {
	sl := slot{"BenchmarkSelect", 8}
	short := costsRun{Toolchain: "spinbit", Slot: sl, Iters: 1000, Counts: perfCounts{Futex: 400, FutexAtOnce: 40, Yield: 100, Switches: 350, Sleeps: 30, Claims: 2}, Vcsw: 0.9, Ivcsw: 0.8}
	long := costsRun{Toolchain: "spinbit", Slot: sl, Iters: 2000, Counts: perfCounts{Futex: 900, FutexAtOnce: 60, Yield: 130, Switches: 340, Sleeps: 80, Claims: 5}, Vcsw: 0.02, Ivcsw: 0.01}
	want := [numCostsMetrics]float64{0.5, 0.02, 0.03, -0.01, 0.05, 0.003, 0.02, 0.01}
	wantWhole := [numCostsMetrics]float64{0.45, 0.03, 0.065, 0.17, 0.04, 0.0025, math.NaN(), math.NaN()}
	for _, order := range [][2]costsRun{{short, long}, {long, short}} {
		s, err := pairSample(order[0], order[1])
		if err != nil {
			t.Fatal(err)
		}
		for m := range want {
			if d := s.Values[m] - want[m]; d > 1e-12 || d < -1e-12 {
				t.Errorf("pairSample(iterations %d, %d): %s = %v, want %v", order[0].Iters, order[1].Iters, costsMetricTitles[m], s.Values[m], want[m])
			}
			// The whole rate is the longer run's, whichever came first.
			if got := s.Whole[m]; math.IsNaN(got) != math.IsNaN(wantWhole[m]) || math.Abs(got-wantWhole[m]) > 1e-12 {
				t.Errorf("pairSample(iterations %d, %d): whole %s = %v, want %v", order[0].Iters, order[1].Iters, costsMetricTitles[m], got, wantWhole[m])
			}
		}
	}
	// A mutex that makes no claims has no claims per op, not zero.
	short.Counts.Claims, long.Counts.Claims = -1, -1
	if s, err := pairSample(short, long); err != nil || !math.IsNaN(s.Values[costsClaims]) || !math.IsNaN(s.Whole[costsClaims]) || s.Values[costsSleeps] != 0.05 {
		t.Errorf("pairSample without claims: %v, %v, %v; want NaN claims and 0.05 sleeps", s.Values, s.Whole, err)
	}
	if _, err := pairSample(short, short); err == nil || !strings.Contains(err.Error(), "two different counts") {
		t.Errorf("a pair of equal iterations: error %v", err)
	}
	other := long
	other.Toolchain = "upstream"
	if _, err := pairSample(short, other); err == nil {
		t.Errorf("a pair of two toolchains' runs was accepted")
	}
	other = long
	other.Probed = true
	if _, err := pairSample(short, other); err == nil {
		t.Errorf("a pair of a run with uprobes and one without was accepted")
	}
}

// TestJoinSamples checks that a slot's figures come from the pair of runs
// that did not disturb them: the sleep calls and claims from the pair
// with uprobes, everything else from the pair without.
func TestJoinSamples(t *testing.T) {
	sl := slot{"BenchmarkSelect", 2}
	run := func(iters int, probed bool, c perfCounts, vcsw float64) costsRun {
		return costsRun{Toolchain: "spinbit", Slot: sl, Iters: iters, Probed: probed, Counts: c, Vcsw: vcsw, Ivcsw: vcsw / 2}
	}
	plain, err := pairSample(run(1000, false, perfCounts{400, 40, 100, 350, -1, -1}, 0.4), run(2000, false, perfCounts{900, 60, 130, 340, -1, -1}, 0.2))
	if err != nil {
		t.Fatal(err)
	}
	// The probes' runs: hardly a futex call, and many more yields.
	probed, err := pairSample(run(1000, true, perfCounts{-1, -1, -1, -1, 30, 2}, 9), run(2000, true, perfCounts{-1, -1, -1, -1, 80, 5}, 8))
	if err != nil {
		t.Fatal(err)
	}
	s := joinSamples(plain, probed)
	want := [numCostsMetrics]float64{0.5, 0.02, 0.03, -0.01, 0.05, 0.003, 0.2, 0.1}
	for m := range want {
		if d := s.Values[m] - want[m]; math.IsNaN(s.Values[m]) || d > 1e-12 || d < -1e-12 {
			t.Errorf("%s = %v, want %v", costsMetricTitles[m], s.Values[m], want[m])
		}
	}
	if !math.IsNaN(probed.Values[costsVcsw]) || !math.IsNaN(plain.Values[costsSleeps]) {
		t.Errorf("a pair's sample has figures its runs do not measure: with uprobes vcsw/op %v, without sleeps %v", probed.Values[costsVcsw], plain.Values[costsSleeps])
	}
}

// TestPairFromOutput pairs the first two runs of select2-pair.txt, as
// perfRun reads them, and checks that a run that did other iterations
// than asked is refused.
func TestPairFromOutput(t *testing.T) {
	f, err := os.Open("testdata/perf/select2-pair.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rs, err := ParseOutput(f)
	if err != nil {
		t.Fatal(err)
	}
	sl := slot{"BenchmarkSelect", 2}
	short, err := costsResult(rs[:1], sl, 20000, true)
	if err != nil {
		t.Fatal(err)
	}
	long, err := costsResult(rs[1:2], sl, 40000, true)
	if err != nil {
		t.Fatal(err)
	}
	s, err := pairSample(
		costsRun{Toolchain: "spinbit", Slot: sl, Iters: 20000, Counts: perfCounts{610, 20, 469, 213, 100, 4}, Vcsw: short.Values["vcsw/op"], Ivcsw: short.Values["ivcsw/op"]},
		costsRun{Toolchain: "spinbit", Slot: sl, Iters: 40000, Counts: perfCounts{1122, 30, 913, 262, 140, 6}, Vcsw: long.Values["vcsw/op"], Ivcsw: long.Values["ivcsw/op"]})
	if err != nil {
		t.Fatal(err)
	}
	if want := [numCostsMetrics]float64{0.0256, 0.0005, 0.0222, 0.00245, 0.002, 0.0001, 0.0022, 0.0015}; s.Values != want {
		t.Errorf("per op %v, want %v", s.Values, want)
	}
	if _, err := costsResult(rs[:1], sl, 40000, true); err == nil || !strings.Contains(err.Error(), "ran 20000 iterations, not the 40000") {
		t.Errorf("a run of other iterations: error %v", err)
	}
	if _, err := costsResult(rs[:1], slot{"BenchmarkSelect", 8}, 20000, true); err == nil || !strings.Contains(err.Error(), "printed no result") {
		t.Errorf("a run without the slot's result: error %v", err)
	}
	noRusage := rs[0]
	noRusage.Values = map[string]float64{"ns/op": 590.8}
	if _, err := costsResult([]Result{noRusage}, sl, 20000, true); err == nil || !strings.Contains(err.Error(), "no vcsw/op") {
		t.Errorf("a result without vcsw/op: error %v", err)
	}
	if _, err := costsResult([]Result{noRusage}, sl, 20000, false); err != nil {
		t.Errorf("a result without vcsw/op, of a benchmark that reports none: %v", err)
	}
}

// TestCostsResultRuntime picks a sub-benchmark's result from the runtime's
// output, and refuses a benchmark that printed only its sub-benchmarks'.
func TestCostsResultRuntime(t *testing.T) {
	rs, err := ParseOutput(strings.NewReader("goos: linux\n" +
		"BenchmarkMutexHandoff/FastPingPong-2   \t  300000\t       415.4 ns/op\t       0 B/op\t       0 allocs/op\n" +
		"BenchmarkMutexHandoff/SlowPingPong-2   \t   15000\t      8953 ns/op\t       0 B/op\t       0 allocs/op\n" +
		"PASS\n"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := costsResult(rs, slot{"BenchmarkMutexHandoff/SlowPingPong", 2}, 15000, false)
	if err != nil || r.Values["ns/op"] != 8953 {
		t.Errorf("SlowPingPong-2: %+v, %v; want its 8953 ns/op", r, err)
	}
	_, err = costsResult(rs, slot{"BenchmarkMutexHandoff", 2}, 300000, false)
	if err == nil || !strings.Contains(err.Error(), "MutexHandoff/FastPingPong, MutexHandoff/SlowPingPong") || !strings.Contains(err.Error(), "costsSubBenchmarks") {
		t.Errorf("a benchmark that printed only its sub-benchmarks: error %v", err)
	}
}

func TestSummarizeCosts(t *testing.T) {
	sl := slot{"BenchmarkSelect", 2}
	var samples []costsSample
	// Whole rates as pairSample gives them: NaN for the benchmark's own
	// figures and for claims of a mutex that makes none.
	whole := func(v float64, claims bool) (w [numCostsMetrics]float64) {
		for m := range w {
			w[m] = v
		}
		w[costsVcsw], w[costsIvcsw] = math.NaN(), math.NaN()
		if !claims {
			w[costsClaims] = math.NaN()
		}
		return w
	}
	for _, v := range []float64{3, 1, 2, 10} {
		s := costsSample{Toolchain: "spinbit", Slot: sl, Whole: whole(v+1, true)}
		s.Values[costsFutex] = v
		s.Values[costsYield] = -v
		samples = append(samples, s)
	}
	up := costsSample{Toolchain: "upstream", Slot: sl, Whole: whole(8, false)}
	up.Values[costsFutex] = 7
	samples = append(samples, up)
	for _, v := range []float64{5, 1, 3} {
		s := costsSample{Toolchain: "go1.27", Slot: sl, Whole: whole(v*2, false)}
		s.Values[costsSwitches] = v
		s.Values[costsClaims] = math.NaN() // go1.27's mutex makes no claims
		samples = append(samples, s)
	}

	cells := summarizeCosts(samples)
	if got, want := cells[costsKey{"spinbit", sl}][costsFutex], (costsCell{Median: 2.5, Lo: 1, Hi: 10, N: 4, Whole: 3.5, WholeN: 4}); got != want {
		t.Errorf("spinbit futex: %+v, want %+v (median of an even count is the mean of the middle two)", got, want)
	}
	if got, want := cells[costsKey{"spinbit", sl}][costsYield], (costsCell{Median: -2.5, Lo: -10, Hi: -1, N: 4, Whole: 3.5, WholeN: 4}); got != want {
		t.Errorf("spinbit sched_yield: %+v, want %+v", got, want)
	}
	if got, want := cells[costsKey{"upstream", sl}][costsFutex], (costsCell{Median: 7, Lo: 7, Hi: 7, N: 1, Whole: 8, WholeN: 1}); got != want {
		t.Errorf("upstream futex: %+v, want %+v", got, want)
	}
	if got, want := cells[costsKey{"go1.27", sl}][costsSwitches], (costsCell{Median: 3, Lo: 1, Hi: 5, N: 3, Whole: 6, WholeN: 3}); got != want {
		t.Errorf("go1.27 context switches: %+v, want %+v (the middle one of an odd count)", got, want)
	}
	if got := cells[costsKey{"go1.27", sl}][costsClaims]; got.N != 0 || got.WholeN != 0 {
		t.Errorf("go1.27 claims: %+v, want no samples", got)
	}
	if got, want := cells[costsKey{"spinbit", sl}][costsClaims], (costsCell{N: 4, Whole: 3.5, WholeN: 4}); got != want {
		t.Errorf("spinbit claims: %+v, want %+v (zero is a count)", got, want)
	}
	if got, want := cells[costsKey{"spinbit", sl}][costsVcsw], (costsCell{N: 4}); got != want {
		t.Errorf("spinbit vcsw/op: %+v, want %+v (no whole rate: the figure is the 2N run's already)", got, want)
	}
}

func TestFormatCount(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{0, "0"}, {123.456, "123"}, {12.345, "12.3"}, {1.2345, "1.23"}, {0.0256, "0.0256"},
		{0.00245, "0.00245"}, {-0.00035, "-0.000350"}, {0.000000012, "0"}, {4567.8, "4568"},
	} {
		if got := formatCount(tc.v); got != tc.want {
			t.Errorf("formatCount(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

func TestWriteCostsTable(t *testing.T) {
	s2, s8 := slot{"BenchmarkSelect", 2}, slot{"BenchmarkSelect", 8}
	cells := map[costsKey][numCostsMetrics]costsCell{}
	set := func(tc string, s slot, futex float64, n int) {
		var c [numCostsMetrics]costsCell
		for m := range c {
			if m != costsClaims {
				c[m] = costsCell{Median: futex, Lo: futex / 2, Hi: futex * 2, N: n, Whole: futex * 3, WholeN: n}
			}
		}
		c[costsVcsw].Whole, c[costsVcsw].WholeN = 0, 0
		c[costsIvcsw].Whole, c[costsIvcsw].WholeN = 0, 0
		if tc == "spinbit" {
			c[costsClaims] = costsCell{Median: futex / 10, Lo: 0, Hi: futex / 5, N: n, Whole: futex / 4, WholeN: n}
		}
		cells[costsKey{tc, s}] = c
	}
	set("upstream", s2, 0.05, 3)
	set("spinbit", s2, 0.02, 3)
	set("upstream", s8, 1.5, 3)
	set("spinbit", s8, 0.5, 2)
	var b strings.Builder
	writeCostsTable(&b, costsHeader{Name: "costs-x", Start: time.Unix(0, 0), Count: 3, Iters: map[string]int{"BenchmarkSelect": 400000}},
		[]slot{s2, s8}, []string{"upstream", "spinbit"}, cells)
	out := b.String()
	for _, want := range []string{
		"N: Select 400000",
		"the median of 3 repetitions",
		"## futex calls per op",
		"| benchmark | upstream | spinbit | runs |",
		"| Select-2 | 0.0500 (0.0250…0.100) [0.150] | 0.0200 (0.0100…0.0400) [0.0600] | 3 |",
		"| Select-8 | 1.50 (0.750…3.00) [4.50] | 0.500 (0.250…1.00) [1.50] | 3/2 |",
		"## involuntary context switches per op (the benchmark's ivcsw/op, getrusage)\n\n| benchmark | upstream | spinbit | runs |\n|---|---|---|---|\n| Select-2 | 0.0500 (0.0250…0.100) | 0.0200 (0.0100…0.0400) | 3 |",
		"## claims per op",
		"| Select-2 | — | 0.00200 (0…0.00400) [0.00500] | 3 |",
		"- in brackets, for perf's counts: the median of the 2N runs' whole counts over 2N",
		"- mutex sleep calls and claims: counted in a second pair of runs, by uprobes alone",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\n## "); n != numCostsMetrics {
		t.Errorf("%d tables, want one per metric (%d)", n, numCostsMetrics)
	}

	// Without the benchmark's own vcsw/op and ivcsw/op (the runtime's
	// benchmarks), their tables and their line are left out.
	for k, c := range cells {
		c[costsVcsw], c[costsIvcsw] = costsCell{}, costsCell{}
		cells[k] = c
	}
	b.Reset()
	writeCostsTable(&b, costsHeader{Name: "costs-runtime-x", Start: time.Unix(0, 0), Count: 3, Iters: map[string]int{"BenchmarkSelect": 400000}},
		[]slot{s2, s8}, []string{"upstream", "spinbit"}, cells)
	out = b.String()
	if n := strings.Count(out, "\n## "); n != numCostsMetrics-2 || strings.Contains(out, "context switches per op (the benchmark's") || strings.Contains(out, "getrusage figures") {
		t.Errorf("without vcsw/op: %d tables, want %d and no word of them:\n%s", n, numCostsMetrics-2, out)
	}
}

// perf applies a --filter to the -e just before it: the filter must come
// right after an -e of the exit event alone, or it would filter the other
// counts (or fail on an event without a ret field).
func TestCostsEventArgs(t *testing.T) {
	args := costsEventArgs()
	i := slices.Index(args, "--filter")
	if i < 2 || i+1 >= len(args) || args[i-2] != "-e" || args[i-1] != futexAtOnceEvent || args[i+1] != futexAtOnceFilter {
		t.Fatalf("costsEventArgs() = %q: want -e %s --filter %q, with the filter right after that event", args, futexAtOnceEvent, futexAtOnceFilter)
	}
	var counted []string
	for j := 0; j+1 < len(args); j++ {
		if args[j] == "-e" {
			counted = append(counted, strings.Split(args[j+1], ",")...)
		}
	}
	if !slices.Equal(counted, costsEvents) {
		t.Errorf("costsEventArgs() counts %q, want costsEvents %q in their order", counted, costsEvents)
	}
}
